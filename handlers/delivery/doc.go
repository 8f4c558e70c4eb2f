// Package delivery runs the webhook deliveries the handlers take:
//
//   - scheduler.go: a delivery is validated, claimed once across replicas
//     (handlers.DeliveriesSeen) and run detached from GitHub's request, with retries.
//   - redeliver.go: deliveries GitHub failed to deliver are asked for again.
//
// What a delivery does to an issue is package handlers'.
package delivery
