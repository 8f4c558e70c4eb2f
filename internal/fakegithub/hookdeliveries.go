package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// GitHub keeps a log of every attempt to deliver an App's webhooks, which the App can read
// with its JWT and from which it can ask for a failed delivery again: GitHub itself never
// retries one. The harness records each attempt it makes (RecordDelivery); the Server
// serves the log and queues the redeliveries asked for (TakeRedeliveries), which the
// harness then sends as GitHub would, with the same GUID.
// https://docs.github.com/en/rest/apps/webhooks#list-deliveries-for-an-app-webhook

// hookAttempt is one entry of the delivery log.
type hookAttempt struct {
	id         int64
	delivery   Delivery
	at         time.Time
	statusCode int // 0: the app could not be reached
	redelivery bool
}

type hookAttemptJSON struct {
	ID             int64   `json:"id"`
	GUID           string  `json:"guid"`
	DeliveredAt    string  `json:"delivered_at"`
	Redelivery     bool    `json:"redelivery"`
	Duration       float64 `json:"duration"`
	Status         string  `json:"status"`
	StatusCode     int     `json:"status_code"`
	Event          string  `json:"event"`
	Action         *string `json:"action"`
	InstallationID *int64  `json:"installation_id"`
	RepositoryID   *int64  `json:"repository_id"`
	ThrottledAt    *string `json:"throttled_at"`
}

// RecordDelivery logs an attempt to deliver d that the app answered with statusCode (0
// when it could not be reached at all: down, or the connection failed).
func (s *Server) RecordDelivery(d Delivery, statusCode int, redelivery bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hookSeq++
	s.hookLog = append(s.hookLog, &hookAttempt{id: 80_000_000_000 + s.hookSeq, delivery: d, at: s.nowLocked(), statusCode: statusCode, redelivery: redelivery})
}

// TakeRedeliveries returns and clears the deliveries the app asked GitHub to send again.
func (s *Server) TakeRedeliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.redeliver
	s.redeliver = nil
	return out
}

func (a *hookAttempt) json() hookAttemptJSON {
	var p struct {
		Action       *string `json:"action"`
		Installation *struct {
			ID int64 `json:"id"`
		} `json:"installation"`
		Repository *struct {
			ID int64 `json:"id"`
		} `json:"repository"`
	}
	_ = json.Unmarshal(a.delivery.Body, &p)
	out := hookAttemptJSON{
		ID: a.id, GUID: a.delivery.ID, DeliveredAt: a.at.UTC().Format(time.RFC3339), Redelivery: a.redelivery,
		Duration: 0.05, StatusCode: a.statusCode, Event: a.delivery.Event, Action: p.Action,
	}
	switch {
	case a.statusCode == 0:
		out.Status = "failed to connect to host"
	case a.statusCode >= 200 && a.statusCode < 300:
		out.Status = "OK"
	default:
		out.Status = fmt.Sprintf("Invalid HTTP Response: %d", a.statusCode)
	}
	if p.Installation != nil {
		out.InstallationID = &p.Installation.ID
	}
	if p.Repository != nil {
		out.RepositoryID = &p.Repository.ID
	}
	return out
}

// listHookDeliveries: GET /app/hook/deliveries, newest first, paged by an opaque cursor
// as GitHub does (no page numbers here).
func (s *Server) listHookDeliveries(c *call) reply {
	q := c.r.URL.Query()
	perPage, err := strconv.Atoi(q.Get("per_page"))
	if err != nil || perPage <= 0 {
		perPage = 30
	}
	perPage = min(perPage, 100)
	start := len(s.hookLog) - 1
	if cur := q.Get("cursor"); cur != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(cur, "v1_"))
		if err != nil || n < 0 || n >= len(s.hookLog) {
			return errorReply(http.StatusUnprocessableEntity, "Invalid cursor", c.route.docs)
		}
		start = n
	}
	body := []hookAttemptJSON{}
	i := start
	for ; i >= 0 && len(body) < perPage; i-- {
		body = append(body, s.hookLog[i].json())
	}
	out := reply{status: http.StatusOK, body: body}
	if i >= 0 {
		q.Set("cursor", "v1_"+strconv.Itoa(i))
		u := url.URL{Scheme: "http", Host: c.r.Host, Path: c.r.URL.Path, RawQuery: q.Encode()}
		out.header = http.Header{"Link": {fmt.Sprintf("<%s>; rel=\"next\"", u.String())}}
	}
	return out
}

// redeliverHook: POST /app/hook/deliveries/{delivery_id}/attempts queues the delivery
// again, with its GUID, and answers 202 at once.
func (s *Server) redeliverHook(c *call) reply {
	id := c.intParam("delivery_id")
	for _, a := range s.hookLog {
		if a.id == id {
			s.redeliver = append(s.redeliver, a.delivery)
			return reply{status: http.StatusAccepted, body: map[string]any{}}
		}
	}
	return c.notFound()
}
