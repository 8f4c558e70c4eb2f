package fakegithub

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestChaosFailsRequestsAsGitHubDoes(t *testing.T) {
	f := newFixture(t)
	f.s.SetChaos(Chaos{Rate: 1, Seed: 3, RetryAfter: 2})
	statuses := map[int]int{}
	for range 100 {
		resp, body := f.do(t, http.MethodPost, "/repos/octo/widgets/issues/42/comments", `{"body":"hi"}`)
		statuses[resp.StatusCode]++
		if resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests {
			if resp.Header.Get("Retry-After") != "2" || !strings.Contains(body, "secondary rate limit") {
				t.Fatalf("a limit must name itself and say when to come back: Retry-After %q, %s", resp.Header.Get("Retry-After"), body)
			}
		}
	}
	counts := f.s.ChaosCounts()
	total := 0
	for _, n := range counts {
		total += n
	}
	if total != 100 || len(counts) != 5 || statuses[http.StatusCreated] != 0 {
		t.Fatalf("every request must fail, with every kind of fault: %v, statuses %v", counts, statuses)
	}
	// Only the lost answers took effect.
	if n := len(f.s.Comments(testRepo, 42)); n != counts[ChaosLostAnswer] {
		t.Errorf("%d comments posted, want %d (the writes whose answer was lost)", n, counts[ChaosLostAnswer])
	}

	f.s.SetChaos(Chaos{})
	if resp, _ := f.do(t, http.MethodPost, "/repos/octo/widgets/issues/42/comments", `{"body":"hi"}`); resp.StatusCode != http.StatusCreated {
		t.Errorf("with chaos off: %d, want 201", resp.StatusCode)
	}
}

func TestContentLimitRefusesTheWritePastTheMinutesAllowance(t *testing.T) {
	f := newFixture(t)
	f.s.SetContentLimit(ContentLimit{PerMinute: 3, PerHour: 5, Minute: time.Hour})
	var statuses []int
	for range 4 {
		resp, body := f.do(t, http.MethodPost, "/repos/octo/widgets/issues/42/comments", `{"body":"hi"}`)
		statuses = append(statuses, resp.StatusCode)
		if resp.StatusCode == http.StatusForbidden && (resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "secondary rate limit")) {
			t.Errorf("refusal without Retry-After or naming no secondary limit: %s", body)
		}
	}
	if !slices.Equal(statuses, []int{201, 201, 201, 403}) || f.s.ContentRefusals() != 1 {
		t.Errorf("statuses %v, refusals %d: want the 4th write in a minute refused", statuses, f.s.ContentRefusals())
	}
	if resp, _ := f.do(t, http.MethodGet, "/repos/octo/widgets/issues/42/comments", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("a read is not content: %d", resp.StatusCode)
	}
}
