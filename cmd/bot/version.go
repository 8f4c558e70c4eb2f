package main

import "github.com/clarify-app/clarify/internal/app"

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
func versionLine() string { return app.VersionLine(version, revision) }
