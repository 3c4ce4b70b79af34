package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/table"
)

// dtbPath runs the command line with DTB_PATH set to path and returns
// stdout, stderr and the exit status.
func dtbPath(path string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, path: path})
	return out.String(), errOut.String(), code
}

// splitTables returns two copies of the golden tables, those of at most 2
// pieces and the others, and the list of both.
func splitTables(t *testing.T) (small, large, list string) {
	small = tabletest.Keep(t, tabletest.Golden, func(m index.Material) bool { return m.Pieces() <= 2 })
	large = tabletest.Keep(t, tabletest.Golden, func(m index.Material) bool { return m.Pieces() > 2 })
	return small, large, small + string(filepath.ListSeparator) + large
}

func TestDirList(t *testing.T) {
	small, large, list := splitTables(t)
	sep := string(filepath.ListSeparator)
	fens := []string{"W:WK10:BK5", "W:WK2,6:BK50"} // 2 pieces, 3 pieces
	want, _, _ := dtb(append([]string{"probe", "--dir", tabletest.Golden}, fens...)...)
	for _, c := range []struct{ flag, path string }{
		{list, ""},
		{sep + list + sep + sep, ""},
		{"", list},
		{list, "nowhere"}, // --dir before DTB_PATH
	} {
		args := []string{"probe"}
		if c.flag != "" {
			args = append(args, "--dir", c.flag)
		}
		out, errOut, code := dtbPath(c.path, append(args, fens...)...)
		if code != 0 || out != want || errOut != "" {
			t.Errorf("dtb %q with DTB_PATH=%q: %d %q %q, want 0 and %q", args, c.path, code, out, errOut, want)
		}
	}
	// Every reading command takes the list from DTB_PATH.
	for _, args := range [][]string{
		{"stats"},
		{"line", "W:WK10:BK5"},
		{"claim", "KKvK"},
		{"verify"},
	} {
		if out, errOut, code := dtbPath(list, args...); code != 0 || out == "" {
			t.Errorf("dtb %q with DTB_PATH: %d %q %q", args, code, out, errOut)
		}
	}
	// One table directory alone lacks the other's tables.
	if _, errOut, code := dtb("probe", "--dir", small, fens[1]); code != 1 || !strings.Contains(errOut, "no table for KMvK in "+small) {
		t.Errorf("probe of 3 pieces in %s: %d %q", small, code, errOut)
	}
	if out, _, code := dtbPath(large, "size"); code != 0 || !strings.Contains(out, "3 ") {
		t.Errorf("size with DTB_PATH of one directory: %d %q", code, out)
	}
}

// TestDirListRefused gives a list to the commands that write a directory
// or read one alone: each refuses it in one line, before any work.
func TestDirListRefused(t *testing.T) {
	_, _, list := splitTables(t)
	for _, c := range []struct {
		path string
		args []string
		want string
	}{
		{"", []string{"gen", "--out", list}, "dtb gen: --out " + list + ": dtb gen writes one directory, not a list\n"},
		{"", []string{"convert", "--dir", list}, "dtb convert: --dir " + list + ": dtb convert writes one directory, not a list\n"},
		{"", []string{"slim", "--out", list}, "dtb slim: --out " + list + ": dtb slim writes one directory, not a list\n"},
		{"", []string{"size", "--dir", list}, "dtb size: --dir " + list + ": dtb size reads one directory, not a list\n"},
		{list, []string{"sums"}, "dtb sums: DTB_PATH=" + list + " is a list: dtb sums reads one directory (give it with --dir)\n"},
		{"", []string{"verify", "--dir", list, "--sums", "x"}, "dtb verify: --sums reads one directory, not a list: --dir " + list + "\n"},
	} {
		out, errOut, code := dtbPath(c.path, c.args...)
		if code != 2 || out != "" || errOut != c.want {
			t.Errorf("dtb %q with DTB_PATH=%q: %d %q %q, want 2 and %q", c.args, c.path, code, out, errOut, c.want)
		}
	}
}

// TestVerifyCopies verifies a list whose later directories hold copies
// of tables the first holds: the same files, and KvK rewritten. Each is
// noted, and neither is a failure.
func TestVerifyCopies(t *testing.T) {
	first := tablesDir(t)
	same := tabletest.Keep(t, tabletest.Golden, func(m index.Material) bool { return m.Pieces() <= 2 })
	kvk := index.Material{WhiteKings: 1, BlackKings: 1}
	other := tabletest.Keep(t, tabletest.Golden, func(m index.Material) bool { return m == kvk })
	tabletest.Rewrite(t, other, kvk, func(*codec.Header, *table.Columns) {})
	sep := string(filepath.ListSeparator)
	out, errOut, code := dtb("verify", "--dir", first+sep+same+sep+other)
	want := "KvK      ok " // then the notes of its copies
	notes := "\n  a copy in " + same + " is not read: its manifest entry is the same; a copy in " + other +
		" is not read: its manifest entry differs (dtb verify --dir " + other + " checks it)\n"
	if code != 0 || errOut != "" || !strings.HasPrefix(out, want) || !strings.Contains(out, notes) {
		t.Errorf("verify of a list with copies: %d %q %q, want 0 and %q, then %q", code, out, errOut, want, notes)
	}
	if strings.Count(out, "a copy in") != len(index.Materials(2))+1 {
		t.Errorf("verify of a list with copies: %q, want a note per copy", out)
	}
}
