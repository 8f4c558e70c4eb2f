package handlers

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

func TestRedeliverAsksOnceForEachDeliveryThatNeverGotThrough(t *testing.T) {
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
		t.Fatalf("redelivered %v (stats %+v), want the one sent while down and the one answered 503, in order; not %s, %s or %s",
			got, stats, old.ID, fine.ID, healed.ID)
	}

	// The next run reads only what is new; a delivery that keeps failing is asked for
	// again a bounded number of times.
	for i := 0; i < 5; i++ {
		fake.Advance(time.Minute)
		fake.RecordDelivery(failed, http.StatusServiceUnavailable, true)
		if _, err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	asked := 0
	for _, d := range fake.TakeRedeliveries() {
		if d.ID != failed.ID {
			t.Errorf("run after run redelivered %s again", d.ID)
		}
		asked++
	}
	if asked != maxRedeliveries-1 {
		t.Errorf("a delivery that keeps failing was asked for %d more times, want %d", asked, maxRedeliveries-1)
	}
}
