// Package app assembles Clarify from its configuration: Config is read from defaults, a
// strict YAML file and the environment, then validated; NewApp is the composition root
// that lists every handler and wraps the dispatcher in what GitHub's webhooks need
// (signature check first, body cap, request logger). `bot serve`, `bot sweep` and the
// replay harness all build the app here, so what the tests drive is what runs.
package app
