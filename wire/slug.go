package wire

// ActionsSlug is the slug of the account a workflow's GITHUB_TOKEN writes as,
// github-actions[bot]: Clarify's own in bot action, and every other workflow's too.
const ActionsSlug = "github-actions"
