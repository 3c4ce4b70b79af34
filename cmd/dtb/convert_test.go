package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/index"
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
	want, err := os.ReadDir(golden)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadDir(dir)
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d files, %d in %s (%v)", len(got), len(want), golden, err)
	}
	for _, e := range want {
		a, err1 := os.ReadFile(filepath.Join(dir, e.Name()))
		b, err2 := os.ReadFile(filepath.Join(golden, e.Name()))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from testdata/golden's (%v, %v)", e.Name(), err1, err2)
		}
	}
	if out, errOut, code := dtb("convert", "--dir", dir); code != 0 || out != "" || !strings.HasPrefix(errOut, "dtb convert: 0 tables converted") {
		t.Errorf("convert again: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	empty := t.TempDir()
	if _, errOut, code := dtb("convert", "--dir", empty); code != 1 || errOut != "dtb convert: "+empty+" holds no tables (build them with: dtb gen --out "+empty+")\n" {
		t.Errorf("convert of an empty directory: status %d, stderr %q", code, errOut)
	}
}
