package fakegithub

import (
	"fmt"
	"sort"
	"strings"
)

// Setup and read-back methods. Setup methods panic on impossible input
// (a malformed "owner/name", an unknown permission): they are called by test
// code, where a panic points straight at the bad line. Scenario scripts are
// checked by ParseScenario and Run, which return errors instead.

// AddInstallation installs the app on account with access to repos
// ("owner/name"), creating the repositories; a repository already in another
// installation moves to this one.
func (s *Server) AddInstallation(id int64, account string, repos ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.addInstallationLocked(id, account)
	for _, full := range repos {
		if _, err := s.addRepoLocked(in, full); err != nil {
			panic("fakegithub: AddInstallation: " + err.Error())
		}
	}
}

// AddUser registers an account with its type: "User", "Bot" or "Organization".
// Accounts that act without being added are users.
func (s *Server) AddUser(login string, typ string) {
	switch typ {
	case "User", "Bot", "Organization":
	default:
		panic(fmt.Sprintf("fakegithub: AddUser(%q, %q): type must be User, Bot or Organization", login, typ))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.userLocked(login).typ = typ
}

// SetPermission gives login a role on the repository: admin, maintain,
// write, triage, read or none.
func (s *Server) SetPermission(repo, login, perm string) {
	if !validPermission(perm) {
		panic(fmt.Sprintf("fakegithub: SetPermission: %q is not one of %s", perm, strings.Join(validPermissions, ", ")))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepoLocked("SetPermission", repo)
	s.userLocked(login)
	r.perms[key(login)] = perm
}

// AddTeamMember makes login an active member of the team org/teamSlug.
func (s *Server) AddTeamMember(org, teamSlug, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addTeamMemberLocked(org, teamSlug, login)
}

func (s *Server) addTeamMemberLocked(org, teamSlug, login string) {
	s.accountLocked(org)
	s.userLocked(login)
	team := key(org + "/" + teamSlug)
	if s.teams[team] == nil {
		s.teams[team] = map[string]bool{}
	}
	s.teams[team][key(login)] = true
}

// SetFile puts a file in the repository's default branch, a push as a web edit is (pushed_at
// moves); empty content is an empty file.
func (s *Server) SetFile(repo, path, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepoLocked("SetFile", repo)
	r.files[strings.Trim(path, "/")] = content
	s.pushedLocked(r)
}

// SetLabel creates or updates a repository label, as a maintainer would in the UI.
func (s *Server) SetLabel(repo, name, color, description string) {
	c, ok := validColor(color)
	if !ok {
		panic(fmt.Sprintf("fakegithub: SetLabel: colour %q is not six hex digits", color))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.mustRepoLocked("SetLabel", repo).label(name, true)
	l.color, l.description = c, description
}

func (s *Server) mustRepoLocked(op, repo string) *repository {
	r := s.repoLocked(repo)
	if r == nil {
		panic(fmt.Sprintf("fakegithub: %s: repository %s does not exist (AddInstallation creates it)", op, repo))
	}
	return r
}

// --- reading state ---

// Comments returns the issue's comments, oldest first; nil if there is no such issue.
func (s *Server) Comments(repo string, number int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.issueLocked(repo, number)
	if err != nil {
		return nil
	}
	var out []Comment
	for _, c := range s.commentsOfLocked(is) {
		out = append(out, s.snapshotLocked(c))
	}
	return out
}

// CommentByID returns the comment with that id, wherever it is.
func (s *Server) CommentByID(id int64) (Comment, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.comments[id]
	if !ok {
		return Comment{}, false
	}
	return s.snapshotLocked(c), true
}

// IssueLabels returns the names of the issue's labels, sorted as GitHub lists them.
func (s *Server) IssueLabels(repo string, number int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range r.sortedLabels(is) {
		out = append(out, l.name)
	}
	return out
}

// RepoLabel returns a repository label's colour and description.
func (s *Server) RepoLabel(repo, name string) (color, description string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	if r == nil {
		return "", "", false
	}
	l := r.label(name, false)
	if l == nil {
		return "", "", false
	}
	return l.color, l.description, true
}

// IssueState is "open" or "closed", or "" when there is no such issue.
func (s *Server) IssueState(repo string, number int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, is, err := s.issueLocked(repo, number)
	if err != nil {
		return ""
	}
	return is.state
}

// Issues returns the numbers of the repository's issues, ascending.
func (s *Server) Issues(repo string) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	if r == nil {
		return nil
	}
	var out []int
	for n := range r.issues {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}
