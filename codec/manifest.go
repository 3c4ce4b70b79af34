package codec

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ManifestName is the name of the manifest file in a table directory.
const ManifestName = "MANIFEST.json"

// ConvertingName is the file that dtb convert (retro.Convert) keeps in a
// directory while it rewrites the tables there: until it ends, the
// manifest lists the tables already rewritten as they were before, and a
// rerun of the conversion finishes the job. A manifest written anew over
// the files as they are ends it.
const ConvertingName = "CONVERTING"

// ManifestVersion is the version WriteManifest writes, 2 where no entry
// has Searched; ReadManifest reads version 1 too, whose entries have no
// Distances.
const ManifestVersion = 3

// ManifestEntry describes one table of a directory: its value file (or
// whole table, formats 1 and 2) and its distance file, if any.
type ManifestEntry struct {
	File      string `json:"file"` // path relative to the directory, e.g. "KKvK.dtb"
	Material  string `json:"material"`
	Positions int64  `json:"positions"`
	Size      int64  `json:"size"`   // file size in bytes
	CRC32C    uint32 `json:"crc32c"` // CRC-32C (Castagnoli) of the whole file
	// HeaderCRC32C is the file's header checksum (Reader.HeaderCRC), which
	// a reader compares at open; 0 in manifests of version 1.
	HeaderCRC32C uint32        `json:"header_crc32c,omitempty"`
	Distances    *ManifestFile `json:"distances,omitempty"` // the distance file
	// Searched names the table, Material's colour flip, that the
	// directory answers by a search through this one: it has no file
	// (package slim); empty for none. Version 3 only.
	Searched string `json:"searched,omitempty"`
}

// ManifestFile describes a file besides a table's value file.
type ManifestFile struct {
	File         string `json:"file"` // path relative to the directory, e.g. "KKvK.dtbd"
	Size         int64  `json:"size"`
	CRC32C       uint32 `json:"crc32c"`
	HeaderCRC32C uint32 `json:"header_crc32c"`
}

type manifest struct {
	Version int             `json:"version"`
	Tables  []ManifestEntry `json:"tables"`
}

// checkEntries reports a bad entry: a file name that is empty, absolute or
// outside the directory, a negative count, or a duplicate (entries must be
// sorted by File).
func checkEntries(entries []ManifestEntry) error {
	for i, e := range entries {
		if !filepath.IsLocal(e.File) {
			return fmt.Errorf("entry %d: file name %q is not a local path", i, e.File)
		}
		if e.Positions < 0 || e.Size < 0 {
			return fmt.Errorf("entry %q: negative positions or size", e.File)
		}
		if d := e.Distances; d != nil && (!filepath.IsLocal(d.File) || d.File == e.File || d.Size < 0) {
			return fmt.Errorf("entry %q: distance file %q is not a local path, or its size is negative", e.File, d.File)
		}
		if i > 0 && entries[i-1].File >= e.File {
			return fmt.Errorf("entry %q: not sorted or duplicate", e.File)
		}
	}
	return nil
}

// searches reports whether e names a table searched through it.
func searches(e ManifestEntry) bool { return e.Searched != "" }

// WriteManifest writes dir/MANIFEST.json atomically (temporary file, sync,
// rename), with the entries sorted by File. File names must be local paths
// relative to dir and unique.
func WriteManifest(dir string, entries []ManifestEntry) error {
	path := filepath.Join(dir, ManifestName)
	m := manifest{Version: ManifestVersion, Tables: slices.Clone(entries)}
	if !slices.ContainsFunc(entries, searches) {
		m.Version = 2 // what readers before Searched read
	}
	if m.Tables == nil {
		m.Tables = []ManifestEntry{}
	}
	slices.SortFunc(m.Tables, func(a, b ManifestEntry) int { return strings.Compare(a.File, b.File) })
	if err := checkEntries(m.Tables); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	b = append(b, '\n')
	err = WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadManifest reads dir/MANIFEST.json. A missing file gives an error
// wrapping fs.ErrNotExist, a malformed one an error wrapping ErrCorrupt and
// an unknown manifest version one wrapping ErrVersion.
func ReadManifest(dir string) ([]ManifestEntry, error) {
	path := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseManifest(b, path)
}

// ReadManifestFS reads the MANIFEST.json at the root of fsys, as
// ReadManifest does.
func ReadManifestFS(fsys fs.FS) ([]ManifestEntry, error) {
	b, err := fs.ReadFile(fsys, ManifestName)
	if err != nil {
		return nil, err
	}
	return parseManifest(b, ManifestName)
}

// parseManifest parses b, the manifest at path, as ReadManifest does.
func parseManifest(b []byte, path string) ([]ManifestEntry, error) {
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, newError(ErrCorrupt, path, err, "not valid JSON")
	}
	if m.Version < 1 || m.Version > ManifestVersion {
		return nil, newError(ErrVersion, path, nil, "manifest version %d, this version reads 1 to %d", m.Version, ManifestVersion)
	}
	if m.Version == 1 && slices.ContainsFunc(m.Tables, func(e ManifestEntry) bool { return e.Distances != nil || e.HeaderCRC32C != 0 }) {
		return nil, newError(ErrCorrupt, path, nil, "distance files or header checksums in a manifest of version 1")
	}
	if m.Version < 3 && slices.ContainsFunc(m.Tables, searches) {
		return nil, newError(ErrCorrupt, path, nil, "searched tables in a manifest of version %d", m.Version)
	}
	if err := checkEntries(m.Tables); err != nil {
		return nil, newError(ErrCorrupt, path, err, "%v", err)
	}
	if m.Tables == nil {
		m.Tables = []ManifestEntry{}
	}
	return m.Tables, nil
}

// FileCRC returns the size and the CRC-32C (Castagnoli) of a whole file,
// as recorded in a ManifestEntry.
func FileCRC(path string) (size int64, crc uint32, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	size, err = io.Copy(h, f)
	if err != nil {
		return 0, 0, err
	}
	return size, h.Sum32(), nil
}
