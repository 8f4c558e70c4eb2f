package clarify

// Clone returns a deep copy of the ledger, so Apply never writes into its caller's value.
func (l Ledger) Clone() Ledger {
	out := l
	out.Clarifications = make([]Clarification, len(l.Clarifications))
	for i, c := range l.Clarifications {
		c.Options = append([]Option(nil), c.Options...)
		c.Evidence = append([]string(nil), c.Evidence...)
		c.Thread = append([]Entry(nil), c.Thread...)
		out.Clarifications[i] = c
	}
	out.Assumptions = append([]Assumption(nil), l.Assumptions...)
	out.Archives = append([]int64(nil), l.Archives...)
	return out
}

// Open returns the clarifications that are neither resolved nor abandoned.
func (l Ledger) Open() []Clarification {
	var out []Clarification
	for _, c := range l.Clarifications {
		if c.Status.Open() {
			out = append(out, c)
		}
	}
	return out
}

// Find returns the clarification with the given id.
func (l Ledger) Find(id string) (Clarification, bool) {
	for _, c := range l.Clarifications {
		if c.ID == id {
			return c, true
		}
	}
	return Clarification{}, false
}

// HasStatus reports whether any clarification of the ledger is in status s.
func (l Ledger) HasStatus(s Status) bool {
	for _, c := range l.Clarifications {
		if c.Status == s {
			return true
		}
	}
	return false
}
