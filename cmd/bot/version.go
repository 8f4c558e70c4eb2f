package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and revision name the build when the linker sets them:
//
//	go build -ldflags "-X main.version=v1.4.0 -X main.revision=$(git rev-parse HEAD)" ./cmd/bot
//
// The Dockerfile does, from its VERSION and REVISION build arguments, because a build in
// a container has no .git to read (.dockerignore leaves it out). Left empty, they come
// from what Go records in the binary: the module's version and the VCS revision.
var (
	version  string
	revision string
)

// versionLine says which build this is, for `bot --version` and a bug report.
func versionLine() string {
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
