package fakegithub

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Pull requests beyond their issue (head commit, base branch), and check runs.
//
// A pull request is an issue with a branch: OpenPullRequest and OpenPullRequestWithBody
// create the issue, and this file keeps the rest. Commits are only their SHAs: each push
// makes a new one. Check runs belong to a repository and a head SHA, and only the app
// writes them (an installation token), as on GitHub.
// https://docs.github.com/rest/pulls/pulls
// https://docs.github.com/rest/checks/runs

const (
	docsPulls     = "https://docs.github.com/rest/pulls/pulls"
	docsCheckRuns = "https://docs.github.com/rest/checks/runs"
)

// The routes this file serves, as Request.Route spells them.
const (
	RouteListPulls      = "GET /repos/{owner}/{repo}/pulls"
	RouteCreateCheckRun = "POST /repos/{owner}/{repo}/check-runs"
	RouteUpdateCheckRun = "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}"
	RouteListCheckRuns  = "GET /repos/{owner}/{repo}/commits/{ref}/check-runs"
)

// pullState is the pull requests' part of the model (guarded by Server.mu).
type pullState struct {
	heads   map[string]*pullHead // key: repository key + "#" + number
	commits map[string]bool      // every head SHA there has been
	pushes  int
	runs    []*checkRun
	nextRun int64
}

// pullHead is a pull request's branch: where it points and where it goes, and whether it
// lives in its author's fork.
type pullHead struct {
	ref, sha, base string
	fork           bool
}

// checkRun is one check run of the app's.
type checkRun struct {
	id                   int64
	repo                 string // repository key
	name, headSHA        string
	status, conclusion   string
	title, summary, text string
	started, completed   time.Time
}

// CheckRun is a snapshot of a check run, for assertions.
type CheckRun struct {
	ID                 int64
	Name, HeadSHA      string
	Status, Conclusion string
	Title, Summary     string
}

func pullKey(r *repository, number int) string { return key(r.fullName()) + "#" + strconv.Itoa(number) }

// headLocked returns a pull request's branch, making its first commit on first use.
func (s *Server) headLocked(r *repository, is *issue) *pullHead {
	if s.pulls.heads == nil {
		s.pulls.heads, s.pulls.commits = map[string]*pullHead{}, map[string]bool{}
	}
	k := pullKey(r, is.number)
	h := s.pulls.heads[k]
	if h == nil {
		h = &pullHead{ref: fmt.Sprintf("%s-patch-%d", is.author, is.number), base: "main"}
		s.pulls.heads[k] = h
		s.pushLocked(r, h)
	}
	return h
}

// pushLocked makes a new commit at the head of a branch.
func (s *Server) pushLocked(r *repository, h *pullHead) {
	s.pulls.pushes++
	sum := sha1.Sum([]byte(fmt.Sprintf("fakegithub commit %s %s %d", r.fullName(), h.ref, s.pulls.pushes)))
	h.sha = hex.EncodeToString(sum[:])
	s.pulls.commits[h.sha] = true
}

// OpenPullRequestWithBody opens pull request number in repo with a description (where
// "Fixes #42" links an issue) from a branch of its own into main, and returns its
// pull_request.opened delivery.
func (s *Server) OpenPullRequestWithBody(repo string, number int, title, author, body string) Delivery {
	return s.OpenPullRequestWith(repo, number, title, author, body, PullOptions{})
}

// PullOptions shapes a pull request beyond its description.
type PullOptions struct {
	// Fork opens it from a branch of the author's fork, as someone without write access does.
	Fork bool
	// HeadOf, when set, opens it at the head commit of that pull request: two pull requests
	// of one commit (a fork of the same commit, a duplicate), which share its check runs.
	HeadOf int
}

// OpenPullRequestWith is OpenPullRequestWithBody shaped by o.
func (s *Server) OpenPullRequestWith(repo string, number int, title, author, body string, o PullOptions) Delivery {
	must(s.userOpenIssue(repo, number, title, author, body))
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	is := r.issues[number]
	is.pullRequest = true
	h := s.headLocked(r, is)
	h.fork = o.Fork
	if o.HeadOf != 0 {
		_, other := s.pullLocked("OpenPullRequestWith", repo, o.HeadOf)
		h.sha = s.headLocked(r, other).sha
	}
	return s.pullDeliveryLocked("opened", r, is, author, nil)
}

// EditPullRequestBody has editor replace a pull request's description and returns the
// pull_request.edited delivery, with changes.body.from.
func (s *Server) EditPullRequestBody(repo string, number int, editor, body string) Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is := s.pullLocked("EditPullRequestBody", repo, number)
	from := is.body
	is.body, is.updated = body, s.nowLocked()
	s.userLocked(editor)
	return s.pullDeliveryLocked("edited", r, is, editor, func(p *pullRequestPayload) {
		p.Changes = &changesJSON{Body: &struct {
			From string `json:"from"`
		}{From: from}}
	})
}

// PushToPullRequest has pusher push a commit to a pull request's branch and returns the
// pull_request.synchronize delivery, with before and after.
func (s *Server) PushToPullRequest(repo string, number int, pusher string) Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is := s.pullLocked("PushToPullRequest", repo, number)
	h := s.headLocked(r, is)
	before := h.sha
	s.pushLocked(r, h)
	if !h.fork {
		s.pushedLocked(r) // a fork's branch is another repository's
	}
	is.updated = s.nowLocked()
	s.userLocked(pusher)
	return s.pullDeliveryLocked("synchronize", r, is, pusher, func(p *pullRequestPayload) { p.Before, p.After = before, h.sha })
}

// ClosePullRequest has actor close a pull request without merging it and returns the
// pull_request.closed delivery (GitHub sends no issues.closed for a pull request).
func (s *Server) ClosePullRequest(repo string, number int, actor string) Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is := s.pullLocked("ClosePullRequest", repo, number)
	if is.state == "closed" {
		panic(fmt.Sprintf("fakegithub: ClosePullRequest: %s#%d is already closed", repo, number))
	}
	s.userLocked(actor)
	now := s.nowLocked()
	is.state, is.updated, is.closed = "closed", now, now
	return s.pullDeliveryLocked("closed", r, is, actor, nil)
}

// PullHead returns the SHA a pull request's branch points at.
func (s *Server) PullHead(repo string, number int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is := s.pullLocked("PullHead", repo, number)
	return s.headLocked(r, is).sha
}

// CheckRuns returns the check runs on a commit of repo, oldest first.
func (s *Server) CheckRuns(repo, sha string) []CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []CheckRun
	for _, cr := range s.pulls.runs {
		if cr.repo == key(repo) && cr.headSHA == sha {
			out = append(out, CheckRun{ID: cr.id, Name: cr.name, HeadSHA: cr.headSHA, Status: cr.status,
				Conclusion: cr.conclusion, Title: cr.title, Summary: cr.summary})
		}
	}
	return out
}

func (s *Server) pullLocked(what, repo string, number int) (*repository, *issue) {
	r, is, err := s.issueLocked(repo, number)
	if err != nil || !is.pullRequest {
		panic(fmt.Sprintf("fakegithub: %s: no pull request %s#%d", what, repo, number))
	}
	return r, is
}

// --- JSON ---

type branchJSON struct {
	Label string   `json:"label"`
	Ref   string   `json:"ref"`
	SHA   string   `json:"sha"`
	User  userJSON `json:"user"`
	Repo  repoJSON `json:"repo"`
}

type pullJSON struct {
	URL                string      `json:"url"`
	ID                 int64       `json:"id"`
	NodeID             string      `json:"node_id"`
	HTMLURL            string      `json:"html_url"`
	DiffURL            string      `json:"diff_url"`
	PatchURL           string      `json:"patch_url"`
	IssueURL           string      `json:"issue_url"`
	Number             int         `json:"number"`
	State              string      `json:"state"`
	Locked             bool        `json:"locked"`
	Title              string      `json:"title"`
	User               userJSON    `json:"user"`
	Body               *string     `json:"body"`
	CreatedAt          jtime       `json:"created_at"`
	UpdatedAt          jtime       `json:"updated_at"`
	ClosedAt           jtime       `json:"closed_at"`
	MergedAt           jtime       `json:"merged_at"`
	MergeCommitSHA     *string     `json:"merge_commit_sha"`
	Assignee           *userJSON   `json:"assignee"`
	Assignees          []userJSON  `json:"assignees"`
	RequestedReviewers []userJSON  `json:"requested_reviewers"`
	Labels             []labelJSON `json:"labels"`
	Milestone          *struct{}   `json:"milestone"`
	Draft              bool        `json:"draft"`
	CommitsURL         string      `json:"commits_url"`
	CommentsURL        string      `json:"comments_url"`
	StatusesURL        string      `json:"statuses_url"`
	Head               branchJSON  `json:"head"`
	Base               branchJSON  `json:"base"`
	AuthorAssociation  string      `json:"author_association"`
	AutoMerge          *struct{}   `json:"auto_merge"`
	ActiveLockReason   *string     `json:"active_lock_reason"`
}

func (s *Server) pullJSONLocked(r *repository, is *issue) pullJSON {
	h := s.headLocked(r, is)
	api := apiBase + "/repos/" + r.fullName()
	u := api + "/pulls/" + strconv.Itoa(is.number)
	html := htmlBase + "/" + r.fullName() + "/pull/" + strconv.Itoa(is.number)
	repo := s.repoJSONLocked(r)
	out := pullJSON{
		URL:                u,
		ID:                 stableID(2_000_000_000, "pull", r.fullName(), strconv.Itoa(is.number)),
		HTMLURL:            html,
		DiffURL:            html + ".diff",
		PatchURL:           html + ".patch",
		IssueURL:           api + "/issues/" + strconv.Itoa(is.number),
		Number:             is.number,
		State:              is.state,
		Title:              is.title,
		User:               s.userJSONLocked(is.author),
		Body:               nullString(is.body),
		CreatedAt:          jtime(is.created),
		UpdatedAt:          jtime(is.updated),
		ClosedAt:           jtime(is.closed),
		Assignees:          []userJSON{},
		RequestedReviewers: []userJSON{},
		Labels:             labelsJSONOf(r, r.sortedLabels(is)),
		CommitsURL:         u + "/commits",
		CommentsURL:        api + "/issues/" + strconv.Itoa(is.number) + "/comments",
		StatusesURL:        api + "/statuses/" + h.sha,
		Head: branchJSON{Label: is.author + ":" + h.ref, Ref: h.ref, SHA: h.sha, User: s.userJSONLocked(is.author),
			Repo: s.headRepoJSONLocked(r, is.author, h)},
		Base: branchJSON{Label: r.owner + ":" + h.base, Ref: h.base, SHA: baseSHA(r), User: s.userJSONLocked(r.owner),
			Repo: repo},
		AuthorAssociation: s.associationLocked(r, is.author),
	}
	out.NodeID = nodeID("PullRequest", out.ID)
	for _, a := range is.assignees {
		out.Assignees = append(out.Assignees, s.userJSONLocked(a))
	}
	if len(out.Assignees) > 0 {
		out.Assignee = &out.Assignees[0]
	}
	return out
}

// headRepoJSONLocked is the repository a head branch lives in: the base repository, or
// the author's fork of it (same name, the author's account, "fork": true).
func (s *Server) headRepoJSONLocked(r *repository, author string, h *pullHead) repoJSON {
	repo := s.repoJSONLocked(r)
	if !h.fork {
		return repo
	}
	full := author + "/" + r.name
	repo.ID = stableID(5_000_000_000, "fork", full)
	repo.NodeID = nodeID("Repository", repo.ID)
	repo.FullName, repo.Owner, repo.Fork = full, s.userJSONLocked(author), true
	repo.HTMLURL, repo.URL = htmlBase+"/"+full, apiBase+"/repos/"+full
	return repo
}

// baseSHA is the commit main points at; nothing in the fake moves it.
func baseSHA(r *repository) string {
	sum := sha1.Sum([]byte("fakegithub main " + r.fullName()))
	return hex.EncodeToString(sum[:])
}

// pullRequestPayload is a pull_request webhook payload; changes come with edited, before
// and after with synchronize.
type pullRequestPayload struct {
	Action       string              `json:"action"`
	Number       int                 `json:"number"`
	Changes      *changesJSON        `json:"changes,omitempty"`
	Before       string              `json:"before,omitempty"`
	After        string              `json:"after,omitempty"`
	PullRequest  pullJSON            `json:"pull_request"`
	Repository   repoJSON            `json:"repository"`
	Organization *orgJSON            `json:"organization,omitempty"`
	Sender       userJSON            `json:"sender"`
	Installation installationRefJSON `json:"installation"`
}

// pullDeliveryLocked builds a pull_request delivery from the pull request as it is now;
// tune sets the action's own fields.
func (s *Server) pullDeliveryLocked(action string, r *repository, is *issue, sender string, tune func(*pullRequestPayload)) Delivery {
	p := pullRequestPayload{
		Action:       action,
		Number:       is.number,
		PullRequest:  s.pullJSONLocked(r, is),
		Repository:   s.repoJSONLocked(r),
		Organization: s.orgJSONLocked(r.owner),
		Sender:       s.userJSONLocked(sender),
		Installation: installationRefJSON{ID: r.installation, NodeID: nodeID("IntegrationInstallation", r.installation)},
	}
	if tune != nil {
		tune(&p)
	}
	return s.newDeliveryLocked("pull_request", p)
}

type checkOutputJSON struct {
	Title            *string `json:"title"`
	Summary          *string `json:"summary"`
	Text             *string `json:"text"`
	AnnotationsCount int     `json:"annotations_count"`
	AnnotationsURL   string  `json:"annotations_url"`
}

type checkRunJSON struct {
	ID          int64           `json:"id"`
	Name        string          `json:"name"`
	NodeID      string          `json:"node_id"`
	HeadSHA     string          `json:"head_sha"`
	ExternalID  string          `json:"external_id"`
	URL         string          `json:"url"`
	HTMLURL     string          `json:"html_url"`
	DetailsURL  string          `json:"details_url"`
	Status      string          `json:"status"`
	Conclusion  *string         `json:"conclusion"`
	StartedAt   jtime           `json:"started_at"`
	CompletedAt jtime           `json:"completed_at"`
	Output      checkOutputJSON `json:"output"`
	CheckSuite  struct {
		ID int64 `json:"id"`
	} `json:"check_suite"`
	App          appJSON    `json:"app"`
	PullRequests []struct{} `json:"pull_requests"`
}

func (s *Server) checkRunJSONLocked(cr *checkRun) checkRunJSON {
	r := s.repos[cr.repo]
	u := apiBase + "/repos/" + r.fullName() + "/check-runs/" + strconv.FormatInt(cr.id, 10)
	out := checkRunJSON{
		ID:          cr.id,
		Name:        cr.name,
		NodeID:      nodeID("CheckRun", cr.id),
		HeadSHA:     cr.headSHA,
		URL:         u,
		HTMLURL:     htmlBase + "/" + r.fullName() + "/runs/" + strconv.FormatInt(cr.id, 10),
		DetailsURL:  htmlBase + "/apps/" + s.opts.AppSlug,
		Status:      cr.status,
		Conclusion:  nullString(cr.conclusion),
		StartedAt:   jtime(cr.started),
		CompletedAt: jtime(cr.completed),
		Output: checkOutputJSON{Title: nullString(cr.title), Summary: nullString(cr.summary), Text: nullString(cr.text),
			AnnotationsURL: u + "/annotations"},
		App:          s.appJSONLocked(r.owner),
		PullRequests: []struct{}{},
	}
	out.CheckSuite.ID = stableID(4_000_000_000, "suite", r.fullName(), cr.headSHA)
	return out
}

// --- routes ---

// listPulls: GET /repos/{owner}/{repo}/pulls with state (open by default, closed, all);
// newest first, as on GitHub.
func (s *Server) listPulls(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	state := c.r.URL.Query().Get("state")
	if state == "" {
		state = "open"
	}
	var list []*issue
	for _, is := range r.issues {
		if is.pullRequest && (state == "all" || is.state == state) {
			list = append(list, is)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].number > list[j].number })
	return pageReply(c, list, func(is *issue) pullJSON { return s.pullJSONLocked(r, is) })
}

// checkRunRequest is the body of a check run's creation or update.
type checkRunRequest struct {
	Name        *string `json:"name"`
	HeadSHA     *string `json:"head_sha"`
	Status      *string `json:"status"`
	Conclusion  *string `json:"conclusion"`
	CompletedAt *string `json:"completed_at"`
	Output      *struct {
		Title   *string `json:"title"`
		Summary *string `json:"summary"`
		Text    *string `json:"text"`
	} `json:"output"`
}

var checkConclusions = []string{"action_required", "cancelled", "failure", "neutral", "success", "skipped", "stale", "timed_out"}

// apply validates req and writes it into cr, answering GitHub's 422 for what it refuses.
func (req checkRunRequest) apply(cr *checkRun, now time.Time, docs string) *reply {
	invalid := func(field, msg string) *reply {
		rep := validationFailed(docs, fieldError{Resource: "CheckRun", Code: "invalid", Field: field, Message: msg})
		return &rep
	}
	if req.Name != nil {
		if strings.TrimSpace(*req.Name) == "" {
			return invalid("name", "name can't be blank")
		}
		cr.name = *req.Name
	}
	if rep := req.applyState(cr, now, invalid); rep != nil {
		return rep
	}
	if o := req.Output; o != nil {
		if o.Title == nil || o.Summary == nil {
			return invalid("output", "output needs a title and a summary")
		}
		cr.title, cr.summary = *o.Title, *o.Summary
		if o.Text != nil {
			cr.text = *o.Text
		}
	}
	return nil
}

// applyState writes the status and conclusion into cr: a conclusion completes
// the run, and a completed run needs a conclusion and gets its completion time.
func (req checkRunRequest) applyState(cr *checkRun, now time.Time, invalid func(field, msg string) *reply) *reply {
	if req.Status != nil {
		switch *req.Status {
		case "queued", "in_progress", "completed":
			cr.status = *req.Status
		default:
			return invalid("status", "status is not included in the list")
		}
	}
	if req.Conclusion != nil {
		if !containsString(checkConclusions, *req.Conclusion) {
			return invalid("conclusion", "conclusion is not included in the list")
		}
		cr.conclusion, cr.status = *req.Conclusion, "completed"
	}
	if cr.status != "completed" {
		return nil
	}
	if cr.conclusion == "" {
		return invalid("conclusion", "conclusion can't be blank when status is completed")
	}
	cr.completed = now
	if req.CompletedAt != nil {
		if t, err := time.Parse(time.RFC3339, *req.CompletedAt); err == nil {
			cr.completed = t
		}
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// createCheckRun: POST /repos/{owner}/{repo}/check-runs, on a commit the repository has.
func (s *Server) createCheckRun(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	var req checkRunRequest
	if rep := c.decode(&req); rep != nil {
		return *rep
	}
	if req.Name == nil || req.HeadSHA == nil {
		return validationFailed(c.route.docs, fieldError{Resource: "CheckRun", Code: "missing_field", Field: "name and head_sha"})
	}
	if !s.pulls.commits[*req.HeadSHA] {
		return errorReply(http.StatusUnprocessableEntity, "No commit found for SHA: "+*req.HeadSHA, c.route.docs)
	}
	s.pulls.nextRun++
	now := s.nowLocked()
	cr := &checkRun{id: 5_000_000_000 + s.pulls.nextRun, repo: key(r.fullName()), headSHA: *req.HeadSHA, status: "queued", started: now}
	if rep := req.apply(cr, now, c.route.docs); rep != nil {
		return *rep
	}
	s.pulls.runs = append(s.pulls.runs, cr)
	return reply{status: http.StatusCreated, body: s.checkRunJSONLocked(cr)}
}

// updateCheckRun: PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}.
func (s *Server) updateCheckRun(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	var cr *checkRun
	for _, x := range s.pulls.runs {
		if x.id == c.intParam("check_run_id") && x.repo == key(r.fullName()) {
			cr = x
		}
	}
	if cr == nil {
		return c.notFound()
	}
	var req checkRunRequest
	if rep := c.decode(&req); rep != nil {
		return *rep
	}
	next := *cr
	if rep := req.apply(&next, s.nowLocked(), c.route.docs); rep != nil {
		return *rep
	}
	*cr = next
	return reply{status: http.StatusOK, body: s.checkRunJSONLocked(cr)}
}

type checkRunsJSON struct {
	TotalCount int            `json:"total_count"`
	CheckRuns  []checkRunJSON `json:"check_runs"`
}

// listCheckRuns: GET /repos/{owner}/{repo}/commits/{ref}/check-runs with check_name,
// status, app_id and filter (latest, the default, keeps the newest run of each name).
func (s *Server) listCheckRuns(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	sha := c.param("ref")
	if !s.pulls.commits[sha] {
		return errorReply(http.StatusUnprocessableEntity, "No commit found for SHA: "+sha, c.route.docs)
	}
	q := c.r.URL.Query()
	if id := q.Get("app_id"); id != "" && id != strconv.FormatInt(s.opts.AppID, 10) {
		return reply{status: http.StatusOK, body: checkRunsJSON{CheckRuns: []checkRunJSON{}}}
	}
	var list []*checkRun
	latest := map[string]int{}
	for _, cr := range s.pulls.runs {
		if cr.repo != key(r.fullName()) || cr.headSHA != sha ||
			(q.Get("check_name") != "" && cr.name != q.Get("check_name")) || (q.Get("status") != "" && cr.status != q.Get("status")) {
			continue
		}
		if q.Get("filter") != "all" {
			if i, ok := latest[cr.name]; ok {
				list[i] = cr
				continue
			}
			latest[cr.name] = len(list)
		}
		list = append(list, cr)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].id > list[j].id })
	out := reply{status: http.StatusOK}
	start, end := paginate(c, len(list), &out)
	body := checkRunsJSON{TotalCount: len(list), CheckRuns: make([]checkRunJSON, 0, end-start)}
	for _, cr := range list[start:end] {
		body.CheckRuns = append(body.CheckRuns, s.checkRunJSONLocked(cr))
	}
	out.body = body
	return out
}

// fingerprintChecksLocked adds a repository's check runs to Fingerprint.
func (s *Server) fingerprintChecksLocked(b *strings.Builder, r *repository) {
	for _, cr := range s.pulls.runs {
		if cr.repo == key(r.fullName()) {
			fmt.Fprintf(b, "  check-run %d %q on %s %s/%s title=%q summary=%q\n",
				cr.id, cr.name, cr.headSHA, cr.status, cr.conclusion, cr.title, cr.summary)
		}
	}
}
