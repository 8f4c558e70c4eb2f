// Package testenv finds the programs some tests need beside Go (redis-server, headless
// Chromium), and says so where `go test ./...` shows it when one is missing.
//
// `go test` with packages named (./...) prints only the "ok" line of a package whose tests
// pass, unless -v: the reason a test gives t.Skip is in its log, which is dropped. So that
// a person who runs the tests learns that some did not run, and how to run them, the first
// skip for a missing program in a package is also written to the terminal go test runs
// in (/dev/tty), when there is one. In CI (CI set) a missing program fails the test instead.
package testenv

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// LookPath returns the path of the first of names found on PATH. When none is, the test
// cannot run: with CI set (CI installs them: .ci/run) it fails, saying missing; elsewhere
// it is skipped, saying missing, on the terminal too (once per package and message).
// missing says what is not installed and how to install it.
func LookPath(t testing.TB, missing string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal(missing)
	}
	tell(missing)
	t.Skip(missing)
	return ""
}

// told holds the messages already written to the terminal by this test binary.
var told sync.Map

// terminal opens the terminal go test runs in; its tests swap it.
var terminal = func() (io.WriteCloser, error) { return os.OpenFile("/dev/tty", os.O_WRONLY, 0) }

// tell writes the skip's reason once to the terminal, naming the package.
func tell(missing string) {
	if _, again := told.LoadOrStore(missing, true); again {
		return
	}
	tty, err := terminal()
	if err != nil {
		return // no terminal (CI, an editor): the reason is in the test's log, as -v shows
	}
	defer tty.Close()
	fmt.Fprintf(tty, "SKIP\t%s: tests skipped: %s\n", packageDir(), missing)
}

// packageDir is the package under test, as a path from the module's root: go test runs
// a package's tests in its directory.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "?"
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, _ := filepath.Rel(dir, wd)
			return "./" + filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return wd
		}
	}
}
