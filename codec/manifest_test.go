package codec

import (
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestManifestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	var entries []ManifestEntry
	for _, n := range []int64{30, 10, 20} {
		h, data := testTable(n, 8)
		h.Material = "M" + string(rune('a'+n/10))
		file := h.Material + ".dtb"
		if err := Write(filepath.Join(dir, file), h, data); err != nil {
			t.Fatal(err)
		}
		size, crc, err := FileCRC(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, file))
		if size != int64(len(b)) || crc != crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) {
			t.Fatalf("FileCRC = %d, %#x", size, crc)
		}
		entries = append(entries, ManifestEntry{File: file, Material: h.Material, Positions: n, Size: size, CRC32C: crc})
	}
	entries[1].Distances = &ManifestFile{File: "Mb.dtbd", Size: 7, CRC32C: 0xabc}
	if err := WriteManifest(dir, entries); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []ManifestEntry{entries[1], entries[2], entries[0]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if entries[0].File != "Md.dtb" {
		t.Fatal("WriteManifest reordered its argument")
	}
	for _, name := range dirNames(t, dir) {
		if strings.HasSuffix(name, ".tmp") {
			t.Fatalf("left %s", name)
		}
	}

	// Empty manifest.
	if err := WriteManifest(dir, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadManifest(dir); err != nil || len(got) != 0 {
		t.Fatalf("empty manifest: %v, %v", got, err)
	}
}

func TestManifestWriteErrors(t *testing.T) {
	for _, entries := range [][]ManifestEntry{
		{{File: "a.dtb"}, {File: "a.dtb"}},
		{{File: ""}},
		{{File: "../a.dtb"}},
		{{File: "/tmp/a.dtb"}},
		{{File: "a.dtb", Size: -1}},
	} {
		dir := t.TempDir()
		if err := WriteManifest(dir, entries); err == nil {
			t.Errorf("%+v: no error", entries)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("%+v: left %v", entries, names)
		}
	}
	if err := WriteManifest(filepath.Join(t.TempDir(), "missing"), nil); err == nil {
		t.Error("missing directory: no error")
	}
}

func TestManifestReadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadManifest(dir); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), ManifestName) {
		t.Fatalf("missing: %v", err)
	}
	for _, tc := range []struct {
		text string
		want error
	}{
		{``, ErrCorrupt},
		{`{"version": 1, "tables": [`, ErrCorrupt},
		{`{"version": 1, "tables": {}}`, ErrCorrupt},
		{`{"version": 1} x`, ErrCorrupt},
		{`[]`, ErrCorrupt},
		{`{"version": 1, "tables": [{"file": "b"}, {"file": "a"}]}`, ErrCorrupt},
		{`{"version": 1, "tables": [{"file": "../a"}]}`, ErrCorrupt},
		{`{"version": 1, "tables": [{"file": "a", "crc32c": -1}]}`, ErrCorrupt},
		{`{"tables": []}`, ErrVersion},
		{`{"version": 4, "tables": []}`, ErrVersion},
		{`{"version": 2, "tables": [{"file": "a", "searched": "KvKK"}]}`, ErrCorrupt},
		{`{"version": 1, "tables": [{"file": "a", "distances": {"file": "b"}}]}`, ErrCorrupt},
		{`{"version": 2, "tables": [{"file": "a", "distances": {"file": "../b"}}]}`, ErrCorrupt},
		{`{"version": 2, "tables": [{"file": "a", "distances": {"file": "a"}}]}`, ErrCorrupt},
	} {
		if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadManifest(dir)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), ManifestName) {
			t.Errorf("%s: got %v, want %v", tc.text, err, tc.want)
		}
	}
}

// TestManifestSearched checks that a manifest naming a searched table is
// of version 3, and one without of version 2, which older readers read.
func TestManifestSearched(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		searched, version string
	}{{"", `"version": 2`}, {"KvKK", `"version": 3`}} {
		want := []ManifestEntry{{File: "KKvK.dtb", Material: "KKvK", Searched: tc.searched}}
		if err := WriteManifest(dir, want); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, ManifestName))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.version) {
			t.Errorf("searched %q: manifest %s, want %s", tc.searched, b, tc.version)
		}
		got, err := ReadManifest(dir)
		if err != nil || len(got) != 1 || got[0] != want[0] {
			t.Errorf("searched %q: read %+v, %v, want %+v", tc.searched, got, err, want)
		}
	}
}

func TestFileCRCMissing(t *testing.T) {
	if _, _, err := FileCRC(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
}
