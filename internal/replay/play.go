package replay

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

//go:embed testdata/scenarios/demo.txt
var demoScenario string

// Play plays the built-in demo when names is empty, else each named file in turn: a
// scenario (.txt) or a recorded delivery (.http). It tells each scenario as it happens, then
// shows the issues the recorded deliveries touched, then what the app asked of GitHub. It
// stops at the first error.
func Play(ctx context.Context, h *Harness, names []string, w io.Writer) error {
	err := playAll(ctx, h, names, w)
	h.printRecorded(w)
	h.PrintCost(w)
	return err
}

func playAll(ctx context.Context, h *Harness, names []string, w io.Writer) error {
	n := newNarrator(w, h.Fake)
	if len(names) == 0 {
		fmt.Fprintln(w, demoIntro)
		if err := playScenario(ctx, h, "demo", strings.NewReader(demoScenario), n.after); err != nil {
			return err
		}
		fmt.Fprintf(w, "\n%s\n", demoOutro)
		return nil
	}
	for _, name := range names {
		if err := playFile(ctx, h, name, n); err != nil {
			return err
		}
	}
	return nil
}

// demoIntro says what the demo plays, and how to read it.
const demoIntro = `Clarify demo: an agent asks a maintainer a question in an issue, the maintainer answers,
the agent follows up; the follow-up waits past its deadline and goes stale; the maintainer
answers and the agent resolves. It runs the real app against an in-memory GitHub; each line
below is something that happened in the issue, at the time on its left.`

// demoOutro says what an agent takes from what the demo showed.
const demoOutro = `What an agent receives: the record hidden in each of the app's comments (the lines
"hidden, for agents" above), which any token that can read the issue reads, and, where the
repository's config asks for them, a repository_dispatch each time its question is
answered or settled, which starts its workflow with the outcome as data (docs/agents.md).`

func playFile(ctx context.Context, h *Harness, name string, n *narrator) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if strings.HasSuffix(name, ".http") {
		if err := PlayRecorded(ctx, h, name, f); err != nil {
			return err
		}
		h.recorded = append(h.recorded, h.Delivered[len(h.Delivered)-1])
		return nil
	}
	fmt.Fprintf(n.w, "\n%s\n%s\n", strings.Repeat("=", 72), name)
	return playScenario(ctx, h, filepath.Base(name), f, n.after)
}

// PlayScenario plays a scenario (format in internal/fakegithub/doc.go) through the app,
// step by step: each step's deliveries are sent and handled before the next step, a
// `wait` is followed by one sweep (as the ticker of `bot serve` would run one), and an
// `expect` step is checked when reached. A failed check does not stop the scenario: all
// of them are reported at the end.
func PlayScenario(ctx context.Context, h *Harness, name string, r io.Reader) error {
	return playScenario(ctx, h, name, r, nil)
}

// playScenario is PlayScenario, calling after (when not nil) once each step has played.
func playScenario(ctx context.Context, h *Harness, name string, r io.Reader, after func(fakegithub.Step)) error {
	steps, err := fakegithub.ParseScenario(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	checks, err := parseChecks(steps)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var failed []string
	for _, st := range steps {
		if st.Action == fakegithub.ActionExpect {
			if got := checks[st.Line](h, st.Repo, st.Issue); got != "" {
				failed = append(failed, fmt.Sprintf("%s:%d: %s: got %s", name, st.Line, strings.TrimSpace(st.Text), got))
			}
			continue
		}
		if err := runStep(ctx, h, st); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if after != nil {
			after(st)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d expectation(s) failed:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	return nil
}

// runStep performs one step in the in-memory GitHub and delivers what it produced.
func runStep(ctx context.Context, h *Harness, st fakegithub.Step) error {
	ds, err := h.Fake.Run(st)
	if err != nil {
		return err
	}
	for _, d := range ds {
		if err := deliver(ctx, h, d); err != nil {
			return fmt.Errorf("line %d: %w", st.Line, err)
		}
	}
	if st.Action == fakegithub.ActionWait {
		// Time passed: the periodic sweep of `bot serve` would have run.
		if _, err := h.Sweep(ctx); err != nil {
			return fmt.Errorf("line %d: sweep: %w", st.Line, err)
		}
	}
	return nil
}

// PlayRecorded plays one recorded delivery (an HTTP request as GitHub sent it): the
// in-memory GitHub first takes in the repository, issue and comment it describes, so the
// app finds them when it looks.
func PlayRecorded(ctx context.Context, h *Harness, name string, r io.Reader) error {
	d, err := fakegithub.ReadRecorded(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := h.Fake.Ingest(d.Event, d.Body); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return deliver(ctx, h, d)
}

// deliver sends d and makes any answer but a success an error: a scenario never sends
// what the app should refuse.
func deliver(ctx context.Context, h *Harness, d fakegithub.Delivery) error {
	status, err := h.Deliver(ctx, d)
	if err != nil {
		return err
	}
	if status >= 300 {
		return fmt.Errorf("the app answered %d to %s delivery %s", status, d.Event, d.ID)
	}
	return nil
}

// issueOf names the issue a delivery is about, "owner/repo#n".
func issueOf(d fakegithub.Delivery) (string, bool) {
	var p struct {
		Repository struct {
			FullName string `json:"full_name"`
		} `json:"repository"`
	}
	n := handlers.EventIssue(d.Body)
	if json.Unmarshal(d.Body, &p) != nil || p.Repository.FullName == "" || n <= 0 {
		return "", false
	}
	return fmt.Sprintf("%s#%d", p.Repository.FullName, n), true
}

// PrintWorld writes each issue the app was told about as a reader would see it, then the
// GitHub API calls the app made.
func (h *Harness) PrintWorld(w io.Writer) {
	h.printIssues(w, h.touched)
	h.PrintCost(w)
}

// printRecorded shows the issues the recorded deliveries played by Play are about.
func (h *Harness) printRecorded(w io.Writer) {
	keys := map[string]bool{}
	for _, d := range h.recorded {
		if k, ok := issueOf(d); ok {
			keys[k] = true
		}
	}
	h.printIssues(w, keys)
}

// printIssues writes each issue of keys ("owner/repo#n") as a reader sees it.
func (h *Harness) printIssues(w io.Writer, keys map[string]bool) {
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		repo, num, _ := strings.Cut(k, "#")
		n, _ := strconv.Atoi(num)
		fmt.Fprintf(w, "\n%s\n%s\n", strings.Repeat("=", 72), h.Fake.Transcript(repo, n))
	}
}
