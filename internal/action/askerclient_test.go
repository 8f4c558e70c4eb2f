package action_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/wire"
)

// runWorkflows starts Clarify's workflow for what happened as GitHub would: every clarify
// dispatch (even one a GITHUB_TOKEN sent) and every comment, except the comments a
// GITHUB_TOKEN wrote (github-actions[bot]'s), for which GitHub starts no workflow.
func (b *bench) runWorkflows() {
	for _, d := range b.fake.TakeOutbox() {
		var p struct {
			Action string `json:"action"`
			Sender struct {
				Login string `json:"login"`
			} `json:"sender"`
		}
		_ = json.Unmarshal(d.Body, &p)
		switch {
		case d.Event == "repository_dispatch" && p.Action == wire.DispatchEventType:
		case d.Event == "issue_comment" && p.Action == "created" && p.Sender.Login != fakegithub.ActionsBotLogin:
		default:
			continue
		}
		b.ok(d.Event, b.eventFile(d))
	}
}

// askerDoor is bot ask|wait|status as an agent runs them in a job beside Clarify's
// workflow, with token and nothing else: no --app, no CLARIFY_APP_SLUG, no ledger key;
// each of its sleeps lets GitHub start the workflow runs that are due.
func (b *bench) askerDoor(token string, out, errs *bytes.Buffer) asker.Door {
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_API_URL": b.url}
	return asker.Door{Prog: "bot", Stdout: out, Stderr: errs, DefaultSlug: "clarify",
		Env: asker.Env{Getenv: func(k string) string { return env[k] }, Token: func() (string, string, error) { return token, "GITHUB_TOKEN", nil }},
		Now: b.fake.Now,
		Sleep: func(ctx context.Context, d time.Duration) error {
			b.fake.Advance(d)
			b.runWorkflows()
			return ctx.Err()
		}}
}

// TestAskerClientInActionMode: an agent asks with its own token where Clarify runs as a
// workflow; its comment starts Clarify's run, the ask is found in the signed ledger of
// github-actions[bot], answered, waited for, and woken with its ref.
func TestAskerClientInActionMode(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n"+verifyKeysLine(t))
	token := b.fake.PersonalToken(repo, "coder-agent")
	before := len(b.fake.Requests())
	var out, errs bytes.Buffer
	code := b.askerDoor(token, &out, &errs).Ask([]string{"octo/widgets#42", "@maria", "Per API key or per client IP?", "--ref", "run-7/step-2", "--json"})
	var rec clarify.AskRecord
	if code != 0 || json.Unmarshal(out.Bytes(), &rec) != nil || rec.ID != "CLR-42-001" || rec.Ref != "run-7/step-2" {
		t.Fatalf("bot ask in a job: exit %d, stdout %s, stderr %s; want CLR-42-001 with its ref", code, out.String(), errs.String())
	}
	t.Logf("bot ask in Action mode: %d requests, the agent's and the workflow run's together", len(b.fake.Requests())-before)

	b.comment("maria", "Per API key.")
	out.Reset()
	code = b.askerDoor(token, &out, &errs).Wait([]string{"octo/widgets#42", rec.ID, "--json"})
	if code != 0 || json.Unmarshal(out.Bytes(), &rec) != nil || rec.Answer != "Per API key." || rec.Outcome != clarify.OutcomeAnswered {
		t.Fatalf("bot wait: exit %d, stdout %s, stderr %s; want the answer", code, out.String(), errs.String())
	}
	var wake wire.WakePayload
	all := b.fake.Dispatches(repo)
	if err := json.Unmarshal(all[len(all)-1].ClientPayload, &wake); err != nil || wake.Context == nil || wake.Context.Ref != "run-7/step-2" {
		t.Errorf("the wake-up carries %s; want the ask's ref", all[len(all)-1].ClientPayload)
	}
	out.Reset()
	if code := b.askerDoor(token, &out, &errs).Status([]string{"octo/widgets#42", rec.ID}); code != 0 || !strings.Contains(out.String(), "answered") {
		t.Errorf("bot status, checking the wake-up: exit %d, %s %s", code, out.String(), errs.String())
	}
}

// TestAJobsOwnTokenAsksByDispatchWhereClarifyIsAWorkflow: the job's GITHUB_TOKEN writes as
// github-actions[bot], whose comments start no workflow; so bot ask sends a dispatch, which
// does, and finds its ask by its ref in the signed ledger; a refusal is read only from a
// comment Clarify sealed, never from another workflow's look-alike.
func TestAJobsOwnTokenAsksByDispatchWhereClarifyIsAWorkflow(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", verifyKeysLine(t))
	var out, errs bytes.Buffer
	code := b.askerDoor(b.token, &out, &errs).Ask([]string{"octo/widgets#42", "@maria", "Per API key?", "--ref", "run-7/step-2"})
	if code != 0 || strings.TrimSpace(out.String()) != "CLR-42-001" {
		t.Fatalf("bot ask with the job's token: exit %d, stdout %q, stderr %q; want CLR-42-001", code, out.String(), errs.String())
	}
	if d := b.fake.Dispatches(repo); len(d) != 1 || d[0].EventType != wire.DispatchEventType {
		t.Fatalf("sent %+v; want the ask as one clarify dispatch", d)
	}

	// While the next ask waits, another workflow posts what looks like Clarify's refusal of it.
	out.Reset()
	d := b.askerDoor(b.token, &out, &errs)
	sleep, forged := d.Sleep, false
	d.Sleep = func(ctx context.Context, dt time.Duration) error {
		if !forged { // before Clarify's run starts
			forged = true
			b.fake.Comment(repo, 42, fakegithub.ActionsBotLogin, "Refused.\n\n"+
				`<!-- clarify:record {"v":1,"kind":"refusal","code":"issue-closed","ref":"run-7/step-3"} -->`)
			return nil
		}
		return sleep(ctx, dt)
	}
	code = d.Ask([]string{"octo/widgets#42", "@maria", "Per client IP?", "--ref", "run-7/step-3"})
	if code != 0 || strings.TrimSpace(out.String()) != "CLR-42-002" {
		t.Errorf("bot ask beside a forged refusal: exit %d, stdout %q, stderr %q; want CLR-42-002", code, out.String(), errs.String())
	}
}

// verifyKeysLine is the config line listing the public key of the bench's ledger key, as
// bot key public prints it.
func verifyKeysLine(t *testing.T) string {
	t.Helper()
	key, err := render.SigningKey([]byte(ledgerKey))
	if err != nil {
		t.Fatal(err)
	}
	return "verify_keys: [\"" + render.FormatVerifyKey(key.Public().(ed25519.PublicKey)) + "\"]\n"
}
