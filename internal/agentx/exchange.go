package agentx

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// Write writes f to w as Marshal does.
func Write(w io.Writer, f File) error {
	b, err := Marshal(f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Export writes the ledger of the issue ref as an AgentX file (bot ledger export): to w
// when out is "-", else to out, or to the issue's Path under the current directory when
// out is empty, taking AgentX's lock; it then tells w what it wrote.
func Export(w io.Writer, out string, l clarify.Ledger, ref clarify.IssueRef) error {
	f := FromLedger(l, ref.FullName())
	if out == "-" {
		return Write(w, f)
	}
	path := cmp.Or(out, Path(ref.Number))
	if err := WriteFile(path, f); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "wrote %s: %s, %s, %s\n", path, ref, render.Counted(len(l.Clarifications), "clarification"), render.Counted(len(l.Assumptions), "assumption"))
	return err
}

// Import reads an AgentX file named name (bot ledger import) into the Clarify ledger it
// is, and tells notes of the fields it does not keep.
func Import(data []byte, name string, notes io.Writer) (clarify.Ledger, File, error) {
	f, unknown, err := Parse(data)
	if err != nil {
		return clarify.Ledger{}, f, err
	}
	if len(unknown) > 0 {
		fmt.Fprintf(notes, "not kept: fields neither AgentX nor Clarify defines: %s\n", strings.Join(unknown, ", "))
	}
	l, err := ToLedger(f)
	if err != nil {
		return l, f, fmt.Errorf("%s: %w", name, err)
	}
	return l, f, nil
}

// StatusBody renders the status comment that would hold l, signed for its issue in
// fileRepo (the file's) or flagRepo (-repo) under keys: what an operator pastes over the
// app's status comment (bot ledger import -status). keyring is asked for the keys once
// the issue is known.
func StatusBody(l clarify.Ledger, fileRepo, flagRepo string, keyring func() (render.Keyring, error), notes io.Writer) (string, error) {
	repo := cmp.Or(fileRepo, flagRepo)
	if fileRepo != "" && flagRepo != "" && !strings.EqualFold(fileRepo, flagRepo) {
		return "", fmt.Errorf("-repo %s: the file says its issue is in %s", flagRepo, fileRepo)
	}
	ref, ok := clarify.ParseIssueRef(repo + "#" + strconv.Itoa(l.Issue))
	if !ok {
		return "", errors.New("-status: the file names no repository: give -repo OWNER/REPO (each issue's ledger is signed with a key of its own)")
	}
	keys, err := keyring()
	if err != nil {
		return "", err
	}
	if !keys.Given() {
		return "", errors.New("-status signs the ledger: give -key, or set CLARIFY_LEDGER_KEY, GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE as serve has them")
	}
	if len(l.Archives) > 0 {
		fmt.Fprintf(notes, "the clarifications of %s are written into the status body, not left to be read from them\n", render.Counted(len(l.Archives), "archive comment"))
	}
	return render.SignedStatus(l, keys.Issue(ref.Owner, ref.Repo, ref.Number))
}
