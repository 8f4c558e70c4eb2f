package doccheck_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// TestTheErrorCodeTableIsTheCodes: the table of error codes in docs/agents.md names every
// code a refusal can carry (clarify.ErrorCodes, which the asker's commands and tools also
// give) once, and no other.
func TestTheErrorCodeTableIsTheCodes(t *testing.T) {
	src, err := os.ReadFile("../../docs/agents.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := codeTable(string(src), "## Error codes")
	if len(documented) == 0 {
		t.Fatal("docs/agents.md has no table of codes under ## Error codes")
	}
	for _, c := range clarify.ErrorCodes {
		if !slices.Contains(documented, string(c)) {
			t.Errorf("docs/agents.md's error codes lack %q", c)
		}
	}
	for i, c := range documented {
		switch {
		case !slices.Contains(clarify.ErrorCodes, clarify.ErrorCode(c)):
			t.Errorf("docs/agents.md lists the error code %q, which no refusal carries", c)
		case slices.Index(documented, c) != i:
			t.Errorf("docs/agents.md lists the error code %q twice", c)
		}
	}
}

// codeTable is the first column of the table under heading in src: each row's code,
// written as a code span.
func codeTable(src, heading string) []string {
	_, section, ok := strings.Cut(src, "\n"+heading+"\n")
	if !ok {
		return nil
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var codes []string
	for _, line := range strings.Split(section, "\n") {
		if cell, ok := strings.CutPrefix(line, "| `"); ok {
			code, _, _ := strings.Cut(cell, "`")
			codes = append(codes, code)
		}
	}
	return codes
}
