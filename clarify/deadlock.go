package clarify

import (
	"cmp"
	"slices"
	"strings"
)

// WaitFor is one edge of the wait-for graph: a blocking open clarification whose asker
// waits on its target.
type WaitFor struct {
	Issue int
	ID    string
	// From is the asker's node and To the target's: a role, "@org/team" for a team, or the
	// lower-cased login when no role applies.
	From, To string
	// AskerPriority is the index of From in Policy.Priority (0 is the highest); a node the
	// policy does not list gets len(Policy.Priority), the lowest.
	AskerPriority int
}

// Break names the clarification to escalate to break a cycle of the wait-for graph.
type Break struct {
	Issue int
	ID    string
	// Cycle holds the nodes of the cycle in wait-for order, starting at the escalated
	// clarification's asker: ["engineer", "architect"] is an engineer waiting on an architect
	// who waits on an engineer.
	Cycle []string
}

// WaitFors returns the wait-for graph of a repository's ledgers: one edge per open, blocking
// clarification whose asker waits on its target, that is pending or stale. Escalated ones are
// already with a human; an answered one waits on its own asker, who can follow up or resolve,
// so it holds nobody up. Sorted by issue, then id.
func WaitFors(ledgers []Ledger, p Policy) []WaitFor {
	var edges []WaitFor
	for _, l := range ledgers {
		for _, c := range l.Clarifications {
			if !c.Blocking || (c.Status != Pending && c.Status != Stale) {
				continue
			}
			from := p.askerNode(c.Asker)
			edges = append(edges, WaitFor{Issue: l.Issue, ID: c.ID, From: from, To: p.targetNode(c.Target),
				AskerPriority: p.priorityOf(from)})
		}
	}
	slices.SortStableFunc(edges, func(a, b WaitFor) int {
		return cmp.Or(cmp.Compare(a.Issue, b.Issue), CompareIDs(a.ID, b.ID))
	})
	return edges
}

// Breaks finds every cycle of any length in the wait-for graph of a repository's open blocking
// clarifications (all its issues' ledgers) and names the clarifications to escalate, until no
// cycle is left. Each round takes, among the edges that lie on a cycle, the one whose asker has
// the lowest priority (ties: the newest, i.e. highest issue, then highest id), so it is the
// lowest of every cycle it is on; removes it, since escalating it may break several cycles at
// once; and looks again. Self-loops (an engineer waiting on another engineer) are no deadlock.
// The result is sorted by issue, then id, and is the same for the same input.
func Breaks(ledgers []Ledger, p Policy) []Break {
	return BreaksOf(WaitFors(ledgers, p))
}

// BreaksOf is Breaks on a wait-for graph already drawn, so the sweep can look for deadlocks
// in the edges its index keeps rather than in ledgers it would have to read. The edges carry
// their nodes and priorities as the policy gave them when drawn, so no policy is needed;
// edges is not modified.
func BreaksOf(edges []WaitFor) []Break {
	edges = withoutSelfLoops(edges)
	var breaks []Break
	for {
		g := newWaitGraph(edges)
		reach := map[string]map[string]bool{}
		pick := -1
		for i, e := range edges {
			if reach[e.To] == nil {
				reach[e.To] = g.reachable(e.To)
			}
			if reach[e.To][e.From] && (pick < 0 || lowerPriority(e, edges[pick])) {
				pick = i
			}
		}
		if pick < 0 {
			break
		}
		e := edges[pick]
		path := g.path(e.To, e.From)
		breaks = append(breaks, Break{Issue: e.Issue, ID: e.ID, Cycle: append([]string{e.From}, path[:len(path)-1]...)})
		edges = slices.Delete(edges, pick, pick+1)
	}
	slices.SortFunc(breaks, func(a, b Break) int {
		return cmp.Or(cmp.Compare(a.Issue, b.Issue), CompareIDs(a.ID, b.ID))
	})
	return breaks
}

// OnCycles returns the edges that lie on a cycle of the wait-for graph (self-loops aside),
// in their order: the clarifications a deadlock break may touch, which the sweep reads
// afresh before it trusts the edges it keeps.
func OnCycles(edges []WaitFor) []WaitFor {
	edges = withoutSelfLoops(edges)
	g := newWaitGraph(edges)
	reach := map[string]map[string]bool{}
	var out []WaitFor
	for _, e := range edges {
		if reach[e.To] == nil {
			reach[e.To] = g.reachable(e.To)
		}
		if reach[e.To][e.From] {
			out = append(out, e)
		}
	}
	return out
}

// withoutSelfLoops copies the edges but those from a node to itself (an engineer waiting on
// another engineer), which are no deadlock.
func withoutSelfLoops(edges []WaitFor) []WaitFor {
	var out []WaitFor
	for _, e := range edges {
		if e.From != e.To {
			out = append(out, e)
		}
	}
	return out
}

// lowerPriority reports whether a is the one to escalate rather than b: its asker has lower
// priority, or the same and it is newer.
func lowerPriority(a, b WaitFor) bool {
	return cmp.Or(cmp.Compare(a.AskerPriority, b.AskerPriority), cmp.Compare(a.Issue, b.Issue), CompareIDs(a.ID, b.ID)) > 0
}

// askerNode is the asker's node: its role, the role the policy gives its login, or the login.
func (p Policy) askerNode(a Party) string {
	if a.Role != "" {
		return a.Role
	}
	if r := p.RoleOf(a.Login); r != "" {
		return r
	}
	return strings.ToLower(a.Login)
}

// targetNode is the target's node: the role, "@org/team", or the role of a login, else the login.
func (p Policy) targetNode(t Target) string {
	switch t.Kind {
	case TargetRole:
		return t.Name
	case TargetTeam:
		return "@" + strings.ToLower(strings.TrimPrefix(t.Name, "@"))
	}
	if r := p.RoleOf(t.Name); r != "" {
		return r
	}
	return strings.ToLower(t.Name)
}

// priorityOf is the index of node in p.Priority; len(p.Priority), the lowest, when not listed.
func (p Policy) priorityOf(node string) int {
	if i := slices.Index(p.Priority, node); i >= 0 {
		return i
	}
	return len(p.Priority)
}

// waitGraph is the adjacency of a wait-for graph, each node's successors sorted, so searches
// are deterministic.
type waitGraph map[string][]string

func newWaitGraph(edges []WaitFor) waitGraph {
	g := waitGraph{}
	for _, e := range edges {
		if !slices.Contains(g[e.From], e.To) {
			g[e.From] = append(g[e.From], e.To)
		}
	}
	for _, next := range g {
		slices.Sort(next)
	}
	return g
}

// reachable returns the nodes that can be reached from from, from included.
func (g waitGraph) reachable(from string) map[string]bool {
	seen := map[string]bool{from: true}
	stack := []string{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, next := range g[n] {
			if !seen[next] {
				seen[next] = true
				stack = append(stack, next)
			}
		}
	}
	return seen
}

// path returns a shortest path from from to to, both included, or nil when there is none.
func (g waitGraph) path(from, to string) []string {
	parent := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == to {
			var path []string
			for ; n != from; n = parent[n] {
				path = append(path, n)
			}
			path = append(path, from)
			slices.Reverse(path)
			return path
		}
		for _, next := range g[n] {
			if _, seen := parent[next]; !seen {
				parent[next] = n
				queue = append(queue, next)
			}
		}
	}
	return nil
}
