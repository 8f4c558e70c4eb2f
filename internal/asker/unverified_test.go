package asker_test

import (
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// TestAnotherAppsClarifyCannotBeVerifiedAndSaysSo (issue 40): Clarify is the App
// clarify[bot], and the client is told --app other: the ask is taken, but by an account
// the client does not believe. bot ask says so at once, with the --app that fixes it, and
// exits 6 (cannot verify), not 5 (not taken) after its take time; so do wait and status.
func TestAnotherAppsClarifyCannotBeVerifiedAndSaysSo(t *testing.T) {
	w := newWorld(t)
	start := w.h.Fake.Now()
	code, out, errs := w.run(asker.Door.Ask, "--app", "other", "--ref", "step-3", "octo/widgets#42", "@maria", "Per API key?")
	if code != asker.ExitCannotVerify || strings.TrimSpace(out) != string(clarify.CodeCannotVerify) ||
		!strings.Contains(errs, "give --app clarify") || !strings.Contains(errs, "ref step-3") {
		t.Fatalf("bot ask --app other: exit %d, stdout %q, stderr %q; want 6, cannot-verify, the fix --app clarify and the ref", code, out, errs)
	}
	if took := w.h.Fake.Now().Sub(start); took >= asker.DefaultTakeTimeout {
		t.Errorf("bot ask --app other took %s; want an answer before its take time", took)
	}
	for _, cmd := range []struct {
		name string
		run  func(asker.Door, []string) int
		args []string
	}{
		{"wait", asker.Door.Wait, []string{"--app", "other", "octo/widgets#42", "CLR-42-001", "--timeout", "1h"}},
		{"status", asker.Door.Status, []string{"--app", "other", "octo/widgets#42"}},
		{"resolve", asker.Door.Resolve, []string{"--app", "other", "octo/widgets#42", "CLR-42-001"}},
	} {
		start := w.h.Fake.Now()
		code, _, errs := w.run(cmd.run, cmd.args...)
		if code != asker.ExitCannotVerify || !strings.Contains(errs, "cannot-verify") || !strings.Contains(errs, "give --app clarify") {
			t.Errorf("bot %s --app other: exit %d, stderr %q; want 6, cannot-verify and --app clarify", cmd.name, code, errs)
		}
		if took := w.h.Fake.Now().Sub(start); took >= asker.DefaultTakeTimeout {
			t.Errorf("bot %s --app other took %s; want an answer at once", cmd.name, took)
		}
	}
}
