package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		!strings.HasPrefix(lines[0], "dtb gen: warning: a big build: 259 tables of 1167503943565 positions, about 1279.5 GiB of memory and 115h49m0s on 2 threads") {
		t.Errorf("gen --pieces 7: status %d, stderr %q; want a warning, then the failure", code, errOut)
	}
	// An output path that is a file: a failure, not bad usage.
	if _, errOut, code := dtb("gen", "--pieces", "2", "--out", file); code != 1 || strings.Count(errOut, "\n") != 1 {
		t.Errorf("gen into a file: status %d, stderr %q", code, errOut)
	}
}

func TestMemBudget(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "8GiB": 8 << 30, "1G": 1 << 30, "1.5K": 1536, "1000": 1000} {
		if got, err := memBudget(in); got != want || err != nil {
			t.Errorf("memBudget(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"abc", "-1G", "5X", "0"} {
		if _, err := memBudget(in); err == nil {
			t.Errorf("memBudget(%q) accepted", in)
		}
	}
	if n, err := memBudget(""); n <= 0 || err != nil {
		t.Errorf("default budget %d, %v", n, err)
	}
	if _, errOut, code := dtb("gen", "--mem", "lots", "--out", t.TempDir()); code != 2 || strings.Count(errOut, "\n") != 1 {
		t.Errorf("--mem lots: status %d, stderr %q", code, errOut)
	}
}
