package draughts

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readReference returns the rows of a tab-separated file of testdata,
// each with cols columns, skipping comments (which name the source).
func readReference(t testing.TB, name string, cols int) [][]string {
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		row := strings.Split(line, "\t")
		if len(row) != cols {
			t.Fatalf("%s: bad line %q", name, line)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", name)
	}
	return rows
}
