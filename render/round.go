package render

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// Round returns the comment that mirrors one question round of c (round <= 0: the
// current one), ending with Marker(key). It @mentions each login or "org/team" of mention
// (clarify.Effect.Mention: the people the round waits on whom GitHub has not notified yet),
// right under the heading, where a notification's preview shows it.
func Round(c clarify.Clarification, round int, mention []string, key string) string {
	return roundWith(c, round, mention, key, nil)
}

// roundWith is Round, with an earlier decision offered as advice above how to answer.
func roundWith(c clarify.Clarification, round int, mention []string, key string, offer *clarify.Decision) string {
	if round <= 0 {
		round = c.Round
	}
	cid := id(c.ID)
	var b strings.Builder
	fmt.Fprintf(&b, "**[%s]** Clarification needed · %s · round %s · %s\n\n",
		sides(c), cid, rounds(round, c.MaxRounds), blocking(c))
	if m := mentions(mention); m != "" {
		b.WriteString(m + ": this question is addressed to you.\n\n")
	}

	b.WriteString(topicAndType(c))

	if q := question(c, round); q != nil {
		b.WriteString(quote(q.Text, capQuestion) + "\n\n")
	} else {
		b.WriteString("_The question of this round was not recorded._\n\n")
	}

	if len(c.Options) > 0 {
		b.WriteString("**Options**\n\n" + options(c) + "\n")
	}
	if e := clarify.ExpectOf(c); e.Kind != clarify.ExpectText && round == c.Round {
		// The round's own kind of answer: an earlier round's may have been another.
		b.WriteString("**Answer with:** " + prose(e.Describe(c.Options)) + ".\n\n")
	}
	if len(c.Evidence) > 0 {
		b.WriteString("**Evidence**\n\n")
		for i, e := range c.Evidence {
			if i == maxEvidence {
				fmt.Fprintf(&b, "- … and %d more\n", len(c.Evidence)-maxEvidence)
				break
			}
			b.WriteString("- " + inline(e, capOption) + "\n")
		}
		b.WriteString("\n")
	}

	rec := recordOf(RecordRound, c, round)
	if offer != nil {
		v := offer.ValueFor(c)
		b.WriteString(offered(*offer, v))
		rec.Offered, rec.OfferedValue, rec.OfferedFrom = offer.ID, v, offer.Repo
	}
	b.WriteString(howToAnswer(cid))
	return finish(b.String(), key, rec)
}

// howToAnswer lists the commands that move a round on.
func howToAnswer(cid string) string {
	return fmt.Sprintf("**How to answer**\n\n"+
		"- A plain reply in this issue answers the oldest open question addressed to you.\n"+
		"- `/respond %[1]s <answer>` answers this one by name.\n"+
		"- The asker can follow up with `/clarify followup %[1]s <question>` "+
		"or settle it with `/clarify resolve %[1]s <decision>`.\n", cid)
}

// question is the newest question entry of the given round, or nil.
func question(c clarify.Clarification, round int) *clarify.Entry {
	for i := len(c.Thread) - 1; i >= 0; i-- {
		if e := &c.Thread[i]; e.Kind == clarify.KindQuestion && e.Round == round {
			return e
		}
	}
	return nil
}

// topicAndType is a clarification's topic and type on one line, as its round and `show`
// write them; nothing when it has neither.
func topicAndType(c clarify.Clarification) string {
	var meta []string
	if c.Topic != "" {
		meta = append(meta, "**Topic:** "+inline(c.Topic, capTopic))
	}
	if c.Type != "" {
		meta = append(meta, "**Type:** "+inline(c.Type, capWord))
	}
	if len(meta) == 0 {
		return ""
	}
	return strings.Join(meta, " · ") + "\n\n"
}
