package app

import (
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// refusalLogInterval is how often one client's refusals are logged: one line each
// interval, carrying how many were not logged since, instead of one a request (one
// client once wrote 31,646 lines in 30 s).
const refusalLogInterval = time.Minute

// refusalLogClients bounds the clients remembered; past it the cache starts afresh,
// which costs at most one more line per client.
const refusalLogClients = 4096

// refusalLog lets through one log line per client per interval.
type refusalLog struct {
	mu       sync.Mutex
	interval time.Duration
	clients  map[string]*refusedClient
}

type refusedClient struct {
	next       time.Time
	suppressed int
}

func newRefusalLog(interval time.Duration) *refusalLog {
	return &refusalLog{interval: interval, clients: map[string]*refusedClient{}}
}

// log sends ev, with the client and the refusals not logged since its last line, when the
// client's interval has passed; otherwise it only counts it.
func (l *refusalLog) log(client string, ev *zerolog.Event) {
	now := time.Now()
	l.mu.Lock()
	c := l.clients[client]
	if c == nil {
		if len(l.clients) >= refusalLogClients {
			l.clients = map[string]*refusedClient{}
		}
		c = &refusedClient{}
		l.clients[client] = c
	}
	if now.Before(c.next) {
		c.suppressed++
		l.mu.Unlock()
		ev.Discard()
		return
	}
	suppressed := c.suppressed
	c.suppressed, c.next = 0, now.Add(l.interval)
	l.mu.Unlock()
	ev.Str("client", client).Int("refused_unlogged", suppressed).
		Dur("next_line_after", l.interval).Msg("Refused a delivery")
}
