package fakegithub

import (
	"hash/fnv"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// JSON shapes shared by REST responses and webhook payloads, with fields in
// GitHub's order. URLs inside bodies point at github.com, as real payloads
// do; only Link headers point at the fake itself.
// Payload reference: https://docs.github.com/webhooks/webhook-events-and-payloads

const (
	apiBase  = "https://api.github.com"
	htmlBase = "https://github.com"
)

// jtime is a timestamp as GitHub writes it: ISO 8601 in UTC, null when unset.
type jtime time.Time

// MarshalJSON writes the timestamp or null.
func (t jtime) MarshalJSON() ([]byte, error) {
	if time.Time(t).IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + time.Time(t).UTC().Format("2006-01-02T15:04:05Z") + `"`), nil
}

// nullString is null when empty.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

type userJSON struct {
	Login             string `json:"login"`
	ID                int64  `json:"id"`
	NodeID            string `json:"node_id"`
	AvatarURL         string `json:"avatar_url"`
	GravatarID        string `json:"gravatar_id"`
	URL               string `json:"url"`
	HTMLURL           string `json:"html_url"`
	FollowersURL      string `json:"followers_url"`
	FollowingURL      string `json:"following_url"`
	GistsURL          string `json:"gists_url"`
	StarredURL        string `json:"starred_url"`
	SubscriptionsURL  string `json:"subscriptions_url"`
	OrganizationsURL  string `json:"organizations_url"`
	ReposURL          string `json:"repos_url"`
	EventsURL         string `json:"events_url"`
	ReceivedEventsURL string `json:"received_events_url"`
	Type              string `json:"type"`
	UserViewType      string `json:"user_view_type"`
	SiteAdmin         bool   `json:"site_admin"`
}

func (s *Server) userJSONLocked(login string) userJSON {
	u := s.userLocked(login)
	api := apiBase + "/users/" + url.PathEscape(u.login)
	html := htmlBase + "/" + u.login
	if u.typ == "Bot" {
		html = htmlBase + "/apps/" + strings.TrimSuffix(u.login, "[bot]")
	}
	return userJSON{
		Login:             u.login,
		ID:                u.id,
		NodeID:            nodeID(u.typ, u.id),
		AvatarURL:         "https://avatars.githubusercontent.com/u/" + strconv.FormatInt(u.id, 10) + "?v=4",
		URL:               api,
		HTMLURL:           html,
		FollowersURL:      api + "/followers",
		FollowingURL:      api + "/following{/other_user}",
		GistsURL:          api + "/gists{/gist_id}",
		StarredURL:        api + "/starred{/owner}{/repo}",
		SubscriptionsURL:  api + "/subscriptions",
		OrganizationsURL:  api + "/orgs",
		ReposURL:          api + "/repos",
		EventsURL:         api + "/events{/privacy}",
		ReceivedEventsURL: api + "/received_events",
		Type:              u.typ,
		UserViewType:      "public",
	}
}

type labelJSON struct {
	ID          int64   `json:"id"`
	NodeID      string  `json:"node_id"`
	URL         string  `json:"url"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Default     bool    `json:"default"`
	Description *string `json:"description"`
}

func labelJSONOf(r *repository, l *label) labelJSON {
	return labelJSON{
		ID:          l.id,
		NodeID:      nodeID("Label", l.id),
		URL:         apiBase + "/repos/" + r.fullName() + "/labels/" + url.PathEscape(l.name),
		Name:        l.name,
		Color:       l.color,
		Description: nullString(l.description),
	}
}

func labelsJSONOf(r *repository, ls []*label) []labelJSON {
	out := make([]labelJSON, 0, len(ls))
	for _, l := range ls {
		out = append(out, labelJSONOf(r, l))
	}
	return out
}

// reactionsJSON is the reaction rollup on issues and comments.
type reactionsJSON struct {
	URL        string `json:"url"`
	TotalCount int    `json:"total_count"`
	PlusOne    int    `json:"+1"`
	MinusOne   int    `json:"-1"`
	Laugh      int    `json:"laugh"`
	Hooray     int    `json:"hooray"`
	Confused   int    `json:"confused"`
	Heart      int    `json:"heart"`
	Rocket     int    `json:"rocket"`
	Eyes       int    `json:"eyes"`
}

func rollup(u string, rs []*reaction) reactionsJSON {
	out := reactionsJSON{URL: u + "/reactions", TotalCount: len(rs)}
	for _, r := range rs {
		switch r.content {
		case "+1":
			out.PlusOne++
		case "-1":
			out.MinusOne++
		case "laugh":
			out.Laugh++
		case "hooray":
			out.Hooray++
		case "confused":
			out.Confused++
		case "heart":
			out.Heart++
		case "rocket":
			out.Rocket++
		case "eyes":
			out.Eyes++
		}
	}
	return out
}

type issueJSON struct {
	URL                   string        `json:"url"`
	RepositoryURL         string        `json:"repository_url"`
	LabelsURL             string        `json:"labels_url"`
	CommentsURL           string        `json:"comments_url"`
	EventsURL             string        `json:"events_url"`
	HTMLURL               string        `json:"html_url"`
	ID                    int64         `json:"id"`
	NodeID                string        `json:"node_id"`
	Number                int           `json:"number"`
	Title                 string        `json:"title"`
	User                  userJSON      `json:"user"`
	Labels                []labelJSON   `json:"labels"`
	State                 string        `json:"state"`
	Locked                bool          `json:"locked"`
	Assignee              *userJSON     `json:"assignee"`
	Assignees             []userJSON    `json:"assignees"`
	Milestone             *struct{}     `json:"milestone"`
	Comments              int           `json:"comments"`
	CreatedAt             jtime         `json:"created_at"`
	UpdatedAt             jtime         `json:"updated_at"`
	ClosedAt              jtime         `json:"closed_at"`
	AuthorAssociation     string        `json:"author_association"`
	ActiveLockReason      *string       `json:"active_lock_reason"`
	Body                  *string       `json:"body"`
	Reactions             reactionsJSON `json:"reactions"`
	TimelineURL           string        `json:"timeline_url"`
	PerformedViaGithubApp *appJSON      `json:"performed_via_github_app"`
	StateReason           *string       `json:"state_reason"`
	PullRequest           *pullRefJSON  `json:"pull_request,omitempty"`
}

// pullRefJSON is the pull_request object by which GitHub's issues API marks a pull request.
type pullRefJSON struct {
	URL      string  `json:"url"`
	HTMLURL  string  `json:"html_url"`
	DiffURL  string  `json:"diff_url"`
	PatchURL string  `json:"patch_url"`
	MergedAt *string `json:"merged_at"`
}

func (s *Server) issueJSONLocked(r *repository, is *issue) issueJSON {
	u := apiBase + "/repos/" + r.fullName() + "/issues/" + strconv.Itoa(is.number)
	out := issueJSON{
		URL:               u,
		RepositoryURL:     apiBase + "/repos/" + r.fullName(),
		LabelsURL:         u + "/labels{/name}",
		CommentsURL:       u + "/comments",
		EventsURL:         u + "/events",
		HTMLURL:           htmlBase + "/" + r.fullName() + "/issues/" + strconv.Itoa(is.number),
		ID:                is.id,
		NodeID:            nodeID("Issue", is.id),
		Number:            is.number,
		Title:             is.title,
		User:              s.userJSONLocked(is.author),
		Labels:            labelsJSONOf(r, r.sortedLabels(is)),
		State:             is.state,
		Assignees:         []userJSON{},
		Comments:          len(is.commentIDs),
		CreatedAt:         jtime(is.created),
		UpdatedAt:         jtime(is.updated),
		ClosedAt:          jtime(is.closed),
		AuthorAssociation: s.associationLocked(r, is.author),
		Body:              nullString(is.body),
		Reactions:         rollup(u, nil),
		TimelineURL:       u + "/timeline",
		StateReason:       nullString(is.stateReason),
	}
	for _, a := range is.assignees {
		out.Assignees = append(out.Assignees, s.userJSONLocked(a))
	}
	if len(out.Assignees) > 0 {
		out.Assignee = &out.Assignees[0]
	}
	if is.pullRequest {
		pu := apiBase + "/repos/" + r.fullName() + "/pulls/" + strconv.Itoa(is.number)
		ph := htmlBase + "/" + r.fullName() + "/pull/" + strconv.Itoa(is.number)
		out.PullRequest = &pullRefJSON{URL: pu, HTMLURL: ph, DiffURL: ph + ".diff", PatchURL: ph + ".patch"}
		out.HTMLURL = ph
	}
	return out
}

type commentJSON struct {
	URL                   string        `json:"url"`
	HTMLURL               string        `json:"html_url"`
	IssueURL              string        `json:"issue_url"`
	ID                    int64         `json:"id"`
	NodeID                string        `json:"node_id"`
	User                  userJSON      `json:"user"`
	CreatedAt             jtime         `json:"created_at"`
	UpdatedAt             jtime         `json:"updated_at"`
	AuthorAssociation     string        `json:"author_association"`
	Body                  string        `json:"body"`
	Reactions             reactionsJSON `json:"reactions"`
	PerformedViaGithubApp *appJSON      `json:"performed_via_github_app"`
}

func (s *Server) commentJSONLocked(c *comment) commentJSON {
	r := s.repos[c.repo]
	issueURL := apiBase + "/repos/" + r.fullName() + "/issues/" + strconv.Itoa(c.issue)
	u := apiBase + "/repos/" + r.fullName() + "/issues/comments/" + strconv.FormatInt(c.id, 10)
	out := commentJSON{
		URL:               u,
		HTMLURL:           htmlBase + "/" + r.fullName() + "/issues/" + strconv.Itoa(c.issue) + "#issuecomment-" + strconv.FormatInt(c.id, 10),
		IssueURL:          issueURL,
		ID:                c.id,
		NodeID:            nodeID("IssueComment", c.id),
		User:              s.userJSONLocked(c.author),
		CreatedAt:         jtime(c.created),
		UpdatedAt:         jtime(c.updated),
		AuthorAssociation: s.associationLocked(r, c.author),
		Body:              c.body,
		Reactions:         rollup(u, c.reactions),
	}
	switch c.viaApp {
	case "":
	case s.opts.AppSlug:
		app := s.appJSONLocked(r.owner)
		out.PerformedViaGithubApp = &app
	default:
		app := s.otherAppJSONLocked(c.viaApp)
		out.PerformedViaGithubApp = &app
	}
	return out
}

type reactionJSON struct {
	ID        int64    `json:"id"`
	NodeID    string   `json:"node_id"`
	User      userJSON `json:"user"`
	Content   string   `json:"content"`
	CreatedAt jtime    `json:"created_at"`
}

func (s *Server) reactionJSONLocked(r *reaction) reactionJSON {
	return reactionJSON{ID: r.id, NodeID: nodeID("Reaction", r.id), User: s.userJSONLocked(r.login), Content: r.content, CreatedAt: jtime(r.created)}
}

type appJSON struct {
	ID          int64             `json:"id"`
	Slug        string            `json:"slug"`
	NodeID      string            `json:"node_id"`
	Owner       userJSON          `json:"owner"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	ExternalURL string            `json:"external_url"`
	HTMLURL     string            `json:"html_url"`
	CreatedAt   jtime             `json:"created_at"`
	UpdatedAt   jtime             `json:"updated_at"`
	Permissions map[string]string `json:"permissions"`
	Events      []string          `json:"events"`
}

// appJSONLocked describes the app, as owned by owner.
func (s *Server) appJSONLocked(owner string) appJSON {
	return appJSON{
		ID:          s.opts.AppID,
		Slug:        s.opts.AppSlug,
		NodeID:      nodeID("App", s.opts.AppID),
		Owner:       s.userJSONLocked(owner),
		Name:        s.opts.AppSlug,
		Description: "Clarification protocol in GitHub issues",
		ExternalURL: htmlBase + "/apps/" + s.opts.AppSlug,
		HTMLURL:     htmlBase + "/apps/" + s.opts.AppSlug,
		CreatedAt:   jtime(DefaultStart.AddDate(0, -1, 0)),
		UpdatedAt:   jtime(DefaultStart.AddDate(0, -1, 0)),
		Permissions: installationPermissions,
		Events:      []string{"issue_comment", "issues"},
	}
}

// otherAppJSON describes another GitHub App, by its slug, owned by an account of that name:
// one a person wrote a comment through with its user-to-server token.
func (s *Server) otherAppJSONLocked(slug string) appJSON {
	h := fnv.New32a()
	h.Write([]byte(slug))
	id := int64(h.Sum32()%900000) + 100000
	return appJSON{
		ID:          id,
		Slug:        slug,
		NodeID:      nodeID("App", id),
		Owner:       s.userJSONLocked(slug),
		Name:        slug,
		ExternalURL: htmlBase + "/apps/" + slug,
		HTMLURL:     htmlBase + "/apps/" + slug,
		CreatedAt:   jtime(DefaultStart.AddDate(-1, 0, 0)),
		UpdatedAt:   jtime(DefaultStart.AddDate(-1, 0, 0)),
		Permissions: map[string]string{"issues": "write", "metadata": "read"},
		Events:      []string{},
	}
}

type repoJSON struct {
	ID               int64     `json:"id"`
	NodeID           string    `json:"node_id"`
	Name             string    `json:"name"`
	FullName         string    `json:"full_name"`
	Private          bool      `json:"private"`
	Owner            userJSON  `json:"owner"`
	HTMLURL          string    `json:"html_url"`
	Description      *string   `json:"description"`
	Fork             bool      `json:"fork"`
	URL              string    `json:"url"`
	CollaboratorsURL string    `json:"collaborators_url"`
	TeamsURL         string    `json:"teams_url"`
	HooksURL         string    `json:"hooks_url"`
	IssueEventsURL   string    `json:"issue_events_url"`
	EventsURL        string    `json:"events_url"`
	IssueCommentURL  string    `json:"issue_comment_url"`
	ContentsURL      string    `json:"contents_url"`
	IssuesURL        string    `json:"issues_url"`
	LabelsURL        string    `json:"labels_url"`
	CreatedAt        jtime     `json:"created_at"`
	UpdatedAt        jtime     `json:"updated_at"`
	PushedAt         jtime     `json:"pushed_at"`
	GitURL           string    `json:"git_url"`
	SSHURL           string    `json:"ssh_url"`
	CloneURL         string    `json:"clone_url"`
	SvnURL           string    `json:"svn_url"`
	Homepage         *string   `json:"homepage"`
	Size             int       `json:"size"`
	StargazersCount  int       `json:"stargazers_count"`
	WatchersCount    int       `json:"watchers_count"`
	Language         *string   `json:"language"`
	HasIssues        bool      `json:"has_issues"`
	HasProjects      bool      `json:"has_projects"`
	HasDownloads     bool      `json:"has_downloads"`
	HasWiki          bool      `json:"has_wiki"`
	HasPages         bool      `json:"has_pages"`
	HasDiscussions   bool      `json:"has_discussions"`
	ForksCount       int       `json:"forks_count"`
	MirrorURL        *string   `json:"mirror_url"`
	Archived         bool      `json:"archived"`
	Disabled         bool      `json:"disabled"`
	OpenIssuesCount  int       `json:"open_issues_count"`
	License          *struct{} `json:"license"`
	AllowForking     bool      `json:"allow_forking"`
	IsTemplate       bool      `json:"is_template"`
	Topics           []string  `json:"topics"`
	Visibility       string    `json:"visibility"`
	Forks            int       `json:"forks"`
	OpenIssues       int       `json:"open_issues"`
	Watchers         int       `json:"watchers"`
	DefaultBranch    string    `json:"default_branch"`
}

func (s *Server) repoJSONLocked(r *repository) repoJSON {
	api := apiBase + "/repos/" + r.fullName()
	open := 0
	for _, is := range r.issues {
		if is.state == "open" {
			open++
		}
	}
	return repoJSON{
		ID:               r.id,
		NodeID:           nodeID("Repository", r.id),
		Name:             r.name,
		FullName:         r.fullName(),
		Owner:            s.userJSONLocked(r.owner),
		HTMLURL:          htmlBase + "/" + r.fullName(),
		URL:              api,
		CollaboratorsURL: api + "/collaborators{/collaborator}",
		TeamsURL:         api + "/teams",
		HooksURL:         api + "/hooks",
		IssueEventsURL:   api + "/issues/events{/number}",
		EventsURL:        api + "/events",
		IssueCommentURL:  api + "/issues/comments{/number}",
		ContentsURL:      api + "/contents/{+path}",
		IssuesURL:        api + "/issues{/number}",
		LabelsURL:        api + "/labels{/name}",
		CreatedAt:        jtime(r.created),
		UpdatedAt:        jtime(r.created),
		PushedAt:         jtime(r.pushed),
		GitURL:           "git://github.com/" + r.fullName() + ".git",
		SSHURL:           "git@github.com:" + r.fullName() + ".git",
		CloneURL:         htmlBase + "/" + r.fullName() + ".git",
		SvnURL:           htmlBase + "/" + r.fullName(),
		HasIssues:        true,
		HasProjects:      true,
		HasDownloads:     true,
		HasWiki:          true,
		OpenIssuesCount:  open,
		AllowForking:     true,
		Topics:           []string{},
		Visibility:       "public",
		OpenIssues:       open,
		DefaultBranch:    "main",
	}
}

// orgJSON is the "organization" object of payloads for organisation-owned repositories.
type orgJSON struct {
	Login       string `json:"login"`
	ID          int64  `json:"id"`
	NodeID      string `json:"node_id"`
	URL         string `json:"url"`
	ReposURL    string `json:"repos_url"`
	EventsURL   string `json:"events_url"`
	HooksURL    string `json:"hooks_url"`
	IssuesURL   string `json:"issues_url"`
	MembersURL  string `json:"members_url"`
	AvatarURL   string `json:"avatar_url"`
	Description string `json:"description"`
}

func (s *Server) orgJSONLocked(login string) *orgJSON {
	if s.ownerTypeLocked(login) != "Organization" {
		return nil
	}
	u := s.userLocked(login)
	api := apiBase + "/orgs/" + u.login
	return &orgJSON{
		Login:      u.login,
		ID:         u.id,
		NodeID:     nodeID("Organization", u.id),
		URL:        api,
		ReposURL:   api + "/repos",
		EventsURL:  api + "/events",
		HooksURL:   api + "/hooks",
		IssuesURL:  api + "/issues",
		MembersURL: api + "/members{/member}",
		AvatarURL:  "https://avatars.githubusercontent.com/u/" + strconv.FormatInt(u.id, 10) + "?v=4",
	}
}

type installationRefJSON struct {
	ID     int64  `json:"id"`
	NodeID string `json:"node_id"`
}

type installationJSON struct {
	ID                  int64             `json:"id"`
	Account             userJSON          `json:"account"`
	RepositorySelection string            `json:"repository_selection"`
	AccessTokensURL     string            `json:"access_tokens_url"`
	RepositoriesURL     string            `json:"repositories_url"`
	HTMLURL             string            `json:"html_url"`
	AppID               int64             `json:"app_id"`
	AppSlug             string            `json:"app_slug"`
	TargetID            int64             `json:"target_id"`
	TargetType          string            `json:"target_type"`
	Permissions         map[string]string `json:"permissions"`
	Events              []string          `json:"events"`
	CreatedAt           jtime             `json:"created_at"`
	UpdatedAt           jtime             `json:"updated_at"`
	SingleFileName      *string           `json:"single_file_name"`
}

func (s *Server) installationJSONLocked(in *installation) installationJSON {
	acct := s.userJSONLocked(in.account)
	acct.Type = s.ownerTypeLocked(in.account)
	return installationJSON{
		ID:                  in.id,
		Account:             acct,
		RepositorySelection: "selected",
		AccessTokensURL:     apiBase + "/app/installations/" + strconv.FormatInt(in.id, 10) + "/access_tokens",
		RepositoriesURL:     apiBase + "/installation/repositories",
		HTMLURL:             htmlBase + "/organizations/" + in.account + "/settings/installations/" + strconv.FormatInt(in.id, 10),
		AppID:               s.opts.AppID,
		AppSlug:             s.opts.AppSlug,
		TargetID:            acct.ID,
		TargetType:          acct.Type,
		Permissions:         installationPermissions,
		Events:              []string{"issue_comment", "issues"},
		CreatedAt:           jtime(in.created),
		UpdatedAt:           jtime(in.created),
	}
}

type installationReposJSON struct {
	TotalCount          int        `json:"total_count"`
	RepositorySelection string     `json:"repository_selection"`
	Repositories        []repoJSON `json:"repositories"`
}

type accessTokenJSON struct {
	Token               string            `json:"token"`
	ExpiresAt           string            `json:"expires_at"`
	Permissions         map[string]string `json:"permissions"`
	RepositorySelection string            `json:"repository_selection"`
}

// --- webhook payloads ---

type changesJSON struct {
	Body *struct {
		From string `json:"from"`
	} `json:"body,omitempty"`
}

type issueCommentPayload struct {
	Action       string              `json:"action"`
	Changes      *changesJSON        `json:"changes,omitempty"`
	Issue        issueJSON           `json:"issue"`
	Comment      commentJSON         `json:"comment"`
	Repository   repoJSON            `json:"repository"`
	Organization *orgJSON            `json:"organization,omitempty"`
	Sender       userJSON            `json:"sender"`
	Installation installationRefJSON `json:"installation"`
}

type issuesPayload struct {
	Action       string              `json:"action"`
	Issue        issueJSON           `json:"issue"`
	Repository   repoJSON            `json:"repository"`
	Organization *orgJSON            `json:"organization,omitempty"`
	Sender       userJSON            `json:"sender"`
	Installation installationRefJSON `json:"installation"`
}

// commentDeliveryLocked builds an issue_comment delivery from the current
// state of the issue; from is the previous body for "edited".
func (s *Server) commentDeliveryLocked(action string, c *comment, sender, from string) Delivery {
	r := s.repos[c.repo]
	p := issueCommentPayload{
		Action:       action,
		Issue:        s.issueJSONLocked(r, r.issues[c.issue]),
		Comment:      s.commentJSONLocked(c),
		Repository:   s.repoJSONLocked(r),
		Organization: s.orgJSONLocked(r.owner),
		Sender:       s.userJSONLocked(sender),
		Installation: installationRefJSON{ID: r.installation, NodeID: nodeID("IntegrationInstallation", r.installation)},
	}
	if action == "edited" {
		p.Changes = &changesJSON{Body: &struct {
			From string `json:"from"`
		}{From: from}}
	}
	return s.newDeliveryLocked("issue_comment", p)
}

// issuesDeliveryLocked builds an issues delivery from the current state of the issue.
func (s *Server) issuesDeliveryLocked(action string, r *repository, is *issue, sender string) Delivery {
	return s.newDeliveryLocked("issues", issuesPayload{
		Action:       action,
		Issue:        s.issueJSONLocked(r, is),
		Repository:   s.repoJSONLocked(r),
		Organization: s.orgJSONLocked(r.owner),
		Sender:       s.userJSONLocked(sender),
		Installation: installationRefJSON{ID: r.installation, NodeID: nodeID("IntegrationInstallation", r.installation)},
	})
}
