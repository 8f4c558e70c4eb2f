package asker

import (
	"encoding/json"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/render"
)

// AskRecord stands in for clarify.AskRecord until the asker's fields land in the domain
// (/work/notes/asker-shape.md); the shape is the same.
type AskRecord struct {
	V          int       `json:"v"`
	Issue      int       `json:"issue"`
	ID         string    `json:"id"`
	Status     string    `json:"status"`
	Outcome    string    `json:"outcome,omitempty"`
	Round      int       `json:"round"`
	Asker      string    `json:"asker"`
	Target     string    `json:"target"`
	Topic      string    `json:"topic,omitempty"`
	Question   string    `json:"question,omitempty"`
	Answer     string    `json:"answer,omitempty"`
	Decision   string    `json:"decision,omitempty"`
	Ref        string    `json:"ref,omitempty"`
	State      string    `json:"state,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at,omitzero"`
	ResolvedAt time.Time `json:"resolved_at,omitzero"`
}

// The outcomes of the shape.
const (
	OutcomeAnswered       = "answered"
	OutcomeResolved       = "resolved"
	OutcomeTimeoutAssumed = "timeout_assumed"
	OutcomeAbandoned      = "abandoned"
)

func refOf(c clarify.Clarification) string { return "" }

func askRecordOf(l clarify.Ledger, c clarify.Clarification) AskRecord {
	r := AskRecord{V: 1, Issue: l.Issue, ID: c.ID, Status: string(c.Status), Round: c.Round, Asker: c.Asker.Login,
		Target: c.Target.Name, Topic: c.Topic, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, ResolvedAt: c.ResolvedAt}
	for _, e := range c.Thread {
		switch e.Kind {
		case clarify.KindQuestion:
			if r.Question == "" {
				r.Question = e.Text
			}
		case clarify.KindAnswer:
			r.Answer = e.Text
		}
	}
	switch c.Status {
	case clarify.Answered:
		r.Outcome = OutcomeAnswered
	case clarify.Abandoned:
		r.Outcome = OutcomeAbandoned
	case clarify.Resolved:
		r.Outcome, r.Decision = OutcomeResolved, c.Resolution
		for _, a := range l.Assumptions {
			if a.Clarification == c.ID && a.Source == clarify.SourceTimeoutAssumed {
				r.Outcome = OutcomeTimeoutAssumed
			}
		}
	}
	return r
}

func recordRef(render.Record) string { return "" }

// commentBody is the ask as a comment: the command, and its ref on a Ref: line.
func commentBody(a Ask) string {
	body := clarify.FormatCommand(a.command())
	if a.Ref != "" {
		body += "\nRef: " + a.Ref
	}
	return body
}

type askContext struct {
	Ref   string `json:"ref,omitempty"`
	State string `json:"state,omitempty"`
}

type dispatchPayload struct {
	handlers.DispatchPayload
	Context *askContext `json:"context,omitempty"`
}

// dispatchPayloadOf is the ask as a dispatch's client_payload.
func dispatchPayloadOf(a Ask) json.RawMessage {
	p := dispatchPayload{DispatchPayload: handlers.DispatchPayload{Issue: a.Issue.Number, Action: string(clarify.CmdAsk),
		Target: a.Target, Question: a.Question, Topic: a.Topic, Options: a.Options, Fallback: a.Fallback}}
	if a.NonBlocking {
		no := false
		p.Blocking = &no
	}
	if a.Ref != "" || a.State != "" {
		p.Context = &askContext{Ref: a.Ref, State: a.State}
	}
	b, _ := json.Marshal(p)
	return b
}
