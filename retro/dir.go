package retro

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// MaxPieces is the most pieces a table Generate builds may have: the store
// of solved tables counts at most 7 pieces of each kind.
const MaxPieces = 7

// Rates measured on the 5-piece tables and on KMvKKKM with its deps (1.43 M
// entries per CPU-second at 6 pieces), from which Estimate extrapolates.
const (
	positionsPerThreadSecond = 1.4e6
	bytesPerGroupPosition    = 15 // solver memory per position of a group
)

// Estimate is what a build will take, extrapolated from the rates measured
// on the 5-piece tables.
type Estimate struct {
	Tables    int
	Positions int64 // of the tables to build, each counted once (White to move)
	// Memory is the bytes of solver memory for the largest group (a
	// material and its flip), within the budget Options.Mem where its
	// smallest units fit in it.
	Memory int64
	// Least is the memory that the group Largest takes in its smallest
	// units, the most of any group: a smaller Options.Mem cannot be kept.
	Least   int64
	Largest index.Material
	Time    time.Duration // with Options.Threads threads (0: every CPU)
}

// EstimateOf returns what building the tables of o takes, counting those
// already on disk as if they had to be built, or the error Generate would
// return if they cannot be built.
func EstimateOf(o Options) (Estimate, error) {
	if err := checkPieces(o); err != nil {
		return Estimate{}, err
	}
	mats, err := plan(o)
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{Tables: len(mats)}
	for _, m := range mats {
		e.Positions += index.New(m).Size()
		all, least := groupMemory(m)
		e.Memory = max(e.Memory, memoryWithin(all, least, o.Mem))
		if least > e.Least {
			e.Least, e.Largest = least, m
		}
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	threads := float64(o.Threads)
	e.Time = time.Duration(float64(e.Positions) / positionsPerThreadSecond / threads * float64(time.Second))
	return e, nil
}

// groupMemory returns the solver memory of the group of m: all of it,
// solved as one unit, and the least it takes split into its smallest
// units, one men configuration and its flip with every placement of the
// kings: all of it for a group of kings only, which is one unit.
func groupMemory(m index.Material) (all, least int64) {
	x := index.New(m)
	n := x.Size()
	if m != m.Flip() {
		n += index.New(m.Flip()).Size()
	}
	return n * bytesPerGroupPosition, min(n, 2*x.KingPlacements()) * bytesPerGroupPosition
}

// memoryWithin returns the memory of a group that takes all as one unit
// and least in its smallest units, under the budget mem (0: none): the
// solver splits it into units within the budget as far as it can.
func memoryWithin(all, least, mem int64) int64 {
	if mem <= 0 {
		return all
	}
	return min(all, max(least, mem))
}

// checkPieces returns an error if o asks for tables of more than MaxPieces
// pieces.
func checkPieces(o Options) error {
	switch {
	case o.Only != nil && o.Only.Pieces() > MaxPieces:
		return fmt.Errorf("%s has %d pieces: tables of more than %d pieces cannot be built", *o.Only, o.Only.Pieces(), MaxPieces)
	case o.Only == nil && o.Pieces > MaxPieces:
		return fmt.Errorf("pieces %d: tables of more than %d pieces cannot be built", o.Pieces, MaxPieces)
	}
	return nil
}

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
