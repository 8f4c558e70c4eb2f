package main

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/ghclarify"
	"github.com/clarify-app/clarify/internal/manual"
)

var updateManual = flag.Bool("update", false, "rewrite docs/cli.md from the command tables")

// regenCLI is how docs/cli.md is made again.
const regenCLI = "go test ./cmd/bot -run TestCLIManual -update"

// TestCLIManualIsTheCommandTables: docs/cli.md is what bot's and gh clarify's command
// tables and each command's own -h say (synopsis, summary, usage, flags with defaults,
// exit codes); a command changed without the page regenerated fails here.
func TestCLIManualIsTheCommandTables(t *testing.T) {
	// A default the environment sets (CLARIFY_APP_SLUG, GITHUB_V3_API_URL) is the
	// code's in the manual, whatever this machine's environment says.
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "" {
			t.Setenv(k, "")
		}
	}
	page, err := cliManual(bot, ghclarify.Program)
	if err != nil {
		t.Fatal(err)
	}
	if err := manual.Check("../../docs/cli.md", page, *updateManual, regenCLI); err != nil {
		t.Error(err)
	}
}

// cliManual is docs/cli.md: each program's reference under a heading of its own.
func cliManual(progs ...cli.Program) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(manual.Generated(regenCLI))
	b.WriteString(cliIntro)
	for _, p := range progs {
		if err := p.Manual(&b, 2); err != nil {
			return nil, err
		}
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

const cliIntro = `
# Command reference: bot and gh clarify

Every command of ` + "`bot`" + ` and of the GitHub CLI extension ` + "`gh clarify`" + `, as its ` + "`-h`" + ` says
it: what it is for, its usage, its flags with their defaults, and its exit codes. Flags go
before or after the arguments; ` + "`-flag`" + ` and ` + "`--flag`" + ` are the same. The agents' contract
(records, error codes, dispatch, wake-ups) and the loop are in [agents.md](agents.md); the
MCP tools of ` + "`bot mcp`" + ` are in [mcp.md](mcp.md).

`

// TestTheLoopsExitCodesAreTheCommands: the exit codes docs/agents.md gives each command of
// the agent's loop are the ones its row of the command table declares (every command's,
// and its own), no more and no fewer.
func TestTheLoopsExitCodesAreTheCommands(t *testing.T) {
	src, err := os.ReadFile("../../docs/agents.md")
	if err != nil {
		t.Fatal(err)
	}
	_, loop, _ := strings.Cut(string(src), "\n## The agent's loop\n")
	loop, _, _ = strings.Cut(loop, "\n## ")
	code := regexp.MustCompile(`(?:^|, )(\d+)\b`)
	rows := 0
	for _, line := range strings.Split(loop, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| `bot ") || len(cells) != 2 {
			continue
		}
		var documented []int
		for _, m := range code.FindAllStringSubmatch(cells[1], -1) {
			n, _ := strconv.Atoi(m[1])
			documented = append(documented, n)
		}
		slices.Sort(documented)
		for _, name := range regexp.MustCompile("`bot ([a-z]+)`").FindAllStringSubmatch(cells[0], -1) {
			rows++
			if declared := declaredExits(t, name[1]); !slices.Equal(documented, declared) {
				t.Errorf("docs/agents.md: bot %s exits %v; its row of the command table declares %v", name[1], documented, declared)
			}
		}
	}
	if rows == 0 {
		t.Fatal("docs/agents.md's agent's loop has no table of exit codes")
	}
}

// declaredExits are the exit codes bot's command table declares for name, in order.
func declaredExits(t *testing.T, name string) []int {
	for _, e := range bot.Commands {
		if e.Name == name {
			var codes []int
			for _, x := range slices.Concat(cli.ExitCodes, e.Exits) {
				if !slices.Contains(codes, x.Code) {
					codes = append(codes, x.Code)
				}
			}
			slices.Sort(codes)
			return codes
		}
	}
	t.Errorf("bot has no command %s", name)
	return nil
}
