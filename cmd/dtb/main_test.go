package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// dtb runs the command line with nothing on stdin and returns stdout,
// stderr and the exit status.
func dtb(args ...string) (string, string, int) { return dtbStdin("", args...) }

// dtbStdin runs the command line with stdin on stdin and returns stdout,
// stderr and the exit status.
func dtbStdin(stdin string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return out.String(), errOut.String(), code
}

func TestPerftCommand(t *testing.T) {
	out, _, code := dtb("perft", "--depth", "5", "W:W31-50:B1-20")
	if want := "1 9\n2 81\n3 658\n4 4265\n5 27117\n"; code != 0 || out != want {
		t.Errorf("perft: %d %q, want %q", code, out, want)
	}
	out, _, code = dtb("perft", "--depth", "2", "--divide", "W:W28,32:B23")
	if want := "1 1\n28x19 0\n2 0\n"; code != 0 || out != want {
		t.Errorf("perft --divide: %d %q, want %q", code, out, want)
	}
}

func TestMovesCommand(t *testing.T) {
	out, _, code := dtb("moves", "--json", "W:W28,32:B23")
	if want := `{"move":"28x19","from":28,"to":19,"captures":[23]}` + "\n"; code != 0 || out != want {
		t.Errorf("moves --json: %d %q, want %q", code, out, want)
	}
	// A position without moves says so, but has no JSON object.
	for _, c := range []struct{ fen, want string }{
		{"W:W46:B41,37", "no legal moves: White to move loses\n"}, // blocked
		{"B:WK10:B", "no legal moves: Black to move loses\n"},     // no pieces
	} {
		out, errOut, code := dtb("moves", c.fen)
		if code != 0 || out != c.want || errOut != "" {
			t.Errorf("moves %s: %d %q %q, want 0 and %q", c.fen, code, out, errOut, c.want)
		}
		if out, errOut, code := dtb("moves", "--json", c.fen); code != 0 || out != "" || errOut != "" {
			t.Errorf("moves --json %s: %d %q %q, want 0 and nothing", c.fen, code, out, errOut)
		}
	}
	out, _, code = dtb("moves", "B:BK1:W46")
	if code != 0 || len(strings.Fields(out)) != 9 || !strings.HasPrefix(out, "1-") {
		t.Errorf("moves: %d %q", code, out)
	}
}

func TestPlayCommand(t *testing.T) {
	out, _, code := dtb("play", "W:W31-50:B1-20", "32-28", "19-23", "28x19")
	if !strings.HasPrefix(out, "B:W19,31,33,") || code != 0 {
		t.Errorf("play: %d %q", code, out)
	}
}

func TestBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"moves", "W:W51"},
		{"moves"},
		{"moves", "W:W31", "W:W32"},
		{"perft", "--depth", "0", "W:W31"},
		{"perft", "--depth", "x", "W:W31"},
		{"perft", "X"},
		{"play", "W:W31-50:B1-20", "32-29"},
		{"play", "W:W31-50:B1-20", "99-28"},
		{"play"},
		{"play", "W:WK10:BK5", ""},
		{"nosuchcommand"},
		{"help", "nosuchcommand"},
		{"moves", "--nosuchflag", "W:W31"},
		{"moves", "W"},            // no pieces
		{"moves", "W:WK10:B"},     // the game is over
		{"perft", "B:WK10:BK5:W"}, // the second list of White's pieces
		{"play", "W:WK10:B", "10-5"},
		{"gen", "--unit", "", "--out", "nowhere"},
		{"verify", "--sums", "", "--dir", "nowhere"},
		{"probe", "--dir", "", "W:WK10:BK5"},
	} {
		out, errOut, code := dtb(args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "dtb") {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q; want status 2 and one line on stderr", args, code, out, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, c := range commands {
		out, _, code := dtb(c.name, "--help")
		if code != 0 || !strings.Contains(out, "usage: dtb "+c.name) {
			t.Errorf("dtb %s --help: %d %q", c.name, code, out)
		}
	}
	out, _, code := dtb("help")
	if code != 0 || !strings.Contains(out, "perft") {
		t.Errorf("dtb help: %d %q", code, out)
	}
	// The commands in alphabetical order, every one.
	var names []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); strings.HasPrefix(line, "  ") && len(f) > 0 {
			names = append(names, f[0])
		}
	}
	if !slices.IsSorted(names) || len(names) != len(commands) {
		t.Errorf("dtb help lists %q, want the %d commands in alphabetical order", names, len(commands))
	}
	if out, _, code := dtb("help", "probe"); code != 0 || !strings.HasPrefix(out, "usage: dtb probe") {
		t.Errorf("dtb help probe: %d %q", code, out)
	}
	if out, errOut, code := dtb(); code != 2 || out != "" || !strings.HasPrefix(errOut, "usage: dtb") {
		t.Errorf("dtb: status %d, stdout %q, stderr %q; want status 2 and the usage on stderr", code, out, errOut)
	}
}

// TestInterrupted runs commands that an interrupt stops: the exit status
// is 130, as the shell gives a command SIGINT ends, and the one line on
// stderr says so, with what is kept.
func TestInterrupted(t *testing.T) {
	saved := commands
	t.Cleanup(func() { commands = saved })
	commands = slices.Clip(commands)
	for name, do := range map[string]func() error{
		"stopped": func() error { return context.Canceled },
		"kept":    func() error { return interruptible(func(context.Context) error { return context.Canceled }) },
	} {
		register(&command{name: name, flags: func(*pflag.FlagSet) func(*env, []string) error {
			return func(*env, []string) error { return do() }
		}})
	}
	for name, want := range map[string]string{
		"stopped": "dtb stopped: interrupted\n",
		"kept":    "dtb kept: interrupted: the tables finished so far are kept; run the same command again to resume\n",
	} {
		if out, errOut, code := dtb(name); code != 130 || out != "" || errOut != want {
			t.Errorf("dtb %s: status %d, stdout %q, stderr %q; want 130 and %q", name, code, out, errOut, want)
		}
	}
}

// TestUnexpectedArguments runs every command that takes no arguments
// with one: it must refuse it, naming it, before doing anything.
func TestUnexpectedArguments(t *testing.T) {
	for _, c := range commands {
		if c.args != "" {
			continue
		}
		out, errOut, code := dtb(c.name, "stray")
		if want := "dtb " + c.name + `: unexpected arguments ["stray"]` + "\n"; code != 2 || out != "" || errOut != want {
			t.Errorf("dtb %s stray: %d %q %q, want 2 and %q", c.name, code, out, errOut, want)
		}
	}
}
