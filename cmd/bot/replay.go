package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

//go:embed testdata/scenarios/demo.txt
var demoScenario string

// replayCmd plays a scenario (or recorded deliveries) through the real app against the
// in-memory GitHub and prints each issue as a reader would see it, then the API calls made.
func replayCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logPath := fs.String("log", "", "write the app's JSON log to this file (default: discard)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bot replay [-log FILE] [FILE…]\n\nFILE is a scenario (.txt, see internal/fakegithub/doc.go) or a recorded delivery (.http).\nWith no FILE, the built-in demo runs.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	logs := io.Discard
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			return err
		}
		defer f.Close()
		logs = f
	}
	h, err := NewHarness(logs)
	if err != nil {
		return err
	}
	defer h.Close()

	ctx := context.Background()
	touched := map[string]bool{}
	err = playAll(ctx, h, fs.Args(), stdout, touched)
	printWorld(stdout, h, touched)
	return err
}

// playAll plays the demo (no names) or each named file in turn.
func playAll(ctx context.Context, h *Harness, names []string, stdout io.Writer, touched map[string]bool) error {
	if len(names) == 0 {
		fmt.Fprintln(stdout, "Clarify demo: an agent asks, a maintainer answers, the agent follows up and resolves.")
		return playScenario(ctx, h, "demo", strings.NewReader(demoScenario), touched)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".http") {
			err = playRecorded(ctx, h, name, b, touched)
		} else {
			err = playScenario(ctx, h, filepath.Base(name), bytes.NewReader(b), touched)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func playScenario(ctx context.Context, h *Harness, name string, r io.Reader, touched map[string]bool) error {
	src, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	text, exps := splitExpectations(string(src))
	steps, err := fakegithub.ParseScenario(strings.NewReader(text))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var failed []string
	checkUpTo := func(line int, repo string) {
		for len(exps) > 0 && exps[0].Line < line {
			if got := exps[0].check(h, repo); got != "" {
				failed = append(failed, fmt.Sprintf("%s:%d: %s: got %s", name, exps[0].Line, exps[0].Text, got))
			}
			exps = exps[1:]
		}
	}
	repo := fakegithub.DefaultScenarioRepo
	for _, st := range steps {
		checkUpTo(st.Line, repo)
		if st.Repo != "" {
			repo = st.Repo
		}
		ds, err := h.Fake.Run(st)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, d := range ds {
			if err := deliver(ctx, h, d, touched); err != nil {
				return fmt.Errorf("%s: line %d: %w", name, st.Line, err)
			}
		}
		if st.Action == fakegithub.ActionWait {
			// Time passed: the periodic sweep of `bot serve` would have run.
			if _, err := h.Sweep(ctx); err != nil {
				return fmt.Errorf("%s: line %d: sweep: %w", name, st.Line, err)
			}
		}
	}
	checkUpTo(1<<30, repo)
	if len(failed) > 0 {
		return fmt.Errorf("%d expectation(s) failed:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	return nil
}

func playRecorded(ctx context.Context, h *Harness, name string, b []byte, touched map[string]bool) error {
	d, err := fakegithub.ReadRecorded(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := h.Fake.Ingest(d.Event, d.Body); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return deliver(ctx, h, d, touched)
}

func deliver(ctx context.Context, h *Harness, d fakegithub.Delivery, touched map[string]bool) error {
	status, err := h.Deliver(ctx, d)
	if err != nil {
		return err
	}
	if status >= 300 {
		return fmt.Errorf("the app answered %d to %s delivery %s", status, d.Event, d.ID)
	}
	if key, ok := issueOf(d); ok {
		touched[key] = true
	}
	return nil
}

// issueOf names the issue a delivery is about, "owner/repo#n".
func issueOf(d fakegithub.Delivery) (string, bool) {
	var p struct {
		Repository struct {
			FullName string `json:"full_name"`
		} `json:"repository"`
		Issue struct {
			Number int `json:"number"`
		} `json:"issue"`
	}
	if json.Unmarshal(d.Body, &p) != nil || p.Repository.FullName == "" || p.Issue.Number == 0 {
		return "", false
	}
	return fmt.Sprintf("%s#%d", p.Repository.FullName, p.Issue.Number), true
}

func printWorld(w io.Writer, h *Harness, touched map[string]bool) {
	keys := make([]string, 0, len(touched))
	for k := range touched {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		repo, num, _ := strings.Cut(k, "#")
		var n int
		fmt.Sscan(num, &n)
		fmt.Fprintf(w, "\n%s\n%s\n", strings.Repeat("=", 72), h.Fake.Transcript(repo, n))
	}
	fmt.Fprintf(w, "\n%s\nGitHub API calls made by the app\n%s\n", strings.Repeat("=", 72), h.Fake.Summary())
	if h.Sweeps > 0 {
		fmt.Fprintf(w, "of which the periodic sweep (run after each `wait`): %d requests in %d runs\n", h.SweepRequests, h.Sweeps)
	}
}
