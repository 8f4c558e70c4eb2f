package asker_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
)

// The three repositories of an inbox's world, and whom they reach maria through.
const (
	widgets = "octo/widgets" // asks @maria
	gadgets = "octo/gadgets" // asks @octo/platform, whose member she is
	docsRep = "octo/docs"    // asks the role architect, which lists her
)

// inboxWorld is the in-memory GitHub with the real app behind it on three repositories
// of one organisation, and maria's token, which reads them all.
type inboxWorld struct {
	*world
	maria string
}

func newInboxWorld(t *testing.T) *inboxWorld {
	t.Helper()
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	f := h.Fake
	f.AddInstallation(1, "octo", widgets, gadgets, docsRep)
	f.AddUser(agent, "User")
	for _, r := range []string{widgets, gadgets, docsRep} {
		f.SetPermission(r, agent, "write")
		f.SetPermission(r, person, "write")
	}
	f.AddTeamMember("octo", "platform", person)
	f.SetFile(docsRep, ".github/clarify.yml", "roles:\n  architect: [alice, maria]\n")
	w := &world{t: t, h: h, wire: &wireLog{next: http.DefaultTransport}, pump: true}
	iw := &inboxWorld{world: w, maria: f.PersonalTokenOf(person, 1)}
	w.token = iw.maria
	return iw
}

// ask opens the issue and has the agent ask target there, then lets a minute pass.
func (w *inboxWorld) ask(repo string, number int, target, question string) {
	w.t.Helper()
	f := w.h.Fake
	w.deliver(f.OpenIssue(repo, number, "Issue "+fmt.Sprint(number), person))
	d, _ := f.Comment(repo, number, agent, "/clarify "+target+" "+question)
	w.deliver(d)
	f.Advance(time.Minute)
}

// inbox runs bot inbox with args and --json, and returns its exit code, its inbox and stderr.
func (w *inboxWorld) inbox(token string, args ...string) (int, asker.Inbox, string) {
	w.t.Helper()
	w.token = token
	var out, errs bytes.Buffer
	code := asker.Door.Inbox(w.door(&out, &errs, nil), append(args, "--json"))
	var in asker.Inbox
	if code == 0 {
		if err := json.Unmarshal(out.Bytes(), &in); err != nil {
			w.t.Fatalf("bot inbox --json: %v in %s", err, out.String())
		}
	}
	return code, in, errs.String()
}

// ids are the inbox's questions as issue and id, in its order.
func ids(in asker.Inbox) []string {
	var out []string
	for _, q := range in.Questions {
		out = append(out, q.Issue+" "+q.ID+" via "+q.Via)
	}
	return out
}

// threeAsks asks maria in each repository in its own way (oldest: the role), and puts
// beside them what must not be listed: a question to someone else, one she answered
// (it waits on its asker), and an issue labelled by hand where Clarify wrote nothing.
func (w *inboxWorld) threeAsks() {
	w.ask(docsRep, 3, "architect", "Which queue do we use?")
	w.ask(widgets, 1, "@maria", "Per API key or per client IP?")
	w.ask(gadgets, 2, "@octo/platform", "Which region first?")
	w.ask(widgets, 4, "@bob", "Is the SDK frozen?")
	w.ask(widgets, 5, "@maria", "Keep the v1 route?")
	d, _ := w.h.Fake.Comment(widgets, 5, person, "Yes, keep it.")
	w.deliver(d)
	w.deliver(w.h.Fake.OpenIssue(gadgets, 6, "Labelled by hand", person))
	w.labelByHand(gadgets, 6, "clarification:active")
}

// labelByHand puts a label on an issue as a person with triage access may.
func (w *inboxWorld) labelByHand(repo string, number int, label string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/repos/%s/issues/%d/labels", w.h.GitHub.URL, repo, number),
		strings.NewReader(`{"labels":["`+label+`"]}`))
	req.Header.Set("Authorization", "token "+w.maria)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		w.t.Fatalf("label %s#%d by hand: %v %v", repo, number, err, resp)
	}
	resp.Body.Close()
}

var wantThree = []string{
	"octo/docs#3 CLR-3-001 via role architect",
	"octo/widgets#1 CLR-1-001 via login",
	"octo/gadgets#2 CLR-2-001 via team octo/platform",
}

func TestInboxListsWhatAwaitsALoginByLoginTeamAndRoleOldestFirst(t *testing.T) {
	w := newInboxWorld(t)
	w.threeAsks()
	code, in, errs := w.inbox(w.maria, "--repo", widgets, "--repo", gadgets, "--repo", docsRep)
	if code != 0 || strings.Join(ids(in), "\n") != strings.Join(wantThree, "\n") {
		t.Fatalf("bot inbox as maria: exit %d, stderr %q, questions\n  %s\nwant\n  %s", code, errs,
			strings.Join(ids(in), "\n  "), strings.Join(wantThree, "\n  "))
	}
	checkWidgetsOne(t, in)
	// The same through the organisation, and as the App's installation for her login.
	if code, in, errs := w.inbox(w.maria, "--org", "octo"); code != 0 || strings.Join(ids(in), "\n") != strings.Join(wantThree, "\n") {
		t.Errorf("bot inbox --org octo: exit %d, stderr %q, %v", code, errs, ids(in))
	}
	app := w.h.Fake.IssueToken(1)
	if code, in, errs := w.inbox(app, "--for", "@maria"); code != 0 || strings.Join(ids(in), "\n") != strings.Join(wantThree, "\n") ||
		!strings.Contains(in.Scope, "installation's 3 repositories") {
		t.Errorf("bot inbox --for @maria with the installation's token: exit %d, stderr %q, %s %v", code, errs, in.Scope, ids(in))
	}
}

// checkWidgetsOne checks what maria's inbox says of widgets#1.
func checkWidgetsOne(t *testing.T, in asker.Inbox) {
	t.Helper()
	q := in.Questions[1]
	if in.For != "@maria" || q.Asker != agent || q.Status != "pending" || q.Round != 1 || q.AnswerWith != "/respond CLR-1-001 <answer>" ||
		q.Question != "Per API key or per client IP?" || q.StaleAt.IsZero() || !q.WaitingSince.Before(in.Questions[2].WaitingSince) ||
		!strings.HasSuffix(q.URL, "/octo/widgets/issues/1") {
		t.Errorf("widgets#1 in maria's inbox: %+v", q)
	}
}

func TestInboxOfATeamListsWhatIsAskedOfIt(t *testing.T) {
	w := newInboxWorld(t)
	w.threeAsks()
	code, in, errs := w.inbox(w.maria, "--for", "@octo/platform", "--org", "octo")
	if want := "octo/gadgets#2 CLR-2-001 via team octo/platform"; code != 0 || strings.Join(ids(in), "|") != want {
		t.Fatalf("bot inbox --for @octo/platform: exit %d, stderr %q, %v; want only %s", code, errs, ids(in), want)
	}
}

func TestInboxWithNothingWaitingExitsZeroWithAnEmptyList(t *testing.T) {
	w := newInboxWorld(t)
	w.threeAsks()
	code, in, errs := w.inbox(w.maria, "--for", "@carol", "--org", "octo")
	if code != 0 || in.Questions == nil || len(in.Questions) != 0 {
		t.Fatalf("bot inbox for carol: exit %d, stderr %q, %+v; want 0 and []", code, errs, in)
	}
	var out, stderr bytes.Buffer
	code = asker.Door.Inbox(w.door(&out, &stderr, nil), []string{"--for", "@carol", "--org", "octo"})
	if code != 0 || out.String() != "Nothing waits on @carol in org octo.\n" {
		t.Errorf("bot inbox for carol, for people: exit %d, %q", code, out.String())
	}
}

func TestInboxSaysPlainlyWhereTheTokenMayNotReadATeam(t *testing.T) {
	w := newInboxWorld(t)
	w.threeAsks()
	// A fine-grained token for one repository reads no team.
	one := w.h.Fake.PersonalToken(gadgets, person)
	code, in, errs := w.inbox(one, "--repo", gadgets)
	if code != 0 || len(in.Questions) != 0 || len(in.Notes) != 1 || !strings.Contains(in.Notes[0], "@octo/platform: this token may not read") {
		t.Fatalf("bot inbox with a token that reads no team: exit %d, stderr %q, %+v; want no question and a note on the team", code, errs, in)
	}
}

func TestInboxRefusesWhatItCannotSearch(t *testing.T) {
	w := newInboxWorld(t)
	for name, tc := range map[string]struct {
		args []string
		code int
		says string
	}{
		"orgAndRepo":        {[]string{"--org", "octo", "--repo", widgets}, 2, "not both"},
		"badRepo":           {[]string{"--repo", "widgets"}, 1, "OWNER/REPO"},
		"unreadableRepo":    {[]string{"--repo", "octo/secret"}, 1, "cannot be searched"},
		"personHasNoInstal": {nil, 1, "give --org ORG or --repo OWNER/REPO"},
	} {
		t.Run(name, func(t *testing.T) {
			before := len(w.h.Fake.Requests())
			code, _, errs := w.inbox(w.maria, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.says) {
				t.Errorf("bot inbox %v: exit %d, stderr %q; want %d saying %q", tc.args, code, errs, tc.code, tc.says)
			}
			for _, r := range w.h.Fake.Requests()[before:] {
				if r.Method != http.MethodGet {
					t.Errorf("bot inbox %v wrote: %s %s", tc.args, r.Method, r.Path)
				}
			}
		})
	}
}

func TestInboxKeepsToSearchsRateLimit(t *testing.T) {
	w := newInboxWorld(t)
	// docs labels its issues its own way: two searches, one label each.
	w.h.Fake.SetFile(docsRep, ".github/clarify.yml", "roles:\n  architect: [alice, maria]\nlabels:\n  active: needs-answer\n")
	w.threeAsks()
	w.h.Fake.SetSearchLimit(1)
	w.h.Fake.IncompleteSearches(1)
	before := len(w.h.Fake.Requests())
	code, in, errs := w.inbox(w.maria, "--repo", widgets, "--repo", gadgets, "--repo", docsRep)
	if code != 0 || strings.Join(ids(in), "\n") != strings.Join(wantThree, "\n") || len(in.Notes) != 0 {
		t.Fatalf("bot inbox at one search a minute: exit %d, stderr %q, %v, notes %v", code, errs, ids(in), in.Notes)
	}
	searches := 0
	for _, r := range w.h.Fake.Requests()[before:] {
		if r.Route == fakegithub.RouteSearchIssues {
			searches++
			if r.Status != http.StatusOK {
				t.Errorf("search answered %d: %s?%s", r.Status, r.Path, r.Query)
			}
		}
	}
	if searches != 3 {
		t.Errorf("%d searches; want 3: one per label, and the incomplete one again", searches)
	}
}

// TestInboxCosts prints what an inbox costs: three repositories with 50 open questions.
func TestInboxCosts(t *testing.T) {
	w := newInboxWorld(t)
	repos := []string{widgets, gadgets, docsRep}
	targets := []string{"@maria", "@octo/platform", "architect"}
	for i := range 50 {
		w.ask(repos[i%3], 10+i, targets[i%3], fmt.Sprintf("Question %d?", i))
	}
	before := len(w.h.Fake.Requests())
	code, in, errs := w.inbox(w.maria, "--repo", widgets, "--repo", gadgets, "--repo", docsRep)
	if code != 0 || len(in.Questions) != 50 {
		t.Fatalf("bot inbox over 50 questions: exit %d, stderr %q, %d questions", code, errs, len(in.Questions))
	}
	byRoute := map[string]int{}
	reqs := w.h.Fake.Requests()[before:]
	for _, r := range reqs {
		byRoute[r.Route+" "+http.StatusText(r.Status)]++
	}
	var lines []string
	for r, n := range byRoute {
		lines = append(lines, fmt.Sprintf("%4d  %s", n, r))
	}
	sort.Strings(lines)
	t.Logf("bot inbox over 3 repositories with 50 open questions: %d requests\n%s", len(reqs), strings.Join(lines, "\n"))
}
