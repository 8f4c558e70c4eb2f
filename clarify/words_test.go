package clarify

import (
	"strings"
	"testing"
	"time"
)

// TestNearestNamesTheWordATypoMeant: the one "did you mean" of the parser, the
// repository config and the server settings.
func TestNearestNamesTheWordATypoMeant(t *testing.T) {
	keys := []string{"ledger_key", "sla", "max_rounds", "resolve", "respond"}
	tests := map[string]struct {
		s        string
		maxEdits int
		want     string
	}{
		"swappedLetters":                {"resovle", 2, "resolve"},
		"caseIgnored":                   {"MAX_ROUNDS", 2, "max_rounds"},
		"hyphenForUnderscore":           {"ledger-key", 2, "ledger_key"},
		"tooFarAway":                    {"whatever", 2, ""},
		"withinTheCallersLimitOnly":     {"rsolv", 1, ""},
		"shortWordIsNoTypoOfEverything": {"x", 2, ""},
		"everyLetterChangedIsNoTypo":    {"slb", 2, "sla"},
		"overlongWordIsNoTypo":          {strings.Repeat("s", maxTypoLen+1), 2, ""},
	}
	if got := Nearest("cat", []string{"bat", "hat"}, 1); got != "bat" {
		t.Errorf("of equally close choices the first wins: got %q", got)
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Nearest(tc.s, keys, tc.maxEdits); got != tc.want {
				t.Errorf("Nearest(%q, %d) = %q, want %q", tc.s, tc.maxEdits, got, tc.want)
			}
		})
	}
}

func TestFormatDurationWritesItAsAFileWould(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Minute:             "30m",
		time.Hour:                    "1h",
		90 * time.Minute:             "1h30m",
		720 * time.Hour:              "720h",
		45 * time.Second:             "45s",
		time.Minute + 5*time.Second:  "1m5s",
		2*time.Hour + 30*time.Second: "2h0m30s",
		1500 * time.Millisecond:      "1.5s",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestParseHandleReadsLoginsAppsAndTeams(t *testing.T) {
	tests := map[string]struct {
		s    string
		want Handle
		why  string
	}{
		"login":           {s: "alice", want: Handle{Login: "alice"}},
		"app":             {s: "ci-bot[bot]", want: Handle{Login: "ci-bot[bot]"}},
		"team":            {s: "octo-org/back_end", want: Handle{Org: "octo-org", Slug: "back_end"}},
		"atIsNotTakenOff": {s: "@alice", why: "has '@'"},
		"badOrganization": {s: "-org/team", why: "its organization starts or ends with a hyphen"},
		"badTeam":         {s: "org/te am", why: "its team has a space"},
		"teamInATeam":     {s: "org/a/b", why: "its team has a /"},
		"empty":           {s: "", why: "is empty"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, why := ParseHandle(tc.s)
			if got != tc.want || (tc.why == "") != (why == "") || !strings.Contains(why, tc.why) {
				t.Errorf("ParseHandle(%q) = %+v, %q; want %+v, %q", tc.s, got, why, tc.want, tc.why)
			}
		})
	}
	if h, _ := ParseHandle("org/team"); !h.Team() {
		t.Error("org/team is a team")
	}
}
