// Package app assembles Clarify from its configuration: Config is read from defaults, a
// strict YAML file and the environment, then validated, every mistake named by its YAML
// path and line or its environment variable; NewApp is the composition root that lists
// every handler and wraps the dispatcher in what GitHub's webhooks need (a body reserved
// from a shared budget before it is read, signature check first, request logger), and
// serves /healthz (alive) and /readyz (GitHub has accepted the app's JWT); NewServer is
// the HTTP server with the timeouts that close stalled connections. `bot serve`, `bot
// sweep` and the replay harness all build the app here, so what the tests drive is what
// runs.
package app
