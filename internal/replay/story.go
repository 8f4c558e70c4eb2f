package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/render"
)

// narrator tells a scenario as it happens, for `bot replay`: after each step, what changed
// in the in-memory GitHub, in the order a reader of the issue saw it. A comment shows as it
// was posted, where it stands in the issue; an edit of the status comment shows the lines
// that changed; labels show as they are put on and taken off. What an agent receives shows
// too: the record hidden in each of the app's comments, and each wake-up dispatch with its
// payload.
type narrator struct {
	w    io.Writer
	fake *fakegithub.Server
	// comments are the comments as last told, by id; issues the issues' labels and state.
	comments map[int64]toldComment
	issues   map[string]toldIssue
	// woken counts the wake-up dispatches told, by repository.
	woken map[string]int
}

type toldComment struct {
	issue string
	c     fakegithub.Comment
}

type toldIssue struct {
	labels []string
	state  string
}

func newNarrator(w io.Writer, fake *fakegithub.Server) *narrator {
	return &narrator{w: w, fake: fake, comments: map[int64]toldComment{}, issues: map[string]toldIssue{}, woken: map[string]int{}}
}

// after tells what step st did and what the app did in answer.
func (n *narrator) after(st fakegithub.Step) {
	switch st.Action {
	case fakegithub.ActionFile:
		n.event(n.fake.Now(), fmt.Sprintf("%s has %s:", st.Repo, st.Path), st.Body)
	case fakegithub.ActionWait:
		fmt.Fprintf(n.w, "       … %s later\n", clarify.FormatDuration(st.Wait))
	}
	if st.Repo == "" {
		return
	}
	for _, num := range n.fake.Issues(st.Repo) {
		n.issue(st.Repo, num)
	}
	n.wakeUps(st.Repo)
}

// issue tells what changed in one issue since it was last told.
func (n *narrator) issue(repo string, num int) {
	key := fmt.Sprintf("%s#%d", repo, num)
	was, seen := n.issues[key]
	if !seen {
		n.event(n.fake.Now(), fmt.Sprintf("%s opens #%d: %q", n.fake.IssueAuthor(repo, num), num, n.fake.IssueTitle(repo, num)), "")
		was.state = "open"
	}
	present := map[int64]bool{}
	comments := n.fake.Comments(repo, num)
	// People's comments first: they are what the app answered, in the same minute.
	for _, byApp := range []bool{false, true} {
		for _, c := range comments {
			if (c.User == n.fake.BotLogin()) == byApp {
				present[c.ID] = true
				n.comment(key, num, c)
			}
		}
	}
	for id, t := range n.comments {
		if t.issue == key && !present[id] {
			n.event(n.fake.Now(), fmt.Sprintf("%s's comment on #%d is deleted", t.c.User, num), "")
			delete(n.comments, id)
		}
	}
	now := toldIssue{labels: n.fake.IssueLabels(repo, num), state: n.fake.IssueState(repo, num)}
	if change := labelChange(was.labels, now.labels); change != "" {
		n.event(n.fake.Now(), fmt.Sprintf("labels of #%d: %s", num, change), "")
	}
	if now.state != was.state {
		n.event(n.fake.Now(), fmt.Sprintf("#%d is %s", num, now.state), "")
	}
	n.issues[key] = now
}

// comment tells a comment that is new, edited or reacted to since it was last told.
func (n *narrator) comment(key string, num int, c fakegithub.Comment) {
	old, seen := n.comments[c.ID]
	n.comments[c.ID] = toldComment{issue: key, c: c}
	isStatus := c.User == n.fake.BotLogin() && render.IsStatus(c.Body)
	switch {
	case !seen && isStatus:
		n.event(c.CreatedAt, fmt.Sprintf("%s posts the status comment on #%d, here in the issue; it is edited in place as things change:", c.User, num),
			fakegithub.VisibleText(c.Body)+n.record(c, "")+"\nhidden too: the signed ledger, every clarification's state (bot ledger prints it)")
	case !seen:
		n.event(c.CreatedAt, fmt.Sprintf("%s comments on #%d:", c.User, num), fakegithub.VisibleText(c.Body)+n.record(c, ""))
	case old.c.Body != c.Body && isStatus:
		n.event(c.UpdatedAt, fmt.Sprintf("%s edits the status comment on #%d (posted at %s); what changed:", c.User, num, c.CreatedAt.Format("15:04")),
			changedLines(fakegithub.VisibleText(old.c.Body), fakegithub.VisibleText(c.Body))+n.record(c, old.c.Body))
	case old.c.Body != c.Body:
		n.event(c.UpdatedAt, fmt.Sprintf("%s edits a comment on #%d:", c.User, num), fakegithub.VisibleText(c.Body)+n.record(c, old.c.Body))
	}
	for _, r := range newReactions(old.c.Reactions, c.Reactions) {
		n.event(n.fake.Now(), fmt.Sprintf("%s reacts %s to %s's comment", r.login, emoji(r.content), c.User), "")
	}
}

// record is what an agent reads in the app's comment and a reader does not see: the
// record hidden in it, when it differs from the one in the body it had before.
func (n *narrator) record(c fakegithub.Comment, before string) string {
	if c.User != n.fake.BotLogin() {
		return ""
	}
	r, ok := render.ReadRecord(c.Body)
	if !ok {
		return ""
	}
	if was, _ := render.ReadRecord(before); before != "" && reflect.DeepEqual(was, r) {
		return ""
	}
	raw, _ := json.Marshal(r)
	return fmt.Sprintf("\n\nhidden, for agents: <!-- clarify:record %s -->", raw)
}

// wakeUps tells the repository_dispatch events the app sent since last told: what
// wakes an agent's workflow.
func (n *narrator) wakeUps(repo string) {
	sent := n.fake.Dispatches(repo)
	for _, d := range sent[n.woken[repo]:] {
		var pretty bytes.Buffer
		if json.Indent(&pretty, d.ClientPayload, "", "  ") != nil {
			pretty.Write(d.ClientPayload)
		}
		n.event(n.fake.Now(), fmt.Sprintf("%s wakes the agent: a repository_dispatch of type %s, whose client_payload is:", d.Sender, d.EventType),
			pretty.String())
	}
	n.woken[repo] = len(sent)
}

// event prints one thing that happened at a time, then its text indented under it.
func (n *narrator) event(at time.Time, what, text string) {
	fmt.Fprintf(n.w, "\n%s  %s\n", at.Format("15:04"), what)
	if text == "" {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintln(n.w, strings.TrimRight("         "+l, " "))
	}
}

// labelChange says which labels came and went: "+ clarification:active", or "" for none.
func labelChange(was, now []string) string {
	var parts []string
	for _, l := range now {
		if !slices.Contains(was, l) {
			parts = append(parts, "+ "+l)
		}
	}
	for _, l := range was {
		if !slices.Contains(now, l) {
			parts = append(parts, "− "+l)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	left := "(none left)"
	if len(now) > 0 {
		left = "now " + strings.Join(now, ", ")
	}
	return strings.Join(parts, ", ") + "; " + left
}

// changedLines lists the lines of now that were not in was; a table row comes under its
// table's header.
func changedLines(was, now string) string {
	old := strings.Split(was, "\n")
	var out []string
	header := ""
	for _, l := range strings.Split(now, "\n") {
		isHeader := strings.HasPrefix(l, "| id |")
		if isHeader {
			header = l
		}
		switch {
		case l == "" || slices.Contains(old, l):
			continue
		case isHeader:
			header = ""
		case strings.HasPrefix(l, "| ") && header != "":
			out, header = append(out, header), ""
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

type reaction struct{ login, content string }

// newReactions lists the reactions in now that were not in was.
func newReactions(was, now map[string][]string) []reaction {
	var out []reaction
	for _, content := range slices.Sorted(maps.Keys(now)) {
		for _, login := range now[content] {
			if !slices.Contains(was[content], login) {
				out = append(out, reaction{login: login, content: content})
			}
		}
	}
	return out
}

// emoji is how github.com shows a reaction.
func emoji(content string) string {
	if e, ok := map[string]string{"+1": "👍", "-1": "👎", "laugh": "😄", "hooray": "🎉", "confused": "😕", "heart": "❤️", "rocket": "🚀", "eyes": "👀"}[content]; ok {
		return e
	}
	return content
}
