package metrics_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/metrics"
)

// sampleValues fills a route template's parameters as the app's requests do, names that
// look like route words included, so that a template is matched by position, not by luck.
var sampleValues = map[string]string{
	"{owner}": "octo", "{repo}": "issues", "{issue_number}": "42", "{comment_id}": "9001",
	"{reaction_id}": "7", "{installation_id}": "12", "{delivery_id}": "555", "{name}": url.PathEscape("clarification:active"),
	"{username}": "maria", "{path}": ".github/clarify.yml", "{org}": "octo", "{team_slug}": "labels",
	"{check_run_id}": "3", "{ref}": "abc123", "{pull_number}": "5", "{issue_id}": "1000000042",
}

// TestEveryRouteOfTheFakeIsATemplate: the in-memory GitHub serves every route the app
// calls; each must reach the metrics under its own template, or a new route would show
// up as a generic one (or, worse, with a name in it).
func TestEveryRouteOfTheFakeIsATemplate(t *testing.T) {
	for _, route := range fakegithub.New(fakegithub.Options{}).Routes() {
		_, template, _ := strings.Cut(route, " ")
		path := template
		for param, v := range sampleValues {
			path = strings.ReplaceAll(path, param, v)
		}
		if strings.Contains(path, "{") {
			t.Fatalf("%s: no sample value for a parameter in %s", route, path)
		}
		if got := metrics.Route("/", path); got != template {
			t.Errorf("%s: Route(%q) = %q, want the template", route, path, got)
		}
	}
}

func TestRouteKeepsNamesOutOfLabels(t *testing.T) {
	for name, tc := range map[string]struct{ apiPath, path, want string }{
		"enterpriseBasePathIsTakenOff": {"/api/v3/", "/api/v3/repos/octo/widgets/issues/42/comments", "/repos/{owner}/{repo}/issues/{issue_number}/comments"},
		"repoCommentsAreNotAnIssue":    {"/", "/repos/octo/widgets/issues/comments", "/repos/{owner}/{repo}/issues/comments"},
		"labelNameWithASlash":          {"/", "/repos/octo/widgets/issues/42/labels/team%2Fcore", "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}"},
		"deepContentsPath":             {"/", "/repos/octo/widgets/contents/a/b/c.yml", "/repos/{owner}/{repo}/contents/{path}"},
		"unknownRouteKeepsOnlyWords":   {"/", "/repos/octo/widgets/milestones/3", "/repos/{owner}/{repo}/{param}/{id}"},
		"unknownNameAfterLabels":       {"/", "/repos/octo/widgets/labels/bug/extra", "/repos/{owner}/{repo}/labels/{name}/{param}"},
		"unknownTopLevel":              {"/", "/secret-project/zz", "/{param}/{param}"},
		"enterpriseGraphQL":            {"/api/v3/", "/api/graphql", "/api/graphql"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := metrics.Route(tc.apiPath, tc.path); got != tc.want {
				t.Errorf("Route(%q, %q) = %q, want %q", tc.apiPath, tc.path, got, tc.want)
			}
		})
	}
}
