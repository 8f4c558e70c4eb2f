package fakegithub

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// GitHub's own relations between issues, as its REST API gives them
// (docs.github.com/rest/issues/issue-dependencies, /rest/issues/sub-issues): the issues an
// issue is blocked by, and its sub-issues. A route names the issue by its number and the
// other end by its database id (the issue's "id"); an id no issue of the repository's
// owner has answers 404, as does a missing issue; an edge already there, or one to the
// issue itself, answers 422. Each change sends the issue_dependencies or sub_issues
// delivery GitHub sends.
type relationState struct {
	// blockedBy lists, per issue id, the ids of the issues it is blocked by, in the order
	// they were added; subIssues the ids of its sub-issues, and parent the other way.
	blockedBy map[int64][]int64
	subIssues map[int64][]int64
	parent    map[int64]int64
	// off answers 404 on every route, as a GitHub Enterprise Server without them does.
	off bool
}

const (
	docsDependencies = "https://docs.github.com/rest/issues/issue-dependencies"
	docsSubIssues    = "https://docs.github.com/rest/issues/sub-issues"
)

// relationRoutes are the routes of issue dependencies and sub-issues.
func (s *Server) relationRoutes() []routeSpec {
	const issue = "/repos/{owner}/{repo}/issues/{issue_number}"
	const deps = issue + "/dependencies"
	return []routeSpec{
		{"GET " + deps + "/blocked_by", authInstallation, docsDependencies + "#list-dependencies-an-issue-is-blocked-by", s.listBlockedBy},
		{"POST " + deps + "/blocked_by", authInstallation, docsDependencies + "#add-a-dependency-an-issue-is-blocked-by", s.addBlockedBy},
		{"DELETE " + deps + "/blocked_by/{issue_id}", authInstallation, docsDependencies + "#remove-dependency-an-issue-is-blocked-by", s.removeBlockedBy},
		{"GET " + deps + "/blocking", authInstallation, docsDependencies + "#list-dependencies-an-issue-is-blocking", s.listBlocking},
		{"GET " + issue + "/sub_issues", authInstallation, docsSubIssues + "#list-sub-issues", s.listSubIssues},
		{"POST " + issue + "/sub_issues", authInstallation, docsSubIssues + "#add-sub-issue", s.addSubIssue},
		{"DELETE " + issue + "/sub_issue", authInstallation, docsSubIssues + "#remove-sub-issue", s.removeSubIssue},
		{"GET " + issue + "/parent", authInstallation, docsSubIssues + "#get-parent-issue", s.getParent},
	}
}

// DisableRelations makes every route of issue dependencies and sub-issues answer 404, as
// a GitHub Enterprise Server without them does.
func (s *Server) DisableRelations() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.relations.off = true
}

// TakeOffBlockedBy has actor take off, in the sidebar, the dependency of issue number on
// issue blocking, and returns the issue_dependencies delivery.
func (s *Server) TakeOffBlockedBy(repo string, number, blocking int, actor string) Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	_, other, err2 := s.issueLocked(repo, blocking)
	if err != nil || err2 != nil || !slices.Contains(s.relations.blockedBy[is.id], other.id) {
		panic(fmt.Sprintf("fakegithub: TakeOffBlockedBy: #%d is not blocked by #%d", number, blocking))
	}
	s.userLocked(actor)
	s.relations.blockedBy[is.id] = slices.DeleteFunc(slices.Clone(s.relations.blockedBy[is.id]), func(x int64) bool { return x == other.id })
	return s.dependencyDeliveryLocked("blocked_by_removed", r, is, r, other, actor)
}

// TakeOffSubIssue has actor take sub-issue sub off issue number, and returns the sub_issues
// delivery.
func (s *Server) TakeOffSubIssue(repo string, number, sub int, actor string) Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	_, other, err2 := s.issueLocked(repo, sub)
	if err != nil || err2 != nil || s.relations.parent[other.id] != is.id {
		panic(fmt.Sprintf("fakegithub: TakeOffSubIssue: #%d is not a sub-issue of #%d", sub, number))
	}
	s.userLocked(actor)
	s.dropSubIssueLocked(is.id, other.id)
	return s.subIssueDeliveryLocked("sub_issue_removed", r, is, r, other, actor)
}

// IssueID is an issue's database id, which the routes of relations take (0 for no such issue).
func (s *Server) IssueID(repo string, number int) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.issueLocked(repo, number)
	if err != nil {
		return 0
	}
	return is.id
}

// IssueStateReason is why a closed issue was closed ("completed", "not_planned"), "" for
// no such issue.
func (s *Server) IssueStateReason(repo string, number int) string {
	return s.issueField(repo, number, func(is *issue) string { return is.stateReason })
}

// BlockedBy lists the numbers of the issues issue number of repo is blocked by, in order.
func (s *Server) BlockedBy(repo string, number int) []int {
	return s.relatedNumbers(repo, number, func(id int64) []int64 { return s.relations.blockedBy[id] })
}

// SubIssues lists the numbers of the sub-issues of issue number of repo, in order.
func (s *Server) SubIssues(repo string, number int) []int {
	return s.relatedNumbers(repo, number, func(id int64) []int64 { return s.relations.subIssues[id] })
}

func (s *Server) relatedNumbers(repo string, number int, ids func(int64) []int64) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.issueLocked(repo, number)
	if err != nil {
		return nil
	}
	var out []int
	for _, id := range ids(is.id) {
		if _, o := s.issueByIDLocked(id); o != nil {
			out = append(out, o.number)
		}
	}
	return out
}

// issueByIDLocked finds an issue of any repository by its database id.
func (s *Server) issueByIDLocked(id int64) (*repository, *issue) {
	for _, r := range s.repos {
		for _, is := range r.issues {
			if is.id == id {
				return r, is
			}
		}
	}
	return nil, nil
}

// relationCall resolves the issue of the path, or answers 404 where relations are off.
func (s *Server) relationCall(c *call) (*repository, *issue, *reply) {
	if s.relations.off {
		rep := c.notFound()
		return nil, nil, &rep
	}
	return s.issueForCall(c)
}

// otherEnd resolves the database id a request names: an issue of the same owner's
// repositories (GitHub's rule for both kinds of edge), else 404; the issue itself is 422.
func (s *Server) otherEnd(c *call, r *repository, is *issue, id int64, field string) (*repository, *issue, *reply) {
	or, other := s.issueByIDLocked(id)
	if other == nil || !strings.EqualFold(or.owner, r.owner) || s.repoForOwnerCall(c, or) != nil {
		rep := c.notFound()
		return nil, nil, &rep
	}
	if other == is {
		rep := validationFailed(c.route.docs, fieldError{Resource: "Issue", Code: "invalid", Field: field, Message: "an issue cannot be related to itself"})
		return nil, nil, &rep
	}
	return or, other, nil
}

// repoForOwnerCall answers 404 for a repository the caller's installation does not reach.
func (s *Server) repoForOwnerCall(c *call, r *repository) *reply {
	if r.installation != c.installation {
		rep := c.notFound()
		return &rep
	}
	return nil
}

// issuesOf answers a page of the issues with the ids given, as GitHub lists them.
func (s *Server) issuesOf(c *call, ids []int64) reply {
	var list []*issue
	repos := map[*issue]*repository{}
	for _, id := range ids {
		if r, is := s.issueByIDLocked(id); is != nil {
			list = append(list, is)
			repos[is] = r
		}
	}
	return pageReply(c, list, func(is *issue) issueJSON { return s.issueJSONLocked(repos[is], is) })
}

func (s *Server) listBlockedBy(c *call) reply {
	_, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	return s.issuesOf(c, s.relations.blockedBy[is.id])
}

func (s *Server) listBlocking(c *call) reply {
	_, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	var ids []int64
	for blocked, by := range s.relations.blockedBy {
		if slices.Contains(by, is.id) {
			ids = append(ids, blocked)
		}
	}
	slices.Sort(ids)
	return s.issuesOf(c, ids)
}

// addBlockedBy: POST …/dependencies/blocked_by {"issue_id": id}; 201 with the blocking issue.
func (s *Server) addBlockedBy(c *call) reply {
	r, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	var in struct {
		IssueID int64 `json:"issue_id"`
	}
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	or, other, rep := s.otherEnd(c, r, is, in.IssueID, "issue_id")
	if rep != nil {
		return *rep
	}
	if slices.Contains(s.relations.blockedBy[is.id], other.id) {
		return validationFailed(c.route.docs, fieldError{Resource: "IssueDependency", Code: "already_exists", Field: "issue_id",
			Message: fmt.Sprintf("issue #%d is already blocked by this issue", is.number)})
	}
	if s.relations.blockedBy == nil {
		s.relations.blockedBy = map[int64][]int64{}
	}
	s.relations.blockedBy[is.id] = append(s.relations.blockedBy[is.id], other.id)
	s.outbox = append(s.outbox, s.dependencyDeliveryLocked("blocked_by_added", r, is, or, other, c.author()))
	return reply{status: http.StatusCreated, body: s.issueJSONLocked(or, other)}
}

// removeBlockedBy: DELETE …/dependencies/blocked_by/{issue_id}; 200 with the blocked issue,
// 404 when the edge is not there.
func (s *Server) removeBlockedBy(c *call) reply {
	r, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	id := c.intParam("issue_id")
	by := s.relations.blockedBy[is.id]
	if !slices.Contains(by, id) {
		return c.notFound()
	}
	s.relations.blockedBy[is.id] = slices.DeleteFunc(slices.Clone(by), func(x int64) bool { return x == id })
	if or, other := s.issueByIDLocked(id); other != nil {
		s.outbox = append(s.outbox, s.dependencyDeliveryLocked("blocked_by_removed", r, is, or, other, c.author()))
	}
	return reply{status: http.StatusOK, body: s.issueJSONLocked(r, is)}
}

func (s *Server) listSubIssues(c *call) reply {
	_, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	return s.issuesOf(c, s.relations.subIssues[is.id])
}

// subIssueInput is the body of adding or removing a sub-issue.
type subIssueInput struct {
	SubIssueID    int64 `json:"sub_issue_id"`
	ReplaceParent bool  `json:"replace_parent"`
}

// addSubIssue: POST …/sub_issues {"sub_issue_id": id}; 201 with the parent. A sub-issue has
// one parent: one that has another is 422 unless replace_parent says to move it.
func (s *Server) addSubIssue(c *call) reply {
	r, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	var in subIssueInput
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	or, other, rep := s.otherEnd(c, r, is, in.SubIssueID, "sub_issue_id")
	if rep != nil {
		return *rep
	}
	if p, ok := s.relations.parent[other.id]; ok && (p == is.id || !in.ReplaceParent) {
		return validationFailed(c.route.docs, fieldError{Resource: "Issue", Code: "invalid", Field: "sub_issue_id",
			Message: "Sub issue may only have one parent"})
	}
	if p, ok := s.relations.parent[other.id]; ok {
		s.dropSubIssueLocked(p, other.id)
	}
	if s.relations.subIssues == nil {
		s.relations.subIssues, s.relations.parent = map[int64][]int64{}, map[int64]int64{}
	}
	s.relations.subIssues[is.id] = append(s.relations.subIssues[is.id], other.id)
	s.relations.parent[other.id] = is.id
	s.outbox = append(s.outbox, s.subIssueDeliveryLocked("sub_issue_added", r, is, or, other, c.author()))
	return reply{status: http.StatusCreated, body: s.issueJSONLocked(r, is)}
}

// removeSubIssue: DELETE …/sub_issue {"sub_issue_id": id}; 200 with the parent, 404 when
// the issue is not its sub-issue.
func (s *Server) removeSubIssue(c *call) reply {
	r, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	var in subIssueInput
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	if s.relations.parent[in.SubIssueID] != is.id || !slices.Contains(s.relations.subIssues[is.id], in.SubIssueID) {
		return c.notFound()
	}
	s.dropSubIssueLocked(is.id, in.SubIssueID)
	if or, other := s.issueByIDLocked(in.SubIssueID); other != nil {
		s.outbox = append(s.outbox, s.subIssueDeliveryLocked("sub_issue_removed", r, is, or, other, c.author()))
	}
	return reply{status: http.StatusOK, body: s.issueJSONLocked(r, is)}
}

func (s *Server) dropSubIssueLocked(parent, sub int64) {
	s.relations.subIssues[parent] = slices.DeleteFunc(slices.Clone(s.relations.subIssues[parent]), func(x int64) bool { return x == sub })
	delete(s.relations.parent, sub)
}

// getParent: GET …/parent; 404 for an issue without one.
func (s *Server) getParent(c *call) reply {
	_, is, rep := s.relationCall(c)
	if rep != nil {
		return *rep
	}
	p, ok := s.relations.parent[is.id]
	if !ok {
		return c.notFound()
	}
	pr, parent := s.issueByIDLocked(p)
	if parent == nil {
		return c.notFound()
	}
	return reply{status: http.StatusOK, body: s.issueJSONLocked(pr, parent)}
}

// relationEnvelope is what both deliveries of relations carry beside their two issues.
type relationEnvelope struct {
	Repository   repoJSON            `json:"repository"`
	Organization *orgJSON            `json:"organization,omitempty"`
	Sender       userJSON            `json:"sender"`
	Installation installationRefJSON `json:"installation"`
}

func (s *Server) relationEnvelopeLocked(r *repository, sender string) relationEnvelope {
	return relationEnvelope{Repository: s.repoJSONLocked(r), Organization: s.orgJSONLocked(r.owner), Sender: s.userJSONLocked(sender),
		Installation: installationRefJSON{ID: r.installation, NodeID: nodeID("IntegrationInstallation", r.installation)}}
}

// dependencyPayload is an issue_dependencies delivery.
type dependencyPayload struct {
	Action            string    `json:"action"`
	BlockedIssueID    int64     `json:"blocked_issue_id"`
	BlockedIssue      issueJSON `json:"blocked_issue"`
	BlockingIssueID   int64     `json:"blocking_issue_id"`
	BlockingIssue     issueJSON `json:"blocking_issue"`
	BlockingIssueRepo repoJSON  `json:"blocking_issue_repo"`
	relationEnvelope
}

func (s *Server) dependencyDeliveryLocked(action string, r *repository, blocked *issue, or *repository, blocking *issue, sender string) Delivery {
	return s.newDeliveryLocked("issue_dependencies", dependencyPayload{
		Action:         action,
		BlockedIssueID: blocked.id, BlockedIssue: s.issueJSONLocked(r, blocked),
		BlockingIssueID: blocking.id, BlockingIssue: s.issueJSONLocked(or, blocking), BlockingIssueRepo: s.repoJSONLocked(or),
		relationEnvelope: s.relationEnvelopeLocked(r, sender),
	})
}

// subIssuePayload is a sub_issues delivery.
type subIssuePayload struct {
	Action        string    `json:"action"`
	ParentIssueID int64     `json:"parent_issue_id"`
	ParentIssue   issueJSON `json:"parent_issue"`
	SubIssueID    int64     `json:"sub_issue_id"`
	SubIssue      issueJSON `json:"sub_issue"`
	SubIssueRepo  repoJSON  `json:"sub_issue_repo"`
	relationEnvelope
}

func (s *Server) subIssueDeliveryLocked(action string, r *repository, parent *issue, or *repository, sub *issue, sender string) Delivery {
	return s.newDeliveryLocked("sub_issues", subIssuePayload{
		Action:        action,
		ParentIssueID: parent.id, ParentIssue: s.issueJSONLocked(r, parent),
		SubIssueID: sub.id, SubIssue: s.issueJSONLocked(or, sub), SubIssueRepo: s.repoJSONLocked(or),
		relationEnvelope: s.relationEnvelopeLocked(r, sender),
	})
}

// fingerprintRelationsLocked writes the repository's edges, for Fingerprint.
func (s *Server) fingerprintRelationsLocked(b *strings.Builder, is *issue) {
	for _, id := range s.relations.blockedBy[is.id] {
		if _, o := s.issueByIDLocked(id); o != nil {
			fmt.Fprintf(b, "    blocked by #%d\n", o.number)
		}
	}
	for _, id := range s.relations.subIssues[is.id] {
		if _, o := s.issueByIDLocked(id); o != nil {
			fmt.Fprintf(b, "    sub-issue #%d\n", o.number)
		}
	}
}
