package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgress checks that gen and verify draw a progress bar on stderr
// when it is a terminal, and print nothing there when it is not.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"gen", "--pieces", "2", "--out", dir},
		{"verify", "--dir", dir},
	} {
		for _, terminal := range []bool{false, true} {
			var out, errOut bytes.Buffer
			code := run(args, &env{stdout: &out, stderr: &errOut, progress: terminal})
			bar := errOut.String()
			switch {
			case code != 0:
				t.Errorf("dtb %q (terminal %v): status %d, stderr %q", args, terminal, code, bar)
			case !terminal && bar != "":
				t.Errorf("dtb %q, stderr not a terminal: stderr %q, want nothing", args, bar)
			case terminal && !(strings.Contains(bar, "/4 tables") && strings.Contains(bar, " pos/") && strings.Contains(bar, "\r")):
				t.Errorf("dtb %q, stderr a terminal: stderr %q, want a bar with tables done and positions per second", args, bar)
			}
		}
	}
}
