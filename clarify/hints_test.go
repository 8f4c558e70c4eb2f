package clarify

import (
	"testing"
	"time"
)

func TestPushSame(t *testing.T) {
	at := time.Date(2026, 11, 26, 7, 0, 0, 0, time.UTC)
	for name, tc := range map[string]struct {
		p, q Push
		want bool
	}{
		"noPushSince":              {Push{At: at, Branch: "main"}, Push{At: at, Branch: "main"}, true},
		"pushedSince":              {Push{At: at, Branch: "main"}, Push{At: at.Add(time.Second), Branch: "main"}, false},
		"defaultBranchSwitched":    {Push{At: at, Branch: "main"}, Push{At: at, Branch: "next"}, false},
		"payloadWithoutPushedAt":   {Push{At: at, Branch: "main"}, Push{Branch: "main"}, false},
		"neitherKnownIsNotTheSame": {Push{Branch: "main"}, Push{Branch: "main"}, false},
		"nothingKnown":             {Push{}, Push{}, false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.p.Same(tc.q); got != tc.want {
				t.Fatalf("%+v.Same(%+v) = %v, want %v", tc.p, tc.q, got, tc.want)
			}
		})
	}
}
