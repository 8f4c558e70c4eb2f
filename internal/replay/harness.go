package replay

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/delivery"
	"github.com/clarify-app/clarify/handlers/sweep"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// Harness is a whole world on loopback: the in-memory GitHub, and the real app (real
// dispatcher, real client creator, real signatures) pointed at it. `bot replay` and the
// end-to-end tests use it.
type Harness struct {
	// Fake is the in-memory GitHub, served by GitHub.
	Fake   *fakegithub.Server
	GitHub *httptest.Server
	// App is the app as `bot serve` assembles it, served by AppServer.
	App       *app.App
	AppServer *httptest.Server
	// Secret signs deliveries; Config is the app's configuration, pointed at GitHub.
	Secret []byte
	Config app.Config
	// Statuses holds the HTTP status the app answered to each delivery, in order.
	Statuses []int
	// Delivered holds every delivery sent through Deliver, in order.
	Delivered []fakegithub.Delivery
	// Sweeps counts the sweeps run and SweepRequests the requests they made.
	Sweeps, SweepRequests int

	// Missed holds the deliveries sent while the app was stopped.
	Missed []fakegithub.Delivery

	// touched holds the issues ("owner/repo#n") the app accepted a delivery about, for PrintWorld.
	touched map[string]bool
	// recorded holds the recorded deliveries Play played, whose issues it shows at the end.
	recorded []fakegithub.Delivery
	logs     io.Writer
	// down says the app is stopped: deliveries fail as GitHub logs them, unanswered.
	down bool
	// skew is how far the app's clock is from GitHub's (SetAppClockSkew).
	skew atomic.Int64
}

// SetAppClockSkew sets the app's clock d away from GitHub's (negative: the app is behind),
// as two machines' clocks are: GitHub's timestamps then disagree with the app's.
func (h *Harness) SetAppClockSkew(d time.Duration) { h.skew.Store(int64(d)) }

// appNow is the app's clock: GitHub's, moved by the skew.
func (h *Harness) appNow() time.Time { return h.Fake.Now().Add(time.Duration(h.skew.Load())) }

// harnessAppID is the App id the harness registers with the in-memory GitHub.
const harnessAppID = 4242

// NewHarness starts the in-memory GitHub and the app; logs receives the app's JSON log.
func NewHarness(logs io.Writer) (*Harness, error) { return NewHarnessWith(logs, nil) }

// NewHarnessWith is NewHarness with the app's config changed by tune first (nil: as is).
func NewHarnessWith(logs io.Writer, tune func(*app.Config)) (*Harness, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	secret := []byte("replay-webhook-secret")
	fake := fakegithub.New(fakegithub.Options{
		AppID: harnessAppID, AppSlug: app.DefaultAppSlug, WebhookSecret: secret, AppPublicKey: &key.PublicKey,
	})
	gh := httptest.NewServer(fake)

	var cfg app.Config
	cfg.Github.V3APIURL = gh.URL + "/"
	cfg.Github.V4APIURL = gh.URL + "/graphql"
	cfg.Github.App.IntegrationID = harnessAppID
	cfg.Github.App.WebhookSecret = string(secret)
	cfg.Github.App.PrivateKey = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	// The in-memory GitHub has no secondary limit, and replay's virtual clock should not
	// wait on the real one.
	cfg.Clarify.WritesPerMinute, cfg.Clarify.WritesPerHour = -1, -1
	// Retries keep their order and count, without the real seconds between them.
	cfg.Retry = ghtransport.RetryOptions{BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond}
	if tune != nil {
		tune(&cfg)
	}
	cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		gh.Close()
		return nil, err
	}
	h := &Harness{Fake: fake, GitHub: gh, Secret: secret, Config: cfg, touched: map[string]bool{}, logs: logs}
	if err := h.startApp(); err != nil {
		gh.Close()
		return nil, err
	}
	// The server stays while the app behind it is stopped and started again, as a
	// restarted process keeps its address.
	h.AppServer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.App.Handler.ServeHTTP(w, r) }))
	return h, nil
}

// startApp assembles a fresh app, with nothing in memory, as a new process would.
func (h *Harness) startApp() error {
	a, err := app.NewApp(h.Config, app.NewLogger(h.logs, "debug"), h.appNow)
	if err != nil {
		return err
	}
	// A failed run is tried again as in serve, without the real wait.
	a.Scheduler.RetryDelay = 5 * time.Millisecond
	h.App = a
	return nil
}

// Stop stops the app after it has finished what it accepted: until Start, deliveries go
// unanswered, and GitHub logs them as failed.
func (h *Harness) Stop() {
	_ = h.App.Scheduler.Drain(context.Background())
	h.down = true
}

// Start starts a fresh app, which asks GitHub for the deliveries it missed, as serve does
// at start.
func (h *Harness) Start(ctx context.Context) (delivery.RedeliverStats, error) {
	if err := h.startApp(); err != nil {
		return delivery.RedeliverStats{}, err
	}
	h.down = false
	return h.Redeliver(ctx)
}

// Redeliver runs the app's redelivery check, as serve does after every sweep, then sends
// what the app asked GitHub to send again.
func (h *Harness) Redeliver(ctx context.Context) (delivery.RedeliverStats, error) {
	stats, err := h.App.Redeliver.Run(ctx)
	if err != nil {
		return stats, err
	}
	for _, d := range h.Fake.TakeRedeliveries() {
		if _, err := h.deliver(ctx, d, true); err != nil {
			return stats, err
		}
	}
	return stats, nil
}

// HookURL is where the app takes webhooks.
func (h *Harness) HookURL() string { return h.AppServer.URL + "/api/github/hook" }

// Deliver sends one signed delivery over HTTP, waits until the app has handled it, then
// sends the deliveries GitHub would make of the app's own writes (which the app must
// ignore), as GitHub does.
func (h *Harness) Deliver(ctx context.Context, d fakegithub.Delivery) (int, error) {
	return h.deliver(ctx, d, false)
}

// Drop is a delivery GitHub attempted and the app never answered (a network fault, a
// timeout): GitHub logs it as failed, and does not try again by itself.
func (h *Harness) Drop(d fakegithub.Delivery) {
	h.Fake.RecordDelivery(d, 0, false)
	h.Missed = append(h.Missed, d)
}

func (h *Harness) deliver(ctx context.Context, d fakegithub.Delivery, redelivery bool) (int, error) {
	if h.down {
		h.Fake.RecordDelivery(d, 0, redelivery)
		h.Missed = append(h.Missed, d)
		return 0, nil
	}
	status, err := fakegithub.Send(ctx, h.AppServer.Client(), h.HookURL(), h.Secret, d)
	h.Fake.RecordDelivery(d, status, redelivery)
	if err != nil {
		return 0, err
	}
	h.Statuses = append(h.Statuses, status)
	h.Delivered = append(h.Delivered, d)
	if key, ok := issueOf(d); ok && status < 300 {
		h.touched[key] = true
	}
	h.App.Scheduler.Wait()
	return status, h.flushOutbox(ctx)
}

// Sweep runs one sweep, as `bot serve` does on its ticker, then sends GitHub's deliveries
// of the app's own writes (which the app must ignore).
func (h *Harness) Sweep(ctx context.Context) (sweep.Stats, error) {
	before := len(h.Fake.Requests())
	stats, err := h.App.Sweep.Run(ctx)
	h.Sweeps++
	h.SweepRequests += len(h.Fake.Requests()) - before
	if err != nil {
		return stats, err
	}
	return stats, h.flushOutbox(ctx)
}

func (h *Harness) flushOutbox(ctx context.Context) error {
	for _, own := range h.Fake.TakeOutbox() {
		st, err := fakegithub.Send(ctx, h.AppServer.Client(), h.HookURL(), h.Secret, own)
		if err != nil {
			return err
		}
		if st != http.StatusOK {
			return fmt.Errorf("the app answered %d to a delivery of its own comment", st)
		}
		h.App.Scheduler.Wait()
	}
	return nil
}

// Ledger reads an issue's ledger from the app's status comment, as the app does. The
// clarifications the app moved into archive comments are not in it.
func (h *Harness) Ledger(repo string, issue int) (clarify.Ledger, error) {
	for _, c := range h.Fake.Comments(repo, issue) {
		if c.User == h.Fake.BotLogin() && render.IsStatus(c.Body) {
			owner, name, _ := strings.Cut(repo, "/")
			return render.DecodeLedger(c.Body, ledger.IssueLedgerKey(h.Config.LedgerKeyBytes(), owner, name, issue))
		}
	}
	return clarify.Ledger{}, fmt.Errorf("#%d has no status comment", issue)
}

// Close stops both servers after the app has finished what it accepted.
func (h *Harness) Close() {
	h.AppServer.Close()
	_ = h.App.Scheduler.Drain(context.Background())
	h.GitHub.Close()
}
