package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/fault"
	"github.com/dtb-draughts/dtb/internal/tabletest"
)

// TestConvertCommand converts a directory of format 2 (testdata/format2)
// and gets the files of a fresh build (testdata/golden, format 4), the
// manifest included; a second run converts nothing, and a directory
// without tables says how to build them.
func TestConvertCommand(t *testing.T) {
	golden := tabletest.Golden
	dir := tabletest.Copy(t, filepath.Join(filepath.Dir(golden), "format2"))
	out, errOut, code := dtb("convert", "--dir", dir)
	n := len(index.Materials(3))
	if code != 0 || strings.Count(out, " converted\n") != n || errOut != "dtb convert: 16 tables converted in "+dir+"\n" {
		t.Fatalf("convert: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	sameFiles(t, dir, golden)
	if out, errOut, code := dtb("convert", "--dir", dir); code != 0 || out != "" || !strings.HasPrefix(errOut, "dtb convert: 0 tables converted") {
		t.Errorf("convert again: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	empty := t.TempDir()
	if _, errOut, code := dtb("convert", "--dir", empty); code != 1 || errOut != "dtb convert: "+empty+" holds no tables (build them with: dtb gen --out "+empty+")\n" {
		t.Errorf("convert of an empty directory: status %d, stderr %q", code, errOut)
	}
}

// TestConvertInterrupted kills dtb convert (a simulated kill: no clean
// up) after the files of its first table, KKvK: a probe of KKvM, not yet
// converted, still answers, one of KKvK, converted but listed as it was,
// and dtb verify say to rerun dtb convert, and the rerun gets the files
// of a fresh build, with nothing left over.
func TestConvertInterrupted(t *testing.T) {
	dir := tabletest.Copy(t, filepath.Join(filepath.Dir(tabletest.Golden), "format2"))
	remove := fault.Inject(fault.Kill, 2) // KKvK's distance and value files
	_, errOut, code := dtb("convert", "--dir", dir)
	remove()
	if code != 1 || !strings.Contains(errOut, fault.ErrKilled.Error()) {
		t.Fatalf("killed convert: status %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, codec.ConvertingName)); err != nil {
		t.Fatalf("no %s after the kill: %v", codec.ConvertingName, err)
	}
	if out, errOut, code := dtb("probe", "--dir", dir, "W:WK10:B5"); code != 0 || !strings.Contains(out, "win") {
		t.Errorf("probe of KvM, not converted yet: status %d, %q, %q", code, out, errOut)
	}
	advice := "dtb convert --dir " + dir + " (a dtb convert there was interrupted; nothing is lost)"
	if _, errOut, code := dtb("probe", "--dir", dir, "W:WK10,K20:BK5"); code != 1 || !strings.Contains(errOut, advice) {
		t.Errorf("probe of KKvK, converted: status %d, stderr %q, want %q", code, errOut, advice)
	}
	out, errOut, code := dtb("verify", "--dir", dir)
	if code != 1 || !strings.Contains(out, codec.ConvertingName+": a dtb convert here did not finish: rerun it") || !strings.Contains(errOut, advice) {
		t.Errorf("verify: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, errOut, code := dtb("convert", "--dir", dir); code != 0 || !strings.HasPrefix(errOut, "dtb convert: 15 tables converted") {
		t.Fatalf("rerun: status %d, stderr %q", code, errOut)
	}
	sameFiles(t, dir, tabletest.Golden)
}

// sameFiles checks that dir holds the files of want, byte for byte, and
// no other.
func sameFiles(t *testing.T, dir, want string) {
	t.Helper()
	wanted, err := os.ReadDir(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadDir(dir)
	if err != nil || len(got) != len(wanted) {
		t.Fatalf("%d files, %d in %s (%v)", len(got), len(wanted), want, err)
	}
	for _, e := range wanted {
		a, err1 := os.ReadFile(filepath.Join(dir, e.Name()))
		b, err2 := os.ReadFile(filepath.Join(want, e.Name()))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from %s's (%v, %v)", e.Name(), want, err1, err2)
		}
	}
}
