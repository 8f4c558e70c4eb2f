package fakegithub

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"time"
)

// The in-memory model. Every map is keyed by the lower-cased name because
// GitHub looks up logins, repositories and label names case-insensitively,
// while it shows them as they were spelled when created. All of it is
// guarded by Server.mu; functions whose name ends in Locked expect the caller
// to hold it.

type user struct {
	login string
	id    int64
	typ   string // "User", "Bot" or "Organization"
}

type installation struct {
	id      int64
	account string
	repos   []string // repository keys, in the order they were added
	created time.Time
}

type label struct {
	id          int64
	name        string
	color       string
	description string
}

type repository struct {
	id           int64
	owner, name  string
	installation int64
	created      time.Time
	// pushed is pushed_at: the last push to any of its branches (pushed).
	pushed  time.Time
	labels  map[string]*label // key: lower-cased name
	issues  map[int]*issue
	files   map[string]string // path -> content
	perms   map[string]string // lower-cased login -> admin|maintain|write|triage|read|none
	deleted int               // the highest number of a deleted issue: GitHub never reuses one
}

func (r *repository) fullName() string { return r.owner + "/" + r.name }

// pushedLocked moves the repository's pushed_at, as GitHub does on every push to any of its
// branches (a file written on the web, a merge, a pull request's branch in it). GitHub's
// clock moves between two pushes; the fake's stands still until Advance, so a push at the
// instant of the last is stamped a second after it, and pushed_at always moves (GitHub
// writes it to the second).
func (s *Server) pushedLocked(r *repository) {
	at := s.nowLocked().Truncate(time.Second)
	if !at.After(r.pushed) {
		at = r.pushed.Add(time.Second)
	}
	r.pushed = at
}

type issue struct {
	id          int64
	number      int
	title, body string
	author      string   // login as spelled
	state       string   // "open" or "closed"
	stateReason string   // "", "completed" or "reopened"
	labels      []string // label keys, in the order they were added
	commentIDs  []int64  // in creation order
	assignees   []string // logins as spelled
	pullRequest bool     // a pull request, which GitHub's issues API lists too
	created     time.Time
	updated     time.Time
	closed      time.Time
}

type reaction struct {
	id      int64
	content string
	login   string
	created time.Time
}

type comment struct {
	id      int64
	repo    string // repository key
	issue   int
	author  string
	body    string
	created time.Time
	updated time.Time
	// viaApp is the slug of the GitHub App the comment was written through (the app's own
	// with its installation token, another's on a person's behalf), "" for none.
	viaApp    string
	reactions []*reaction
}

type token struct {
	installation int64
	expires      time.Time // wall clock, see auth.go
	// repo and actor are set for a workflow's GITHUB_TOKEN (workflow.go): it reaches one
	// repository, and what it writes is github-actions[bot]'s.
	repo, actor string
}

// Comment is a snapshot of an issue comment, for assertions and transcripts.
type Comment struct {
	ID        int64
	User      string
	UserType  string
	Body      string
	CreatedAt time.Time
	UpdatedAt time.Time
	Reactions map[string][]string // reaction content -> logins, in the order they reacted
}

// reactionContents are the reactions GitHub accepts, in the order it lists them.
var reactionContents = []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}

func validReaction(content string) bool {
	for _, c := range reactionContents {
		if c == content {
			return true
		}
	}
	return false
}

// validPermissions are the repository roles SetPermission understands.
var validPermissions = []string{"admin", "maintain", "write", "triage", "read", "none"}

func validPermission(p string) bool {
	for _, v := range validPermissions {
		if v == p {
			return true
		}
	}
	return false
}

func key(s string) string { return strings.ToLower(s) }

// stableID derives an id from names, so ids do not depend on the order in
// which a test set things up and golden files stay put.
func stableID(base int64, parts ...string) int64 {
	h := fnv.New32a()
	for _, p := range parts {
		h.Write([]byte(strings.ToLower(p)))
		h.Write([]byte{0})
	}
	return base + int64(h.Sum32()%90_000_000)
}

// nodeID builds a node id in GitHub's legacy format: base64 of "0<len>:<Type><id>".
func nodeID(typ string, id int64) string {
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("0%d:%s%d", len(typ), typ, id)))
}

func splitRepo(full string) (owner, name string, err error) {
	owner, name, ok := strings.Cut(full, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("repository %q: expected owner/name", full)
	}
	return owner, name, nil
}

// --- lookups and creation (caller holds s.mu) ---

func (s *Server) userLocked(login string) *user {
	if u, ok := s.users[key(login)]; ok {
		return u
	}
	u := &user{login: login, id: stableID(10_000_000, "user", login), typ: "User"}
	s.users[key(login)] = u
	return u
}

// accountLocked returns the owner of a repository or installation, an
// organisation unless AddUser said otherwise.
func (s *Server) accountLocked(login string) *user {
	if u, ok := s.users[key(login)]; ok {
		return u
	}
	u := &user{login: login, id: stableID(10_000_000, "user", login), typ: "Organization"}
	s.users[key(login)] = u
	return u
}

func (s *Server) ownerTypeLocked(login string) string { return s.accountLocked(login).typ }

func (s *Server) repoLocked(full string) *repository {
	return s.repos[key(full)]
}

func (s *Server) issueLocked(full string, number int) (*repository, *issue, error) {
	r := s.repoLocked(full)
	if r == nil {
		return nil, nil, fmt.Errorf("repository %s does not exist (AddInstallation or a repo line creates it)", full)
	}
	is := r.issues[number]
	if is == nil {
		return r, nil, fmt.Errorf("issue %s#%d does not exist", full, number)
	}
	return r, is, nil
}

func (s *Server) addInstallationLocked(id int64, account string) *installation {
	if in, ok := s.installations[id]; ok {
		return in
	}
	s.accountLocked(account)
	in := &installation{id: id, account: account, created: s.nowLocked()}
	s.installations[id] = in
	return in
}

// addRepoLocked creates the repository in the installation, or moves it there.
func (s *Server) addRepoLocked(in *installation, full string) (*repository, error) {
	owner, name, err := splitRepo(full)
	if err != nil {
		return nil, err
	}
	r := s.repoLocked(full)
	if r == nil {
		s.accountLocked(owner)
		r = &repository{
			id:      stableID(500_000_000, "repo", full),
			owner:   owner,
			name:    name,
			created: s.nowLocked(),
			pushed:  s.nowLocked(),
			labels:  map[string]*label{},
			issues:  map[int]*issue{},
			files:   map[string]string{},
			perms:   map[string]string{},
		}
		s.repos[key(full)] = r
	}
	if r.installation != in.id {
		if old, ok := s.installations[r.installation]; ok {
			old.repos = removeString(old.repos, key(full))
		}
		r.installation = in.id
		in.repos = append(in.repos, key(full))
	}
	return r, nil
}

// ensureRepoLocked makes sure a repository exists, the way scenario scripts
// expect: in the installation of its owner's account, else in installation 1
// (created if missing), else in a new installation.
func (s *Server) ensureRepoLocked(full string) (*repository, error) {
	if r := s.repoLocked(full); r != nil {
		return r, nil
	}
	owner, _, err := splitRepo(full)
	if err != nil {
		return nil, err
	}
	var target *installation
	var maxID int64
	for _, id := range s.installationIDsLocked() {
		in := s.installations[id]
		if target == nil && key(in.account) == key(owner) {
			target = in
		}
		maxID = max(maxID, id)
	}
	if target == nil {
		if _, ok := s.installations[1]; !ok {
			target = s.addInstallationLocked(1, owner)
		} else {
			target = s.addInstallationLocked(maxID+1, owner)
		}
	}
	return s.addRepoLocked(target, full)
}

func (s *Server) installationIDsLocked() []int64 {
	ids := make([]int64, 0, len(s.installations))
	for id := range s.installations {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func (s *Server) repoKeysLocked() []string {
	keys := make([]string, 0, len(s.repos))
	for k := range s.repos {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// label returns the repository label, creating it with GitHub's default
// colour when create is set.
func (r *repository) label(name string, create bool) *label {
	if l, ok := r.labels[key(name)]; ok {
		return l
	}
	if !create {
		return nil
	}
	l := &label{id: stableID(3_000_000_000, "label", r.fullName(), name), name: name, color: "ededed"}
	r.labels[key(name)] = l
	return l
}

// sortedLabels returns the issue's labels ordered by name, as GitHub lists them.
func (r *repository) sortedLabels(is *issue) []*label {
	out := make([]*label, 0, len(is.labels))
	for _, k := range is.labels {
		if l, ok := r.labels[k]; ok {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i].name) < key(out[j].name) })
	return out
}

func (r *repository) allLabels() []*label {
	out := make([]*label, 0, len(r.labels))
	for _, l := range r.labels {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i].name) < key(out[j].name) })
	return out
}

func (is *issue) hasLabel(k string) bool {
	for _, l := range is.labels {
		if l == k {
			return true
		}
	}
	return false
}

func (s *Server) commentsOfLocked(is *issue) []*comment {
	out := make([]*comment, 0, len(is.commentIDs))
	for _, id := range is.commentIDs {
		if c, ok := s.comments[id]; ok {
			out = append(out, c)
		}
	}
	return out
}

// permissionLocked is the login's role on the repository; the repository
// owner is admin, anyone else not set up reads (public repository).
func (s *Server) permissionLocked(r *repository, login string) string {
	if p, ok := r.perms[key(login)]; ok {
		return p
	}
	if key(login) == key(r.owner) {
		return "admin"
	}
	return "read"
}

// associationLocked approximates author_association: OWNER for the owner,
// MEMBER for members of a team of the owning organisation, COLLABORATOR for
// anyone given a role above read, else NONE.
func (s *Server) associationLocked(r *repository, login string) string {
	if key(login) == key(r.owner) {
		return "OWNER"
	}
	prefix := key(r.owner) + "/"
	for team, members := range s.teams {
		if strings.HasPrefix(team, prefix) && members[key(login)] {
			return "MEMBER"
		}
	}
	switch r.perms[key(login)] {
	case "admin", "maintain", "write", "triage":
		return "COLLABORATOR"
	}
	return "NONE"
}

func (s *Server) snapshotLocked(c *comment) Comment {
	out := Comment{
		ID:        c.id,
		User:      c.author,
		UserType:  s.userLocked(c.author).typ,
		Body:      c.body,
		CreatedAt: c.created,
		UpdatedAt: c.updated,
		Reactions: map[string][]string{},
	}
	for _, r := range c.reactions {
		out.Reactions[r.content] = append(out.Reactions[r.content], r.login)
	}
	return out
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

func removeID(list []int64, id int64) []int64 {
	out := list[:0]
	for _, v := range list {
		if v != id {
			out = append(out, v)
		}
	}
	return out
}
