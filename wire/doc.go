// Package wire is Clarify's contract on the wire with agents: the repository_dispatch an
// agent sends to ask or answer (DispatchPayload, its strict decoding and the problems a
// refusal names) and the wake-up dispatches the app sends back when a clarification
// settles (WakePayload, the clarify-answered, … event types). The app (handlers/) and the
// asker's client (internal/asker) both speak it from here.
package wire
