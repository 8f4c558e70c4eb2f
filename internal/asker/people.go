package asker

import (
	"context"
	"strings"

	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/internal/readcmd"
	"github.com/clarify-app/clarify/ledger"
)

const readAuth = `Your own token authenticates, found as for ask. Whom to believe is found in each
repository, as for status: the app's account (-app, else the repository's
.github/clarify.yml) and, for the workflow's account, the keys its comments are signed with.`

// Reach is how the door reads for people (gh clarify ledger|stats, internal/readcmd): with
// the caller's token, believing in each repository whom the asker's client believes there
// (readerOf).
func (d Door) Reach() readcmd.Reach {
	return readcmd.Reach{Prog: d.Prog, Auth: readAuth, Flags: func(cmd *cli.Command, std cli.Std) readcmd.Source {
		d := d.With(std)
		c := common{Command: cmd, app: d.appFlag(cmd)}
		return readcmd.Source{Open: func(ctx context.Context, owner, repo string) (readcmd.Reader, error) {
			cl, _, err := d.client(c)
			if err != nil {
				return readcmd.Reader{}, err
			}
			r, err := cl.readerOf(ctx, owner, repo)
			p := ledger.PeopleReader{Reader: r, Slug: strings.TrimSuffix(r.Bot, "[bot]"), Notes: d.Stderr,
				Hint: func(err error) string { return ghtransport.TokenHint(err, true) }}
			return readcmd.Reader{PeopleReader: p, Client: cl.gh, Now: cl.now}, err
		}}
	}}
}
