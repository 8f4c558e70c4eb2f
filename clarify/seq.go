package clarify

// SeqOf returns the sequence number of a clarification id of the given issue
// ("CLR-42-007" of issue 42: 7), and false for anything else.
func SeqOf(id string, issue int) (int, bool) {
	is, seq, ok := splitID(id)
	if !ok || is != issue {
		return 0, false
	}
	return seq, true
}
