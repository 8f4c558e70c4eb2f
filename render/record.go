package render

import (
	"encoding/json"
	"regexp"

	"github.com/clarify-app/clarify/clarify"
)

// RecordVersion is the version of Record's JSON; a field is never renamed or retyped
// within a version.
const RecordVersion = 1

// Record is the machine-readable summary hidden in every comment the app writes, in
// `<!-- clarify:record {…} -->`, so that an agent with a plain GitHub token reads what
// happened without parsing English. Kind says which comment it is: round, ping,
// escalation, timeout, refusal, list, show, stale, stats, rebuilt, archive,
// config-problem or status.
type Record struct {
	V    int    `json:"v"`
	Kind string `json:"kind"`
	// ID, Round and Status are the clarification's as the comment was written.
	ID     string `json:"id,omitempty"`
	Round  int    `json:"round,omitempty"`
	Status string `json:"status,omitempty"`
	// Asker and Target are the clarification's sides (a login; a role name, a login or
	// org/team).
	Asker  string `json:"asker,omitempty"`
	Target string `json:"target,omitempty"`
	// Decision is a settled clarification's decision.
	Decision string `json:"decision,omitempty"`
	// Code is a refusal's error code (clarify.ErrorCodes).
	Code string `json:"code,omitempty"`
	// Open lists the open clarifications of a status comment.
	Open []string `json:"open,omitempty"`
	// Offered is the clarification whose earlier decision a round offers as advice, and
	// OfferedValue that decision's typed value as an answer to the round's question, when
	// it is one (clarify.Decision.ValueFor).
	Offered      string        `json:"offered,omitempty"`
	OfferedValue clarify.Value `json:"offered_value,omitempty"`
	// OfferedFrom is the repository (owner/name) that made the offered decision, when this
	// one inherited it.
	OfferedFrom string `json:"offered_from,omitempty"`
	// Precedents are a stats reply's counts of earlier decisions offered.
	Precedents *clarify.PrecedentCounts `json:"precedents,omitempty"`
	// Outcome tells apart how the clarification ended or stands for its asker
	// (clarify.Outcome): answered, resolved, timeout_assumed, abandoned.
	Outcome string `json:"outcome,omitempty"`
	// Ref is the asker's own id of the ask: of the clarification, or of the ask a refusal
	// turned away. The asker's state is never in a record: it is in the ledger only.
	Ref string `json:"ref,omitempty"`
	// Nonce is the nonce of the dispatched ask a refusal turned away (clarify/asker.go), or
	// of the dispatched command a mirror stands for.
	Nonce string `json:"nonce,omitempty"`
}

// RecordRound is the kind of a round comment's record: the comment that mirrors a round
// of a clarification, under the id the app handed out.
const RecordRound = "round"

// recordOf is the record of a comment about c.
func recordOf(kind string, c clarify.Clarification, round int) Record {
	r := Record{V: RecordVersion, Kind: kind, ID: c.ID, Round: round, Status: string(c.Status),
		Asker: c.Asker.Login, Target: c.Target.Name, Outcome: clarify.Outcome(c), Ref: c.Ref}
	if !c.Status.Open() {
		r.Decision = c.Resolution
	}
	return r
}

const recordOpen = "<!-- clarify:record "

// recordComment is r as a hidden HTML comment. json.Marshal writes <, > and & as \u
// escapes, so no text in it can end the comment early.
func recordComment(r Record) string {
	b, err := json.Marshal(r)
	if err != nil {
		return "" // a Record always marshals; nothing hidden is better than a broken comment
	}
	return recordOpen + string(b) + " -->"
}

var recordRe = regexp.MustCompile(`<!-- clarify:record (\{[^\n]*?\}) -->`)

// ReadRecord returns the last record hidden in a comment's body. Anyone can write one
// into their own comment, so only a record in a comment by the app's bot account is the
// app's.
func ReadRecord(body string) (Record, bool) {
	all := ReadRecords(body)
	if len(all) == 0 {
		return Record{}, false
	}
	return all[len(all)-1], true
}

// ReadRecords returns every record hidden in a comment's body, in order, leaving out any
// that does not decode: the status comment holds the record of the round it was created
// with (its head) before its own.
func ReadRecords(body string) []Record {
	var out []Record
	for _, m := range recordRe.FindAllStringSubmatch(body, -1) {
		var r Record
		if json.Unmarshal([]byte(m[1]), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}
