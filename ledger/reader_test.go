package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// readerIssue serves one issue's comments in GitHub's shape, two per page so that the
// reader must follow the Link header, and returns a client for it.
func readerIssue(t *testing.T, comments []map[string]any) *github.Client {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v3/repos/octo/widgets/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		page := 1
		if p := r.URL.Query().Get("page"); p != "" {
			page = int(p[0] - '0')
		}
		from, to := 2*(page-1), min(2*page, len(comments))
		if to < len(comments) {
			next := *r.URL
			q := next.Query()
			q.Set("page", string(rune('0'+page+1)))
			next.RawQuery = q.Encode()
			w.Header().Set("Link", `<http://`+r.Host+next.String()+`>; rel="next"`)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(comments[from:to])
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client := github.NewClient(nil)
	client.BaseURL, _ = url.Parse(srv.URL + "/api/v3/")
	return client
}

func readerComment(id int64, login, body string) map[string]any {
	return map[string]any{"id": id, "body": body, "user": map[string]any{"login": login, "type": "Bot"},
		"created_at": "2026-03-02T10:00:00Z", "updated_at": "2026-03-02T10:00:00Z"}
}

// TestLedgerReaderReadsTheAppsStatusCommentAndItsArchives: the reader the runs, bot ledger
// and bot stats share takes the first status comment by the app's account over every
// page, ignores (and counts) a look-alike by someone else, merges the archive's
// clarifications back in the order they were asked, and refuses what it cannot trust.
func TestLedgerReaderReadsTheAppsStatusCommentAndItsArchives(t *testing.T) {
	ring := render.Keyring{Current: []byte("reader-test-key-0123456789abcdef")}
	keys := ring.Issue("octo", "widgets", 7)
	clar := func(id string) clarify.Clarification {
		return clarify.Clarification{ID: id, Topic: "topic " + id, Status: clarify.Resolved}
	}
	archived := clarify.Ledger{Version: 1, Issue: 7, Clarifications: []clarify.Clarification{clar("CLR-7-001"), clar("CLR-7-002")}}
	ablock, err := keys.EncodeArchive(archived)
	if err != nil {
		t.Fatal(err)
	}
	current := clarify.Ledger{Version: 1, Issue: 7, Rev: 3, Seq: 3, Archives: []int64{12},
		Clarifications: []clarify.Clarification{clar("CLR-7-003")}}
	block, err := keys.EncodeLedger(current)
	if err != nil {
		t.Fatal(err)
	}
	status := render.Status(current, block)
	forged, _ := render.Keyring{Current: []byte("someone-else-key-0123456789abcd")}.Issue("octo", "widgets", 7).EncodeLedger(current)
	reader := Reader{Bot: "clarify[bot]", Keys: ring}

	t.Run("readsAcrossPages", func(t *testing.T) {
		client := readerIssue(t, []map[string]any{
			readerComment(10, "mallory", render.Status(current, forged)),
			readerComment(11, "alice", "/clarify architect which zone?"),
			readerComment(12, "clarify[bot]", render.Archive(archived.Clarifications, ablock, "archive:1")),
			readerComment(13, "Clarify[bot]", status),
			readerComment(14, "clarify[bot]", status),
		})
		got, err := reader.Read(context.Background(), client, "octo", "widgets", 7)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status.GetID() != 13 || got.Lookalikes != 1 {
			t.Errorf("read status comment %d with %d look-alikes, want 13 and 1", got.Status.GetID(), got.Lookalikes)
		}
		var ids []string
		for _, c := range got.Ledger.Clarifications {
			ids = append(ids, c.ID)
		}
		if strings.Join(ids, " ") != "CLR-7-001 CLR-7-002 CLR-7-003" || got.Ledger.Rev != 3 {
			t.Errorf("ledger rev %d with %v, want rev 3 with the archive's two before CLR-7-003", got.Ledger.Rev, ids)
		}
	})
	t.Run("aLookalikeAloneIsNoStatus", func(t *testing.T) {
		client := readerIssue(t, []map[string]any{readerComment(10, "mallory", status)})
		if _, err := reader.Read(context.Background(), client, "octo", "widgets", 7); !errors.Is(err, ErrNoStatus) {
			t.Errorf("err = %v, want ErrNoStatus", err)
		}
	})
	t.Run("aGoneArchiveIsAnError", func(t *testing.T) {
		client := readerIssue(t, []map[string]any{readerComment(13, "clarify[bot]", status)})
		_, err := reader.Read(context.Background(), client, "octo", "widgets", 7)
		if err == nil || !strings.Contains(err.Error(), "archive comment 12 of octo/widgets#7, listed in its ledger, is gone") {
			t.Errorf("err = %v, want the gone archive named", err)
		}
	})
	t.Run("aLedgerSignedByAnotherKeyIsRefused", func(t *testing.T) {
		client := readerIssue(t, []map[string]any{readerComment(13, "clarify[bot]", render.Status(current, forged))})
		_, err := reader.Read(context.Background(), client, "octo", "widgets", 7)
		if err == nil || !strings.Contains(err.Error(), "status comment 13 of octo/widgets#7") {
			t.Errorf("err = %v, want the status comment refused", err)
		}
	})
}
