package retro

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// removeTemps removes the temporary files that an interrupted run left in
// dir, those that match the glob patterns. Only one run may write a file
// of a directory at a time.
func removeTemps(dir string, patterns ...string) error {
	for _, pattern := range patterns {
		files, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// catalog writes the manifest of a directory: exactly its valid table
// files. It remembers the files it has found valid, by size and CRC-32C,
// so that it decodes the blocks of each file once per run, and it trusts
// the files that the manifest it found lists with their size and CRC-32C
// without decoding them at all: the manifest lists only files found
// valid, and the CRC-32C of the whole file shows it unchanged since.
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
	files, err := filepath.Glob(filepath.Join(c.dir, "*.dtb"))
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
	return codec.WriteManifest(c.dir, entries)
}

// vouches reports whether the file at path is a valid table (see entry),
// decoding its blocks only if neither the catalog nor the manifest knows
// it with its size and CRC-32C as they are now.
func (c *catalog) vouches(path string) bool {
	_, ok, err := c.entry(path)
	return ok && err == nil
}

// entry returns the manifest entry of the file at path and whether it is
// a valid table: a file of the codec format, undamaged, whose header fits
// the material its name says. A damaged file is no error: it is left out
// of the manifest, and rebuilt when a run needs it.
func (c *catalog) entry(path string) (codec.ManifestEntry, bool, error) {
	name := filepath.Base(path)
	size, crc, err := codec.FileCRC(path)
	if err != nil {
		return codec.ManifestEntry{}, false, err
	}
	if e, ok := c.valid[name]; ok && e.Size == size && e.CRC32C == crc {
		return e, true, nil
	}
	r, err := codec.Open(path)
	if errors.Is(err, codec.ErrCorrupt) || errors.Is(err, codec.ErrVersion) {
		return codec.ManifestEntry{}, false, nil
	} else if err != nil {
		return codec.ManifestEntry{}, false, err
	}
	defer r.Close()
	h := r.Header()
	if !fits(path, h) {
		return codec.ManifestEntry{}, false, nil
	}
	if l := c.listed[name]; l.Size != size || l.CRC32C != crc { // a listed file's blocks were checked when it was listed
		if err := r.Check(); errors.Is(err, codec.ErrCorrupt) {
			return codec.ManifestEntry{}, false, nil
		} else if err != nil {
			return codec.ManifestEntry{}, false, err
		}
	}
	e := codec.ManifestEntry{File: name, Material: h.Material, Positions: h.Positions, Size: size, CRC32C: crc}
	c.valid[name] = e
	return e, true, nil
}

// fits reports whether h is the header of a table this version reads,
// for the material that the file name at path says.
func fits(path string, h codec.Header) bool {
	m, err := index.ParseMaterial(h.Material)
	if err != nil || m.Pieces() > MaxPieces || table.FileName(m) != filepath.Base(path) {
		return false
	}
	_, err = table.CheckHeader(path, h, m)
	return err == nil
}
