package app

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// VersionLine says which build this is, for `bot --version` and a bug report: version and
// revision as the linker set them, else what Go recorded in the binary (the module's
// version, the VCS revision and whether the tree was modified), and the Go release.
func VersionLine(version, revision string) string {
	v, rev, modified := version, revision, false
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && rev == "":
				rev = s.Value
			case s.Key == "vcs.modified" && revision == "":
				modified = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if rev == "" {
		rev = "unknown (built without VCS information: set -ldflags -X main.revision=…)"
	}
	if modified {
		rev += " (modified)"
	}
	return fmt.Sprintf("bot %s, revision %s, %s", v, rev, runtime.Version())
}
