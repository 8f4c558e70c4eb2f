package askmcp

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// AskInput is clarify_ask's arguments.
type AskInput struct {
	Issue    int      `json:"issue" jsonschema:"the issue's number"`
	Target   string   `json:"target" jsonschema:"whom to ask: @login, @org/team, or a role's name from the repository's config (no @)"`
	Question string   `json:"question" jsonschema:"the question, in plain words"`
	Repo     string   `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote of the working directory)"`
	Topic    string   `json:"topic,omitempty" jsonschema:"the topic, under which the repository's decisions are kept"`
	Options  []string `json:"options,omitempty" jsonschema:"options to choose from, lettered a, b, ... in this order"`
	Fallback string   `json:"fallback,omitempty" jsonschema:"the letter of the option taken if nobody answers in time"`
	Blocking *bool    `json:"blocking,omitempty" jsonschema:"whether you wait for the answer before going on (default true)"`
	Ref      string   `json:"ref,omitempty" jsonschema:"your own id for this ask; asking again with the same ref is the same ask (default: one is made and returned)"`
	State    string   `json:"state,omitempty" jsonschema:"an opaque string (a session id) given back in the record and the wake-up; anyone who can read the issue can read it"`
	Expect   string   `json:"expect,omitempty" jsonschema:"the kind of answer it takes: yes/no, number, number 1..100, date, option or text (default); the record's value is the answer typed"`
	Needs    int      `json:"needs,omitempty" jsonschema:"how many people must answer it, and agree when the answer is typed (default 1); the record lists each one's answer"`
}

// WaitInput is clarify_wait's arguments.
type WaitInput struct {
	Issue          int    `json:"issue" jsonschema:"the issue's number"`
	ID             string `json:"id,omitempty" jsonschema:"the clarification's id, CLR-<issue>-<nnn> (or give ref)"`
	Ref            string `json:"ref,omitempty" jsonschema:"the ask's ref, for an ask that came back posted (or give id)"`
	Repo           string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"how long to wait (default 25); still open then, the record comes back as it stands: call again"`
}

// StatusInput is clarify_status's arguments.
type StatusInput struct {
	Issue int    `json:"issue" jsonschema:"the issue's number"`
	ID    string `json:"id,omitempty" jsonschema:"one clarification's id, CLR-<issue>-<nnn> (default: all of the issue's)"`
	Ref   string `json:"ref,omitempty" jsonschema:"the ask's ref: the clarification it became"`
	Repo  string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
}

// DecisionsInput is clarify_decisions's arguments.
type DecisionsInput struct {
	Topic string `json:"topic,omitempty" jsonschema:"only the decisions on this topic"`
	Repo  string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
}

// ResolveInput is clarify_resolve's arguments.
type ResolveInput struct {
	Issue    int    `json:"issue" jsonschema:"the issue's number"`
	ID       string `json:"id" jsonschema:"the clarification's id, CLR-<issue>-<nnn>"`
	Decision string `json:"decision,omitempty" jsonschema:"what was decided, remembered by the repository (default: the last answer stands)"`
	Repo     string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
}

// FollowupInput is clarify_followup's arguments.
type FollowupInput struct {
	Issue    int    `json:"issue" jsonschema:"the issue's number"`
	ID       string `json:"id" jsonschema:"the clarification's id, CLR-<issue>-<nnn>"`
	Question string `json:"question" jsonschema:"the next question: a new round, to the same person"`
	Repo     string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
}

// AbandonInput is clarify_abandon's arguments.
type AbandonInput struct {
	Issue  int    `json:"issue" jsonschema:"the issue's number"`
	ID     string `json:"id" jsonschema:"the clarification's id, CLR-<issue>-<nnn>"`
	Reason string `json:"reason,omitempty" jsonschema:"why it is withdrawn"`
	Repo   string `json:"repo,omitempty" jsonschema:"OWNER/REPO (default: CLARIFY_REPO, else the git remote)"`
}

// Records is clarify_status's result.
type Records struct {
	Records []clarify.AskRecord `json:"records"`
}

// Decisions is clarify_decisions's result.
type Decisions struct {
	Decisions []asker.Decision `json:"decisions"`
}

// The forms a client can check before it calls: the SDK validates every call against the
// schema too, so a call outside them is refused before anything is sent.
const (
	idPattern   = `^[Cc][Ll][Rr]-[1-9][0-9]*-[0-9]{3,}$`
	repoPattern = `^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$`
	// maxIssue is the largest issue number a schema takes (GitHub's are 32-bit).
	maxIssue = 1<<31 - 1
	// maxTextRunes bounds a decision or a reason, as the question is bounded.
	maxTextRunes = asker.MaxQuestionRunes
	maxTopic     = 200
	maxOptions   = 26
	// maxRepos bounds an inbox's repositories named in one call.
	maxRepos = 100
)

// limits are the bounds of each argument that has them, by its JSON name.
var limits = map[string]func(*jsonschema.Schema){
	"issue":           numberIn(1, maxIssue),
	"timeout_seconds": numberIn(1, MaxWaitSeconds),
	"needs":           numberIn(1, clarify.MaxNeeds),
	"id":              pattern(idPattern),
	"repo":            pattern(repoPattern),
	"ref":             lengthAtMost(clarify.MaxRefRunes),
	"state":           lengthAtMost(clarify.MaxStateBytes),
	"question":        textOf(asker.MaxQuestionRunes),
	"target":          textOf(100),
	"topic":           lengthAtMost(maxTopic),
	"decision":        lengthAtMost(maxTextRunes),
	"reason":          lengthAtMost(maxTextRunes),
	"fallback":        pattern(`^[a-zA-Z]$`),
	"options": func(s *jsonschema.Schema) {
		s.MaxItems = ptr(maxOptions)
	},
	"for":   pattern(`^@?[A-Za-z0-9][A-Za-z0-9-]*(/[A-Za-z0-9._-]+)?$`),
	"org":   pattern(`^[A-Za-z0-9][A-Za-z0-9-]*$`),
	"repos": func(s *jsonschema.Schema) { s.Items.Pattern, s.MaxItems = repoPattern, ptr(maxRepos) },
}

// schemaOf is T's input schema with the limits set on the arguments it has.
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // the input types above always have a schema; a test builds every one
	}
	for name, p := range s.Properties {
		if set, ok := limits[name]; ok {
			set(p)
		}
	}
	return s
}

func numberIn(lo, hi float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Minimum, s.Maximum = &lo, &hi }
}

func pattern(re string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Pattern = re }
}

func lengthAtMost(n int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MaxLength = ptr(n) }
}

// textOf is a required text: not empty, at most n characters.
func textOf(n int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.MinLength, s.MaxLength = ptr(1), ptr(n) }
}

func ptr[T any](v T) *T { return &v }
