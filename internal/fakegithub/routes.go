package fakegithub

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// authKind says which credential a route takes.
type authKind int

const (
	authInstallation authKind = iota // an installation token: "token X" or "Bearer X"
	authApp                          // the App JWT: "Bearer <jwt>"
)

// route is one REST endpoint. Routes are tried in table order, so a literal
// segment ("/issues/comments") is listed before a parameter at the same place
// ("/issues/{issue_number}"), which http.ServeMux would refuse as a conflict.
type route struct {
	template string // "GET /repos/{owner}/{repo}/issues"
	method   string
	segments []string
	auth     authKind
	docs     string // documentation_url of this route's errors
	handle   func(*call) reply
}

// call is one request being handled.
type call struct {
	s            *Server
	r            *http.Request
	route        *route
	params       map[string]string
	body         []byte
	installation int64 // authenticated installation, 0 for the App JWT
	// repoScope and actor come from a workflow token (workflow.go); empty for the app's.
	repoScope, actor string
}

func (c *call) param(name string) string { return c.params[name] }

// intParam reads a numeric path parameter; the router only matches numbers there.
func (c *call) intParam(name string) int64 {
	n, _ := strconv.ParseInt(c.params[name], 10, 64)
	return n
}

// decode parses the JSON request body, answering GitHub's 400 when it is not JSON.
func (c *call) decode(v any) *reply {
	if err := json.Unmarshal(c.body, v); err != nil {
		rep := errorReply(http.StatusBadRequest, "Problems parsing JSON", c.route.docs)
		return &rep
	}
	return nil
}

func (c *call) notFound() reply { return errorReply(http.StatusNotFound, "Not Found", c.route.docs) }

const routeAccessToken = "POST /app/installations/{installation_id}/access_tokens"

// routeSpec is one line of the route table: the template GitHub documents, the
// credential it takes, its documentation page and the handler.
type routeSpec struct {
	template string
	auth     authKind
	docs     string
	handle   func(*call) reply
}

// Documentation pages of the routes, as GitHub's errors link them.
const (
	docsApps      = "https://docs.github.com/rest/apps/apps"
	docsInstRepos = "https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-app-installation"
	docsRepo      = "https://docs.github.com/rest/repos/repos#get-a-repository"
	docsIssues    = "https://docs.github.com/rest/issues/issues"
	docsComments  = "https://docs.github.com/rest/issues/comments"
	docsLabels    = "https://docs.github.com/rest/issues/labels"
	docsReactions = "https://docs.github.com/rest/reactions/reactions"
	docsCollab    = "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user"
	docsContents  = "https://docs.github.com/rest/repos/contents#get-repository-content"
	docsTeams     = "https://docs.github.com/rest/teams/members#get-team-membership-for-a-user"
	docsHooks     = "https://docs.github.com/rest/apps/webhooks"
)

// routeTable builds the routes from their groups. The comment routes come
// before the issue routes so that the literal "/issues/comments" is tried
// before "/issues/{issue_number}".
func (s *Server) routeTable() []*route {
	var specs []routeSpec
	for _, group := range [][]routeSpec{s.appRoutes(), s.commentRoutes(), s.issueRoutes(), s.labelRoutes(), s.relationRoutes(), s.repoRoutes(), s.searchRoutes()} {
		specs = append(specs, group...)
	}
	routes := make([]*route, 0, len(specs))
	for _, t := range specs {
		method, path, _ := strings.Cut(t.template, " ")
		routes = append(routes, &route{
			template: t.template,
			method:   method,
			segments: strings.Split(strings.TrimPrefix(path, "/"), "/"),
			auth:     t.auth,
			docs:     t.docs,
			handle:   t.handle,
		})
	}
	return routes
}

// appRoutes are the App's own routes: installations, their tokens and repositories, webhook deliveries.
func (s *Server) appRoutes() []routeSpec {
	return []routeSpec{
		{routeAccessToken, authApp, docsApps + "#create-an-installation-access-token-for-an-app", s.createAccessToken},
		{"GET /app/installations", authApp, docsApps + "#list-installations-for-the-authenticated-app", s.listInstallations},
		{"GET /app/installations/{installation_id}", authApp, docsApps + "#get-an-installation-for-the-authenticated-app", s.getInstallation},
		{"GET /app", authApp, docsApps + "#get-the-authenticated-app", s.getApp},
		{"GET /repos/{owner}/{repo}/installation", authApp, docsApps + "#get-a-repository-installation-for-the-authenticated-app", s.findRepoInstallation},
		{"GET /orgs/{org}/installation", authApp, docsApps + "#get-an-organization-installation-for-the-authenticated-app", s.findAccountInstallation},
		{"GET /users/{username}/installation", authApp, docsApps + "#get-a-user-installation-for-the-authenticated-app", s.findAccountInstallation},
		{"GET /installation/repositories", authInstallation, docsInstRepos, s.listInstallationRepos},
		{"GET /app/hook/deliveries", authApp, docsHooks + "#list-deliveries-for-an-app-webhook", s.listHookDeliveries},
		{"POST /app/hook/deliveries/{delivery_id}/attempts", authApp, docsHooks + "#redeliver-a-delivery-for-an-app-webhook", s.redeliverHook},
	}
}

// commentRoutes are the issue comment routes, with their reactions.
func (s *Server) commentRoutes() []routeSpec {
	return []routeSpec{
		{"GET /repos/{owner}/{repo}/issues/comments", authInstallation, docsComments + "#list-issue-comments-for-a-repository", s.listRepoComments},
		{"GET /repos/{owner}/{repo}/issues/comments/{comment_id}", authInstallation, docsComments + "#get-an-issue-comment", s.getComment},
		{"PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", authInstallation, docsComments + "#update-an-issue-comment", s.updateComment},
		{"DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", authInstallation, docsComments + "#delete-an-issue-comment", s.deleteComment},
		{"GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", authInstallation, docsReactions + "#list-reactions-for-an-issue-comment", s.listReactions},
		{"POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", authInstallation, docsReactions + "#create-reaction-for-an-issue-comment", s.createReaction},
		{"DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}", authInstallation, docsReactions + "#delete-an-issue-comment-reaction", s.deleteReaction},
	}
}

// issueRoutes are the issue routes, with the comments of one issue.
func (s *Server) issueRoutes() []routeSpec {
	return []routeSpec{
		{"GET /repos/{owner}/{repo}/issues", authInstallation, docsIssues + "#list-repository-issues", s.listIssues},
		{"POST /repos/{owner}/{repo}/issues", authInstallation, docsIssues + "#create-an-issue", s.createIssue},
		{"GET /repos/{owner}/{repo}/issues/{issue_number}", authInstallation, docsIssues + "#get-an-issue", s.getIssue},
		{"PATCH /repos/{owner}/{repo}/issues/{issue_number}", authInstallation, docsIssues + "#update-an-issue", s.updateIssue},
		{"GET /repos/{owner}/{repo}/issues/{issue_number}/comments", authInstallation, docsComments + "#list-issue-comments", s.listComments},
		{"POST /repos/{owner}/{repo}/issues/{issue_number}/comments", authInstallation, docsComments + "#create-an-issue-comment", s.createComment},
	}
}

// labelRoutes are the label routes, of an issue and of the repository.
func (s *Server) labelRoutes() []routeSpec {
	return []routeSpec{
		{"GET /repos/{owner}/{repo}/issues/{issue_number}/labels", authInstallation, docsLabels + "#list-labels-for-an-issue", s.listIssueLabels},
		{"POST /repos/{owner}/{repo}/issues/{issue_number}/labels", authInstallation, docsLabels + "#add-labels-to-an-issue", s.addIssueLabels},
		{"PUT /repos/{owner}/{repo}/issues/{issue_number}/labels", authInstallation, docsLabels + "#set-labels-for-an-issue", s.setIssueLabels},
		{"DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels", authInstallation, docsLabels + "#remove-all-labels-from-an-issue", s.clearIssueLabels},
		{"DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", authInstallation, docsLabels + "#remove-a-label-from-an-issue", s.removeIssueLabel},
		{"GET /repos/{owner}/{repo}/labels", authInstallation, docsLabels + "#list-labels-for-a-repository", s.listRepoLabels},
		{"POST /repos/{owner}/{repo}/labels", authInstallation, docsLabels + "#create-a-label", s.createRepoLabel},
		{"GET /repos/{owner}/{repo}/labels/{name}", authInstallation, docsLabels + "#get-a-label", s.getRepoLabel},
		{"PATCH /repos/{owner}/{repo}/labels/{name}", authInstallation, docsLabels + "#update-a-label", s.updateRepoLabel},
	}
}

// repoRoutes are the repository routes outside issues: the repository, permissions, contents, teams, dispatches, pull requests and check runs.
func (s *Server) repoRoutes() []routeSpec {
	return []routeSpec{
		{"GET /repos/{owner}/{repo}", authInstallation, docsRepo, s.getRepo},
		{"GET /repos/{owner}/{repo}/collaborators/{username}/permission", authInstallation, docsCollab, s.getPermission},
		{"GET /repos/{owner}/{repo}/contents/{path}", authInstallation, docsContents, s.getContents},
		{"GET /orgs/{org}/teams/{team_slug}/memberships/{username}", authInstallation, docsTeams, s.getTeamMembership},
		{RouteDispatches, authInstallation, docsDispatches, s.createDispatch},
		{RouteListPulls, authInstallation, docsPulls + "#list-pull-requests", s.listPulls},
		{RouteCreateCheckRun, authInstallation, docsCheckRuns + "#create-a-check-run", s.createCheckRun},
		{RouteUpdateCheckRun, authInstallation, docsCheckRuns + "#update-a-check-run", s.updateCheckRun},
		{RouteListCheckRuns, authInstallation, docsCheckRuns + "#list-check-runs-for-a-git-reference", s.listCheckRuns},
	}
}

// match finds the route for the method and escaped path. Parameters are
// unescaped per segment, so a label named "a/b" arrives as "a%2Fb" and still
// matches one segment. {path} (contents) takes the rest of the path; any
// parameter named *_id or *_number only matches a positive integer.
func (s *Server) match(method, escapedPath string) (*route, map[string]string) {
	segs := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	for _, rt := range s.routes {
		if rt.method != method {
			continue
		}
		if params, ok := matchSegments(rt.segments, segs); ok {
			return rt, params
		}
	}
	return nil, nil
}

// matchSegments matches escaped path segments against a route's pattern and
// returns the unescaped parameters.
func matchSegments(pattern, segs []string) (map[string]string, bool) {
	params := map[string]string{}
	for i, p := range pattern {
		name, isParam := strings.CutPrefix(p, "{")
		name = strings.TrimSuffix(name, "}")
		if isParam && name == "path" && i == len(pattern)-1 {
			rest, ok := matchRestOfPath(segs, i)
			if !ok {
				return nil, false
			}
			params[name] = rest
			return params, true
		}
		if i >= len(segs) {
			return nil, false
		}
		if !isParam {
			if segs[i] != p {
				return nil, false
			}
			continue
		}
		v, ok := matchParam(name, segs[i])
		if !ok {
			return nil, false
		}
		params[name] = v
	}
	return params, len(segs) == len(pattern)
}

// matchRestOfPath takes the segments from i on as one unescaped path, as
// {path} reads them; empty segments are dropped.
func matchRestOfPath(segs []string, i int) (string, bool) {
	if i > len(segs) {
		return "", false
	}
	parts := make([]string, 0, len(segs)-i)
	for _, seg := range segs[i:] {
		u, err := url.PathUnescape(seg)
		if err != nil {
			return "", false
		}
		if u != "" {
			parts = append(parts, u)
		}
	}
	return strings.Join(parts, "/"), true
}

// matchParam unescapes one parameter segment; it must not be empty, and a
// parameter named *_id or *_number must be a positive integer.
func matchParam(name, seg string) (string, bool) {
	v, err := url.PathUnescape(seg)
	if err != nil || v == "" {
		return "", false
	}
	if strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_number") {
		if n, err := strconv.ParseInt(v, 10, 64); err != nil || n <= 0 {
			return "", false
		}
	}
	return v, true
}
