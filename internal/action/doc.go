// Package action is `bot action`: Clarify run as one step of a GitHub Actions workflow, one
// fresh process per event. It reads what the step has (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH,
// GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_TOKEN, CLARIFY_LEDGER_KEY), builds a client from
// the workflow's token with the app's retrying and pacing transport, and applies the event
// through the same handlers as `bot serve`; a schedule or workflow_dispatch run sweeps the
// repository (handlers/sweep, Repository). Nothing is kept between runs but what GitHub holds: the state is the issue's,
// and what the scheduled runs knew of each issue is their sweep index, a signed comment of
// the decisions issue (handlers.SweepIndex), so that an idle one reads no issue.
//
// It fails loudly: a handler error, a spent request budget or a missing key gives a
// non-zero exit, an ::error:: annotation and a line in the step's summary.
package action
