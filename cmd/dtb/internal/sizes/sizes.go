// Package sizes measures the bytes a directory of tables takes on disk,
// by piece count and by column, to compare encodings of the tables:
//
//	rows, err := sizes.Measure("tables")
//	if err != nil {
//		return err
//	}
//	for _, r := range rows { // 2 pieces, 3 pieces, ..., then the total
//		fmt.Println(r.Pieces, r.Positions, r.Bytes(), r.Bits(r.Bytes()))
//	}
//
// Measure reads only the headers and block tables of the files listed in
// the directory's manifest: the compressed length of every block of every
// column (codec.Reader.StoredLen) and the bytes before the first block,
// the header and the block table (codec.Reader.PrefixLen). Together they
// are every byte of the table files; the manifest itself is not counted.
package sizes

import (
	"fmt"
	"path/filepath"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// Row is the size of the tables of one piece count, or of all of them.
type Row struct {
	Pieces    int   // 0 in the total row
	Tables    int   // table files
	Positions int64 // stored positions: White to move, captures included
	// Columns holds the compressed bytes of the blocks of each column
	// (table.ValueColumn, DistanceColumn, DTWColumn), 0 where no table
	// has the column.
	Columns [table.NumColumns]int64
	// Prefix holds the bytes before the first block of each file: the
	// fixed prefix, the header (with its stats) and the block table.
	Prefix int64
	// Files holds the bytes of the files of each codec.Kind: whole tables
	// (format 2), value files and distance files (format 3).
	Files [codec.Distances + 1]int64
}

// Bytes returns the bytes of the row's files: its columns and prefixes.
func (r Row) Bytes() int64 {
	n := r.Prefix
	for _, c := range r.Columns {
		n += c
	}
	return n
}

// Bits returns n bytes in bits per position of the row (0 without
// positions). The bits of the columns and of the prefix add up to the
// bits of Bytes.
func (r Row) Bits(n int64) float64 {
	if r.Positions == 0 {
		return 0
	}
	return float64(n) * 8 / float64(r.Positions)
}

// add adds the counts of s to r.
func (r *Row) add(s Row) {
	r.Tables += s.Tables
	r.Positions += s.Positions
	for col, n := range s.Columns {
		r.Columns[col] += n
	}
	r.Prefix += s.Prefix
	for k, n := range s.Files {
		r.Files[k] += n
	}
}

// Measure returns the sizes of the tables that dir's manifest lists: a
// row per piece count, from the fewest pieces, then the total row.
func Measure(dir string) ([]Row, error) {
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	byPieces := map[int]*Row{}
	total := Row{}
	most := 0
	for _, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err != nil {
			return nil, &codec.FileError{Path: filepath.Join(dir, codec.ManifestName), Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("entry %q: %v", e.File, err), Err: err}
		}
		r, err := measureFile(filepath.Join(dir, e.File), m, e.Distances != nil)
		if err != nil {
			return nil, err
		}
		if byPieces[r.Pieces] == nil {
			byPieces[r.Pieces] = &Row{Pieces: r.Pieces}
		}
		byPieces[r.Pieces].add(r)
		total.add(r)
		most = max(most, r.Pieces)
	}
	var rows []Row
	for n := range most + 1 {
		if r := byPieces[n]; r != nil {
			rows = append(rows, *r)
		}
	}
	return append(rows, total), nil
}

// measureFile returns the row of the one table of m whose value file (or
// whole table) is at path, with its distance file if dist is set (a
// directory may hold value files alone, such as dtb slim writes).
func measureFile(path string, m index.Material, dist bool) (Row, error) {
	f, err := table.Open(path, m)
	if err != nil {
		return Row{}, err
	}
	defer f.Close()
	readers, err := f.Readers()
	if !dist {
		readers, err = readers[:1], nil // the value file's
	}
	if err != nil {
		return Row{}, err
	}
	r := Row{Pieces: m.Pieces(), Tables: 1, Positions: f.Header().Positions}
	for _, rd := range readers {
		h := rd.Header()
		r.Prefix += rd.PrefixLen()
		r.Files[h.Kind] += rd.PrefixLen()
		for n, c := range h.Columns {
			col := table.ColumnNamed(c.Name)
			for b := range rd.Blocks() {
				r.Columns[col] += int64(rd.StoredLen(n, b))
				r.Files[h.Kind] += int64(rd.StoredLen(n, b))
			}
		}
	}
	return r, nil
}
