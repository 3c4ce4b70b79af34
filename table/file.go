package table

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
)

// Rules flags, stored in each file header.
const (
	RulesRepetition       = 1 << iota // theoretical value: repetition is a draw
	RulesClassLimits                  // rules value: 16-move (class A) and 5-move (class B) limits
	RulesNo25Move                     // the 25-move king rule (rule 2) is not tracked
	RulesCapturesDontCare             // positions with a capture hold no real value on disk
)

// RulesFlags are the rules of the tables this version writes and reads.
const RulesFlags = RulesRepetition | RulesClassLimits | RulesNo25Move | RulesCapturesDontCare

// IndexVersion is the version of the index scheme of package index.
const IndexVersion = 1

// StatsKey is the meta key of the stats (JSON) in a table file header.
const StatsKey = "stats"

// FileName returns the file name of the table of material m.
func FileName(m index.Material) string { return m.String() + ".dtb" }

// Layout gives, for each Column, its number in a file's header, -1 where
// the file lacks it.
type Layout [NumColumns]int

// NewLayout returns the layout of the tables of m that this version
// writes: the value column, the distance column in class A and B, the dtw
// column if dtw is set, in Column order.
func NewLayout(m index.Material, dtw bool) Layout {
	l, n := Layout{-1, -1, -1}, 0
	for col := range NumColumns {
		if col == ValueColumn || col == DistanceColumn && ClassOf(m) != NoClass || col == DTWColumn && dtw {
			l[col], n = n, n+1
		}
	}
	return l
}

// Has reports whether the layout has the column col.
func (l Layout) Has(col Column) bool { return l[col] >= 0 }

// Width returns the bytes an entry takes in the columns of l, the dtw
// column counted only if dtw is set.
func (l Layout) Width(dtw bool) int {
	n := 0
	for col := range NumColumns {
		if l.Has(col) && (col != DTWColumn || dtw) {
			n += col.Width()
		}
	}
	return n
}

// HasColumn reports whether the file of header h has the column col.
func HasColumn(h codec.Header, col Column) bool {
	return slices.ContainsFunc(h.Columns, func(c codec.Column) bool { return c.Name == col.Name() })
}

// A File is a table file opened for reading, its header checked.
type File struct {
	*codec.Reader
	Material index.Material
	Layout   Layout
	Stats    Stats // from the header
}

// Open opens the table file of m at path and checks its header: material,
// index version, positions, rules flags and columns. A header that does
// not fit m yields an error wrapping codec.ErrCorrupt, one from an
// unknown index version or rules an error wrapping codec.ErrVersion.
func Open(path string, m index.Material) (*File, error) {
	r, err := codec.Open(path)
	if err != nil {
		return nil, err
	}
	f := &File{Reader: r, Material: m}
	if f.Layout, f.Stats, err = CheckHeader(path, r.Header(), m); err != nil {
		r.Close()
		return nil, err
	}
	return f, nil
}

// CheckHeader checks h, the header of the file at path, against material
// m as Open does, and returns the file's layout and stats.
func CheckHeader(path string, h codec.Header, m index.Material) (Layout, Stats, error) {
	l, s := Layout{-1, -1, -1}, Stats{}
	bad := func(kind error, format string, args ...any) (Layout, Stats, error) {
		return l, s, fmt.Errorf("%s: header: %s: %w", path, fmt.Sprintf(format, args...), kind)
	}
	switch n := index.New(m).Size(); {
	case h.Material != m.String():
		return bad(codec.ErrCorrupt, "material %q, want %s", h.Material, m)
	case h.IndexVersion != IndexVersion:
		return bad(codec.ErrVersion, "index version %d, this version reads %d", h.IndexVersion, IndexVersion)
	case h.Rules != RulesFlags:
		return bad(codec.ErrVersion, "rules flags %#x, this version reads %#x", h.Rules, RulesFlags)
	case h.Positions != n:
		return bad(codec.ErrCorrupt, "%d positions, want %d", h.Positions, n)
	}
	for i, c := range h.Columns {
		col := Column(slices.Index(columnNames[:], c.Name))
		if col < 0 || l.Has(col) {
			return bad(codec.ErrCorrupt, "unexpected column %q", c.Name)
		}
		if c.Width != col.Width() {
			return bad(codec.ErrCorrupt, "column %q is %d bytes wide, want %d", c.Name, c.Width, col.Width())
		}
		l[col] = i
	}
	if want := NewLayout(m, l.Has(DTWColumn)); l != want {
		return bad(codec.ErrCorrupt, "columns %v, want %v", columnList(l), columnList(want))
	}
	if err := json.Unmarshal([]byte(h.Meta[StatsKey]), &s); err != nil {
		return bad(codec.ErrCorrupt, "no valid %q: %v", StatsKey, err)
	}
	return l, s, nil
}

// columnList returns the names of the columns of l, in file order.
func columnList(l Layout) []string {
	names := make([]string, 0, NumColumns)
	for col := range NumColumns {
		if l.Has(col) {
			names = append(names, col.Name())
		}
	}
	return names
}

// ReadColumns decodes every entry of the table.
func (f *File) ReadColumns() (Columns, error) {
	var c Columns
	for col, n := range f.Layout {
		if n >= 0 {
			b, err := f.ReadColumn(n)
			if err != nil {
				return Columns{}, err
			}
			c[col] = b
		}
	}
	return c, nil
}

// ReadBlock decodes the entries of block b (BlockSize entries from entry
// b*BlockSize on, fewer in the last block).
func (f *File) ReadBlock(b int) (Columns, error) {
	var c Columns
	for col, n := range f.Layout {
		if n >= 0 {
			data, err := f.Reader.ReadBlock(n, b, nil)
			if err != nil {
				return Columns{}, err
			}
			c[col] = data
		}
	}
	return c, nil
}

// Write writes the table of m to path atomically (see codec.Write) with a
// Writer: its entries cols, every position's, and returns its stats. The
// entries of the positions marked in captures (bit i%64 of word i/64 for
// position i) are don't-cares (see Writer). cols is not modified.
func Write(path string, m index.Material, cols Columns, captures []uint64) (Stats, error) {
	w, err := NewWriter(path, m, cols.Has(DTWColumn))
	if err != nil {
		return Stats{}, err
	}
	if err := w.AddColumns(&cols, captures); err != nil {
		w.Abort()
		return Stats{}, err
	}
	if err := w.Close(); err != nil {
		return Stats{}, err
	}
	return w.Stats(), nil
}
