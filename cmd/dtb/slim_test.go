package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/internal/tabletest"
)

// TestSlimCommand writes the slim tables of the golden ones, with their
// distances (the default) and without, probes a position of a table left
// out there and in the golden tables alike, its moves too where the
// distances are, and checks the usage errors.
func TestSlimCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "engine")
	stdout, stderr, code := dtb("slim", "--dir", tabletest.Golden, "--out", out)
	if code != 0 || !strings.Contains(stdout, "MvKK     searched through KKvM, 2.8 probes a position\n") || !strings.HasPrefix(stderr, "dtb slim: 11 tables in ") || !strings.HasSuffix(stderr, ", 5 more answered by search, in "+out+"\n") {
		t.Fatalf("slim: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	const fen = "W:W20:BK1,K10" // MvKK, left out
	want, _, code := dtb("probe", "--dir", tabletest.Golden, "--moves", fen)
	got, stderr, code2 := dtb("probe", "--dir", out, "--moves", fen)
	if code != 0 || code2 != 0 || got != want {
		t.Errorf("probe --moves %s: slim %q (%d, %q), golden %q (%d)", fen, got, code2, stderr, want, code)
	}
	// Without distances: the values, and a list of moves refused.
	alone := out + "-values"
	if _, stderr, code := dtb("slim", "--dir", tabletest.Golden, "--out", alone, "--distances=false"); code != 0 {
		t.Fatalf("slim --distances=false: status %d, %s", code, stderr)
	}
	values, _, _ := dtb("probe", "--dir", tabletest.Golden, "--json", fen)
	values = regexp.MustCompile(`"(distance|dtw|mtc|clock)":[^,}]*`).ReplaceAllString(values, `"$1":null`)
	got, stderr, code = dtb("probe", "--dir", alone, "--json", fen)
	if note := "dtb probe: " + alone + " holds the values of some tables alone, without their distances (dtb slim writes them unless --distances=false)\n"; code != 0 || got != values || stderr != note {
		t.Errorf("probe %s without distances: status %d, %q (%q), want %q (%q)", fen, code, got, stderr, values, note)
	}
	if _, stderr, code := dtb("probe", "--dir", alone, "--moves", fen); code != 1 || !strings.Contains(stderr, alone+" holds the values of KKvM alone, not the distances") {
		t.Errorf("probe --moves %s without distances: status %d, stderr %q", fen, code, stderr)
	}
	if _, stderr, code := dtb("slim", "--dir", tabletest.Golden); code != 2 || !strings.Contains(stderr, "--out is required") {
		t.Errorf("no --out: status %d, stderr %q", code, stderr)
	}
	if _, stderr, code := dtb("slim", "--dir", tabletest.Golden, "--out", out+"2", "--threats", "some"); code != 2 || stderr != "dtb slim: --threats \"some\": want auto, keep or drop\n" {
		t.Errorf("--threats some: status %d, stderr %q", code, stderr)
	}
	stdout, _, code = dtb("slim", "--dir", tabletest.Golden, "--out", out+"3", "--threats", "drop")
	if code != 0 || !regexp.MustCompile(`(?m)^KKvM +\d+ bytes, forced threats searched$`).MatchString(stdout) {
		t.Errorf("--threats drop: status %d, stdout %q", code, stdout)
	}
	if _, stderr, code := dtb("slim", "--dir", out, "--out", out+"2"); code != 1 || stderr != "dtb slim: "+out+" is a slim directory already: write from the directory dtb gen built\n" {
		t.Errorf("slim of a slim directory: status %d, stderr %q", code, stderr)
	}
	// A damaged slim table is written anew by dtb slim, not dtb gen.
	if err := os.Remove(filepath.Join(out, "KKvM.dtb")); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = dtb("probe", "--dir", out, fen)
	if want := "(rebuild it with: dtb slim --dir BUILD --out " + out + " (BUILD: the directory dtb gen built"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("probe of a damaged slim directory: status %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestSlimSides checks --sides on the Rule2 set: both searches no table,
// and a table missing there is to be written anew by dtb slim (its
// marked files say it is slim); auto (the default) keeps both tables of
// KMvKK's pair, whose search costs some 27 probes a position, and
// searches MvKK through KKvM (3 probes). On the golden tables, one
// searches MvKK through KKvM, and a bad value is refused.
func TestSlimSides(t *testing.T) {
	dir, out := tabletest.Rule2.Dir(t), filepath.Join(t.TempDir(), "engine")
	stdout, stderr, code := dtb("slim", "--dir", dir, "--out", out, "--distances=false", "--sides", "both")
	if code != 0 || strings.Contains(stdout, "searched") || !strings.Contains(stderr, ", 0 more answered by search, in ") {
		t.Errorf("--sides both: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// Its files say it is a slim directory: written anew by dtb slim.
	if err := os.Remove(filepath.Join(out, "KKvKM.dtb")); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = dtb("probe", "--dir", out, "W:WK46,K50:BK5,15")
	if want := "(rebuild it with: dtb slim --dir BUILD --out " + out + " "; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("probe of a damaged slim directory of both sides: status %d, stderr %q, want %q", code, stderr, want)
	}
	stdout, stderr, code = dtb("slim", "--dir", tabletest.Golden, "--out", out+"-one", "--distances=false", "--sides", "one")
	if code != 0 || !strings.Contains(stdout, "MvKK     searched through KKvM\n") {
		t.Errorf("--sides one: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, stderr, code = dtb("slim", "--dir", dir, "--out", out+"-auto", "--distances=false")
	if code != 0 || !regexp.MustCompile(`(?m)^KKvKM +\d+ bytes, marked, kept beside KMvKK: a search through it costs 2\d\.\d probes a position$`).MatchString(stdout) ||
		!regexp.MustCompile(`(?m)^MvKK +searched through KKvM, [23]\.\d probes a position$`).MatchString(stdout) {
		t.Errorf("--sides auto: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, stderr, code := dtb("slim", "--dir", tabletest.Golden, "--out", out+"-x", "--sides", "all"); code != 2 || stderr != "dtb slim: --sides \"all\": want one, both or auto\n" {
		t.Errorf("--sides all: status %d, stderr %q", code, stderr)
	}
}

// TestSlimStats checks that dtb stats of a slim directory lists the
// tables stored and names those answered by a search, rather than show a
// table's stats under its colour flip's name.
func TestSlimStats(t *testing.T) {
	out := filepath.Join(t.TempDir(), "engine")
	if _, stderr, code := dtb("slim", "--dir", tabletest.Golden, "--out", out); code != 0 {
		t.Fatalf("slim: status %d, %s", code, stderr)
	}
	stdout, stderr, code := dtb("stats", "--dir", out)
	if code != 0 || strings.Contains(stdout, "MvKK") || !strings.Contains(stdout, "KKvM") ||
		stderr != "dtb stats: 5 tables answered by a search through their colour flips (dtb slim) are not listed: [MvK MvKK MMvK MvKM MvMM]\n" {
		t.Errorf("stats: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
