package action_test

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/render"
)

// TestAWorkflowsClarifyTheClientCannotVerifySaysSoAtOnce (issue 40): Clarify runs as a
// workflow and takes the ask, but the client cannot verify what it writes: the config
// lists no verify_keys (so the client believes the App), or lists another key than the
// one Clarify signs with. bot ask says so at once, with the fix, and exits 6 (cannot
// verify) rather than 5 (not taken) after its take time; so do wait and status.
func TestAWorkflowsClarifyTheClientCannotVerifySaysSoAtOnce(t *testing.T) {
	other, err := render.SigningKey([]byte("another ledger key, not the workflow's"))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		config string
		want   []string
	}{
		"noVerifyKeys": {"", []string{"here Clarify writes as github-actions[bot], not clarify[bot]", "bot key public", "verify_keys"}},
		"anotherKey": {"verify_keys: [\"" + render.FormatVerifyKey(other.Public().(ed25519.PublicKey)) + "\"]\n",
			[]string{"signed, but under no key .github/clarify.yml lists", "bot key public"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			if tc.config != "" {
				b.fake.SetFile(repo, ".github/clarify.yml", tc.config)
			}
			token := b.fake.PersonalToken(repo, "coder-agent")
			for _, args := range [][]string{
				{"ask", "octo/widgets#42", "@maria", "Per API key?", "--ref", "step-4"},
				{"wait", "octo/widgets#42", "CLR-42-001", "--timeout", "1h"},
				{"status", "octo/widgets#42"},
			} {
				var out, errs bytes.Buffer
				d := b.askerDoor(token, &out, &errs)
				run := map[string]func([]string) int{"ask": d.Ask, "wait": d.Wait, "status": d.Status}[args[0]]
				start := b.fake.Now()
				code := run(args[1:])
				checkCannotVerify(t, "bot "+args[0], code, b.fake.Now().Sub(start), out.String(), errs.String(), tc.want)
			}
			if cl := b.clar("CLR-42-001"); cl.ID == "" {
				t.Errorf("Clarify's ledger holds no CLR-42-001: the workflow did not take the ask")
			}
			// The job's own token asks by dispatch: the same at once.
			var out, errs bytes.Buffer
			start := b.fake.Now()
			code := b.askerDoor(b.token, &out, &errs).Ask([]string{"octo/widgets#42", "@maria", "Per client IP?", "--ref", "step-5"})
			if code != asker.ExitCannotVerify || !strings.Contains(errs.String(), tc.want[0]) || !strings.Contains(errs.String(), "step-5") ||
				b.fake.Now().Sub(start) >= asker.DefaultTakeTimeout {
				t.Errorf("bot ask by dispatch: exit %d after %s, stderr %q; want 6 at once, %q and the ref", code, b.fake.Now().Sub(start), errs.String(), tc.want[0])
			}
			if d := b.fake.Dispatches(repo); len(d) != 1 {
				t.Errorf("%d dispatches sent; want the ask's one", len(d))
			}
		})
	}
}

// checkCannotVerify checks what a command that met Clarify's comments it cannot verify
// said: exit 6 before its take time, cannot-verify and each of want on stderr.
func checkCannotVerify(t *testing.T, name string, code int, took time.Duration, out, errs string, want []string) {
	t.Helper()
	if code != asker.ExitCannotVerify || !strings.Contains(errs, "cannot-verify") {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want 6 and cannot-verify", name, code, out, errs)
	}
	for _, w := range want {
		if !strings.Contains(errs, w) {
			t.Errorf("%s's stderr %q; want %q in it", name, errs, w)
		}
	}
	if took >= asker.DefaultTakeTimeout {
		t.Errorf("%s took %s; want an answer before its take time", name, took)
	}
}
