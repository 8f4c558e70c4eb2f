package handlers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/testenv"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/replay"
)

func TestLogsCarryTheDeliveryAndNoSecret(t *testing.T) {
	var logs testenv.Buffer
	h, err := replay.NewHarness(&logs)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Fake.AddInstallation(1, "octo", repo)
	h.Fake.AddUser("coder-agent", "Bot")
	h.Fake.SetPermission(repo, "maria", "write")
	h.Fake.OpenIssue(repo, 42, "Rate-limit the public API", "maria")
	d, _ := h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Per key or per IP?")
	if _, err := h.Deliver(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	d2, _ := h.Fake.Comment(repo, 42, "maria", "Per key.")
	if _, err := h.Deliver(context.Background(), d2); err != nil {
		t.Fatal(err)
	}

	out := logs.String()
	for _, secret := range []string{string(h.Secret), "PRIVATE KEY", h.Config.Github.App.PrivateKey[40:80]} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds a secret (%q)", secret)
		}
	}
	for _, tok := range h.Fake.IssuedTokens() {
		if strings.Contains(out, tok) {
			t.Errorf("the log holds an installation token")
		}
	}
	applied := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("a log line is not JSON: %s", sc.Text())
		}
		if line["message"] != "Applied to the ledger" {
			continue
		}
		applied++
		for _, key := range []string{"github_delivery_id", "github_event_type", "github_installation_id", "github_repository_owner", "github_repository_name", handlers.LogKeyIssue} {
			if line[key] == nil || line[key] == "" {
				t.Errorf("log line lacks %s: %s", key, sc.Text())
			}
		}
	}
	if applied != 2 {
		t.Errorf("%d 'Applied' lines, want 2", applied)
	}
}
