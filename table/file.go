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
	Rules25Move                       // rules value: the 25-move king rule (rule 2), distances in Rule2 materials
	RulesCompact                      // a draw's distance, dtw and mtc bytes hold no value; the mtc byte is less the distance byte
)

// RulesFlags are the rules of the tables this version writes.
const RulesFlags = RulesRepetition | RulesClassLimits | Rules25Move | RulesCapturesDontCare | RulesCompact

// RulesFlagsResolved are the rules of a resolved table (NewResolvedWriter):
// RulesFlags, with the real entry of every capture position.
const RulesFlagsResolved = RulesFlags &^ RulesCapturesDontCare

// RulesFlagsPlain are the rules of the tables written with rule 2
// before RulesCompact, which this version still reads: the same entries,
// with real bytes in a draw's distance, dtw and mtc and the mtc byte
// itself. File converts their mtc bytes as it reads them.
const RulesFlagsPlain = RulesFlags &^ RulesCompact

// RulesFlagsNo25Move are the rules of the tables written before rule 2
// was tracked, which this version still reads: their rules values ignore
// rule 2, and their Rule2 materials have no clock and no distance column.
const RulesFlagsNo25Move = RulesRepetition | RulesClassLimits | RulesNo25Move | RulesCapturesDontCare

// knownRules reports whether this version reads tables with the rules
// flags r: RulesFlags, RulesFlagsResolved, RulesFlagsPlain or
// RulesFlagsNo25Move.
func knownRules(r uint32) bool {
	return r == RulesFlags || r == RulesFlagsResolved || r == RulesFlagsPlain || r == RulesFlagsNo25Move
}

// TracksRule2 reports whether the rules values of tables with the known
// rules flags r track the 25-move king rule (rule 2).
func TracksRule2(r uint32) bool { return r&Rules25Move != 0 }

// Extra lists the optional columns of a table.
type Extra struct {
	DTW bool // the dtw column
	MTC bool // the mtc column
}

// IndexVersion is the version of the index scheme of package index.
const IndexVersion = 1

// StatsKey is the meta key of the stats (JSON) in a table file header.
const StatsKey = "stats"

// HeaderStats returns the stats in the header h of a table file.
func HeaderStats(h codec.Header) (Stats, error) {
	var s Stats
	err := json.Unmarshal([]byte(h.Meta[StatsKey]), &s)
	return s, err
}

// FileName returns the file name of the table of material m.
func FileName(m index.Material) string { return m.String() + ".dtb" }

// Layout gives, for each Column, its number in a file's header, -1 where
// the file lacks it.
type Layout [NumColumns]int

// NewLayout returns the layout of the tables of m that this version
// writes: the value column, the distance column where m has a clock (see
// ClassOf), the optional columns of x, in Column order.
func NewLayout(m index.Material, x Extra) Layout { return layout(ClassOf(m), x) }

// layout returns the layout of a table of class c with the optional
// columns of x.
func layout(c Class, x Extra) Layout {
	has := [NumColumns]bool{ValueColumn: true, DistanceColumn: c != NoClass, DTWColumn: x.DTW, MTCColumn: x.MTC}
	var l Layout
	n := 0
	for col := range NumColumns {
		l[col] = -1
		if has[col] {
			l[col], n = n, n+1
		}
	}
	return l
}

// Has reports whether the layout has the column col.
func (l Layout) Has(col Column) bool { return l[col] >= 0 }

// Extra returns the optional columns of l.
func (l Layout) Extra() Extra { return Extra{DTW: l.Has(DTWColumn), MTC: l.Has(MTCColumn)} }

// Width returns the bytes an entry takes in the columns of l.
func (l Layout) Width() int {
	n := 0
	for col := range NumColumns {
		if l.Has(col) {
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
	Info
}

// Info is what a table file's header says beyond the codec's.
type Info struct {
	Layout Layout
	// Class is the material's class under the file's rules: as ClassOf,
	// but NoClass for a Rule2 material where rule 2 is not tracked.
	Class Class
	// Rule2 reports whether the rules value tracks rule 2 (RulesFlags,
	// RulesFlagsPlain); files of the first version do not
	// (RulesFlagsNo25Move).
	Rule2 bool
	// Plain reports whether the file stores its mtc bytes plainly, not
	// less the distance byte (files without RulesCompact); File's reads
	// convert them.
	Plain bool
	// Resolved reports whether capture positions hold their real entries
	// (RulesFlagsResolved), not don't-cares.
	Resolved bool
	Stats    Stats
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
	if f.Info, err = CheckHeader(path, r.Header(), m); err != nil {
		r.Close()
		return nil, err
	}
	return f, nil
}

// CheckHeader checks h, the header of the file at path, against material
// m as Open does, and returns what it says.
func CheckHeader(path string, h codec.Header, m index.Material) (Info, error) {
	var t Info
	bad := func(kind error, format string, args ...any) (Info, error) {
		return Info{}, &codec.FileError{Path: path, Kind: kind, Reason: "header: " + fmt.Sprintf(format, args...)}
	}
	switch n := index.New(m).Size(); {
	case h.Material != m.String():
		return bad(codec.ErrCorrupt, "material %q, want %s", h.Material, m)
	case h.IndexVersion != IndexVersion:
		return bad(codec.ErrVersion, "index version %d, this version reads %d", h.IndexVersion, IndexVersion)
	case !knownRules(h.Rules):
		return bad(codec.ErrVersion, "rules flags %#x, this version reads %#x, %#x, %#x and %#x", h.Rules, RulesFlags, RulesFlagsResolved, RulesFlagsPlain, RulesFlagsNo25Move)
	case h.Positions != n:
		return bad(codec.ErrCorrupt, "%d positions, want %d", h.Positions, n)
	}
	t.Rule2, t.Class, t.Plain = TracksRule2(h.Rules), ClassOf(m), h.Rules&RulesCompact == 0
	t.Resolved = h.Rules&RulesCapturesDontCare == 0
	if !t.Rule2 && t.Class == Rule2 {
		t.Class = NoClass
	}
	var l Layout
	for i := range l {
		l[i] = -1
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
	if want := layout(t.Class, l.Extra()); l != want {
		return bad(codec.ErrCorrupt, "columns %v, want %v", columnList(l), columnList(want))
	}
	stats, err := HeaderStats(h)
	if err != nil {
		return bad(codec.ErrCorrupt, "no valid %q: %v", StatsKey, err)
	}
	t.Stats = stats
	t.Layout = l
	return t, nil
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
	return f.read(func(n int) ([]byte, error) { return f.ReadColumn(n) })
}

// ReadBlock decodes the entries of block b (BlockSize entries from entry
// b*BlockSize on, fewer in the last block).
func (f *File) ReadBlock(b int) (Columns, error) {
	return f.read(func(n int) ([]byte, error) { return f.Reader.ReadBlock(n, b, nil) })
}

// read returns the columns of the file that read(n) decodes for each
// column n of the file, the mtc bytes of a plain file converted.
func (f *File) read(read func(n int) ([]byte, error)) (Columns, error) {
	var c Columns
	for col, n := range f.Layout {
		if n >= 0 {
			b, err := read(n)
			if err != nil {
				return Columns{}, err
			}
			c[col] = b
		}
	}
	if f.Plain && c.Has(MTCColumn) {
		for i := range c[MTCColumn] {
			c[MTCColumn][i] -= c.mtcBase(int64(i))
		}
	}
	return c, nil
}

// Write writes the table of m to path atomically (see codec.Write) with a
// Writer: its entries cols, every position's, and returns its stats. The
// entries of the positions marked in captures (bit i%64 of word i/64 for
// position i) are don't-cares (see Writer). cols is not modified.
func Write(path string, m index.Material, cols Columns, captures []uint64) (Stats, error) {
	w, err := NewWriter(path, m, Extra{DTW: cols.Has(DTWColumn), MTC: cols.Has(MTCColumn)})
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
