package fakegithub

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxCommentBody is the longest comment body GitHub accepts, in characters.
const MaxCommentBody = 65536

// getRepo: GET /repos/{owner}/{repo}.
func (s *Server) getRepo(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	return reply{status: http.StatusOK, body: s.repoJSONLocked(r)}
}

// issueForCall resolves {issue_number} in the caller's repository.
func (s *Server) issueForCall(c *call) (*repository, *issue, *reply) {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return nil, nil, rep
	}
	is := r.issues[int(c.intParam("issue_number"))]
	if is == nil {
		rep := c.notFound()
		return nil, nil, &rep
	}
	return r, is, nil
}

// commentForCall resolves {comment_id} in the caller's repository.
func (s *Server) commentForCall(c *call) (*comment, *reply) {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return nil, rep
	}
	cm := s.comments[c.intParam("comment_id")]
	if cm == nil || cm.repo != key(r.fullName()) {
		rep := c.notFound()
		return nil, &rep
	}
	return cm, nil
}

// since parses the "since" query parameter; an unparsable one is ignored.
func since(c *call) time.Time {
	t, _ := time.Parse(time.RFC3339, c.r.URL.Query().Get("since"))
	return t
}

// getIssue: GET /repos/{owner}/{repo}/issues/{issue_number}.
func (s *Server) getIssue(c *call) reply {
	r, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	return reply{status: http.StatusOK, body: s.issueJSONLocked(r, is)}
}

// listIssues: GET /repos/{owner}/{repo}/issues with state, labels, since,
// sort and direction; newest first by default, as on GitHub.
func (s *Server) listIssues(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	q := c.r.URL.Query()
	list := filterIssues(r, q, since(c))
	sortIssues(list, q)
	return pageReply(c, list, func(is *issue) issueJSON { return s.issueJSONLocked(r, is) })
}

// filterIssues keeps the repository's issues in the query's state (open by
// default, closed, all), carrying all its labels, opened by its creator when it names one,
// updated at or after from.
func filterIssues(r *repository, q url.Values, from time.Time) []*issue {
	state := q.Get("state")
	if state == "" {
		state = "open"
	}
	var want []string
	for _, l := range strings.Split(q.Get("labels"), ",") {
		if l = strings.TrimSpace(l); l != "" {
			want = append(want, key(l))
		}
	}
	var list []*issue
	for _, is := range r.issues {
		if state != "all" && is.state != state {
			continue
		}
		if is.updated.Before(from) || (q.Get("creator") != "" && !strings.EqualFold(q.Get("creator"), is.author)) {
			continue
		}
		ok := true
		for _, l := range want {
			ok = ok && is.hasLabel(l)
		}
		if ok {
			list = append(list, is)
		}
	}
	return list
}

// sortIssues orders issues by the query's sort (created by default, updated)
// and direction (desc by default), ties broken by number.
func sortIssues(list []*issue, q url.Values) {
	sortKey := func(is *issue) time.Time { return is.created }
	if q.Get("sort") == "updated" {
		sortKey = func(is *issue) time.Time { return is.updated }
	}
	asc := q.Get("direction") == "asc"
	sort.Slice(list, func(i, j int) bool {
		a, b := sortKey(list[i]), sortKey(list[j])
		if a.Equal(b) {
			a, b = time.Unix(int64(list[i].number), 0), time.Unix(int64(list[j].number), 0)
		}
		if asc {
			return a.Before(b)
		}
		return a.After(b)
	})
}

// listComments: GET /repos/{owner}/{repo}/issues/{issue_number}/comments, oldest first.
func (s *Server) listComments(c *call) reply {
	_, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	return s.commentPage(c, s.commentsOfLocked(is))
}

// listRepoComments: GET /repos/{owner}/{repo}/issues/comments, oldest first
// unless sort/direction say otherwise.
func (s *Server) listRepoComments(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	var list []*comment
	for _, cm := range s.comments {
		if cm.repo == key(r.fullName()) {
			list = append(list, cm)
		}
	}
	byUpdated := c.r.URL.Query().Get("sort") == "updated"
	desc := c.r.URL.Query().Get("direction") == "desc"
	sort.Slice(list, func(i, j int) bool {
		less := list[i].id < list[j].id
		if byUpdated && !list[i].updated.Equal(list[j].updated) {
			less = list[i].updated.Before(list[j].updated)
		}
		return less != desc
	})
	return s.commentPage(c, list)
}

func (s *Server) commentPage(c *call, list []*comment) reply {
	from := since(c)
	filtered := list[:0:0]
	for _, cm := range list {
		if !cm.updated.Before(from) {
			filtered = append(filtered, cm)
		}
	}
	return pageReply(c, filtered, s.commentJSONLocked)
}

// commentBody reads {"body": …} and applies GitHub's validation: present,
// not blank, at most MaxCommentBody characters.
func (c *call) commentBody() (string, *reply) {
	var in struct {
		Body *string `json:"body"`
	}
	if rep := c.decode(&in); rep != nil {
		return "", rep
	}
	if in.Body == nil {
		rep := errorReply(http.StatusUnprocessableEntity, "Invalid request.\n\n\"body\" wasn't supplied.", c.route.docs)
		return "", &rep
	}
	if strings.TrimSpace(*in.Body) == "" {
		rep := validationFailed(c.route.docs, fieldError{Resource: "IssueComment", Code: "custom", Field: "body", Message: "Body cannot be blank"})
		return "", &rep
	}
	if utf8.RuneCountInString(*in.Body) > MaxCommentBody {
		rep := validationFailed(c.route.docs, fieldError{
			Resource: "IssueComment", Code: "custom", Field: "body",
			Message: "Body is too long (maximum is " + strconv.Itoa(MaxCommentBody) + " characters)",
		})
		return "", &rep
	}
	return *in.Body, nil
}

// createComment: POST /repos/{owner}/{repo}/issues/{issue_number}/comments,
// authored by the app's bot; GitHub then sends issue_comment.created.
func (s *Server) createComment(c *call) reply {
	r, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	body, rep := c.commentBody()
	if rep != nil {
		return *rep
	}
	cm := s.addCommentLocked(r, is, c.author(), body, 0)
	cm.viaApp = s.opts.AppSlug
	s.outbox = append(s.outbox, s.commentDeliveryLocked("created", cm, c.author(), ""))
	out := s.commentJSONLocked(cm)
	return reply{status: http.StatusCreated, body: out, header: http.Header{"Location": {out.URL}}}
}

// getComment: GET /repos/{owner}/{repo}/issues/comments/{comment_id}.
func (s *Server) getComment(c *call) reply {
	cm, rep := s.commentForCall(c)
	if rep != nil {
		return *rep
	}
	return reply{status: http.StatusOK, body: s.commentJSONLocked(cm)}
}

// updateComment: PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}.
// An edit that changes nothing is answered but neither touches updated_at nor
// produces a delivery.
func (s *Server) updateComment(c *call) reply {
	cm, rep := s.commentForCall(c)
	if rep != nil {
		return *rep
	}
	body, rep := c.commentBody()
	if rep != nil {
		return *rep
	}
	if body != cm.body {
		from := cm.body
		s.editCommentLocked(cm, body)
		s.outbox = append(s.outbox, s.commentDeliveryLocked("edited", cm, c.author(), from))
	}
	return reply{status: http.StatusOK, body: s.commentJSONLocked(cm)}
}

// deleteComment: DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}.
func (s *Server) deleteComment(c *call) reply {
	cm, rep := s.commentForCall(c)
	if rep != nil {
		return *rep
	}
	d := s.removeCommentLocked(cm, c.author())
	s.outbox = append(s.outbox, d)
	return reply{status: http.StatusNoContent}
}

// listReactions: GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions.
func (s *Server) listReactions(c *call) reply {
	cm, rep := s.commentForCall(c)
	if rep != nil {
		return *rep
	}
	content := c.r.URL.Query().Get("content")
	var list []*reaction
	for _, r := range cm.reactions {
		if content == "" || r.content == content {
			list = append(list, r)
		}
	}
	return pageReply(c, list, s.reactionJSONLocked)
}

// createReaction: POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions;
// 201 for a new reaction, 200 with the existing one when the bot already reacted so.
func (s *Server) createReaction(c *call) reply {
	cm, rep := s.commentForCall(c)
	if rep != nil {
		return *rep
	}
	var in struct {
		Content string `json:"content"`
	}
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	if !validReaction(in.Content) {
		return validationFailed(c.route.docs, fieldError{Resource: "Reaction", Code: "custom", Field: "content", Message: "content is not included in the list"})
	}
	bot := c.author()
	for _, r := range cm.reactions {
		if r.content == in.Content && key(r.login) == key(bot) {
			return reply{status: http.StatusOK, body: s.reactionJSONLocked(r)}
		}
	}
	r := s.addReactionLocked(cm, in.Content, bot)
	return reply{status: http.StatusCreated, body: s.reactionJSONLocked(r)}
}

// deleteReaction: DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}.
func (s *Server) deleteReaction(c *call) reply {
	cm, rep := s.commentForCall(c)
	if rep != nil {
		return *rep
	}
	id := c.intParam("reaction_id")
	for i, r := range cm.reactions {
		if r.id == id {
			cm.reactions = append(cm.reactions[:i:i], cm.reactions[i+1:]...)
			return reply{status: http.StatusNoContent}
		}
	}
	return c.notFound()
}

// --- mutations shared by the API and the scripted actions (caller holds s.mu) ---

// addCommentLocked appends a comment; id 0 takes the next id, a given id
// (Ingest) keeps the ids monotonic past it.
func (s *Server) addCommentLocked(r *repository, is *issue, author, body string, id int64) *comment {
	s.userLocked(author)
	if id == 0 {
		id = s.nextCommentID
	}
	s.nextCommentID = max(s.nextCommentID, id+1)
	now := s.nowLocked()
	cm := &comment{id: id, repo: key(r.fullName()), issue: is.number, author: author, body: body, created: now, updated: now}
	s.comments[id] = cm
	is.commentIDs = append(is.commentIDs, id)
	sort.Slice(is.commentIDs, func(i, j int) bool { return is.commentIDs[i] < is.commentIDs[j] })
	is.updated = now
	return cm
}

func (s *Server) editCommentLocked(cm *comment, body string) {
	cm.body = body
	cm.updated = s.nowLocked()
}

// removeCommentLocked deletes the comment and returns the issue_comment.deleted
// delivery, built after the deletion as GitHub does (the issue's count drops).
func (s *Server) removeCommentLocked(cm *comment, actor string) Delivery {
	r := s.repos[cm.repo]
	is := r.issues[cm.issue]
	is.commentIDs = removeID(is.commentIDs, cm.id)
	delete(s.comments, cm.id)
	return s.commentDeliveryLocked("deleted", cm, actor, "")
}

func (s *Server) addReactionLocked(cm *comment, content, login string) *reaction {
	s.userLocked(login)
	r := &reaction{id: s.nextReactionID, content: content, login: login, created: s.nowLocked()}
	s.nextReactionID++
	cm.reactions = append(cm.reactions, r)
	return r
}
