package relations

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// edges are the routes of one kind of edge between the work issue and a decision issue.
type edges struct {
	// list lists the issues at the other end of the work issue's edges of this kind.
	list func(ctx context.Context, client *github.Client, work clarify.IssueRef, page int) ([]*github.Issue, *github.Response, error)
	// add ties the decision issue (by database id) to the work issue; remove unties it.
	add    func(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error
	remove func(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error
	// what names the edge in logs and errors.
	what string
}

// edgesOf returns the routes of kind (clarify.RelationBlockedBy or RelationSubIssue).
func edgesOf(kind string) edges {
	if kind == clarify.RelationSubIssue {
		return edges{list: listSubIssues, add: addSubIssue, remove: removeSubIssue, what: "sub-issue"}
	}
	return edges{list: listBlockedBy, add: addBlockedBy, remove: removeBlockedBy, what: "blocked-by dependency"}
}

// issuePath is the path of the work issue's route below it.
func issuePath(work clarify.IssueRef, below string) string {
	return fmt.Sprintf("repos/%s/%s/issues/%d/%s", work.Owner, work.Repo, work.Number, below)
}

// paged asks for a list's page of 100 (page 0: the first).
func paged(below string, page int) string {
	if page > 0 {
		return fmt.Sprintf("%s?per_page=100&page=%d", below, page)
	}
	return below + "?per_page=100"
}

// send makes one request through the client, decoding the answer into out when not nil.
func send(ctx context.Context, client *github.Client, method, path string, body, out any) (*github.Response, error) {
	req, err := client.NewRequest(method, path, body)
	if err != nil {
		return nil, err
	}
	return client.Do(ctx, req, out)
}

// GET …/dependencies/blocked_by, one page of 100.
func listBlockedBy(ctx context.Context, client *github.Client, work clarify.IssueRef, page int) ([]*github.Issue, *github.Response, error) {
	var out []*github.Issue
	resp, err := send(ctx, client, http.MethodGet, issuePath(work, paged("dependencies/blocked_by", page)), nil, &out)
	return out, resp, err
}

// POST …/dependencies/blocked_by {"issue_id": id}.
func addBlockedBy(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error {
	_, err := send(ctx, client, http.MethodPost, issuePath(work, "dependencies/blocked_by"), map[string]int64{"issue_id": id}, nil)
	return err
}

// DELETE …/dependencies/blocked_by/{issue_id}.
func removeBlockedBy(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error {
	_, err := send(ctx, client, http.MethodDelete, issuePath(work, fmt.Sprintf("dependencies/blocked_by/%d", id)), nil, nil)
	return err
}

// GET …/sub_issues, one page of 100.
func listSubIssues(ctx context.Context, client *github.Client, work clarify.IssueRef, page int) ([]*github.Issue, *github.Response, error) {
	var out []*github.Issue
	resp, err := send(ctx, client, http.MethodGet, issuePath(work, paged("sub_issues", page)), nil, &out)
	return out, resp, err
}

// POST …/sub_issues {"sub_issue_id": id}.
func addSubIssue(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error {
	_, err := send(ctx, client, http.MethodPost, issuePath(work, "sub_issues"), map[string]int64{"sub_issue_id": id}, nil)
	return err
}

// DELETE …/sub_issue {"sub_issue_id": id}.
func removeSubIssue(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error {
	_, err := send(ctx, client, http.MethodDelete, issuePath(work, "sub_issue"), map[string]int64{"sub_issue_id": id}, nil)
	return err
}

// listAll lists every issue at the other end of the work issue's edges of this kind.
func (e edges) listAll(ctx context.Context, client *github.Client, work clarify.IssueRef) ([]*github.Issue, error) {
	return ghtransport.AllPages(func(page int) ([]*github.Issue, *github.Response, error) {
		return e.list(ctx, client, work, page)
	})
}
