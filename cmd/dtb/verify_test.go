package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/index"
)

func TestVerifyCommand(t *testing.T) {
	dir := tablesDir(t)
	out, errOut, code := dtb("verify", "--dir", dir)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || errOut != "" || len(lines) != len(index.Materials(3))+2 ||
		!strings.HasPrefix(lines[0], "KvK      ok ") || !strings.Contains(lines[len(lines)-1], " 0 mismatches") {
		t.Errorf("verify: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, _, code = dtb("verify", "--dir", dir, "--only", "KKvK")
	if code != 0 || !strings.HasPrefix(out, "KKvK     ok ") || strings.Count(out, "\n") != 3 {
		t.Errorf("verify --only KKvK: status %d, stdout %q", code, out)
	}
	out, _, code = dtb("verify", "--dir", dir, "--only", "KvKK,KKvK")
	if code != 0 || strings.Count(out, " ok ") != 2 || !strings.Contains(out, "KvKK     ok ") || strings.Count(out, "\n") != 4 {
		t.Errorf("verify --only KvKK,KKvK: status %d, stdout %q", code, out)
	}

	damaged := copyTables(t, map[string]func([]byte) []byte{"KvK.dtb": flip(-3)})
	// KvK is damaged; the tables that read it are not checked, and say
	// so apart; the last line gives the command that rebuilds KvK.
	kvk := filepath.Join(damaged, "KvK.dtb")
	out, errOut, code = dtb("verify", "--dir", damaged)
	for _, want := range []string{
		"KvK      DAMAGED ",
		"\n  " + kvk + " is damaged (block 0 of column value: ",
		"\nKKvK     UNCHECKED ",
		"\n  not checked: reads the damaged " + kvk + "\n",
		"\nKvM      ok ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verify of a damaged KvK: stdout %q, want %q in it", out, want)
		}
	}
	if want := "dtb verify: 12 of 16 tables failed (1 damaged, 11 not checked as they read a damaged table); see above; " +
		"rebuild the damaged KvK.dtb with: dtb gen --only KvK --out " + damaged + "\n"; code != 1 || errOut != want {
		t.Errorf("verify of a damaged KvK: status %d, stderr %q, want 1 and %q", code, errOut, want)
	}
	out, errOut, code = dtb("verify", "--dir", damaged, "--only", "KKvK")
	if want := "dtb verify: 1 of 1 tables failed (1 not checked as they read a damaged table); see above; " +
		"rebuild the damaged KvK.dtb with: dtb gen --only KvK --out " + damaged + "\n"; code != 1 || errOut != want ||
		!strings.HasPrefix(out, "KKvK     UNCHECKED ") {
		t.Errorf("verify --only KKvK of a damaged KvK: status %d, stdout %q, stderr %q, want 1 and %q", code, out, errOut, want)
	}
	if _, errOut, code := dtb("gen", "--only", "KvK", "--out", damaged); code != 0 {
		t.Fatalf("the rebuild: status %d, stderr %q", code, errOut)
	}
	if out, errOut, code := dtb("verify", "--dir", damaged); code != 0 || strings.Contains(out, "DAMAGED") {
		t.Errorf("verify after the rebuild: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	stray := copyTables(t, nil)
	os.WriteFile(filepath.Join(stray, "KvK.dtb.123.tmp"), []byte("partial"), 0o644)
	out, _, code = dtb("verify", "--dir", stray)
	if code != 1 || !strings.Contains(out, "KvK.dtb.123.tmp ERROR ") || !strings.Contains(out, "KvK.dtb.123.tmp: temporary file of an unfinished write") {
		t.Errorf("verify of a directory with a temporary file: status %d, stdout %q", code, out)
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"verify", "--dir", dir, "--only", "KXvK"}, 2},
		{[]string{"verify", "--dir", dir, "--threads", "0"}, 2},
		{[]string{"verify", "--dir", dir, "KvK"}, 2},
		{[]string{"verify", "--dir", dir, "--only", "KKKKvK"}, 1}, // no such table
		{[]string{"verify", "--dir", filepath.Join(dir, "nothing")}, 1},
	} {
		out, errOut, code := dtb(c.args...)
		if code != c.code || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q; want status %d and one line on stderr", c.args, code, out, errOut, c.code)
		}
	}
}
