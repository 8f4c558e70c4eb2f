package main

import (
	"context"
	"io"
	"os"

	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/replay"
)

// replayCmd plays a scenario (or recorded deliveries) through the real app against the
// in-memory GitHub and prints each issue as a reader would see it, then the API calls made.
func replayCmd(args []string, std cli.Std) error {
	stdout := std.Out
	cmd := cli.New("replay", "Play a scenario or recorded deliveries through the real app against an in-memory GitHub, and print what each issue shows.",
		"bot replay [flags] [FILE…]",
		"FILE is a scenario (.txt, see internal/fakegithub/doc.go) or a recorded delivery (.http).\nWith no FILE, the built-in demo runs.")
	logPath := cmd.Flags.String("log", "", "write the app's JSON log to this file (default: discard)")
	files, err := cmd.Parse(args, stdout)
	if err != nil {
		return err
	}
	// A file that cannot be read is said before anything plays, not under a summary of
	// nothing.
	for _, name := range files {
		if _, err := os.Stat(name); err != nil {
			return err
		}
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
	return replay.Play(context.Background(), h, files, stdout)
}
