package fakegithub

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ingestUser is the part of a payload's user the fake keeps.
type ingestUser struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

type ingestPayload struct {
	Action     string `json:"action"`
	Repository *struct {
		ID       int64      `json:"id"`
		FullName string     `json:"full_name"`
		Owner    ingestUser `json:"owner"`
	} `json:"repository"`
	Installation *struct {
		ID int64 `json:"id"`
	} `json:"installation"`
	Sender  *ingestUser    `json:"sender"`
	Issue   *ingestIssue   `json:"issue"`
	Comment *ingestComment `json:"comment"`
}

// ingestIssue is the part of a payload's issue the fake keeps.
type ingestIssue struct {
	ID          int64         `json:"id"`
	Number      int           `json:"number"`
	Title       string        `json:"title"`
	Body        *string       `json:"body"`
	User        ingestUser    `json:"user"`
	State       string        `json:"state"`
	StateReason *string       `json:"state_reason"`
	Labels      []ingestLabel `json:"labels"`
	CreatedAt   *time.Time    `json:"created_at"`
	UpdatedAt   *time.Time    `json:"updated_at"`
	ClosedAt    *time.Time    `json:"closed_at"`
}

// ingestLabel is a label as a payload's issue carries it.
type ingestLabel struct {
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Description *string `json:"description"`
}

// ingestComment is the part of a payload's comment the fake keeps.
type ingestComment struct {
	ID                    int64      `json:"id"`
	User                  ingestUser `json:"user"`
	Body                  string     `json:"body"`
	CreatedAt             *time.Time `json:"created_at"`
	UpdatedAt             *time.Time `json:"updated_at"`
	PerformedViaGithubApp *struct {
		Slug string `json:"slug"`
	} `json:"performed_via_github_app"`
}

// Ingest seeds the state from a recorded delivery's payload so that the
// delivery can be replayed against the fake: it creates what is missing (the
// repository, its installation, the users with their ids and types, the
// issue with its labels, the comment with its id) and brings what the event
// changed up to date (a comment's body after "edited", its removal after
// "deleted", the issue's state after "closed" or "reopened"). Labels of an
// issue that already exists are left alone: the app may have changed them.
func (s *Server) Ingest(event string, body []byte) error {
	p, err := decodeIngestPayload(event, body)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()

	r, err := s.ingestRepoLocked(p)
	if err != nil {
		return fmt.Errorf("ingest %s: %w", event, err)
	}
	if p.Issue == nil {
		return nil
	}
	is, err := s.ingestIssueLocked(r, event, p)
	if err != nil {
		return fmt.Errorf("ingest %s: %w", event, err)
	}
	if event != "issue_comment" || p.Comment == nil {
		return nil
	}
	return s.ingestCommentLocked(r, is, p.Action, p.Comment)
}

// decodeIngestPayload parses a recorded payload and refuses one that lacks
// what every delivery to an app carries: a repository and an installation.
func decodeIngestPayload(event string, body []byte) (*ingestPayload, error) {
	var p ingestPayload
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, fmt.Errorf("ingest %s: payload is not JSON: %w", event, err)
	}
	if p.Repository == nil || p.Repository.FullName == "" {
		return nil, fmt.Errorf("ingest %s: payload has no repository.full_name", event)
	}
	if p.Installation == nil || p.Installation.ID == 0 {
		return nil, fmt.Errorf("ingest %s: payload has no installation.id (deliveries to an app carry one)", event)
	}
	if _, _, err := splitRepo(p.Repository.FullName); err != nil {
		return nil, fmt.Errorf("ingest %s: %w", event, err)
	}
	return &p, nil
}

// ingestRepoLocked registers the payload's owner and sender, and the
// repository with its installation if the fake does not know it yet.
func (s *Server) ingestRepoLocked(p *ingestPayload) (*repository, error) {
	s.ingestUserLocked(p.Repository.Owner, "Organization")
	if p.Sender != nil {
		s.ingestUserLocked(*p.Sender, "User")
	}
	if r := s.repoLocked(p.Repository.FullName); r != nil {
		return r, nil
	}
	in := s.addInstallationLocked(p.Installation.ID, p.Repository.Owner.Login)
	r, err := s.addRepoLocked(in, p.Repository.FullName)
	if err != nil {
		return nil, err
	}
	if p.Repository.ID != 0 {
		r.id = p.Repository.ID
	}
	return r, nil
}

// ingestCommentLocked brings the payload's comment up to date: removed after
// "deleted", created with its id if new, its body replaced if edited.
func (s *Server) ingestCommentLocked(r *repository, is *issue, action string, pc *ingestComment) error {
	if pc.ID == 0 {
		return errors.New("ingest issue_comment: the comment has no id")
	}
	s.ingestUserLocked(pc.User, "User")
	existing := s.comments[pc.ID]
	switch {
	case action == "deleted":
		if existing != nil {
			s.removeCommentLocked(existing, existing.author)
		}
	case existing == nil:
		c := s.addCommentLocked(r, is, pc.User.Login, pc.Body, pc.ID)
		switch {
		case pc.PerformedViaGithubApp == nil:
		case strings.EqualFold(pc.User.Login, s.opts.AppSlug+"[bot]"):
			c.viaApp = s.opts.AppSlug // a recording of the app's own comment, under any slug
		default:
			c.viaApp = pc.PerformedViaGithubApp.Slug
		}
		if pc.CreatedAt != nil {
			c.created = pc.CreatedAt.UTC()
		}
		if pc.UpdatedAt != nil {
			c.updated = pc.UpdatedAt.UTC()
		}
	case existing.body != pc.Body:
		existing.body = pc.Body
		if pc.UpdatedAt != nil {
			existing.updated = pc.UpdatedAt.UTC()
		}
	}
	return nil
}

// ingestUserLocked registers a payload user with its id and type if it is new.
func (s *Server) ingestUserLocked(u ingestUser, defaultType string) {
	if u.Login == "" {
		return
	}
	if _, ok := s.users[key(u.Login)]; ok {
		return
	}
	nu := &user{login: u.Login, id: u.ID, typ: u.Type}
	if nu.id == 0 {
		nu.id = stableID(10_000_000, "user", u.Login)
	}
	if nu.typ == "" {
		nu.typ = defaultType
	}
	s.users[key(u.Login)] = nu
}

// ingestIssueLocked creates the payload's issue if it is new, or else brings
// its state up to date after "closed" or "reopened".
func (s *Server) ingestIssueLocked(r *repository, event string, p *ingestPayload) (*issue, error) {
	pi := p.Issue
	if pi.Number <= 0 {
		return nil, errors.New("the issue has no number")
	}
	s.ingestUserLocked(pi.User, "User")
	is := r.issues[pi.Number]
	if is == nil {
		is = s.newIngestedIssueLocked(r, pi)
		r.issues[pi.Number] = is
		return is, nil
	}
	if event == "issues" && (p.Action == "closed" || p.Action == "reopened") {
		is.state = map[string]string{"closed": "closed", "reopened": "open"}[p.Action]
		if pi.StateReason != nil {
			is.stateReason = *pi.StateReason
		}
		is.closed = time.Time{}
		if pi.ClosedAt != nil {
			is.closed = pi.ClosedAt.UTC()
		}
	}
	return is, nil
}

// newIngestedIssueLocked builds an issue as the payload shows it, with its
// labels; the caller files it in the repository.
func (s *Server) newIngestedIssueLocked(r *repository, pi *ingestIssue) *issue {
	now := s.nowLocked()
	is := &issue{
		id:      pi.ID,
		number:  pi.Number,
		title:   pi.Title,
		author:  pi.User.Login,
		state:   "open",
		created: now,
		updated: now,
	}
	if is.id == 0 {
		is.id = stableID(1_000_000_000, "issue", r.fullName(), fmt.Sprint(pi.Number))
	}
	if pi.Body != nil {
		is.body = *pi.Body
	}
	if pi.State == "closed" {
		is.state = "closed"
	}
	if pi.StateReason != nil {
		is.stateReason = *pi.StateReason
	}
	if pi.CreatedAt != nil {
		is.created = pi.CreatedAt.UTC()
	}
	if pi.UpdatedAt != nil {
		is.updated = pi.UpdatedAt.UTC()
	}
	if pi.ClosedAt != nil {
		is.closed = pi.ClosedAt.UTC()
	}
	ingestIssueLabels(r, is, pi.Labels)
	return is
}

// ingestIssueLabels creates the payload's labels in the repository (taking
// their color and description) and puts them on the issue.
func ingestIssueLabels(r *repository, is *issue, labels []ingestLabel) {
	for _, pl := range labels {
		l := r.label(pl.Name, true)
		if c, ok := validColor(pl.Color); ok {
			l.color = c
		}
		if pl.Description != nil {
			l.description = *pl.Description
		}
		if !is.hasLabel(key(l.name)) {
			is.labels = append(is.labels, key(l.name))
		}
	}
}
