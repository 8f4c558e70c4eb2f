package main

import (
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/replay"
	"github.com/clarify-app/clarify/render"
)

// pasteOverStatus puts a status body holding the issue's ledger, changed by tamper and
// signed under the app's key, over the app's status comment of octo/widgets#42, as an
// operator pastes what `bot ledger import -status` prints. The edit's delivery is not
// sent: the app has not run since, so bot ledger sees the paste itself.
func pasteOverStatus(t *testing.T, h *replay.Harness, tamper func(*clarify.Ledger)) {
	t.Helper()
	l, err := h.Ledger("octo/widgets", 42)
	if err != nil {
		t.Fatal(err)
	}
	tamper(&l)
	keys, err := app.LedgerKeyring("")
	if err != nil || !keys.Given() {
		t.Fatalf("the app's keyring from the environment: %v", err)
	}
	body, err := render.SignedStatus(l, keys.Issue("octo", "widgets", 42))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range h.Fake.Comments("octo/widgets", 42) {
		if c.User == h.Fake.BotLogin() && render.IsStatus(c.Body) {
			h.Fake.EditComment("octo/widgets", c.ID, "maria", body)
			return
		}
	}
	t.Fatal("octo/widgets#42 has no status comment of the app's")
}

// TestLedgerSaysWhenTheAppWouldNotTrustAPastedLedger: a ledger that verifies but whose
// sequence was reset below the ids the issue shows is one the app rebuilds from the
// comments; bot ledger says so instead of printing it as the issue's ledger. One whose
// cursor lies past every comment is read with the cursor brought back, as the app does.
func TestLedgerSaysWhenTheAppWouldNotTrustAPastedLedger(t *testing.T) {
	t.Run("sequenceReset", func(t *testing.T) {
		h := demoIssue(t)
		ledgerEnv(t, map[string]string{
			"GITHUB_TOKEN": h.Fake.IssueToken(1), "GITHUB_V3_API_URL": h.GitHub.URL,
			"GITHUB_APP_PRIVATE_KEY": h.Config.Github.App.PrivateKey,
		})
		pasteOverStatus(t, h, func(l *clarify.Ledger) { l.Seq, l.Clarifications = 0, nil })
		out, _, err := runLedger(t, "", "octo/widgets#42")
		if err == nil || !strings.Contains(err.Error(), "verifies but is not trusted: its sequence 0 is below CLR-42-001") ||
			!strings.Contains(err.Error(), "the app rebuilds the ledger from the issue's comments instead") {
			t.Fatalf("bot ledger on a pasted ledger with its sequence reset: err %v, printed:\n%s", err, out)
		}
		if out != "" {
			t.Errorf("it printed the ledger the app does not trust:\n%s", out)
		}
	})
	t.Run("cursorPastEveryComment", func(t *testing.T) {
		h := demoIssue(t)
		ledgerEnv(t, map[string]string{
			"GITHUB_TOKEN": h.Fake.IssueToken(1), "GITHUB_V3_API_URL": h.GitHub.URL,
			"GITHUB_APP_PRIVATE_KEY": h.Config.Github.App.PrivateKey,
		})
		pasteOverStatus(t, h, func(l *clarify.Ledger) { l.Cursor = 9e18 })
		out, errs, err := runLedger(t, "", "octo/widgets#42")
		if err != nil || !strings.Contains(out, "CLR-42-001 · rate-limit scope") {
			t.Fatalf("bot ledger on a pasted ledger with its cursor past every comment: err %v, printed:\n%s", err, out)
		}
		if !strings.Contains(errs, "the ledger's cursor, comment 9000000000000000000, is past the issue's newest comment: read as ") {
			t.Errorf("stderr %q: want the cursor brought back named", errs)
		}
	})
}
