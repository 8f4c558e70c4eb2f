package action_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/agentx"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// A run of an issue of more than a page reads only the comments of the last minutes when
// Clarify's status comment was saved lately (docs/workflow.md, "Requests a run spends").
// These tests play the two ledgers that window must not be trusted with.

// importedStatus is the status body `bot ledger import -status` prints for #42's ledger as
// it stands, exported to an AgentX file by a tool that writes no save time.
func (b *bench) importedStatus() string {
	b.t.Helper()
	f := agentx.FromLedger(b.ledger(42), repo)
	f.Clarify.Saved, f.Clarify.Read = time.Time{}, time.Time{}
	data, err := agentx.Marshal(f)
	if err != nil {
		b.t.Fatal(err)
	}
	l, f, err := agentx.Import(data, "issue-42.json", &strings.Builder{})
	if err != nil {
		b.t.Fatal(err)
	}
	body, err := agentx.StatusBody(l, f.Repo(), "", func() (render.Keyring, error) { return ledger.KeyringFromEnv(ledgerKey) }, &strings.Builder{})
	if err != nil {
		b.t.Fatal(err)
	}
	return body
}

// TestALongIssuesRunReadsEveryPageForALedgerWithNoSaveTime: in an issue of 2,000 comments,
// an operator pastes over the status comment a ledger imported from a file exported before
// maria's answer, with no save time in it, twenty minutes after that answer; the paste
// starts no run. No save time holds that ledger to the comment's update time, so the next
// run, a drive-by's, reads the whole issue rather than the last minutes: maria's answer,
// older than those, is applied again, not lost.
func TestALongIssuesRunReadsEveryPageForALedgerWithNoSaveTime(t *testing.T) {
	b := newBench(t)
	b.talk(2000)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	imported := b.importedStatus()
	b.fake.Advance(2 * time.Minute)
	b.comment("maria", "Per API key.")
	b.fake.Advance(20 * time.Minute)
	b.putBack(imported)
	b.fake.Advance(5 * time.Minute)
	b.comment("drive-by", "+1")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered || clarify.LastAnswer(c) != "Per API key." {
		t.Errorf("after the drive-by's run CLR-42-001 is %s with answer %q; want maria's answer kept", c.Status, clarify.LastAnswer(c))
	}
}

// TestALongIssuesRunSlowedPastItsMarginLeavesNoWindowThatMissesComments: in an issue of
// 2,000 comments, the run of maria's answer reads the issue, the agent's follow-up comes
// right after that read (its own run dropped), and the run's writes before its save (its
// reaction to the answer) are held 7 minutes (retries, the pacer): it saves 7 minutes after
// its read. The next run, a drive-by's 9 minutes later, finds
// that save within its window's trust, but the follow-up is older than its window: it
// reads the whole issue, and the follow-up is applied.
func TestALongIssuesRunSlowedPastItsMarginLeavesNoWindowThatMissesComments(t *testing.T) {
	b := newBench(t)
	b.talk(2000)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	b.fake.Advance(3 * time.Minute)
	var once, slow sync.Once
	b.hooks.set(func(_ string, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/reactions") {
			slow.Do(func() { b.fake.Advance(7 * time.Minute) })
		}
	}, func(_ string, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/issues/42/comments") {
			once.Do(func() {
				b.commentOnly("coder-agent", "/clarify followup CLR-42-001 Which limit per key: 100 or 1000 a minute?")
			})
		}
	})
	b.comment("maria", "Per API key.")
	b.hooks.set(nil, nil)
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("after maria's run CLR-42-001 is %s; want answered", c.Status)
	}
	b.fake.Advance(9 * time.Minute)
	b.comment("drive-by", "+1")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || c.Round != 2 {
		t.Errorf("after the drive-by's run CLR-42-001 is %s in round %d; want pending in round 2 (the follow-up applied)", c.Status, c.Round)
	}
	if n := b.botComments("CLR-42-001 · round 2/5"); n != 1 {
		t.Errorf("round 2 mirrored %d times, want once", n)
	}
}
