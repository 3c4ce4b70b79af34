package retro

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// catalog writes the manifest of a directory: exactly its valid table
// files. It remembers the files it has found valid, by size and CRC-32C.
// So it decodes the blocks of each file once per run. It trusts the
// files that the manifest it found lists with their size and CRC-32C. It
// does not decode those at all. The manifest lists only files found
// valid. The CRC-32C of the whole file shows it unchanged since. A nil
// catalog, a unit's (BuildUnit), writes nothing and vouches for nothing.
type catalog struct {
	dir    string
	valid  map[string]codec.ManifestEntry // by file name
	listed map[string]codec.ManifestEntry // the manifest's entries when the run began
}

func newCatalog(dir string) *catalog {
	c := &catalog{dir: dir, valid: map[string]codec.ManifestEntry{}, listed: map[string]codec.ManifestEntry{}}
	entries, _ := codec.ReadManifest(dir) // none, or damaged: every file is checked
	for _, e := range entries {
		c.listed[e.File] = e
	}
	return c
}

// write lists the valid table files of the directory in its manifest.
func (c *catalog) write() error {
	if c == nil {
		return nil
	}
	files, err := table.ValueFiles(c.dir)
	if err != nil {
		return err
	}
	var entries []codec.ManifestEntry
	for _, f := range files {
		e, ok, err := c.entry(f)
		if err != nil {
			return err
		}
		if ok {
			entries = append(entries, e)
		}
	}
	if err := codec.WriteManifest(c.dir, entries); err != nil {
		return err
	}
	// The manifest lists the files as they are: no conversion is pending.
	if err := os.Remove(filepath.Join(c.dir, codec.ConvertingName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// vouches reports whether the file at path is a valid table (see entry).
// The catalog or the manifest may know the file with its current size
// and CRC-32C. Only where neither does are its blocks decoded.
func (c *catalog) vouches(path string) bool {
	if c == nil {
		return false
	}
	_, ok, err := c.entry(path)
	return ok && err == nil
}

// entry returns the manifest entry of the table whose value file is at
// path. It also reports whether the table is valid. A valid table is of
// the codec format and undamaged. Its header fits the material its name
// says. Its distance file, if it has one, is there too. A damaged or
// incomplete table is no error. It is left out of the manifest, and
// rebuilt when a run needs it.
func (c *catalog) entry(path string) (codec.ManifestEntry, bool, error) {
	name := filepath.Base(path)
	m, err := index.ParseMaterial(strings.TrimSuffix(name, table.ValueExt))
	if err != nil || m.Pieces() > MaxPieces || table.FileName(m) != name {
		return codec.ManifestEntry{}, false, nil
	}
	e := codec.ManifestEntry{File: name, Material: m.String(), Positions: index.New(m).Size()}
	if e.Size, e.CRC32C, err = codec.FileCRC(path); err != nil {
		return codec.ManifestEntry{}, false, err
	}
	d := codec.ManifestFile{File: filepath.Base(table.DistancePath(path))}
	d.Size, d.CRC32C, err = codec.FileCRC(table.DistancePath(path))
	if err == nil {
		e.Distances = &d
	} else if !errors.Is(err, fs.ErrNotExist) {
		return codec.ManifestEntry{}, false, err
	}
	if v, ok := c.valid[name]; ok && sameSums(v, e) {
		return v, true, nil
	}
	f, err := table.Open(path, m)
	if errors.Is(err, codec.ErrCorrupt) || errors.Is(err, codec.ErrVersion) {
		return codec.ManifestEntry{}, false, nil
	} else if err != nil {
		return codec.ManifestEntry{}, false, err
	}
	defer f.Close()
	if f.Variant == table.Work { // a work file, not a table
		return codec.ManifestEntry{}, false, nil
	}
	if !f.Split || !f.Layout.Distances() {
		e.Distances = nil // a stray file beside a whole table or one without distances
	} else if e.Distances == nil {
		return codec.ManifestEntry{}, false, nil
	}
	readers, err := f.Readers()
	if errors.Is(err, codec.ErrCorrupt) || errors.Is(err, codec.ErrVersion) {
		return codec.ManifestEntry{}, false, nil
	} else if err != nil {
		return codec.ManifestEntry{}, false, err
	}
	e.HeaderCRC32C = readers[0].HeaderCRC()
	if e.Distances != nil {
		e.Distances.HeaderCRC32C = readers[1].HeaderCRC()
	}
	if !sameSums(c.listed[name], e) { // a listed table's blocks were checked when it was listed
		if err := f.Check(); errors.Is(err, codec.ErrCorrupt) || errors.Is(err, codec.ErrVersion) {
			return codec.ManifestEntry{}, false, nil
		} else if err != nil {
			return codec.ManifestEntry{}, false, err
		}
	}
	c.valid[name] = e
	return e, true, nil
}

// sameSums reports whether a and b give the same sizes and CRC-32Cs of
// the same files.
func sameSums(a, b codec.ManifestEntry) bool {
	sums := func(e codec.ManifestEntry) [2]codec.ManifestFile { // header checksums left out
		s := [2]codec.ManifestFile{{File: e.File, Size: e.Size, CRC32C: e.CRC32C}}
		if d := e.Distances; d != nil {
			s[1] = codec.ManifestFile{File: d.File, Size: d.Size, CRC32C: d.CRC32C}
		}
		return s
	}
	return sums(a) == sums(b)
}
