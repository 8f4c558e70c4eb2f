package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// dashboardOpen opens the signed block of the dashboard's state, under its own tag.
const dashboardOpen = "<!-- clarify:dashboard "

// DashboardTitle is the title of the dashboard issue.
const DashboardTitle = "Clarify dashboard"

// maxDashboardBytes caps the dashboard's body under GitHub's 65,536 characters, with
// Renovate's margin (its hosted app saw lengths about a thousand characters longer).
const maxDashboardBytes = 58_000

// maxDashboardState caps the hidden state; past it the oldest open rows are dropped from
// it, and come back with their issue's next run.
const maxDashboardState = 20_000

// DashRow is one open clarification as the dashboard lists it: who waits on whom.
type DashRow struct {
	Issue  int    `json:"issue"`
	ID     string `json:"id"`
	Topic  string `json:"topic,omitempty"`
	Waiter string `json:"waiter"`
	Waited string `json:"waited"`
	Status string `json:"status"`
	// Since is when the clarification last moved: the asker has waited since then.
	Since time.Time `json:"since"`
}

// Dashboard is the state the dashboard issue keeps: each issue's open clarifications.
type Dashboard struct {
	V    int       `json:"v"`
	Rows []DashRow `json:"rows"`
}

// DashRows lists the open clarifications of an issue's ledger.
func DashRows(l clarify.Ledger) []DashRow {
	var rows []DashRow
	for _, c := range l.Open() {
		since := c.CreatedAt
		if c.UpdatedAt.After(since) {
			since = c.UpdatedAt
		}
		waiter, waited := c.Asker.Login, c.Target.Name
		switch clarify.WaitingOn(c) {
		case clarify.SideAsker:
			waiter, waited = waited, waiter
		case clarify.SideMaintainers:
			waited = "" // the maintainers, escalated to
		}
		rows = append(rows, DashRow{Issue: l.Issue, ID: c.ID, Topic: c.Topic, Waiter: waiter, Waited: waited,
			Status: string(c.Status), Since: since})
	}
	return rows
}

// Put replaces the rows of issue with rows.
func (d *Dashboard) Put(issue int, rows []DashRow) {
	kept := d.Rows[:0:0]
	for _, r := range d.Rows {
		if r.Issue != issue {
			kept = append(kept, r)
		}
	}
	d.Rows = append(kept, rows...)
	sort.SliceStable(d.Rows, func(i, j int) bool { return d.Rows[i].Since.After(d.Rows[j].Since) })
}

// Of lists the rows of issue.
func (d Dashboard) Of(issue int) []DashRow {
	var rows []DashRow
	for _, r := range d.Rows {
		if r.Issue == issue {
			rows = append(rows, r)
		}
	}
	return rows
}

// SameRows says whether a and b hold the same rows, in any order: what a dashboard read
// back must show of an issue whose rows a run wrote.
func SameRows(a, b []DashRow) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y DashRow) bool { return x.sameAs(y) }) {
			return false
		}
	}
	return true
}

func (r DashRow) sameAs(o DashRow) bool {
	return r.Issue == o.Issue && r.ID == o.ID && r.Topic == o.Topic && r.Waiter == o.Waiter && r.Waited == o.Waited &&
		r.Status == o.Status && r.Since.Equal(o.Since)
}

// DecodeDashboard reads the state hidden in a dashboard body.
func DecodeDashboard(body string, key []byte) (Dashboard, error) {
	js, err := openJSON(dashboardOpen, body, key)
	if err != nil {
		return Dashboard{}, err
	}
	var d Dashboard
	if err := json.Unmarshal(js, &d); err != nil {
		return Dashboard{}, fmt.Errorf("%w: json: %v", ErrMalformed, err)
	}
	return d, nil
}

// DashboardBody renders the dashboard: escalated, stale and open clarifications, then the
// decisions in force, newest first in each; the state hidden at the end. Nothing in it
// depends on the time it is written, so an unchanged repository renders the same body and
// costs no edit. Logins are written without @ (an edit that adds a mention notifies), and
// links are relative, so the listed issues get no "mentioned" entries.
func DashboardBody(d Dashboard, decisions []clarify.Decision, key []byte) (string, error) {
	block, err := dashboardBlock(&d, key)
	if err != nil {
		return "", err
	}
	head := "Clarify lists here what waits in this repository: escalated, stale and open clarifications, " +
		"and the decisions in force. It is edited in place at most once a minute; close it to stop it (reopen it to start again).\n\n"
	sections := []struct {
		title string
		lines []string
	}{
		{"Escalated", rowLines(d.Rows, func(s string) bool { return s == string(clarify.Escalated) })},
		{"Stale", rowLines(d.Rows, func(s string) bool { return s == string(clarify.Stale) })},
		{"Open", rowLines(d.Rows, func(s string) bool { return s == string(clarify.Pending) || s == string(clarify.Answered) })},
		{"Decisions in force", decisionLines(decisions)},
	}
	room := maxDashboardBytes - len(head) - len(block) - 200
	var b strings.Builder
	b.WriteString(head)
	left := 0
	for _, s := range sections {
		fmt.Fprintf(&b, "### %s (%d)\n\n", s.title, len(s.lines))
		room -= len(s.title) + 20
		if len(s.lines) == 0 {
			b.WriteString("None.\n\n")
			continue
		}
		for _, line := range s.lines {
			// Once one row does not fit, none after it goes in: what is left out is
			// always the bottom of the list, the lowest priority.
			if left > 0 || len(line)+1 > room {
				left++
				continue
			}
			room -= len(line) + 1
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
	if left > 0 {
		fmt.Fprintf(&b, "_%d more rows left out to keep this issue under GitHub's size limit (the lowest in the list first)._\n\n", left)
	}
	return b.String() + block + "\n", nil
}

// dashboardBlock signs d's state, dropping its oldest rows while it is too big.
func dashboardBlock(d *Dashboard, key []byte) (string, error) {
	for {
		d.V = 1
		js, err := json.Marshal(d)
		if err != nil {
			return "", fmt.Errorf("render: encode dashboard: %w", err)
		}
		block, err := sealJSON(dashboardOpen, js, key)
		if err != nil || len(block) <= maxDashboardState || len(d.Rows) == 0 {
			return block, err
		}
		d.Rows = d.Rows[:len(d.Rows)*9/10]
	}
}

func rowLines(rows []DashRow, want func(status string) bool) []string {
	var out []string
	for _, r := range rows {
		if !want(r.Status) {
			continue
		}
		waited := "the maintainers"
		if r.Waited != "" {
			waited = "`" + inline(r.Waited, capWord) + "`"
		}
		line := fmt.Sprintf("- [%s](../issues/%d) %s · `%s` waits on %s since %s",
			r.ID, r.Issue, inline(r.Topic, capTopic), inline(r.Waiter, capWord), waited, r.Since.UTC().Format("2006-01-02 15:04 UTC"))
		out = append(out, line)
	}
	return out
}

func decisionLines(ds []clarify.Decision) []string {
	var out []string
	for _, d := range ds {
		where := fmt.Sprintf("../issues/%d", d.Issue)
		if d.CommentID != 0 {
			where += fmt.Sprintf("#issuecomment-%d", d.CommentID)
		}
		out = append(out, fmt.Sprintf("- [%s](%s) %s: %s · `%s`, %s", d.ID, where, inline(d.Topic, capTopic),
			inline(noAutolinks(d.Decision), capTopic), inline(d.By, capWord), d.At.UTC().Format("2006-01-02")))
	}
	return out
}
