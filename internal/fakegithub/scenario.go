package fakegithub

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Action is what a scenario step does.
type Action string

// The scenario actions; doc.go describes the lines that produce them.
const (
	ActionRepo    Action = "repo"    // select the repository later lines act on
	ActionUser    Action = "user"    // a person and her permission
	ActionBot     Action = "bot"     // a bot account
	ActionTeam    Action = "team"    // members of an organisation team
	ActionFile    Action = "file"    // a file in the repository
	ActionIssue   Action = "issue"   // open an issue
	ActionComment Action = "comment" // comment on an issue
	ActionEdit    Action = "edit"    // edit one's last comment
	ActionDelete  Action = "delete"  // delete one's last comment
	ActionClose   Action = "close"   // close an issue
	ActionReopen  Action = "reopen"  // reopen an issue
	ActionWait    Action = "wait"    // advance the clock
	ActionExpect  Action = "expect"  // a check for the player to make; Run does nothing
)

// DefaultScenarioRepo is the repository a scenario acts on before any repo line.
const DefaultScenarioRepo = "octo/widgets"

// Step is one parsed scenario line (with its indented body, if any).
type Step struct {
	Line   int    // 1-based line number of the step's first line
	Text   string // the line as written
	Action Action
	Repo   string // the repository in effect at this line

	Login      string        // the actor, or the account set up
	Permission string        // user and bot lines: the role on Repo ("" for none given)
	Issue      int           // issue number
	Title      string        // issue title
	Body       string        // comment, edit or issue body; file content
	Path       string        // file path
	Team       string        // "org/slug"
	Members    []string      // team members
	Wait       time.Duration // wait duration
	Subject    string        // expect lines: "#N" or a clarification id "CLR-N-SEQ" (Issue is N)
	Check      string        // expect lines: what is checked, the rest of the line
}

// ParseScenario parses a scenario script (format in doc.go). Errors name the
// line and say what was expected there.
func ParseScenario(r io.Reader) ([]Step, error) {
	lines, err := readLines(r)
	if err != nil {
		return nil, err
	}
	repo := DefaultScenarioRepo
	var steps []Step
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if raw[0] == ' ' || raw[0] == '\t' {
			return nil, fmt.Errorf("line %d: indented line outside a body; a body follows a line that ends in ':' and is indented by two spaces", i+1)
		}
		st, wantsBody, err := parseLine(trimmed)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q: %w", i+1, trimmed, err)
		}
		st.Line, st.Text = i+1, raw
		if wantsBody {
			body, next, err := readBlock(lines, i+1)
			if err != nil {
				return nil, err
			}
			if body == "" && st.Action != ActionFile {
				return nil, fmt.Errorf("line %d: %q ends in ':', so the lines after it must hold the body, indented by two spaces", i+1, trimmed)
			}
			st.Body = body
			i = next - 1
		}
		if st.Action == ActionRepo {
			repo = st.Repo
		}
		st.Repo = repo
		steps = append(steps, st)
	}
	return steps, nil
}

// readLines reads a script's lines, without the '\r' of Windows line ends.
func readLines(r io.Reader) ([]string, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	return lines, nil
}

// readBlock collects the body starting at lines[from]: lines indented by two
// spaces, and blank lines between them. It returns the body and the index of
// the first line after it.
func readBlock(lines []string, from int) (string, int, error) {
	var body []string
	end := from
	for j := from; j < len(lines); j++ {
		l := lines[j]
		if strings.TrimSpace(l) == "" {
			body = append(body, "")
			continue
		}
		if !strings.HasPrefix(l, "  ") {
			if l[0] == ' ' || l[0] == '\t' {
				return "", 0, fmt.Errorf("line %d: a body line must be indented by two spaces", j+1)
			}
			break
		}
		body = append(body, l[2:])
		end = j + 1
	}
	// Blank lines after the last indented line belong to the script, not the body.
	n := end - from
	return strings.Join(body[:n], "\n"), end, nil
}

// lineParser reads a scenario line word by word.
type lineParser struct{ rest string }

func (p *lineParser) word() string {
	p.rest = strings.TrimLeft(p.rest, " \t")
	i := strings.IndexAny(p.rest, " \t")
	if i < 0 {
		w := p.rest
		p.rest = ""
		return w
	}
	w := p.rest[:i]
	p.rest = p.rest[i:]
	return w
}

func (p *lineParser) remainder() string { return strings.TrimSpace(p.rest) }

// expect consumes the given words, or says what was expected.
func (p *lineParser) expect(words ...string) error {
	for _, w := range words {
		if got := p.word(); got != w {
			if got == "" {
				return fmt.Errorf("expected %q, found the end of the line", w)
			}
			return fmt.Errorf("expected %q, found %q", w, got)
		}
	}
	return nil
}

// stripComment removes a trailing "# …" comment from a line without free text.
// A '#' starts a comment only after whitespace and before a space or the end
// of the line, so "#42" stays an issue reference.
func stripComment(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == ' ' || s[i] == '\t') && s[i+1] == '#' && (i+2 == len(s) || s[i+2] == ' ' || s[i+2] == '\t') {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

const expectedLines = `expected one of:
  repo OWNER/NAME
  user LOGIN [admin|maintain|write|triage|read|none]
  bot LOGIN [PERMISSION]
  team ORG/SLUG LOGIN...
  file PATH:
  issue #N "TITLE" by LOGIN[:]
  LOGIN comments on #N: TEXT        (or ending in ':' with an indented body)
  LOGIN edits her last comment on #N: TEXT
  LOGIN deletes her last comment on #N
  close #N by LOGIN
  reopen #N by LOGIN
  wait DURATION
  expect #N CHECK                   (or expect CLR-N-SEQ CHECK)`

// lineParsers parse the lines that start with a keyword; any other line starts with the
// login of the person acting (parseActorLine).
var lineParsers = map[string]func(p *lineParser, keyword string) (Step, bool, error){
	"repo":   parseRepoLine,
	"user":   parseAccountLine,
	"bot":    parseAccountLine,
	"team":   parseTeamLine,
	"file":   parseFileLine,
	"issue":  parseIssueLine,
	"close":  parseStateLine,
	"reopen": parseStateLine,
	"wait":   parseWaitLine,
	"expect": parseExpectLine,
}

// parseLine parses one unindented line; wantsBody says an indented body follows.
func parseLine(line string) (st Step, wantsBody bool, err error) {
	p := &lineParser{rest: line}
	first := p.word()
	if parse, ok := lineParsers[first]; ok {
		return parse(p, first)
	}
	if checkLogin(first) != nil {
		return Step{}, false, errors.New(expectedLines)
	}
	return parseActorLine(p, first)
}

func parseRepoLine(p *lineParser, _ string) (Step, bool, error) {
	p.rest = stripComment(p.rest)
	full := p.word()
	if _, _, err := splitRepo(full); err != nil || p.remainder() != "" {
		return Step{}, false, errors.New("expected: repo OWNER/NAME")
	}
	return Step{Action: ActionRepo, Repo: full}, false, nil
}

// parseAccountLine parses user and bot lines, which differ only in the account's type.
func parseAccountLine(p *lineParser, keyword string) (Step, bool, error) {
	p.rest = stripComment(p.rest)
	login, perm := p.word(), p.word()
	if err := checkLogin(login); err != nil || p.remainder() != "" {
		return Step{}, false, fmt.Errorf("expected: %s LOGIN [PERMISSION]", keyword)
	}
	if perm != "" && !validPermission(perm) {
		return Step{}, false, fmt.Errorf("permission %q: expected one of %s", perm, strings.Join(validPermissions, ", "))
	}
	return Step{Action: Action(keyword), Login: login, Permission: perm}, false, nil
}

func parseTeamLine(p *lineParser, _ string) (Step, bool, error) {
	p.rest = stripComment(p.rest)
	team := p.word()
	if _, _, err := splitRepo(team); err != nil {
		return Step{}, false, errors.New("expected: team ORG/SLUG LOGIN …")
	}
	st := Step{Action: ActionTeam, Team: team}
	for w := p.word(); w != ""; w = p.word() {
		if err := checkLogin(w); err != nil {
			return Step{}, false, err
		}
		st.Members = append(st.Members, w)
	}
	if len(st.Members) == 0 {
		return Step{}, false, errors.New("expected: team ORG/SLUG LOGIN... (at least one member)")
	}
	return st, false, nil
}

// parseFileLine takes no trailing comment: a '#' may be part of a path.
func parseFileLine(p *lineParser, _ string) (Step, bool, error) {
	path, ok := strings.CutSuffix(p.remainder(), ":")
	if !ok || strings.TrimSpace(path) == "" || strings.ContainsAny(path, " \t") {
		return Step{}, false, errors.New("expected: file PATH: followed by the content, indented by two spaces")
	}
	return Step{Action: ActionFile, Path: path}, true, nil
}

// parseStateLine parses close and reopen lines.
func parseStateLine(p *lineParser, keyword string) (Step, bool, error) {
	p.rest = stripComment(p.rest)
	n, err := issueRef(p.word(), false)
	if err != nil {
		return Step{}, false, err
	}
	if err := p.expect("by"); err != nil {
		return Step{}, false, fmt.Errorf("%w; expected: %s #N by LOGIN", err, keyword)
	}
	login := p.word()
	if err := checkLogin(login); err != nil || p.remainder() != "" {
		return Step{}, false, fmt.Errorf("expected: %s #N by LOGIN", keyword)
	}
	return Step{Action: Action(keyword), Issue: n, Login: login}, false, nil
}

func parseWaitLine(p *lineParser, _ string) (Step, bool, error) {
	p.rest = stripComment(p.rest)
	d, err := time.ParseDuration(p.word())
	if err != nil || d <= 0 || p.remainder() != "" {
		return Step{}, false, errors.New("expected: wait DURATION, a positive Go duration such as 31m or 2h30m")
	}
	return Step{Action: ActionWait, Wait: d}, false, nil
}

// parseExpectLine reads the subject of a check and leaves the check itself, free text
// with quoted strings (so no trailing comment), to the player that makes it.
func parseExpectLine(p *lineParser, _ string) (Step, bool, error) {
	const want = "expected: expect #N CHECK, or expect CLR-N-SEQ CHECK"
	subject := p.word()
	n, err := expectSubject(subject)
	if err != nil {
		return Step{}, false, fmt.Errorf("%w; %s", err, want)
	}
	check := p.remainder()
	if check == "" {
		return Step{}, false, errors.New("nothing to check; " + want)
	}
	return Step{Action: ActionExpect, Subject: subject, Issue: n, Check: check}, false, nil
}

// expectSubject returns the issue an expect line is about: "#42", or "CLR-42-001" (a
// clarification of issue 42).
func expectSubject(w string) (int, error) {
	rest, ok := strings.CutPrefix(w, "CLR-")
	if !ok {
		return issueRef(w, false)
	}
	num, seq, _ := strings.Cut(rest, "-")
	n, err := strconv.Atoi(num)
	if !isDigits(num) || !isDigits(seq) || err != nil || n <= 0 {
		return 0, fmt.Errorf("expected a clarification id like CLR-42-001, found %q", w)
	}
	return n, nil
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// parseActorLine parses the lines that start with the login of the person acting:
// comments, edits and deletes.
func parseActorLine(p *lineParser, login string) (Step, bool, error) {
	switch verb := p.word(); verb {
	case "comments":
		return parseCommentLine(p, login)
	case "edits", "deletes":
		return parseLastCommentLine(p, login, verb)
	default:
		return Step{}, false, errors.New(expectedLines)
	}
}

// parseCommentLine takes the rest of the line, '#' included, as the body; an empty rest
// means the body follows, indented.
func parseCommentLine(p *lineParser, login string) (Step, bool, error) {
	if err := p.expect("on"); err != nil {
		return Step{}, false, fmt.Errorf("%w; expected: %s comments on #N: TEXT", err, login)
	}
	n, err := issueRef(p.word(), true)
	if err != nil {
		return Step{}, false, err
	}
	body := p.remainder()
	return Step{Action: ActionComment, Login: login, Issue: n, Body: body}, body == "", nil
}

// parseLastCommentLine parses "LOGIN edits|deletes her last comment on #N…".
func parseLastCommentLine(p *lineParser, login, verb string) (Step, bool, error) {
	pronoun := p.word()
	if pronoun != "her" && pronoun != "his" && pronoun != "their" && pronoun != "its" {
		return Step{}, false, fmt.Errorf("expected: %s %s her|his|their last comment on #N", login, verb)
	}
	if err := p.expect("last", "comment", "on"); err != nil {
		return Step{}, false, fmt.Errorf("%w; expected: %s %s %s last comment on #N", err, login, verb, pronoun)
	}
	if verb == "deletes" {
		p.rest = stripComment(p.rest)
		n, err := issueRef(p.word(), false)
		if err != nil || p.remainder() != "" {
			return Step{}, false, fmt.Errorf("expected: %s deletes %s last comment on #N", login, pronoun)
		}
		return Step{Action: ActionDelete, Login: login, Issue: n}, false, nil
	}
	n, err := issueRef(p.word(), true)
	if err != nil {
		return Step{}, false, err
	}
	body := p.remainder()
	return Step{Action: ActionEdit, Login: login, Issue: n, Body: body}, body == "", nil
}

func parseIssueLine(p *lineParser, _ string) (Step, bool, error) {
	const want = `expected: issue #N "TITLE" by LOGIN (end with ':' for an indented description)`
	n, err := issueRef(p.word(), false)
	if err != nil {
		return Step{}, false, err
	}
	rest := strings.TrimSpace(p.rest)
	if !strings.HasPrefix(rest, `"`) {
		return Step{}, false, errors.New(want)
	}
	end := strings.Index(rest[1:], `"`)
	if end < 0 {
		return Step{}, false, errors.New(`the title has no closing '"'; ` + want)
	}
	title := rest[1 : end+1]
	if strings.TrimSpace(title) == "" {
		return Step{}, false, errors.New("the title is empty; " + want)
	}
	p.rest = stripComment(rest[end+2:])
	if err := p.expect("by"); err != nil {
		return Step{}, false, fmt.Errorf("%w; %s", err, want)
	}
	login := p.word()
	login, wantsBody := strings.CutSuffix(login, ":")
	if err := checkLogin(login); err != nil || p.remainder() != "" {
		return Step{}, false, errors.New(want)
	}
	return Step{Action: ActionIssue, Issue: n, Title: title, Login: login}, wantsBody, nil
}

// issueRef parses "#42", or "#42:" when colon is set.
func issueRef(w string, colon bool) (int, error) {
	want := "#N"
	if colon {
		want = "#N:"
		var ok bool
		if w, ok = strings.CutSuffix(w, ":"); !ok {
			return 0, fmt.Errorf("expected an issue reference followed by a colon, like #42:, found %q", w)
		}
	}
	digits, ok := strings.CutPrefix(w, "#")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n <= 0 {
		return 0, fmt.Errorf("expected an issue reference %s (like #42), found %q", want, w)
	}
	return n, nil
}

// checkLogin accepts GitHub logins (letters, digits, hyphens), optionally ending in "[bot]".
func checkLogin(login string) error {
	name := strings.TrimSuffix(login, "[bot]")
	if name == "" || name[0] == '-' {
		return fmt.Errorf("%q is not a GitHub login", login)
	}
	for _, r := range name {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return fmt.Errorf("%q is not a GitHub login", login)
		}
	}
	return nil
}

// Run performs one step and returns the deliveries it produces: none for
// setup steps (repo, user, bot, team, file), wait, which advances the clock,
// and expect, which does nothing. The step's repository is created on first
// use, in installation 1 unless its owner already has one.
func (s *Server) Run(step Step) ([]Delivery, error) {
	if step.Action == ActionExpect {
		// A check, for whoever plays the scenario to make against the state the steps
		// above it left: it changes nothing, not even by creating the repository.
		return nil, nil
	}
	fail := func(err error) ([]Delivery, error) {
		return nil, fmt.Errorf("line %d: %q: %w", step.Line, strings.TrimSpace(step.Text), err)
	}
	repo := step.Repo
	if repo == "" {
		repo = DefaultScenarioRepo
	}
	s.mu.Lock()
	r, err := s.ensureRepoLocked(repo)
	s.mu.Unlock()
	if err != nil {
		return fail(err)
	}
	repo = r.fullName()
	if s.runSetup(repo, step) {
		return nil, nil
	}
	d, err := s.runUserAction(repo, step)
	if err != nil {
		return fail(err)
	}
	return []Delivery{d}, nil
}

// runSetup performs a step that sends no delivery, and reports whether step was one.
func (s *Server) runSetup(repo string, step Step) bool {
	switch step.Action {
	case ActionRepo:
	case ActionUser, ActionBot:
		typ := map[Action]string{ActionUser: "User", ActionBot: "Bot"}[step.Action]
		s.AddUser(step.Login, typ)
		if step.Permission != "" {
			s.SetPermission(repo, step.Login, step.Permission)
		}
	case ActionTeam:
		org, slug, _ := strings.Cut(step.Team, "/")
		for _, m := range step.Members {
			s.AddTeamMember(org, slug, m)
		}
	case ActionFile:
		content := step.Body
		if content != "" {
			content += "\n"
		}
		s.SetFile(repo, step.Path, content)
	case ActionWait:
		s.Advance(step.Wait)
	default:
		return false
	}
	return true
}

// runUserAction performs a person's action on an issue and returns GitHub's delivery of it.
func (s *Server) runUserAction(repo string, step Step) (Delivery, error) {
	switch step.Action {
	case ActionIssue:
		return s.userOpenIssue(repo, step.Issue, step.Title, step.Login, step.Body)
	case ActionComment:
		d, _, err := s.userComment(repo, step.Issue, step.Login, step.Body)
		return d, err
	case ActionEdit, ActionDelete:
		id, err := s.lastCommentBy(repo, step.Issue, step.Login)
		if err != nil {
			return Delivery{}, err
		}
		if step.Action == ActionEdit {
			return s.userEditComment(repo, id, step.Login, step.Body)
		}
		return s.userDeleteComment(repo, id, step.Login)
	case ActionClose:
		return s.userSetIssueState(repo, step.Issue, step.Login, "closed")
	case ActionReopen:
		return s.userSetIssueState(repo, step.Issue, step.Login, "open")
	}
	return Delivery{}, fmt.Errorf("unknown action %q", step.Action)
}
