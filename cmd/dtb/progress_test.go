package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestProgress checks that gen and verify draw a progress bar on stderr
// when it is a terminal, with the tables (not their units) at work, and
// print plain progress lines there when it is not; gen ends with one
// summary line.
func TestProgress(t *testing.T) {
	plain := regexp.MustCompile(`^dtb (gen|verify): \d+/16 tables, [0-9.]+( k)?/815.1 k positions, \d+(ms|s) elapsed(, about \S+ left)?$`)
	peak := ", peak [0-9.]+ [KMG]iB" // where the system keeps a peak: the test binary's, GiB after a large build
	if _, ok := peakMemory(); !ok {
		peak = ""
	}
	summary := regexp.MustCompile(`^dtb gen: 16 tables, 815.1 k positions in \S+` + peak + `, \d+ KiB written$`)
	dir := ""
	for _, terminal := range []bool{false, true} {
		dir = t.TempDir()
		for _, args := range [][]string{
			{"gen", "--pieces", "3", "--out", dir},
			{"verify", "--dir", dir},
		} {
			var out, errOut bytes.Buffer
			code := run(args, &env{stdout: &out, stderr: &errOut, progress: terminal, progressEvery: time.Nanosecond})
			bar := errOut.String()
			if code != 0 {
				t.Errorf("dtb %q (terminal %v): status %d, stderr %q", args, terminal, code, bar)
				continue
			}
			lines := strings.Split(strings.TrimSuffix(bar, "\n"), "\n")
			summaries := 0
			if args[0] == "gen" {
				summaries = len(lines) - 1
				if last := lines[summaries][strings.LastIndex(lines[summaries], "\r")+1:]; !summary.MatchString(last) {
					t.Errorf("dtb %q: last line %q, want the summary", args, last)
				}
			}
			if terminal {
				if !(strings.Contains(bar, "/16 tables") && strings.Contains(bar, " pos/") && strings.Contains(bar, "\r") && strings.Contains(bar, " left")) ||
					regexp.MustCompile(`\.l\d+\.\d+`).MatchString(bar) {
					t.Errorf("dtb %q, stderr a terminal: stderr %q, want a bar with tables done, positions per second and time left, naming no unit", args, bar)
				}
				continue
			}
			if len(lines)-min(summaries, 1) < 1 { // verify reports every 200 ms, from the start
				t.Errorf("dtb %q, stderr not a terminal: %d lines, want progress lines", args, len(lines))
			}
			for _, line := range lines[:len(lines)-min(summaries, 1)] {
				if !plain.MatchString(line) {
					t.Errorf("dtb %q, stderr not a terminal: line %q", args, line)
				}
			}
		}
	}
	// The summary comes once, even when the tables are kept.
	_, errOut, _ := dtb("gen", "--pieces", "3", "--out", dir)
	if lines := strings.Split(errOut, "\n"); len(lines) != 2 || !summary.MatchString(lines[0]) {
		t.Errorf("gen of kept tables: stderr %q, want the summary", errOut)
	}
}

// TestUnitProgress checks that gen --unit, a scheduler's job, prints
// progress lines to a log too: the tables of its group, then the summary.
func TestUnitProgress(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"gen", "--unit", "KvK", "--out", t.TempDir()}, &env{stdout: &out, stderr: &errOut, progressEvery: time.Nanosecond})
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	line := regexp.MustCompile(`^dtb gen: [01]/1 tables, [0-9.]+( k)?/2.5 k positions, `)
	if code != 0 || len(lines) < 2 || !line.MatchString(lines[0]) || !strings.HasPrefix(lines[len(lines)-1], "dtb gen: 1 tables, 2.5 k positions in ") {
		t.Errorf("gen --unit KvK: status %d, stderr %q, want progress lines and the summary", code, errOut.String())
	}
}
