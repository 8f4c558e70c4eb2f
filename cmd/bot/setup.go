package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/setup"
)

const setupUsage = `bot setup -webhook-url URL [-org ORG] [-name NAME] [-o config.yml] [-force]
                 [-manifest FILE] [-web https://github.com] [-api https://api.github.com/]
                 [-listen 127.0.0.1:0]`

const setupDetails = `Registers the app on GitHub from app.yml through GitHub's manifest flow: open the page it
prints, confirm on GitHub, and it writes the config for bot serve and the private key
beside it (CONFIG without its extension, plus .private-key.pem), then exits. The manifest
is -manifest, else app.yml in the working directory, else the app.yml built into bot.`

func setupCmd(args []string, std cli.Std) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runSetup(ctx, args, std.Out, std.Err, net.Listen)
}

// runSetup serves the registration page until it has written the files or ctx ends.
// listen is net.Listen; tests pass their own to learn the address.
func runSetup(ctx context.Context, args []string, stdout, stderr io.Writer, listen func(network, addr string) (net.Listener, error)) error {
	cmd := cli.New("setup", "Register the app on GitHub and write the config bot serve reads.", setupUsage, setupDetails)
	fs := cmd.Flags
	var opts setup.Options
	fs.StringVar(&opts.WebURL, "web", app.DefaultWebURL, "GitHub's web address (GitHub Enterprise Server: https://HOST)")
	fs.StringVar(&opts.APIURL, "api", app.DefaultV3APIURL, "GitHub's REST API (GitHub Enterprise Server: https://HOST/api/v3/)")
	fs.StringVar(&opts.Org, "org", "", "register the app for this organization instead of your account")
	fs.StringVar(&opts.WebhookURL, "webhook-url", "", "the public URL where bot serve takes webhooks (a bare host gets /api/github/hook); required while app.yml has the example's")
	fs.StringVar(&opts.Name, "name", "", "the app's name instead of app.yml's (it must be unique on GitHub)")
	fs.StringVar(&opts.ManifestPath, "manifest", "", "the GitHub App manifest (YAML); default: app.yml here, else the one built into bot")
	fs.StringVar(&opts.ConfigPath, "o", setup.DefaultConfig, "the config file to write; the key goes beside it")
	fs.BoolVar(&opts.Force, "force", false, "overwrite the config and key files if they exist")
	addr := fs.String("listen", "127.0.0.1:0", "where the page listens: a loopback address (port 0: any free port)")
	pos, err := cmd.Parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cmd.Usagef("unexpected argument %q: setup takes flags only", pos[0])
	}
	opts.Log = stderr
	ln, err := setup.ListenLoopback(*addr, listen)
	if err != nil {
		return err
	}
	flow, err := setup.New(opts, "http://"+ln.Addr().String())
	if err != nil {
		ln.Close()
		return err
	}
	res, err := flow.Run(ctx, ln, func(page string) {
		fmt.Fprintf(stdout, "Open %s in your browser to register the app on GitHub (Ctrl-C to give up).\n", page)
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, res.Summary())
	return err
}
