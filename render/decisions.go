package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// decisionsOpen opens the signed block of one part of a repository's decision memory; its
// own tag keeps a part from passing for a ledger or an archive, and the other way round.
const decisionsOpen = "<!-- clarify:decisions "

// DecisionsMarker marks the app's comments that hold the repository's decisions.
const DecisionsMarker = "<!-- clarify:decisions-part -->"

// maxPartBytes caps one part's comment well under GitHub's 65,536 characters: Renovate
// found the accepted length about a thousand characters shy of the limit.
const maxPartBytes = 58_000

// The caps on a remembered decision's text: a decision is offered as a short quote, and
// short texts keep a repository's whole memory within one page of comments.
const (
	capMemoryQuestion = 500
	capMemoryDecision = 1000
)

// decisionsPart is the payload of one part.
type decisionsPart struct {
	V         int                `json:"v"`
	Part      int                `json:"part"`
	Decisions []clarify.Decision `json:"decisions"`
}

// EncodeDecisions splits m into comment bodies, each under the comment limit, each
// holding a signed block of its part; part i belongs in the i-th comment.
func EncodeDecisions(m clarify.Memory, key []byte) ([]string, error) {
	var bodies []string
	rest := shortened(m.Decisions)
	for len(rest) > 0 || len(bodies) == 0 {
		body, n, err := fillPart(len(bodies), rest, key)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, body)
		rest = rest[n:]
	}
	return bodies, nil
}

// fillPart encodes as many of ds as fit one comment, and says how many. It starts from
// what would fit if the JSON compressed to a quarter and shrinks by the size it measured,
// so a part takes a few encodings, not one per decision.
func fillPart(part int, ds []clarify.Decision, key []byte) (string, int, error) {
	n, raw := 0, 0
	for n < len(ds) {
		js, err := json.Marshal(ds[n])
		if err != nil {
			return "", 0, fmt.Errorf("render: encode decisions: %w", err)
		}
		if raw += len(js); raw > 4*maxPartBytes && n > 0 {
			break
		}
		n++
	}
	for {
		body, err := decisionsBody(part, ds[:n], key)
		if err != nil || len(body) <= maxPartBytes {
			return body, n, err
		}
		if n == 1 {
			return "", 0, fmt.Errorf("render: one decision takes %d bytes, over %d", len(body), maxPartBytes)
		}
		n = max(1, min(n-1, n*maxPartBytes*9/(10*len(body))))
	}
}

func shortened(ds []clarify.Decision) []clarify.Decision {
	out := make([]clarify.Decision, len(ds))
	for i, d := range ds {
		d.Question = clip(d.Question, capMemoryQuestion, false)
		d.Decision = clip(d.Decision, capMemoryDecision, false)
		out[i] = d
	}
	return out
}

// DecisionsIssueText is what the decisions issue's body says to people: the body it is made
// with, before its number (and so its key) is known to sign the index.
func DecisionsIssueText() string {
	return "Clarify remembers the decisions people make when they settle clarifications in this repository, " +
		"so that a new question on a decided topic is offered the earlier decision as advice. " +
		"The comments below are that memory, signed so that an edit by hand is detected; where Clarify runs as a workflow, " +
		"one more notes what its scheduled runs last saw of each issue with an open clarification. " +
		"The label `clarify:decisions` names this issue; it is closed because there is nothing to do here.\n"
}

// EncodeDecisionsPart is the comment body of part number part, holding ds.
func EncodeDecisionsPart(part int, ds []clarify.Decision, key []byte) (string, error) {
	return decisionsBody(part, ds, key)
}

func decisionsBody(part int, ds []clarify.Decision, key []byte) (string, error) {
	return sealedComment(decisionsOpen, DecisionsMarker, fmt.Sprintf("Clarify keeps this repository's decisions here (part %d), "+
		"so that a new question on a decided topic is offered the earlier decision. It is the app's memory: an edit by hand "+
		"is detected and ignored.", part+1), decisionsPart{V: 1, Part: part, Decisions: ds}, key)
}

// sealedComment is the body of one of the app's comments that holds v as a signed block
// opened by open: its marker, a line saying what it is for, then the block.
func sealedComment(open, marker, what string, v any, key []byte) (string, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("render: encode %s: %w", strings.TrimSpace(strings.TrimPrefix(open, "<!-- ")), err)
	}
	block, err := sealJSON(open, js, key)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s\n%s\n\n%s\n", marker, what, block), nil
}

// DecodeDecisions reads the part of the decision memory a comment body holds.
func DecodeDecisions(body string, key []byte) (part int, ds []clarify.Decision, err error) {
	js, err := openJSON(decisionsOpen, body, key)
	if err != nil {
		return 0, nil, err
	}
	var p decisionsPart
	if err := json.Unmarshal(js, &p); err != nil {
		return 0, nil, fmt.Errorf("%w: json: %v", ErrMalformed, err)
	}
	if p.V != 1 {
		return 0, nil, fmt.Errorf("%w: decisions say version %d", ErrVersion, p.V)
	}
	return p.Part, p.Decisions, nil
}

// DecodeDecisions reads a part of the decision memory under the issue's current key, else
// under a previous one (a key rotation): the next write signs it with the current key.
func (k IssueKeys) DecodeDecisions(body string) (part int, ds []clarify.Decision, err error) {
	part, ds, first := DecodeDecisions(body, k.Signing())
	if first == nil || len(k.bound) == 0 {
		return part, ds, first
	}
	for _, key := range k.bound[1:] {
		if part, ds, err := DecodeDecisions(body, key); err == nil {
			return part, ds, nil
		}
	}
	return 0, nil, first
}

// RoundWithOffer is Round with d, an earlier decision of the repository, offered as advice.
func RoundWithOffer(c clarify.Clarification, round int, mention []string, key string, d clarify.Decision) string {
	return roundWith(c, round, mention, key, &d)
}

// offered quotes an earlier decision and links where it was made, with its value when it
// is a typed answer to the new question (clarify.Decision.ValueFor). The link is relative
// (../issues/N), as Renovate links its pull requests, so that the earlier issue gets no "mentioned" entry in its
// timeline; the decider's login is written without @, so nobody is notified by advice.
func offered(d clarify.Decision, value clarify.Value) string {
	where, issue := decidedIn(d)
	if d.CommentID != 0 {
		where += fmt.Sprintf("#issuecomment-%d", d.CommentID)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Decided before** in %s ([%s](%s)), by `%s` on %s",
		id(d.ID), issue, where, inline(d.By, capWord), d.At.UTC().Format("2006-01-02"))
	if d.Topic != "" {
		b.WriteString(", topic " + inline(d.Topic, capTopic))
	}
	b.WriteString(":\n\n" + quote(inertLinks(d.Decision), capQuestion) + "\n\n")
	if value != "" {
		b.WriteString("Its value as an answer to this question: `" + codeText(string(value)) + "`.\n\n")
	}
	b.WriteString("This is advice: the question stays open. If the earlier decision holds, " +
		"resolve with it; if not, answer as usual.\n\n")
	return b.String()
}

// decidedIn is the relative link to the issue where d was made and how to name it: in this
// repository "issue 4" at ../issues/4; in the repository it was inherited from "issue 4 of
// octo/.github" at ../../../octo/.github/issues/4, up from this repository's issue page.
// A repository's name is checked again before it goes into a link, so a name that is not
// one (clarify.ParseRepo) is named in words and linked nowhere.
func decidedIn(d clarify.Decision) (link, name string) {
	if d.Repo == "" {
		return fmt.Sprintf("../issues/%d", d.Issue), fmt.Sprintf("issue %d", d.Issue)
	}
	owner, repo, ok := clarify.ParseRepo(d.Repo)
	if !ok {
		return "#", fmt.Sprintf("issue %d of another repository", d.Issue)
	}
	return fmt.Sprintf("../../../%s/%s/issues/%d", owner, repo, d.Issue), fmt.Sprintf("issue %d of %s/%s", d.Issue, owner, repo)
}

// inertLinks keeps a decision's text from linking anywhere where it is quoted again, in
// other issues' rounds and on the dashboard: whoever settled it wrote it for one issue, and
// a link there ("[see the agreed design](../issues/7#issuecomment-1)") would send every
// later reader into another issue's rounds. Brackets are escaped, so no link, image or
// reference is made; a zero-width space after "://" and "www" stops GitHub's autolinks.
// The text reads as written.
func inertLinks(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(noAutolinks(s))
}

// noAutolinks breaks the bare addresses GitHub would turn into links.
func noAutolinks(s string) string {
	return strings.NewReplacer("://", ":"+zwsp+"//", "www.", "www"+zwsp+".", "WWW.", "WWW"+zwsp+".").Replace(s)
}

// FromPrecedent is the comment that tells a clarification's sides it was resolved with an
// earlier decision of the repository, and how to undo that.
func FromPrecedent(c clarify.Clarification, key string) string {
	p := c.Precedent
	var b strings.Builder
	fmt.Fprintf(&b, "**[%s]** Resolved from precedent · %s\n\n", sides(c), id(c.ID))
	fmt.Fprintf(&b, "Nobody objected within the repository's window, so %s takes the decision of %s:\n\n%s\n\n",
		id(c.ID), precedentSource(*p), quote(inertLinks(p.Decision), capQuestion))
	fmt.Fprintf(&b, "`/clarify undo %s` reopens it, waiting on %s again.\n", c.ID, inline(c.Target.Name, capWord))
	return finish(b.String(), key, recordOf("precedent", c, c.Round))
}

// precedentSource names the decision a precedent took, and the repository that made it when it
// was inherited.
func precedentSource(p clarify.Precedent) string {
	if _, _, ok := clarify.ParseRepo(p.Repo); ok {
		return id(p.From) + " in " + p.Repo
	}
	return id(p.From)
}

// precedentLine is the stats line on earlier decisions, when any was offered.
func precedentLine(pc clarify.PrecedentCounts) string {
	if pc.Offered == 0 {
		return ""
	}
	return fmt.Sprintf("- earlier decisions: %d offered, %d accepted, %d resolved from precedent, %d objected to, %d undone\n",
		pc.Offered, pc.Accepted, pc.FromPrecedent, pc.Objected, pc.Undone)
}

// DecisionCounts is the stats line on a repository's remembered decisions.
func DecisionCounts(m clarify.Memory) string {
	if len(m.Decisions) == 0 {
		return ""
	}
	in := len(m.InForceNewestFirst())
	return fmt.Sprintf("- decisions remembered: %d in force, %d superseded\n", in, len(m.Decisions)-in)
}
