package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// DispatchEventType is the event_type of the repository_dispatch events Clarify takes;
// repositories also dispatch for their own workflows, and those are not Clarify's.
const DispatchEventType = "clarify"

// DispatchPayload is the client_payload of a "clarify" repository_dispatch: the issue and
// the command, in the fields of the long form. Which fields an action reads is in
// docs/agents.md.
type DispatchPayload struct {
	Issue  int    `json:"issue"`
	Action string `json:"action"`
	// Target is whom an ask addresses: "@login", "@org/team", or a role's name.
	Target   string   `json:"target,omitempty"`
	Question string   `json:"question,omitempty"`
	Topic    string   `json:"topic,omitempty"`
	Type     string   `json:"type,omitempty"`
	Options  []string `json:"options,omitempty"`
	// Fallback names an option by its letter ("a").
	Fallback string   `json:"fallback,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
	// Blocking false makes an ask non-blocking; absent, it blocks, as a comment's does.
	Blocking *bool `json:"blocking,omitempty"`
	// ID names the clarification a followup, respond, resolve, escalate or abandon is about.
	ID         string `json:"id,omitempty"`
	Decision   string `json:"decision,omitempty"`
	Answer     string `json:"answer,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Confidence string `json:"confidence,omitempty"`
	Risk       string `json:"risk,omitempty"`
	// Context is an ask's own data, given back in the wake-ups: grouped under one key, since
	// GitHub allows a client_payload at most 10 top-level keys.
	Context *AskContext `json:"context,omitempty"`
	// Expect is the kind of answer an ask or follow-up takes, as its `Expect:` line says it
	// ("yes/no", "number 1..100", "date", "option", "text").
	Expect string `json:"expect,omitempty"`
	// Needs is how many people's answers an ask needs, as its `Needs:` line says it.
	Needs int `json:"needs,omitempty"`
}

// AskContext is the asker's own data on an ask (clarify/asker.go), under "context" in a
// dispatch and in the wake-up: its correlation id, the opaque state it wants back, and its
// nonce (a dispatch's only), which tells askers apart where the account does not. Any other
// action's context holds its nonce alone: the asker finds its command's mirror by it.
type AskContext struct {
	Ref   string `json:"ref,omitempty"`
	State string `json:"state,omitempty"`
	Nonce string `json:"nonce,omitempty"`
}

// Problem is why a payload is no command, and what to send instead: what a refusal in
// the issue says.
type Problem struct {
	// Problem says what is wrong; Try, what to send instead.
	Problem, Try string
	// Code is the refusal's error code; empty means clarify.CodeBadCommand.
	Code clarify.ErrorCode
}

// The example a refusal of a payload shows.
const dispatchExample = "`{\"event_type\": \"clarify\", \"client_payload\": {\"issue\": 42, \"action\": \"ask\", \"target\": \"@maria\", \"question\": \"Per API key or per client IP?\"}}`"

// dispatchActions are the actions a dispatch may name, in the order a refusal lists them.
var dispatchActions = []string{"ask", "followup", "respond", "resolve", "escalate", "abandon", "assume"}

// IssueOf reads client_payload.issue, strictly: a JSON number, or a JSON string of its
// digits (what a shell script's jq tends to send), naming an issue, so positive, with no
// sign, space, fraction or leading zero. "042" or " 42" may be a typo for another number,
// and a dispatch taken for the wrong issue would act there; anything else is an IssueError.
func IssueOf(raw json.RawMessage) (int, error) {
	var head struct {
		Issue json.RawMessage `json:"issue"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return 0, &IssueError{Why: "the client_payload is not a JSON object"}
	}
	sent := string(head.Issue)
	if len(head.Issue) == 0 || sent == "null" {
		return 0, &IssueError{Why: "there is none"}
	}
	digits := sent
	if head.Issue[0] == '"' && json.Unmarshal(head.Issue, &digits) != nil {
		digits = sent
	}
	n, err := strconv.Atoi(digits)
	if !issueDigits.MatchString(digits) || err != nil {
		return 0, &IssueError{Why: "it is " + sent}
	}
	return n, nil
}

// issueDigits is an issue number as written: digits, the first not 0.
var issueDigits = regexp.MustCompile(`^[1-9][0-9]*$`)

// IssueError is why a dispatch names no issue. There is no issue to refuse it in, so the
// app logs it, with its Code, and drops the dispatch (GitHub answered the sender's POST
// with 204 before the app saw it).
type IssueError struct {
	// Why says what the client_payload holds instead.
	Why string
}

func (e *IssueError) Error() string {
	return fmt.Sprintf("client_payload.issue names no issue (%s): %s; send it as a positive whole number, 42 or \"42\"", e.Code(), e.Why)
}

// Code is the error code of a dispatch the app cannot take as a command.
func (e *IssueError) Code() clarify.ErrorCode { return clarify.CodeBadCommand }

// Decode reads a client_payload into the payload it is, given its issue (IssueOf): a
// field that is none of Clarify's, or of the wrong JSON type, is a Problem.
func Decode(raw json.RawMessage, issue int) (DispatchPayload, *Problem) {
	// The issue field is read by IssueOf; this struct's shadows the payload's.
	var wire struct {
		DispatchPayload
		Issue json.RawMessage `json:"issue"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&wire); err != nil {
		return DispatchPayload{Issue: issue}, payloadProblem(err)
	}
	p := wire.DispatchPayload
	p.Issue = issue
	return p, nil
}

// Command writes the payload as the comment that would say the same
// (clarify.FormatCommand), so that the parser and every check of Apply treat it as they
// treat that comment. What is left here is the payload's: which of its fields an action
// needs, named as the sender wrote them.
func (p DispatchPayload) Command() (string, *Problem) {
	c, problem := p.fields()
	if problem != nil {
		return "", problem
	}
	return clarify.FormatCommand(c), nil
}

// fields maps the payload onto the command's fields, or says which field is missing.
func (p DispatchPayload) fields() (clarify.Command, *Problem) {
	action := strings.ToLower(strings.TrimSpace(p.Action))
	c := clarify.Command{Kind: clarify.CommandKind(action), ID: strings.TrimSpace(p.ID)}
	if p.Context != nil && slices.Contains(dispatchActions, action) {
		if problem := p.contextProblem(action); problem != nil {
			return c, problem
		}
	}
	switch action {
	case "ask", "followup":
		return p.question(c)
	case "respond":
		c.Text = p.Answer
	case "resolve", "assume":
		c.Text, c.Confidence, c.Risk = p.Decision, p.Confidence, p.Risk
	case "escalate", "abandon":
		c.Text = p.Reason
	default:
		problem := "a `clarify` dispatch needs an `action`."
		if action != "" {
			problem = "`" + strings.Join(strings.Fields(p.Action), " ") + "` is not an action of a `clarify` dispatch."
		}
		return c, &Problem{Problem: problem,
			Try: "send `action` as one of `" + strings.Join(dispatchActions, "`, `") + "`, as in " + dispatchExample + "."}
	}
	return c, p.missing(c)
}

// contextProblem checks an ask's context against its limits (clarify/asker.go); another
// action's may hold a nonce and nothing else.
func (p DispatchPayload) contextProblem(action string) *Problem {
	if action != "ask" && (p.Context.Ref != "" || p.Context.State != "") {
		return &Problem{Problem: "`context.ref` and `context.state` belong to an `ask` dispatch: a `" + action + "` keeps those of the ask it is about.",
			Try: "send `context` with its `nonce` alone, or leave it out."}
	}
	if problem, code := clarify.RefProblem(strings.TrimSpace(p.Context.Ref)); problem != "" {
		return &Problem{Problem: "`context.ref` will not do: " + problem, Code: code,
			Try: "send a short id on one line, as in `\"context\": {\"ref\": \"run-981/step-3\"}`."}
	}
	if problem := clarify.StateProblem(p.Context.State); problem != "" {
		return &Problem{Problem: "`context.state` is too long: " + problem, Code: clarify.CodeTooLong,
			Try: clarify.StateTry}
	}
	if problem := clarify.NonceProblem(p.Context.Nonce); problem != "" {
		return &Problem{Problem: "`context.nonce` will not do: " + problem,
			Try: "send a random id of letters and digits, or leave it out."}
	}
	return nil
}

// question maps an ask's or a follow-up's fields. A target without "@" is a role's name.
func (p DispatchPayload) question(c clarify.Command) (clarify.Command, *Problem) {
	target := strings.TrimSpace(p.Target)
	c.Target, c.BareTarget = strings.TrimPrefix(target, "@"), !strings.HasPrefix(target, "@")
	c.NonBlocking = p.Blocking != nil && !*p.Blocking
	c.Text, c.Topic, c.Type, c.Fallback, c.Evidence = p.Question, p.Topic, p.Type, p.Fallback, p.Evidence
	c.Expect, c.Needs = p.Expect, p.Needs
	if p.Context != nil {
		c.Ref = strings.TrimSpace(p.Context.Ref)
	}
	for i, o := range p.Options {
		if i == 26 {
			break // the parser refuses more options than letters anyway
		}
		c.Options = append(c.Options, clarify.Option{Key: string(rune('a' + i)), Text: o})
	}
	return c, p.missing(c)
}

// dispatchNeed is a field an action cannot go without, and an example of it.
type dispatchNeed struct{ field, example string }

// dispatchNeeds lists, per action, the fields it needs, in the order a refusal names them.
var dispatchNeeds = map[clarify.CommandKind][]dispatchNeed{
	clarify.CmdAsk:      {{"target", `"target": "@maria"`}, {"question", `"question": "Per API key or per client IP?"`}},
	clarify.CmdFollowup: {{"id", `"id": "CLR-42-001"`}, {"question", `"question": "Does that hold for cached reads too?"`}},
	clarify.CmdRespond:  {{"answer", `"answer": "Per API key."`}},
	clarify.CmdEscalate: {{"id", `"id": "CLR-42-001"`}},
	clarify.CmdAbandon:  {{"id", `"id": "CLR-42-001"`}},
	clarify.CmdAssume:   {{"decision", `"decision": "Store all timestamps in UTC"`}},
}

// missing names the first field the action needs that the payload lacks, with an example.
func (p DispatchPayload) missing(c clarify.Command) *Problem {
	given := map[string]string{"target": p.Target, "question": p.Question, "id": p.ID, "answer": p.Answer, "decision": p.Decision}
	for _, n := range dispatchNeeds[c.Kind] {
		if strings.TrimSpace(given[n.field]) == "" {
			return &Problem{Problem: "a `" + string(c.Kind) + "` dispatch needs `" + n.field + "`.", Try: "add it, as in `" + n.example + "`."}
		}
	}
	return nil
}

// payloadProblem says what is wrong with a client_payload that does not decode.
func payloadProblem(err error) *Problem {
	try := "send the fields of the table in docs/agents.md, as in " + dispatchExample + "."
	var typeErr *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		// The field is named by its Go path (DispatchPayload.options); the sender knows its key.
		field := typeErr.Field[strings.LastIndexByte(typeErr.Field, '.')+1:]
		return &Problem{Problem: fmt.Sprintf("`%s` must be a JSON %s, not a %s.", field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value), Try: try}
	case strings.HasPrefix(msg, "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`)
		return &Problem{Problem: "`" + field + "` is not a field of a `clarify` dispatch.", Try: try}
	}
	return &Problem{Problem: "the client_payload is not a JSON object of the fields Clarify reads.", Try: try}
}

// jsonKind names a Go kind as JSON calls it.
func jsonKind(goKind string) string {
	switch goKind {
	case "slice":
		return "array of strings"
	case "bool", "ptr":
		return "boolean"
	case "int":
		return "number"
	}
	return goKind
}
