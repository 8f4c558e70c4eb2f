package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/clarify-app/clarify/internal/replay"
)

// replayCmd plays a scenario (or recorded deliveries) through the real app against the
// in-memory GitHub and prints each issue as a reader would see it, then the API calls made.
func replayCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logPath := fs.String("log", "", "write the app's JSON log to this file (default: discard)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bot replay [-log FILE] [FILE…]\n\nFILE is a scenario (.txt, see internal/fakegithub/doc.go) or a recorded delivery (.http).\nWith no FILE, the built-in demo runs.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	logs := io.Discard
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			return err
		}
		defer f.Close()
		logs = f
	}
	h, err := replay.NewHarness(logs)
	if err != nil {
		return err
	}
	defer h.Close()
	err = replay.Play(context.Background(), h, fs.Args(), stdout)
	h.PrintWorld(stdout)
	return err
}
