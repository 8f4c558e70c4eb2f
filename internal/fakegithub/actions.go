package fakegithub

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Scripted actions: what people do on github.com, applied to the state and
// returned as the webhook delivery GitHub would send the app. The exported
// methods panic on impossible actions (an unknown issue, a second close);
// scenario scripts go through Run, which returns the same problems as errors.

// OpenIssue opens issue number in repo and returns its issues.opened delivery.
func (s *Server) OpenIssue(repo string, number int, title, author string) Delivery {
	return must(s.userOpenIssue(repo, number, title, author, ""))
}

// OpenIssueWithBody is OpenIssue with a description.
func (s *Server) OpenIssueWithBody(repo string, number int, title, author, body string) Delivery {
	return must(s.userOpenIssue(repo, number, title, author, body))
}

// OpenPullRequest opens pull request number in repo, without a description. GitHub lists
// pull requests among the issues and delivers their conversation's comments as
// issue_comment; the pull_request delivery of the opening is left out here
// (OpenPullRequestWithBody returns it).
func (s *Server) OpenPullRequest(repo string, number int, title, author string) {
	must(s.userOpenIssue(repo, number, title, author, ""))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repoLocked(repo).issues[number].pullRequest = true
}

// Assign sets the issue's assignees (GitHub's issues.assigned deliveries are not modelled:
// Clarify does not subscribe to them).
func (s *Server) Assign(repo string, number int, logins ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	if r == nil || r.issues[number] == nil {
		panic(fmt.Sprintf("fakegithub: Assign: no issue %s#%d", repo, number))
	}
	for _, l := range logins {
		s.userLocked(l)
	}
	r.issues[number].assignees = append([]string(nil), logins...)
}

// Comment has author comment on the issue and returns the
// issue_comment.created delivery and the new comment's id.
func (s *Server) Comment(repo string, number int, author, body string) (Delivery, int64) {
	d, id, err := s.userComment(repo, number, author, body)
	if err != nil {
		panic("fakegithub: " + err.Error())
	}
	return d, id
}

// CommentThroughApp has author comment on an issue through another GitHub App (slug app),
// with that App's user-to-server token, and returns the delivery and the comment's id: the
// comment's user is the person, and performed_via_github_app names the App, as on GitHub.
func (s *Server) CommentThroughApp(repo string, number int, author, app, body string) (Delivery, int64) {
	if err := validHumanBody(body); err != nil {
		panic("fakegithub: " + err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	if err != nil {
		panic("fakegithub: " + err.Error())
	}
	c := s.addCommentLocked(r, is, author, body, 0)
	c.viaApp = app
	return s.commentDeliveryLocked("created", c, author, ""), c.id
}

// EditComment has editor replace a comment's body and returns the
// issue_comment.edited delivery, with changes.body.from.
func (s *Server) EditComment(repo string, id int64, editor, body string) Delivery {
	return must(s.userEditComment(repo, id, editor, body))
}

// DeleteComment has actor delete a comment and returns the issue_comment.deleted delivery.
func (s *Server) DeleteComment(repo string, id int64, actor string) Delivery {
	return must(s.userDeleteComment(repo, id, actor))
}

// CloseIssue has actor close the issue (as completed) and returns the issues.closed delivery.
func (s *Server) CloseIssue(repo string, number int, actor string) Delivery {
	return must(s.userSetIssueState(repo, number, actor, "closed"))
}

// ReopenIssue has actor reopen the issue and returns the issues.reopened delivery.
func (s *Server) ReopenIssue(repo string, number int, actor string) Delivery {
	return must(s.userSetIssueState(repo, number, actor, "open"))
}

// React has login react to a comment. GitHub sends no webhook for reactions,
// so there is no delivery.
func (s *Server) React(repo string, id int64, login, content string) {
	if !validReaction(content) {
		panic(fmt.Sprintf("fakegithub: React: %q is not one of %s", content, strings.Join(reactionContents, " ")))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.commentInRepoLocked(repo, id)
	if err != nil {
		panic("fakegithub: React: " + err.Error())
	}
	for _, r := range c.reactions {
		if r.content == content && key(r.login) == key(login) {
			return
		}
	}
	s.addReactionLocked(c, content, login)
}

func must(d Delivery, err error) Delivery {
	if err != nil {
		panic("fakegithub: " + err.Error())
	}
	return d
}

func (s *Server) userOpenIssue(repo string, number int, title, author, body string) (Delivery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	switch {
	case r == nil:
		return Delivery{}, fmt.Errorf("repository %s does not exist (AddInstallation or a repo line creates it)", repo)
	case number <= 0:
		return Delivery{}, fmt.Errorf("issue number %d: must be positive", number)
	case r.issues[number] != nil:
		return Delivery{}, fmt.Errorf("issue %s#%d already exists", repo, number)
	case strings.TrimSpace(title) == "":
		return Delivery{}, errors.New("an issue needs a title")
	}
	s.userLocked(author)
	now := s.nowLocked()
	is := &issue{
		id:      stableID(1_000_000_000, "issue", r.fullName(), fmt.Sprint(number)),
		number:  number,
		title:   title,
		body:    body,
		author:  author,
		state:   "open",
		created: now,
		updated: now,
	}
	r.issues[number] = is
	return s.issuesDeliveryLocked("opened", r, is, author), nil
}

// validHumanBody applies the limits the github.com editor enforces.
func validHumanBody(body string) error {
	if strings.TrimSpace(body) == "" {
		return errors.New("a comment body cannot be blank")
	}
	if n := utf8.RuneCountInString(body); n > MaxCommentBody {
		return fmt.Errorf("a comment body is at most %d characters, this one has %d", MaxCommentBody, n)
	}
	return nil
}

func (s *Server) userComment(repo string, number int, author, body string) (Delivery, int64, error) {
	if err := validHumanBody(body); err != nil {
		return Delivery{}, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	if err != nil {
		return Delivery{}, 0, err
	}
	c := s.addCommentLocked(r, is, author, body, 0)
	return s.commentDeliveryLocked("created", c, author, ""), c.id, nil
}

func (s *Server) commentInRepoLocked(repo string, id int64) (*comment, error) {
	c := s.comments[id]
	if c == nil || c.repo != key(repo) {
		return nil, fmt.Errorf("no comment %d in %s", id, repo)
	}
	return c, nil
}

func (s *Server) userEditComment(repo string, id int64, editor, body string) (Delivery, error) {
	if err := validHumanBody(body); err != nil {
		return Delivery{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.commentInRepoLocked(repo, id)
	if err != nil {
		return Delivery{}, err
	}
	from := c.body
	s.editCommentLocked(c, body)
	s.userLocked(editor)
	return s.commentDeliveryLocked("edited", c, editor, from), nil
}

func (s *Server) userDeleteComment(repo string, id int64, actor string) (Delivery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.commentInRepoLocked(repo, id)
	if err != nil {
		return Delivery{}, err
	}
	s.userLocked(actor)
	return s.removeCommentLocked(c, actor), nil
}

// lastCommentBy finds the id of login's newest comment on the issue.
func (s *Server) lastCommentBy(repo string, number int, login string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.issueLocked(repo, number)
	if err != nil {
		return 0, err
	}
	comments := s.commentsOfLocked(is)
	for i := len(comments) - 1; i >= 0; i-- {
		if key(comments[i].author) == key(login) {
			return comments[i].id, nil
		}
	}
	return 0, fmt.Errorf("%s has no comment on %s#%d", login, repo, number)
}

func (s *Server) userSetIssueState(repo string, number int, actor, state string) (Delivery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	if err != nil {
		return Delivery{}, err
	}
	if is.state == state {
		return Delivery{}, fmt.Errorf("issue %s#%d is already %s", repo, number, state)
	}
	s.userLocked(actor)
	now := s.nowLocked()
	is.state, is.updated = state, now
	action := "closed"
	if state == "closed" {
		is.stateReason, is.closed = "completed", now
	} else {
		is.stateReason, is.closed = "reopened", time.Time{}
		action = "reopened"
	}
	return s.issuesDeliveryLocked(action, r, is, actor), nil
}
