// Package clarifyapp holds what ships in the source tree and the binary needs as well: the
// GitHub App manifest, so that `bot setup` registers the App from an installed binary or
// the container, with no checkout beside it.
package clarifyapp

import _ "embed"

// Manifest is app.yml as built into the binary: the manifest `bot setup` posts to GitHub
// when no app.yml is in the working directory.
//
//go:embed app.yml
var Manifest []byte
