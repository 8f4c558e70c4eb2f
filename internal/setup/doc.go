// Package setup registers Clarify on GitHub through GitHub's app-manifest flow, for `bot
// setup`: a Flow is the http.Handler of a page on loopback whose form posts app.yml, as the
// JSON manifest GitHub takes, to GitHub's "new app" page, with a redirect_url back to the
// Flow's /callback and a random state; the callback checks the state, exchanges the code
// for the new app's credentials (POST /app-manifests/{code}/conversions) and writes them as
// a config file for `bot serve` and a private key file beside it.
//
// Contract: nothing is written unless GitHub handed over the credentials for the state this
// Flow issued; existing files are never overwritten unless Options.Force; the private key
// and the webhook secret go only into those files (mode 0600), never into a page or a log.
// https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest
package setup
