// Package metrics is Clarify's Prometheus instrumentation: the collectors on a registry
// of the app's own (never the global default, so two apps in one process, as the tests
// and the replica harness run them, do not collide), the /metrics handler, and the GitHub
// client middleware that counts requests by route template. Its labels are bounded sets
// by construction: no owner, repository, login, label name or raw path ever becomes a
// label value, so a scrape costs the same for ten repositories as for ten thousand.
package metrics
