package delivery

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// appOnFake returns the in-memory GitHub, served on loopback, and go-githubapp's real
// client creator pointed at it.
func appOnFake(t *testing.T) (*fakegithub.Server, githubapp.ClientCreator) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	fake := fakegithub.New(fakegithub.Options{AppID: 7, AppSlug: "clarify", WebhookSecret: []byte("s"), AppPublicKey: &key.PublicKey})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	var cfg githubapp.Config
	cfg.V3APIURL = srv.URL + "/"
	cfg.V4APIURL = srv.URL + "/graphql"
	cfg.App.IntegrationID = 7
	cfg.App.PrivateKey = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	clients, err := githubapp.NewDefaultCachingClientCreator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fake, clients
}

func TestRedeliverKeepsAskingForEachDeliveryThatNeverGotThroughWhileGitHubKeepsIt(t *testing.T) {
	fake, clients := appOnFake(t)
	fake.AddInstallation(1, "octo", "octo/widgets")
	fake.AddUser("maria", "User")
	fake.OpenIssue("octo/widgets", 42, "Rate limit", "maria")
	comment := func(status int, redelivery bool) fakegithub.Delivery {
		d, _ := fake.Comment("octo/widgets", 42, "maria", "a comment")
		fake.RecordDelivery(d, status, redelivery)
		fake.Advance(time.Minute)
		return d
	}
	old := comment(0, false) // before the look-back: left alone
	fake.Advance(2 * time.Hour)
	fine := comment(http.StatusAccepted, false)
	down := comment(0, false)
	failed := comment(http.StatusServiceUnavailable, false)
	malformed := comment(http.StatusBadRequest, false) // refused for what it is: sent again, refused again
	healed := comment(http.StatusInternalServerError, false)
	fake.RecordDelivery(healed, http.StatusAccepted, true) // a manual redelivery got through

	r := &Redeliver{Clients: clients, Now: fake.Now, Lookback: time.Hour}
	stats, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range fake.TakeRedeliveries() {
		got = append(got, d.ID)
	}
	if len(got) != 2 || got[0] != down.ID || got[1] != failed.ID || stats.Asked != 2 {
		t.Fatalf("redelivered %v (stats %+v), want the one sent while down and the one answered 503, in order; not %s, %s, %s or %s",
			got, stats, old.ID, fine.ID, malformed.ID, healed.ID)
	}

	// The next runs read only what is new. A delivery that keeps failing (an attack, an
	// outage) is asked for again with growing waits for as long as GitHub keeps it (three
	// days), not given up after a few tries, and then left alone.
	for _, d := range fake.TakeRedeliveries() {
		fake.RecordDelivery(d, http.StatusServiceUnavailable, true)
	}
	checkAsksGrowUntilGitHubForgets(t, keepFailing(t, fake, r, failed, down))

	// Once a redelivery gets through, it is asked for no more.
	fake.RecordDelivery(failed, http.StatusAccepted, true)
	fake.Advance(time.Minute)
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := fake.TakeRedeliveries(); len(got) != 0 {
		t.Errorf("asked again for %d deliveries that got through or are past GitHub's log", len(got))
	}
}

// keepFailing runs r every ten minutes for 80 hours, answering every redelivery 503, and
// returns how long after the start failed was asked for each time; only failed and down
// may be asked for.
func keepFailing(t *testing.T, fake *fakegithub.Server, r *Redeliver, failed, down fakegithub.Delivery) []time.Duration {
	t.Helper()
	first := fake.Now()
	var at []time.Duration
	for fake.Now().Sub(first) < 80*time.Hour {
		fake.Advance(10 * time.Minute)
		if _, err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, d := range fake.TakeRedeliveries() {
			if d.ID != failed.ID && d.ID != down.ID {
				t.Errorf("run after run redelivered %s, which got through or is too old", d.ID)
			}
			if d.ID == failed.ID {
				at = append(at, fake.Now().Sub(first))
			}
			fake.RecordDelivery(d, http.StatusServiceUnavailable, true)
		}
	}
	t.Logf("a delivery answered 503 for 80 hours was asked for again %d times, at %v", len(at), at)
	return at
}

// checkAsksGrowUntilGitHubForgets asserts that a delivery was asked for again until near
// GitHub's three days, none past them, with waits that never shrink.
func checkAsksGrowUntilGitHubForgets(t *testing.T, at []time.Duration) {
	t.Helper()
	if len(at) < 8 || at[len(at)-1] < 48*time.Hour || at[len(at)-1] > redeliverWindow {
		t.Fatalf("asked again at %v: want asks until near GitHub's three days, none past them", at)
	}
	for i := 2; i < len(at); i++ {
		if at[i]-at[i-1] < at[i-1]-at[i-2] {
			t.Errorf("the wait before ask %d (%v) is shorter than the one before it (%v)", i+1, at[i]-at[i-1], at[i-1]-at[i-2])
		}
	}
}

// TestRedeliverGoesOnPastADeliveryGitHubWillNotRedeliver: of two failed deliveries, GitHub
// refuses to redeliver the older one. The newer is still asked for in the same run; the
// older is waited out (a 502) or forgotten (a 422), never asked for first in every run.
func TestRedeliverGoesOnPastADeliveryGitHubWillNotRedeliver(t *testing.T) {
	const route = "POST /app/hook/deliveries/{delivery_id}/attempts"
	for _, refusal := range []int{http.StatusBadGateway, http.StatusUnprocessableEntity} {
		t.Run(http.StatusText(refusal), func(t *testing.T) {
			fake, clients := appOnFake(t)
			fake.AddInstallation(1, "octo", "octo/widgets")
			fake.AddUser("maria", "User")
			fake.OpenIssue("octo/widgets", 42, "Rate limit", "maria")
			var failed []fakegithub.Delivery
			for range 2 {
				d, _ := fake.Comment("octo/widgets", 42, "maria", "a comment")
				fake.RecordDelivery(d, http.StatusServiceUnavailable, false)
				fake.Advance(time.Minute)
				failed = append(failed, d)
			}
			r := &Redeliver{Clients: clients, Now: fake.Now, Lookback: time.Hour}
			var asks []string
			var stats []RedeliverStats
			for run := range 3 {
				fake.FailNext(route, refusal, 1) // the first ask of each run is refused
				s, err := r.Run(context.Background())
				if err != nil {
					t.Fatalf("run %d: %v", run+1, err)
				}
				stats = append(stats, s)
				for _, d := range fake.TakeRedeliveries() {
					asks = append(asks, d.ID)
					fake.RecordDelivery(d, http.StatusAccepted, true) // taken
				}
				fake.Advance(10 * time.Minute)
			}
			t.Logf("older answered %d on each ask: redelivered %v over three runs; stats %+v", refusal, asks, stats)
			if len(asks) == 0 || asks[0] != failed[1].ID {
				t.Fatalf("redelivered %v; want the newer delivery %s taken in the first run", asks, failed[1].ID)
			}
			if refusal == http.StatusUnprocessableEntity && (len(asks) != 1 || stats[1].Failed != 0) {
				t.Errorf("redelivered %v, stats %+v: the delivery GitHub will not redeliver is still asked for", asks, stats)
			}
			if stats[1].Read > 2 {
				t.Errorf("the second run read %d log entries: the log is read again from the start after a refused ask", stats[1].Read)
			}
		})
	}
}
