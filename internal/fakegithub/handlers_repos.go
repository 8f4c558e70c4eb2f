package fakegithub

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strings"
)

type permissionJSON struct {
	Permission string   `json:"permission"`
	RoleName   string   `json:"role_name"`
	User       userJSON `json:"user"`
}

// getPermission: GET /repos/{owner}/{repo}/collaborators/{username}/permission.
// As on GitHub, "permission" is the legacy level (maintain reads as write,
// triage as read) and "role_name" the actual role. Anyone not set up reads,
// as on a public repository.
func (s *Server) getPermission(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	login := c.param("username")
	role := s.permissionLocked(r, login)
	legacy := role
	switch role {
	case "maintain":
		legacy = "write"
	case "triage":
		legacy = "read"
	}
	return reply{status: http.StatusOK, body: permissionJSON{Permission: legacy, RoleName: role, User: s.userJSONLocked(login)}}
}

type contentLinks struct {
	Self string `json:"self"`
	Git  string `json:"git"`
	HTML string `json:"html"`
}

type contentJSON struct {
	Type        string       `json:"type"`
	Encoding    string       `json:"encoding,omitempty"`
	Size        int          `json:"size"`
	Name        string       `json:"name"`
	Path        string       `json:"path"`
	Content     *string      `json:"content,omitempty"`
	SHA         string       `json:"sha"`
	URL         string       `json:"url"`
	GitURL      string       `json:"git_url"`
	HTMLURL     string       `json:"html_url"`
	DownloadURL *string      `json:"download_url"`
	Links       contentLinks `json:"_links"`
}

// gitBlobSHA is the git object id of a file's content.
func gitBlobSHA(content string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil))
}

func contentEntry(r *repository, p, typ, content string) contentJSON {
	api := apiBase + "/repos/" + r.fullName() + "/contents/" + escapePath(p) + "?ref=main"
	e := contentJSON{
		Type:    typ,
		Name:    path.Base(p),
		Path:    p,
		URL:     api,
		HTMLURL: htmlBase + "/" + r.fullName() + "/" + map[string]string{"file": "blob", "dir": "tree"}[typ] + "/main/" + escapePath(p),
	}
	if typ == "file" {
		e.Size = len(content)
		e.SHA = gitBlobSHA(content)
		e.GitURL = apiBase + "/repos/" + r.fullName() + "/git/blobs/" + e.SHA
		e.DownloadURL = nullString("https://raw.githubusercontent.com/" + r.fullName() + "/main/" + escapePath(p))
	} else {
		e.SHA = gitBlobSHA("tree " + p)
		e.GitURL = apiBase + "/repos/" + r.fullName() + "/git/trees/" + e.SHA
	}
	e.Links = contentLinks{Self: e.URL, Git: e.GitURL, HTML: e.HTMLURL}
	return e
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// wrapBase64 encodes like the contents API: base64 in lines of 60 characters.
func wrapBase64(content string) string {
	enc := base64.StdEncoding.EncodeToString([]byte(content))
	var b strings.Builder
	for len(enc) > 60 {
		b.WriteString(enc[:60])
		b.WriteByte('\n')
		enc = enc[60:]
	}
	b.WriteString(enc)
	b.WriteByte('\n')
	return b.String()
}

// getContents: GET /repos/{owner}/{repo}/contents/{path}. A file answers its
// object with base64 content; a directory lists its entries; anything else
// is 404. The ref parameter is ignored: the fake has one branch.
func (s *Server) getContents(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	p := strings.Trim(c.param("path"), "/")
	if content, ok := r.files[p]; ok {
		e := contentEntry(r, p, "file", content)
		e.Encoding = "base64"
		e.Content = ptr(wrapBase64(content))
		return reply{status: http.StatusOK, body: e}
	}
	prefix := p + "/"
	if p == "" {
		prefix = ""
	}
	seen := map[string]bool{}
	var entries []contentJSON
	var names []string
	for fp := range r.files {
		names = append(names, fp)
	}
	sort.Strings(names)
	for _, fp := range names {
		rest, ok := strings.CutPrefix(fp, prefix)
		if !ok {
			continue
		}
		child, _, isDir := strings.Cut(rest, "/")
		if seen[child] {
			continue
		}
		seen[child] = true
		if isDir {
			entries = append(entries, contentEntry(r, prefix+child, "dir", ""))
		} else {
			entries = append(entries, contentEntry(r, fp, "file", r.files[fp]))
		}
	}
	if len(entries) == 0 {
		return c.notFound()
	}
	return reply{status: http.StatusOK, body: entries}
}

type membershipJSON struct {
	URL   string `json:"url"`
	Role  string `json:"role"`
	State string `json:"state"`
}

// getTeamMembership: GET /orgs/{org}/teams/{team_slug}/memberships/{username}.
// Any installation token may ask (GitHub would also want the installation on that
// organisation with members:read); a workflow's GITHUB_TOKEN may not.
func (s *Server) getTeamMembership(c *call) reply {
	if c.repoScope != "" {
		// A workflow's GITHUB_TOKEN has no members permission.
		return errorReply(http.StatusForbidden, "Resource not accessible by integration", c.route.docs)
	}
	team := key(c.param("org") + "/" + c.param("team_slug"))
	if !s.teams[team][key(c.param("username"))] {
		return c.notFound()
	}
	return reply{status: http.StatusOK, body: membershipJSON{
		URL:   apiBase + "/organizations/" + c.param("org") + "/team/" + c.param("team_slug") + "/memberships/" + c.param("username"),
		Role:  "member",
		State: "active",
	}}
}
