package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/fault"
	"github.com/dtb-draughts/dtb/internal/testenv"
)

// cleanBuild returns a directory of the tables up to 2 pieces built by
// one uninterrupted run.
func cleanBuild(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, errOut, code := dtb("gen", "--pieces", "2", "--out", dir); code != 0 {
		t.Fatalf("clean build: status %d, stderr %q", code, errOut)
	}
	return dir
}

// checkSame checks that dir holds the same files as ref, byte for byte,
// and that the tables of dir can be probed.
func checkSame(t *testing.T, what, dir, ref string) {
	t.Helper()
	got, want := dirFiles(t, dir), dirFiles(t, ref)
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s: %s differs from the clean build's (or is missing)", what, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: stray file %s", what, name)
		}
	}
	if out, errOut, code := dtb("probe", "--dir", dir, "W:WK10:BK5", "W:W40:B5"); code != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("%s: probe: status %d, stdout %q, stderr %q", what, code, out, errOut)
	}
}

// dirFiles returns the contents of the files of dir by name.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if files[e.Name()], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// checkManifest checks that the manifest of dir lists exactly the table
// files there, with their sizes and CRCs, and that no temporary file is
// left; it returns the files listed.
func checkManifest(t *testing.T, what, dir string) []string {
	t.Helper()
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var listed []string
	for _, e := range entries {
		size, crc, err := codec.FileCRC(filepath.Join(dir, e.File))
		if err != nil || size != e.Size || crc != e.CRC32C {
			t.Errorf("%s: %s listed with %d bytes, CRC %08x; on disk %d bytes, CRC %08x (%v)", what, e.File, e.Size, e.CRC32C, size, crc, err)
		}
		listed = append(listed, e.File)
	}
	onDisk, _ := filepath.Glob(filepath.Join(dir, "*.dtb"))
	for _, f := range onDisk {
		if !slices.Contains(listed, filepath.Base(f)) {
			t.Errorf("%s: %s is not listed", what, filepath.Base(f))
		}
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmps) > 0 {
		t.Errorf("%s: temporary files left: %q", what, tmps)
	}
	return listed
}

// TestGenRepairsManifest damages the manifest of a finished directory, or
// leaves temporary files in it: a rerun must repair it, keeping every table.
func TestGenRepairsManifest(t *testing.T) {
	ref := cleanBuild(t)
	entries, err := codec.ReadManifest(ref)
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(ref, codec.ManifestName)
	full, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	for what, damage := range map[string]func(dir string) error{
		"deleted manifest": func(dir string) error { return os.Remove(filepath.Join(dir, codec.ManifestName)) },
		"truncated manifest": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, codec.ManifestName), full[:len(full)/2], 0o644)
		},
		"an entry dropped": func(dir string) error { return codec.WriteManifest(dir, slices.Delete(slices.Clone(entries), 1, 2)) },
		// A kill just after the last table file appeared: the manifest of
		// the group before.
		"the manifest before the last table": func(dir string) error {
			return codec.WriteManifest(dir, slices.DeleteFunc(slices.Clone(entries), func(e codec.ManifestEntry) bool { return e.File == "MvM.dtb" }))
		},
		"temporary files": func(dir string) error {
			if err := os.WriteFile(filepath.Join(dir, "KvM.dtb.123.tmp"), full, 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, codec.ManifestName+".456.tmp"), nil, 0o644)
		},
	} {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(ref)); err != nil {
			t.Fatal(err)
		}
		if err := damage(dir); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := dtb("gen", "--pieces", "2", "--out", dir)
		if code != 0 || strings.Count(out, " kept ") != 4 {
			t.Errorf("%s: gen: status %d, stdout %q, stderr %q; want every table kept", what, code, out, errOut)
		}
		checkSame(t, what, dir, ref)
	}
}

// faultyGen builds the tables up to 2 pieces in a new directory with a
// fault after n files, and returns the directory, stderr and the status.
func faultyGen(t *testing.T, mode fault.Mode, n int) (dir, errOut string, code int) {
	dir = t.TempDir()
	defer fault.Inject(mode, n)()
	_, errOut, code = dtb("gen", "--pieces", "2", "--out", dir)
	return dir, errOut, code
}

// eachCrashPoint calls strike(n) for a fault after n files written, until
// a build writes fewer files and strike reports no fault struck. The
// quick suite strikes after the first four files, every third file after
// them (work files, all written alike) and each of the last twelve (the
// last units, the tables and the manifests); DTB_LONG=1 after each. It
// returns the faults struck.
func eachCrashPoint(strike func(n int) bool) (struck int) {
	step := int(testenv.Stride(1, 3))
	n := 0
	for ; strike(n); n += max(step*min(n/4, 1), 1) {
		struck++
	}
	for m := max(n-12, 4); m < n; m++ {
		if (m-4)%step != 0 && strike(m) {
			struck++
		}
	}
	return struck
}

// TestGenCrashPoints kills a build (simulated: every write fails and
// nothing is cleaned up) after a number of files written, table files
// and manifests (eachCrashPoint): a rerun must finish the directory of a
// clean build.
func TestGenCrashPoints(t *testing.T) {
	ref := cleanBuild(t)
	kills := eachCrashPoint(func(n int) bool {
		dir, errOut, code := faultyGen(t, fault.Kill, n)
		if code == 0 {
			return false // the build wrote fewer than n+1 files
		}
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "killed") {
			t.Errorf("killed after %d files: status %d, stderr %q", n, code, errOut)
		}
		out, errOut, code := dtb("gen", "--pieces", "2", "--out", dir)
		if code != 0 {
			t.Errorf("rerun after a kill after %d files: status %d, stdout %q, stderr %q", n, code, out, errOut)
		}
		checkSame(t, fmt.Sprintf("rerun after a kill after %d files", n), dir, ref)
		return true
	})
	if kills < 12 { // 4 first files, 4 tables, a manifest per group and the last one, some units
		t.Errorf("only %d crash points", kills)
	}
}

// TestGenDiskFull fills the disk while a file is written (eachCrashPoint):
// the run fails with the reason, the manifest lists exactly the tables
// written whole, no temporary file is left, and a rerun finishes the
// directory.
func TestGenDiskFull(t *testing.T) {
	ref := cleanBuild(t)
	halfPair := false // the disk filled on the second table of a pair
	eachCrashPoint(func(n int) bool {
		dir, errOut, code := faultyGen(t, fault.DiskFull, n)
		if code == 0 {
			return false
		}
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "no space left on device") {
			t.Errorf("disk full at file %d: status %d, stderr %q", n, code, errOut)
		}
		listed := checkManifest(t, fmt.Sprintf("disk full at file %d", n), dir)
		// The two tables of a pair are written at once, in either order.
		halfPair = halfPair || slices.Contains(listed, "KvM.dtb") != slices.Contains(listed, "MvK.dtb")
		if out, errOut, code := dtb("gen", "--pieces", "2", "--out", dir); code != 0 {
			t.Errorf("rerun after a full disk at file %d: status %d, stdout %q, stderr %q", n, code, out, errOut)
		}
		checkSame(t, fmt.Sprintf("rerun after a full disk at file %d", n), dir, ref)
		return true
	})
	if !halfPair {
		t.Error("the disk never filled between the two tables of a pair")
	}
}
