package relations

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// edges are GitHub's routes for one kind of edge between the work issue and a decision
// issue, below the work issue's path: a list, an add that names the decision issue by
// database id in field, and a remove.
type edges struct {
	list, field string
	// removal is the path below the work issue, and the body, of the DELETE that takes
	// the edge to id off.
	removal func(id int64) (path string, body any)
	// what names the edge in logs and errors.
	what string
}

// edgesOf returns the routes of kind (clarify.RelationBlockedBy or RelationSubIssue).
func edgesOf(kind string) edges {
	if kind == clarify.RelationSubIssue {
		return edges{list: "sub_issues", field: "sub_issue_id", what: "sub-issue",
			removal: func(id int64) (string, any) { return "sub_issue", map[string]int64{"sub_issue_id": id} }}
	}
	return edges{list: "dependencies/blocked_by", field: "issue_id", what: "blocked-by dependency",
		removal: func(id int64) (string, any) { return fmt.Sprintf("dependencies/blocked_by/%d", id), nil }}
}

// send makes one request to the work issue's path below, decoding the answer into out when
// not nil.
func send(ctx context.Context, client *github.Client, method string, work clarify.IssueRef, below string, body, out any) (*github.Response, error) {
	req, err := client.NewRequest(method, fmt.Sprintf("repos/%s/%s/issues/%d/%s", work.Owner, work.Repo, work.Number, below), body)
	if err != nil {
		return nil, err
	}
	return client.Do(ctx, req, out)
}

// listAll lists every issue at the other end of the work issue's edges of this kind, 100 a
// page.
func (e edges) listAll(ctx context.Context, client *github.Client, work clarify.IssueRef) ([]*github.Issue, error) {
	return ghtransport.AllPages(func(page int) ([]*github.Issue, *github.Response, error) {
		below := e.list + "?per_page=100"
		if page > 0 {
			below += fmt.Sprintf("&page=%d", page)
		}
		var out []*github.Issue
		resp, err := send(ctx, client, http.MethodGet, work, below, nil, &out)
		return out, resp, err
	})
}

// add ties the decision issue of database id to the work issue.
func (e edges) add(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error {
	_, err := send(ctx, client, http.MethodPost, work, e.list, map[string]int64{e.field: id}, nil)
	return err
}

// remove unties the decision issue of database id from the work issue.
func (e edges) remove(ctx context.Context, client *github.Client, work clarify.IssueRef, id int64) error {
	below, body := e.removal(id)
	_, err := send(ctx, client, http.MethodDelete, work, below, body, nil)
	return err
}
