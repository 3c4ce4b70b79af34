package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/fault"
)

func TestGenResumes(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := dtb("gen", "--pieces", "2", "--out", dir)
	if code != 0 || strings.Count(out, " built ") != 4 {
		t.Fatalf("first gen: %d %q %q", code, out, errOut)
	}
	// Damage one table: the next run rebuilds it and keeps the others.
	path := filepath.Join(dir, "KvM.dtb")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = dtb("gen", "--pieces", "2", "--out", dir)
	if code != 0 || strings.Count(out, " kept ") != 2 || !strings.Contains(out, "KvM      built") {
		t.Fatalf("second gen: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.json")); err != nil {
		t.Error(err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	if len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

func TestGenBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"gen", "--pieces", "1"},
		{"gen", "--pieces", "9"},
		{"gen", "--only", "KXvK"},
		{"gen", "--threads", "0"},
		{"gen", "extra"},
		{"gen", "--only", "KKKKKMMMvKKKKKMM"}, // its size overflows an int64
		{"gen", "--only", "KKKKKKKvK"},        // 8 pieces
		{"gen", "--only", strings.Repeat("K", 21) + "v" + strings.Repeat("K", 21)},
		{"gen", "--only", "MMMMMMMMMMMMMMMMMMMMMvK"}, // 21 men
	} {
		out := filepath.Join(t.TempDir(), "tables")
		stdout, errOut, code := dtb(append(args, "--out", out)...)
		if code != 2 || stdout != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q", args, code, stdout, errOut)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("dtb %q: created the output directory", args)
		}
	}
	// A big build says what it will take before it starts (here it fails
	// at once: the output is a file); its memory is that of the largest
	// group unless the budget is smaller.
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	_, errOut, code := dtb("gen", "--pieces", "7", "--threads", "2", "--mem", "2TiB", "--out", file)
	if lines := strings.Split(errOut, "\n"); code != 1 || len(lines) != 3 ||
		!strings.HasPrefix(lines[0], "dtb gen: warning: a big build: 259 tables of 1167503943565 positions, about 57.5 GiB of memory and 225h30m0s on 2 threads") {
		t.Errorf("gen --pieces 7: status %d, stderr %q; want a warning, then the failure", code, errOut)
	}
	// An output path that is a file: a failure, not bad usage.
	if _, errOut, code := dtb("gen", "--pieces", "2", "--out", file); code != 1 || strings.Count(errOut, "\n") != 1 {
		t.Errorf("gen into a file: status %d, stderr %q", code, errOut)
	}
}

func TestMemBudget(t *testing.T) {
	checked, unchecked := &env{}, &env{uncheckedMem: true}
	for _, c := range []struct {
		e    *env
		in   string
		want int64
	}{
		{checked, "512MiB", 512 << 20}, {checked, "8GiB", 8 << 30}, {checked, "1G", 1 << 30}, {checked, "64M", 64 << 20},
		{checked, "0.5T", 512 << 30}, {checked, "2TiB", 2 << 40}, {checked, "100000000", 1e8},
		{unchecked, "1MiB", 1 << 20}, {unchecked, "1.5K", 1536}, {unchecked, "1000", 1000}, {unchecked, "1B", 1},
	} {
		if got, err := c.e.memBudget(c.in); got != c.want || err != nil {
			t.Errorf("memBudget(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct {
		e       *env
		in, err string
	}{
		{checked, "abc", "--mem abc: want a size such as 512MiB or 8GiB"},
		{checked, "-1G", "--mem -1G: want a size such as 512MiB or 8GiB"},
		{checked, "0", "--mem 0: want a size such as 512MiB or 8GiB"},
		{checked, "NaN", "--mem NaN: want a size such as 512MiB or 8GiB"},
		{checked, "Inf", "--mem Inf: want a size such as 512MiB or 8GiB"},
		{checked, "1e400", "--mem 1e400: want a size such as 512MiB or 8GiB"},
		{checked, "5X", "--mem 5X: want a size such as 512MiB or 8GiB"},
		{checked, "5KM", "--mem 5KM: unknown unit"},
		{checked, "1e30", "--mem 1e30: more than 8 EiB"},
		{checked, "8388608TiB", "--mem 8388608TiB: more than 8 EiB"}, // 2^63 bytes
		{unchecked, "1e30", "--mem 1e30: more than 8 EiB"},
		{unchecked, "0.1B", "--mem 0.1B: less than a byte"},
		{checked, "0.1B", "--mem 0.1B: less than a byte"},
		{checked, "1MiB", "--mem 1MiB: below the floor of 64 MiB"},
		{checked, "67108863", "--mem 67108863: below the floor of 64 MiB"},
	} {
		if got, err := c.e.memBudget(c.in); err == nil || err.Error() != c.err {
			t.Errorf("memBudget(%q) = %d, %v; want the error %q", c.in, got, err, c.err)
		}
	}
	if n, err := checked.memBudget(""); n <= 0 || err != nil {
		t.Errorf("default budget %d, %v", n, err)
	}
	for _, mem := range []string{"lots", "1MiB", "1e30"} {
		if _, errOut, code := dtb("gen", "--mem", mem, "--out", t.TempDir()); code != 2 || !strings.HasPrefix(errOut, "dtb gen: --mem "+mem+": ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("gen --mem %s: status %d, stderr %q", mem, code, errOut)
		}
	}
}

// TestGenOneError checks that a build whose table and manifest writes
// both fail says one thing, the first, on one line, and that the
// manifest of a missing directory says that the directory is missing.
func TestGenOneError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tables")
	remove := fault.Inject(fault.Kill, 0) // every write fails, the manifest's too
	_, errOut, code := dtb("gen", "--pieces", "2", "--out", dir)
	remove()
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "KvK") || strings.Contains(errOut, codec.ManifestName) {
		t.Errorf("gen with failing writes: status %d, stderr %q; want one line about KvK", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	_, errOut, code = dtb("gen", "--pieces", "2", "--out", filepath.Join(file, "tables"))
	if want := "dtb gen: " + file + ": not a directory\n"; code != 1 || errOut != want {
		t.Errorf("gen under a file: status %d, stderr %q, want %q", code, errOut, want)
	}
	missing := filepath.Join(t.TempDir(), "none")
	_, errOut, code = dtb("gen", "--manifest", "--out", missing)
	if want := "dtb gen: tables directory " + missing + " does not exist (build it with dtb gen --out " + missing + ")\n"; code != 1 || errOut != want {
		t.Errorf("gen --manifest into a missing directory: status %d, stderr %q, want %q", code, errOut, want)
	}
}
