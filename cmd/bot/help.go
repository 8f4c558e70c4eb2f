package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/clarify-app/clarify/internal/app"
)

// writeSettings lists every server setting with its environment variable and default,
// from the table the README's comes from, so that `bot serve -h` is all an operator
// with a container and no checkout needs.
func writeSettings(w io.Writer) {
	fmt.Fprintln(w, "\nSettings: from FILE, then the environment, which wins; config.example.yml and the README say what each is for.")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  key\tenvironment\tdefault")
	for _, s := range app.Settings {
		env := s.Env
		if env == "" {
			env = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Key, env, strings.ReplaceAll(s.Default, "`", ""))
	}
	_ = tw.Flush()
}
