package askmcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clarify-app/clarify/internal/asker"
)

// InboxInput is clarify_inbox's arguments.
type InboxInput struct {
	For   string   `json:"for,omitempty" jsonschema:"whose inbox: @login or @org/team (default: the token's own account)"`
	Org   string   `json:"org,omitempty" jsonschema:"the organisation whose repositories are searched (or give repos)"`
	Repos []string `json:"repos,omitempty" jsonschema:"the repositories searched, OWNER/REPO each (default, with no org: the repositories of the token's installation)"`
}

// addInboxTool adds clarify_inbox, for agents that triage: what waits on a person or team.
func (cfg Config) addInboxTool(s *mcp.Server) {
	addTool(s, tool("clarify_inbox", "List the questions awaiting someone", "Every open question that waits on a person "+
		"(the token's own account by default) or a team, across repositories (an organisation's, the ones named, or the "+
		"token's installation's): asked of that login, of a team it is in, or of a role that lists either. Oldest first, "+
		"each with its issue, id, topic, asker, status, round, waiting_since, stale_at and the command that answers it. "+
		"An empty list when nothing waits; notes say what could not be seen.", hints{readOnly: true, idempotent: true},
		schemaOf[InboxInput]()), cfg.inbox)
}

func (cfg Config) inbox(ctx context.Context, _ *mcp.CallToolRequest, in InboxInput) (*mcp.CallToolResult, asker.Inbox, error) {
	c, err := cfg.client()
	if err != nil {
		return nil, asker.Inbox{}, err
	}
	out, err := c.Inbox(ctx, asker.InboxQuery{For: in.For, Org: in.Org, Repos: in.Repos})
	return nil, out, err
}
