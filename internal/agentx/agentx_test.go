package agentx

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

func readFile(t *testing.T, name string) (File, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, unknown, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) > 0 {
		t.Fatalf("%s: fields neither AgentX nor Clarify defines: %v", name, unknown)
	}
	return f, data
}

// throughLedger is `bot ledger import` then `bot ledger export`.
func throughLedger(t *testing.T, f File) []byte {
	t.Helper()
	l, err := ToLedger(f)
	if err != nil {
		t.Fatalf("ToLedger: %v", err)
	}
	out, err := Marshal(FromLedger(l, f.Repo()))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFileSettingEveryFieldSurvivesImportThenExport(t *testing.T) {
	f, data := readFile(t, "full.json")
	for _, missing := range unsetFields(reflect.ValueOf(f)) {
		t.Errorf("testdata/full.json leaves %s unset: set it, so that the round trip covers it", missing)
	}
	if got := throughLedger(t, f); !bytes.Equal(got, data) {
		t.Errorf("import then export changed the file:\n%s\nwant:\n%s", got, data)
	}
}

func TestSeedExampleSurvivesImportThenExport(t *testing.T) {
	f, data := readFile(t, "seed002.json")
	l, err := ToLedger(f)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Clarifications[0]
	if c.Asker.Role != "engineer" || c.Target != (clarify.Target{Kind: clarify.TargetRole, Name: "architect"}) ||
		c.Status != clarify.Resolved || c.Round != 3 || c.MaxRounds != 5 || !c.Blocking || len(c.Thread) != 5 ||
		c.Thread[4].Kind != clarify.KindResolution || !c.StaleAfter.Equal(time.Date(2026, 2, 26, 10, 30, 0, 0, time.UTC)) || l.Seq != 1 {
		t.Errorf("the seed's clarification read as %+v (seq %d)", c, l.Seq)
	}
	// AgentX's own file gains nothing of Clarify's: every value, and no more, comes back.
	var want, got any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	out := throughLedger(t, f)
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("import then export changed the seed's example:\n%s", out)
	}
}

func TestLedgerSurvivesExportThenImport(t *testing.T) {
	full := fullLedger()
	for _, missing := range unsetFields(reflect.ValueOf(full)) {
		t.Fatalf("fullLedger leaves %s unset", missing)
	}
	tests := map[string]func(*clarify.Ledger){
		"everyField":        func(*clarify.Ledger) {},
		"askerWithoutRole":  func(l *clarify.Ledger) { l.Clarifications[0].Asker.Role = "" },
		"askerWithoutLogin": func(l *clarify.Ledger) { l.Clarifications[0].Asker.Login = "" },
		"askerNamedAsItsRole": func(l *clarify.Ledger) {
			l.Clarifications[0].Asker = clarify.Party{Login: "engineer", Role: "engineer"}
		},
		"teamTarget": func(l *clarify.Ledger) {
			l.Clarifications[0].Target = clarify.Target{Kind: clarify.TargetTeam, Name: "octo/api"}
		},
		"loginTarget": func(l *clarify.Ledger) {
			l.Clarifications[0].Target = clarify.Target{Kind: clarify.TargetLogin, Name: "maria"}
		},
		"seqIsTheHighestId": func(l *clarify.Ledger) { l.Seq = 3 },
		"noClarifications":  func(l *clarify.Ledger) { l.Clarifications, l.Seq = nil, 0 },
		"stampedInAnotherZone": func(l *clarify.Ledger) {
			l.Clarifications[0].CreatedAt = l.Clarifications[0].CreatedAt.In(time.FixedZone("", 3600))
		},
		"nothingButTheIssueSays": func(l *clarify.Ledger) { *l = clarify.Ledger{Version: clarify.LedgerVersion, Issue: 42} },
	}
	for name, change := range tests {
		t.Run(name, func(t *testing.T) {
			l := fullLedger()
			change(&l)
			data, err := Marshal(FromLedger(l, "octo/widgets"))
			if err != nil {
				t.Fatal(err)
			}
			f, unknown, err := Parse(data)
			if err != nil || len(unknown) > 0 {
				t.Fatalf("Parse: %v, unknown %v", err, unknown)
			}
			got, err := ToLedger(f)
			if err != nil {
				t.Fatalf("ToLedger: %v", err)
			}
			// Times compare as instants and zones, not as Go's location pointers.
			if gj, lj := mustJSON(t, got), mustJSON(t, l); gj != lj {
				t.Errorf("export then import changed the ledger:\n got: %s\nwant: %s", gj, lj)
			}
			if f.Repo() != "octo/widgets" {
				t.Errorf("repository %q, want octo/widgets", f.Repo())
			}
		})
	}
}

func TestToLedgerRefusesWhatTheAppCouldNotWorkWith(t *testing.T) {
	tests := map[string]struct {
		change func(*File)
		want   string
	}{
		"unknownStatus": {func(f *File) { f.Clarifications[0].Status = "done" }, `clarifications[0] (CLR-42-001): status "done": not one of pending, answered`},
		"noStatus":      {func(f *File) { f.Clarifications[0].Status = "" }, `status "": not one of`},
		"unknownType":   {func(f *File) { f.Clarifications[0].Thread[1].Type = "reply" }, `thread[1].type "reply": not one of question, answer, resolution, escalation, note`},
		"notAnID":       {func(f *File) { f.Clarifications[0].ID = "42-1" }, `clarifications[0].id "42-1": not a clarification id`},
		"unpaddedID":    {func(f *File) { f.Clarifications[0].ID = "CLR-42-1" }, `clarifications[0].id "CLR-42-1": not a clarification id`},
		"anotherIssue":  {func(f *File) { f.Clarifications[0].ID = "CLR-7-001" }, `belongs to issue 7, not to the file's 42`},
		"twice":         {func(f *File) { f.Clarifications = append(f.Clarifications, f.Clarifications[0]) }, `clarifications[1].id "CLR-42-001": given twice`},
		"negativeRound": {func(f *File) { f.Clarifications[0].Round = -1 }, `round -1 of maxRounds 5: neither can be negative`},
		"noIssue":       {func(f *File) { f.IssueNumber = 0 }, `issueNumber 0: an issue number is positive`},
		"seqBelowAnID": {func(f *File) { f.Clarify = &LedgerExtra{Seq: 1}; f.Clarifications[0].ID = "CLR-42-002" },
			`clarify.seq 1: below the sequence number of an id in the file (2)`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := readFile(t, "seed002.json")
			tc.change(&f)
			_, err := ToLedger(f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestFromBeatsAnAskerNoteThatDisagrees(t *testing.T) {
	f, _ := readFile(t, "full.json")
	f.Clarifications[0].From = "architect" // edited by hand, its note left as it was
	l, err := ToLedger(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Clarifications[0].Asker; got != (clarify.Party{Role: "architect"}) {
		t.Errorf("asker %+v, want the role the file's from says", got)
	}
}

func TestParseNamesTheFieldsItDoesNotKeep(t *testing.T) {
	_, unknown, err := Parse([]byte(`{"issueNumber": 1, "owner": "x", "clarifications": [{"id": "CLR-1-001", "priority": 2,
		"thread": [{"type": "question", "mood": "calm"}], "clarify": {"asker": {"login": "a", "team": "t"}}}],
		"clarify": {"assumptions": [{"decision": "d", "why": "w"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"clarifications[0].clarify.asker.team", "clarifications[0].priority", "clarifications[0].thread[0].mood", "clarify.assumptions[0].why", "owner"}
	if !reflect.DeepEqual(unknown, want) {
		t.Errorf("unknown %q, want %q", unknown, want)
	}
	if _, _, err := Parse([]byte(`{"issueNumber": "42"}`)); err == nil {
		t.Error("an issue number given as a string was taken")
	}
	if _, _, err := Parse([]byte(`{"issueNumber": 42, "clarifications": [{"created": "yesterday"}]}`)); err == nil {
		t.Error("a timestamp that is not RFC 3339 was taken")
	}
}

func TestWriteFileTakesAgentXsLock(t *testing.T) {
	defer func(d time.Duration) { lockWait = d }(lockWait)
	lockWait = time.Millisecond
	f, data := readFile(t, "full.json")
	path := filepath.Join(t.TempDir(), Path(42))
	if err := WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, data) {
		t.Errorf("wrote %q (%v), want testdata/full.json", got, err)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("the lock file is left behind: %v", err)
	}

	// An agent holds the lock: the write waits, then gives up, leaving the file alone.
	if err := os.WriteFile(path+".lock", []byte(`{"pid": 1, "timestamp": "now", "agent": "engineer"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, File{IssueNumber: 42}); err == nil || !strings.Contains(err.Error(), "locked by another writer") {
		t.Errorf("wrote under another writer's lock: err %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Errorf("the file changed under another writer's lock")
	}

	// A lock older than 30 seconds was left by a dead process: it is taken over.
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(path+".lock", old, old); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, File{IssueNumber: 42}); err != nil {
		t.Errorf("a stale lock stopped the write: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left beside the file: %v", entries)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fullLedger sets every field of a ledger, its clarifications, their threads and its
// assumptions: a field added to clarify's types later is unset here until it is added,
// and unsetFields then fails the test that converts it.
func fullLedger() clarify.Ledger {
	at := func(min int) time.Time { return time.Date(2026, 2, 26, 10, min, 0, 0, time.UTC) }
	return clarify.Ledger{
		Version: clarify.LedgerVersion, Issue: 42, Seq: 4, Cursor: 1010, Rev: 17, Closed: true,
		Archives: []int64{990}, Labels: []string{"needs-decision"}, Head: "0123456789abcdef01234567",
		Saved: time.Date(2026, 1, 5, 9, 45, 0, 0, time.UTC),
		Read:  time.Date(2026, 1, 5, 9, 44, 58, 0, time.UTC),
		Relations: []clarify.Relation{{Clarification: "CLR-42-003", Kind: clarify.RelationBlockedBy, Issue: 43, ID: 9043,
			Linked: true}},
		Hints: clarify.Hints{NoConfig: clarify.NoConfig{At: time.Date(2026, 2, 26, 8, 0, 0, 0, time.UTC), Branch: "main", Seen: 1009},
			ConfigFile: clarify.ConfigFile{AsOf: clarify.NoConfig{At: time.Date(2026, 2, 26, 8, 0, 0, 0, time.UTC), Branch: "main", Seen: 1009},
				Content: "answer_from: targets\n"},
			Memory: clarify.MemoryHint{Issue: 7, Mark: "00112233445566778899aabb"}},
		Clarifications: []clarify.Clarification{{
			ID: "CLR-42-003", Asker: clarify.Party{Login: "coder-agent[bot]", Role: "engineer"},
			Target: clarify.Target{Kind: clarify.TargetRole, Name: "architect"}, Topic: "pooling",
			Type: "security-decision", Blocking: true, Options: []clarify.Option{{Key: "a", Text: "pool"}},
			Fallback: "a", Evidence: []string{"ADR-42"}, Status: clarify.Escalated, Round: 2, MaxRounds: 5,
			CreatedAt: at(0), UpdatedAt: at(3), StaleAfter: at(33), ResolvedAt: at(40), Resolution: "pool it",
			Precedent: &clarify.Precedent{From: "CLR-7-001", Repo: "octo/.github", Decision: "pool it", Value: `{"key":"a","text":"pool"}`, Settles: at(39), Comment: 5, Objected: true, Applied: true, Undone: true},
			Ref:       "run-981/step-3", State: `{"session":"é \"q\" -->"}`, Nonce: "q3Jx-7_aZ", Expect: "option", Needs: 2,
			Thread: []clarify.Entry{{Kind: clarify.KindEscalation, Round: 2, Author: "maria", CommentID: 1003, At: at(3), Text: "stuck", Edited: true,
				Value: `{"key":"a","text":"pool"}`}},
		}},
		Assumptions: []clarify.Assumption{{
			Decision: "UTC", Confidence: "high", Risk: "low", Author: "coder-agent[bot]", CommentID: 1005,
			At: at(50), Clarification: "CLR-42-003", Source: "timeout_assumed",
		}},
	}
}

// unsetFields names the struct fields that are zero in every value of their type reachable
// from v: a file or ledger meant to set every field must leave none.
func unsetFields(v reflect.Value) []string {
	set := map[string]bool{}
	all := map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			if v.Type() == reflect.TypeFor[time.Time]() {
				return
			}
			for i := range v.NumField() {
				name := v.Type().Name() + "." + v.Type().Field(i).Name
				all[name] = true
				if !v.Field(i).IsZero() {
					set[name] = true
				}
				walk(v.Field(i))
			}
		}
	}
	walk(v)
	var out []string
	for name := range all {
		if !set[name] {
			out = append(out, name)
		}
	}
	return out
}
