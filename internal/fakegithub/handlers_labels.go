package fakegithub

import (
	"encoding/json"
	"net/http"
	"strings"
)

// labelNames reads the label list of POST/PUT .../issues/{n}/labels in any
// form GitHub accepts: ["a","b"] (what go-github sends), {"labels":["a"]} or
// {"labels":[{"name":"a"}]}.
func (c *call) labelNames() ([]string, *reply) {
	invalid := func() ([]string, *reply) {
		rep := errorReply(http.StatusUnprocessableEntity, "Invalid request.\n\nNo subschema in \"oneOf\" matched.", c.route.docs)
		return nil, &rep
	}
	raw := json.RawMessage(c.body)
	var wrapped struct {
		Labels json.RawMessage `json:"labels"`
	}
	if len(strings.TrimSpace(string(c.body))) > 0 && strings.TrimSpace(string(c.body))[0] == '{' {
		if rep := c.decode(&wrapped); rep != nil {
			return nil, rep
		}
		if wrapped.Labels == nil {
			return invalid()
		}
		raw = wrapped.Labels
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		var objs []struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &objs); err != nil {
			if _, isSyntax := err.(*json.SyntaxError); isSyntax {
				rep := errorReply(http.StatusBadRequest, "Problems parsing JSON", c.route.docs)
				return nil, &rep
			}
			return invalid()
		}
		for _, o := range objs {
			names = append(names, o.Name)
		}
	}
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if names[i] == "" {
			return nil, ptr(validationFailed(c.route.docs, fieldError{Resource: "Label", Code: "invalid", Field: "name"}))
		}
	}
	return names, nil
}

func ptr[T any](v T) *T { return &v }

func (s *Server) issueLabelsReply(r *repository, is *issue, status int) reply {
	return reply{status: status, body: labelsJSONOf(r, r.sortedLabels(is))}
}

// listIssueLabels: GET /repos/{owner}/{repo}/issues/{issue_number}/labels.
func (s *Server) listIssueLabels(c *call) reply {
	r, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	all := r.sortedLabels(is)
	out := reply{status: http.StatusOK}
	start, end := paginate(c, len(all), &out)
	out.body = labelsJSONOf(r, all[start:end])
	return out
}

// addIssueLabels: POST /repos/{owner}/{repo}/issues/{issue_number}/labels.
// Unknown labels are created with GitHub's default colour; the answer is
// every label of the issue.
func (s *Server) addIssueLabels(c *call) reply {
	r, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	names, rep := c.labelNames()
	if rep != nil {
		return *rep
	}
	s.addIssueLabelsLocked(r, is, names)
	return s.issueLabelsReply(r, is, http.StatusOK)
}

// setIssueLabels: PUT /repos/{owner}/{repo}/issues/{issue_number}/labels.
func (s *Server) setIssueLabels(c *call) reply {
	r, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	names, rep := c.labelNames()
	if rep != nil {
		return *rep
	}
	before := strings.Join(is.labels, "\x00")
	is.labels = nil
	s.addIssueLabelsLocked(r, is, names)
	if strings.Join(is.labels, "\x00") != before {
		is.updated = s.nowLocked()
	}
	return s.issueLabelsReply(r, is, http.StatusOK)
}

// clearIssueLabels: DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels.
func (s *Server) clearIssueLabels(c *call) reply {
	_, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	if len(is.labels) > 0 {
		is.labels = nil
		is.updated = s.nowLocked()
	}
	return reply{status: http.StatusNoContent}
}

// removeIssueLabel: DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}.
func (s *Server) removeIssueLabel(c *call) reply {
	r, is, rep := s.issueForCall(c)
	if rep != nil {
		return *rep
	}
	k := key(c.param("name"))
	if !is.hasLabel(k) {
		return errorReply(http.StatusNotFound, "Label does not exist", c.route.docs)
	}
	is.labels = removeString(is.labels, k)
	is.updated = s.nowLocked()
	return s.issueLabelsReply(r, is, http.StatusOK)
}

func (s *Server) addIssueLabelsLocked(r *repository, is *issue, names []string) {
	for _, n := range names {
		l := r.label(n, true)
		if !is.hasLabel(key(l.name)) {
			is.labels = append(is.labels, key(l.name))
			is.updated = s.nowLocked()
		}
	}
}

// listRepoLabels: GET /repos/{owner}/{repo}/labels.
func (s *Server) listRepoLabels(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	all := r.allLabels()
	out := reply{status: http.StatusOK}
	start, end := paginate(c, len(all), &out)
	out.body = labelsJSONOf(r, all[start:end])
	return out
}

// getRepoLabel: GET /repos/{owner}/{repo}/labels/{name}.
func (s *Server) getRepoLabel(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	l := r.label(c.param("name"), false)
	if l == nil {
		return c.notFound()
	}
	return reply{status: http.StatusOK, body: labelJSONOf(r, l)}
}

// labelInput is the body of POST and PATCH on repository labels.
type labelInput struct {
	Name        *string `json:"name"`
	NewName     *string `json:"new_name"`
	Color       *string `json:"color"`
	Description *string `json:"description"`
}

// validColor accepts six hex digits, with or without a leading '#'.
func validColor(c string) (string, bool) {
	c = strings.TrimPrefix(c, "#")
	if len(c) != 6 {
		return "", false
	}
	for _, r := range strings.ToLower(c) {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return "", false
		}
	}
	return strings.ToLower(c), true
}

// createRepoLabel: POST /repos/{owner}/{repo}/labels.
func (s *Server) createRepoLabel(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	var in labelInput
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" {
		return validationFailed(c.route.docs, fieldError{Resource: "Label", Code: "missing_field", Field: "name"})
	}
	name := strings.TrimSpace(*in.Name)
	if r.label(name, false) != nil {
		return validationFailed(c.route.docs, fieldError{Resource: "Label", Code: "already_exists", Field: "name"})
	}
	color := "ededed"
	if in.Color != nil {
		var ok bool
		if color, ok = validColor(*in.Color); !ok {
			return validationFailed(c.route.docs, fieldError{Resource: "Label", Code: "invalid", Field: "color"})
		}
	}
	l := r.label(name, true)
	l.color = color
	if in.Description != nil {
		l.description = *in.Description
	}
	return reply{status: http.StatusCreated, body: labelJSONOf(r, l)}
}

// updateRepoLabel: PATCH /repos/{owner}/{repo}/labels/{name}.
func (s *Server) updateRepoLabel(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	l := r.label(c.param("name"), false)
	if l == nil {
		return c.notFound()
	}
	var in labelInput
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	if in.Color != nil {
		color, ok := validColor(*in.Color)
		if !ok {
			return validationFailed(c.route.docs, fieldError{Resource: "Label", Code: "invalid", Field: "color"})
		}
		l.color = color
	}
	if in.Description != nil {
		l.description = *in.Description
	}
	if in.NewName != nil && strings.TrimSpace(*in.NewName) != "" && *in.NewName != l.name {
		newName := strings.TrimSpace(*in.NewName)
		if other := r.label(newName, false); other != nil && other != l {
			return validationFailed(c.route.docs, fieldError{Resource: "Label", Code: "already_exists", Field: "name"})
		}
		oldKey := key(l.name)
		delete(r.labels, oldKey)
		l.name = newName
		r.labels[key(newName)] = l
		for _, is := range r.issues {
			for i, k := range is.labels {
				if k == oldKey {
					is.labels[i] = key(newName)
				}
			}
		}
	}
	return reply{status: http.StatusOK, body: labelJSONOf(r, l)}
}
