package render

import (
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// TestLedgerTextGolden: what bot ledger prints for people, compared with golden files
// (go test ./render -run TestLedgerTextGolden -update refreshes them).
func TestLedgerTextGolden(t *testing.T) {
	closed := richLedger()
	closed.Closed, closed.Archives = true, []int64{9001}
	terminal := richLedger()
	terminal.Clarifications = terminal.Clarifications[:1]
	terminal.Clarifications[0].Topic = "red \x1b[31malert\x1b[0m and \u202Ereversed"
	terminal.Clarifications[0].Thread[0].Text = "line one\r\nline\ttwo \x07bell\n"
	terminal.Assumptions = nil
	tests := map[string]clarify.Ledger{
		"ledger_text_empty":    {Version: 1, Issue: 42},
		"ledger_text_full":     richLedger(),
		"ledger_text_closed":   closed,
		"ledger_text_terminal": terminal,
	}
	for name, l := range tests {
		t.Run(name, func(t *testing.T) {
			got := LedgerText("acme/widgets#42", l)
			if strings.ContainsAny(got, "\x1b\x07\u202E\r") {
				t.Errorf("control characters reach the terminal: %q", got)
			}
			golden(t, name, got)
		})
	}
}
