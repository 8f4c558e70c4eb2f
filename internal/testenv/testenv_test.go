package testenv

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// recorder is a test that records how it ended: Skip and Fatal stop it, as testing's do.
type recorder struct {
	testing.TB
	skipped, failed string
}

type stopped struct{}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = args[0].(string); panic(stopped{}) }
func (r *recorder) Fatal(args ...any) { r.failed = args[0].(string); panic(stopped{}) }
func (r *recorder) run(f func(t testing.TB)) {
	defer func() {
		if v := recover(); v != nil && v != (stopped{}) {
			panic(v)
		}
	}()
	f(r)
}

type buffer struct{ bytes.Buffer }

func (*buffer) Close() error { return nil }

func TestAMissingProgramSkipsSayingSoOnTheTerminalOnce(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CI", "")
	tty := &buffer{}
	terminal = func() (io.WriteCloser, error) { return tty, nil }
	const missing = "frobd is not installed (apt-get install frobd)"
	for range 2 {
		r := &recorder{}
		r.run(func(tb testing.TB) { LookPath(tb, missing, "frobd", "frobd2") })
		if r.skipped != missing || r.failed != "" {
			t.Errorf("skipped %q, failed %q; want skipped %q", r.skipped, r.failed, missing)
		}
	}
	if got, want := tty.String(), "SKIP\t./internal/testenv: tests skipped: "+missing+"\n"; got != want {
		t.Errorf("the terminal got %q, want %q once", got, want)
	}
}

func TestAMissingProgramFailsInCI(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CI", "true")
	r := &recorder{}
	r.run(func(tb testing.TB) { LookPath(tb, "frobd is not installed", "frobd") })
	if r.failed != "frobd is not installed" || r.skipped != "" {
		t.Errorf("failed %q, skipped %q; want a failure in CI", r.failed, r.skipped)
	}
}

func TestAProgramOnThePathIsFound(t *testing.T) {
	r := &recorder{}
	var got string
	r.run(func(tb testing.TB) { got = LookPath(tb, "go is not installed", "no-such-program", "go") })
	if !strings.HasSuffix(got, "/go") || r.skipped != "" || r.failed != "" {
		t.Errorf("LookPath = %q (skipped %q, failed %q), want go's path", got, r.skipped, r.failed)
	}
}
