package replay

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// requestWords says in plain words what each GitHub REST route the app calls does.
var requestWords = map[string]string{
	"GET /app/installations":                                            "list the app's installations",
	"GET /installation/repositories":                                    "list an installation's repositories",
	"GET /repos/{owner}/{repo}":                                         "read a repository",
	"GET /repos/{owner}/{repo}/contents/{path}":                         "read a file (.github/clarify.yml)",
	"GET /repos/{owner}/{repo}/issues":                                  "list issues",
	"POST /repos/{owner}/{repo}/issues":                                 "open an issue",
	"PATCH /repos/{owner}/{repo}/issues/{issue_number}":                 "edit an issue",
	"GET /repos/{owner}/{repo}/issues/{issue_number}":                   "read an issue",
	"GET /repos/{owner}/{repo}/issues/{issue_number}/comments":          "read an issue's comments",
	"POST /repos/{owner}/{repo}/issues/{issue_number}/comments":         "post a comment",
	"PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}":          "edit a comment",
	"POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": "react to a comment",
	"POST /repos/{owner}/{repo}/issues/{issue_number}/labels":           "put labels on an issue",
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}":  "take a label off an issue",
	"GET /repos/{owner}/{repo}/labels/{name}":                           "look a label up",
	"POST /repos/{owner}/{repo}/labels":                                 "create a label",
	"PATCH /repos/{owner}/{repo}/labels/{name}":                         "change a label's colour or description",
	"GET /repos/{owner}/{repo}/pulls":                                   "list pull requests",
	"POST /repos/{owner}/{repo}/dispatches":                             "send a repository_dispatch (a wake-up)",
	"GET /repos/{owner}/{repo}/collaborators/{username}/permission":     "look up a person's permission",
	"POST /app/installations/{installation_id}/access_tokens":           "get an installation token for the app",
}

// PrintCost says in plain words what the app asked of GitHub's API: how many requests,
// reads and writes, how many the periodic sweep made, then each kind of request.
func (h *Harness) PrintCost(w io.Writer) {
	t := h.Fake.Tally()
	fmt.Fprintf(w, "\n%s\nWhat the app asked of GitHub: %d requests to its API\n", strings.Repeat("=", 72), t.Total)
	fmt.Fprintf(w, "  %d reads, %d of them answered \"not modified\" from the app's cache (free: GitHub does not count them against the rate limit)\n", t.Reads, t.NotModified)
	fmt.Fprintf(w, "  %d writes\n  %d to get an installation token\n", t.Writes, t.TokenExchanges)
	if t.Unhandled > 0 {
		fmt.Fprintf(w, "  %d the in-memory GitHub does not serve (listed below as UNHANDLED)\n", t.Unhandled)
	}
	if h.Sweeps > 0 {
		fmt.Fprintf(w, "  %d of the %d made by the periodic check of deadlines, in %d runs (one after each wait)\n", h.SweepRequests, t.Total, h.Sweeps)
	}
	fmt.Fprintln(w, "each kind of request:")
	for _, name := range slices.Sorted(maps.Keys(t.Routes)) {
		fmt.Fprintf(w, "%4d  %-40s %s\n", t.Routes[name], requestWords[name], name)
	}
}
