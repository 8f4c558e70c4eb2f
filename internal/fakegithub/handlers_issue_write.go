package fakegithub

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// issueInput is the body of POST and PATCH on issues: a pointer left nil was not sent.
type issueInput struct {
	Title       *string  `json:"title"`
	Body        *string  `json:"body"`
	State       *string  `json:"state"`
	StateReason *string  `json:"state_reason"`
	Labels      []string `json:"labels"`
}

// checkIssueInput refuses what GitHub refuses: a blank title, a body over 65,536
// characters, a state other than open or closed.
func checkIssueInput(c *call, in issueInput) *reply {
	var rep reply
	switch {
	case in.Title != nil && strings.TrimSpace(*in.Title) == "":
		rep = validationFailed(c.route.docs, fieldError{Resource: "Issue", Code: "missing_field", Field: "title"})
	case in.Body != nil && utf8.RuneCountInString(*in.Body) > MaxCommentBody:
		rep = validationFailed(c.route.docs, fieldError{Resource: "Issue", Code: "custom", Field: "body",
			Message: fmt.Sprintf("body is too long (maximum is %d characters)", MaxCommentBody)})
	case in.State != nil && *in.State != "open" && *in.State != "closed":
		rep = validationFailed(c.route.docs, fieldError{Resource: "Issue", Code: "invalid", Field: "state"})
	default:
		return nil
	}
	return &rep
}

// createIssue: POST /repos/{owner}/{repo}/issues, as the app; the issue takes the next
// number after every issue and pull request of the repository, and GitHub sends
// issues.opened.
func (s *Server) createIssue(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	var in issueInput
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	if in.Title == nil {
		return validationFailed(c.route.docs, fieldError{Resource: "Issue", Code: "missing_field", Field: "title"})
	}
	if rep := checkIssueInput(c, in); rep != nil {
		return *rep
	}
	number := r.deleted + 1
	for n := range r.issues {
		number = max(number, n+1)
	}
	now := s.nowLocked()
	is := &issue{
		id:     stableID(1_000_000_000, "issue", r.fullName(), fmt.Sprint(number)),
		number: number, title: *in.Title, author: c.author(), state: "open", created: now, updated: now,
	}
	if in.Body != nil {
		is.body = *in.Body
	}
	r.issues[number] = is
	s.addIssueLabelsLocked(r, is, in.Labels)
	s.outbox = append(s.outbox, s.issuesDeliveryLocked("opened", r, is, c.author()))
	out := s.issueJSONLocked(r, is)
	return reply{status: http.StatusCreated, body: out}
}

// updateIssue: PATCH /repos/{owner}/{repo}/issues/{issue_number}: title, body and state.
// A change of state sends issues.closed or issues.reopened, a changed title or body
// issues.edited; a request that changes nothing sends nothing.
func (s *Server) updateIssue(c *call) reply {
	r, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	var in issueInput
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	if rep := checkIssueInput(c, in); rep != nil {
		return *rep
	}
	now := s.nowLocked()
	edited := (in.Title != nil && *in.Title != is.title) || (in.Body != nil && *in.Body != is.body)
	if in.Title != nil {
		is.title = *in.Title
	}
	if in.Body != nil {
		is.body = *in.Body
	}
	if edited {
		is.updated = now
		s.outbox = append(s.outbox, s.issuesDeliveryLocked("edited", r, is, c.author()))
	}
	if in.State != nil && *in.State != is.state {
		is.state, is.updated = *in.State, now
		action := "closed"
		if is.state == "closed" {
			is.stateReason, is.closed = "completed", now
			if in.StateReason != nil {
				is.stateReason = *in.StateReason
			}
		} else {
			is.stateReason, is.closed, action = "reopened", time.Time{}, "reopened"
		}
		s.outbox = append(s.outbox, s.issuesDeliveryLocked(action, r, is, c.author()))
	}
	return reply{status: http.StatusOK, body: s.issueJSONLocked(r, is)}
}

// DeleteIssue has actor (an admin, on github.com) delete an issue with its comments and
// returns the issues.deleted delivery; the issue's number then answers 404.
func (s *Server) DeleteIssue(repo string, number int, actor string) Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	if err != nil {
		panic("fakegithub: DeleteIssue: " + err.Error())
	}
	s.userLocked(actor)
	d := s.issuesDeliveryLocked("deleted", r, is, actor)
	for _, id := range is.commentIDs {
		delete(s.comments, id)
	}
	delete(r.issues, number)
	r.deleted = max(r.deleted, number)
	return d
}

// IssueBody returns an issue's body, or "" when there is no such issue.
func (s *Server) IssueBody(repo string, number int) string {
	return s.issueField(repo, number, func(is *issue) string { return is.body })
}

// IssueTitle is an issue's title as it is now ("" for no such issue).
func (s *Server) IssueTitle(repo string, number int) string {
	return s.issueField(repo, number, func(is *issue) string { return is.title })
}

// IssueAuthor is the login that opened the issue ("" for no such issue).
func (s *Server) IssueAuthor(repo string, number int) string {
	return s.issueField(repo, number, func(is *issue) string { return is.author })
}

func (s *Server) issueField(repo string, number int, field func(*issue) string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.issueLocked(repo, number)
	if err != nil {
		return ""
	}
	return field(is)
}
