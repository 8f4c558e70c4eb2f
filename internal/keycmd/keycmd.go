// Package keycmd is `bot key`: it makes the workflow's ledger key (CLARIFY_LEDGER_KEY) and
// says the public key askers verify Clarify's comments by, the verify_keys line of the
// repository's .github/clarify.yml (render/public.go says why there are two).
package keycmd

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/render"
)

// SecretBytes is how many random bytes a new ledger key holds: 48, 64 characters of
// base64, well over the 32 characters a workflow run accepts.
const SecretBytes = 48

const details = `bot key new prints a new ledger key on stdout, alone, for the repository secret
CLARIFY_LEDGER_KEY, and the verify_keys line of its public key on stderr; with -config FILE
it adds that public key to FILE's verify_keys instead (the file is made if need be):

  bot key new -config .github/clarify.yml | gh secret set CLARIFY_LEDGER_KEY

bot key public prints the verify_keys line of the key in CLARIFY_LEDGER_KEY (or -config
FILE adds it there): for an installation made before verify_keys, or a second machine.

The secret is printed once and never stored by bot: pipe it into the secret. Rotating,
keep the old public key listed beside the new one while comments signed under it remain.`

// Run runs `bot key new|public`: getenv is os.Getenv, random crypto/rand's reader.
func Run(args []string, getenv func(string) string, random io.Reader, stdout, stderr io.Writer) error {
	cmd := cli.New("key", "Make the workflow's ledger key, and the public key askers verify Clarify by.",
		"bot key new|public [-config FILE]", details)
	return cmd.Run(args, stdout, map[string]func([]string) error{
		"new": func(args []string) error {
			return keyCmd(args, "new", stdout, stderr, func() (string, error) {
				b := make([]byte, SecretBytes)
				if _, err := io.ReadFull(random, b); err != nil {
					return "", fmt.Errorf("draw a key: %w", err)
				}
				return base64.StdEncoding.EncodeToString(b), nil
			})
		},
		"public": func(args []string) error {
			return keyCmd(args, "public", stdout, stderr, func() (string, error) {
				if k := getenv("CLARIFY_LEDGER_KEY"); k != "" {
					return k, nil
				}
				return "", errors.New("CLARIFY_LEDGER_KEY is not set: set it to the repository secret's value (`bot key new` made it)")
			})
		},
	})
}

// keyCmd runs one of the two: secret gives the ledger key (new: drawn; public: given);
// new prints it, and the public key goes to -config or the config line to print.
func keyCmd(args []string, name string, stdout, stderr io.Writer, secret func() (string, error)) error {
	cmd := cli.New("key "+name, "", "bot key "+name+" [-config FILE]", details)
	path := cmd.Flags.String("config", "", "add the public key to this config file's verify_keys (.github/clarify.yml)")
	pos, err := cmd.Parse(args, stdout)
	if err == nil && len(pos) > 0 {
		err = cmd.Usagef("unexpected argument %q", pos[0])
	}
	if err != nil {
		return err
	}
	key, err := secret()
	if err != nil {
		return err
	}
	pub, err := PublicKey(key)
	if err != nil {
		return err
	}
	line := "verify_keys: [\"" + pub + "\"]"
	switch {
	case *path != "":
		if err := AddToConfig(*path, pub); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s lists %s in verify_keys: commit it to the default branch\n", *path, pub)
	case name == "new":
		fmt.Fprintf(stderr, "add to .github/clarify.yml on the default branch (beside any key listed):\n%s\n", line)
	default:
		fmt.Fprintln(stdout, line)
	}
	if name == "new" {
		fmt.Fprintln(stdout, key)
	}
	return nil
}

// PublicKey is the verify_keys entry of a ledger key, as the workflow's runs sign with it.
func PublicKey(ledgerKey string) (string, error) {
	priv, err := render.SigningKey([]byte(ledgerKey))
	if err != nil {
		return "", err
	}
	return render.FormatVerifyKey(priv.Public().(ed25519.PublicKey)), nil
}

// verifyKeysLine finds a one-line verify_keys list, "verify_keys: [ … ]"; verifyKeysKey
// any verify_keys key.
var (
	verifyKeysLine = regexp.MustCompile(`(?m)^verify_keys:[ \t]*\[([^\]\n]*)\][ \t]*$`)
	verifyKeysKey  = regexp.MustCompile(`(?m)^verify_keys:`)
)

// AddToConfig adds pub to the verify_keys of the config at path: into its one-line list,
// or as a new line when it has none; a list written otherwise is left to a person.
func AddToConfig(path, pub string) error {
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	text := string(b)
	m := verifyKeysLine.FindStringSubmatchIndex(text)
	switch {
	case strings.Contains(text, pub):
		return nil
	case m != nil && strings.TrimSpace(text[m[2]:m[3]]) == "":
		text = text[:m[2]] + `"` + pub + `"` + text[m[3]:]
	case m != nil:
		text = text[:m[3]] + `, "` + pub + `"` + text[m[3]:]
	case verifyKeysKey.MatchString(text):
		return fmt.Errorf("%s lists verify_keys other than on one line: add %q to it by hand", path, pub)
	default:
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += "verify_keys: [\"" + pub + "\"]\n"
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
