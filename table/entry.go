package table

import (
	"encoding/binary"

	"github.com/dtb-draughts/dtb/rules"
)

// NoDistance marks an entry without a class distance in the distance
// column: drawn under every budget.
const NoDistance = rules.MaxDistance + 1

// noDTW marks a draw in the dtw column.
const noDTW = 0xffff

// NoMTC marks a draw in the mtc column.
const NoMTC = 255

// Column is one of the byte columns a table file may have. Each holds one
// fixed-width field of every entry; a table lacks the columns it does not
// need (see Layout).
type Column int

// The columns, in the order a file lists them.
const (
	// ValueColumn, 1 byte: Theory | Rules<<2, each by its code (Loss 0,
	// Draw 1, Win 2: valueCode), and FreshOnly in a marked value file
	// (rulesFreshMarks).
	ValueColumn Column = iota
	// DistanceColumn, 1 byte: the distance, NoDistance for none; the
	// tables of materials with a clock only (class A, B and Rule2).
	DistanceColumn
	// DTWColumn, 2 bytes little-endian: the dtw, noDTW for a draw;
	// optional.
	DTWColumn
	// MTCColumn, 1 byte: the mtc, NoMTC for a draw, less the distance
	// byte (modulo 256) where the table has the distance column;
	// optional.
	MTCColumn
	NumColumns
)

var columnNames = [NumColumns]string{"value", "distance", "dtw", "mtc"}
var columnWidths = [NumColumns]int{1, 1, 2, 1}

// Name returns the column's name in a file header.
func (c Column) Name() string { return columnNames[c] }

// ColumnNamed returns the column of a name in a file header, NumColumns
// for a name that is no column's.
func ColumnNamed(name string) Column {
	for c, n := range columnNames {
		if n == name {
			return Column(c)
		}
	}
	return NumColumns
}

// Width returns the bytes the column takes per entry.
func (c Column) Width() int { return columnWidths[c] }

// Columns holds the bytes of consecutive entries, column by column; a
// column the table lacks is nil. Entry i of a Columns is at byte
// i*Width() of each column.
type Columns [NumColumns][]byte

// MakeColumns returns zeroed columns of l for n entries.
func (l Layout) MakeColumns(n int64) Columns {
	var c Columns
	for col := range NumColumns {
		if l.Has(col) {
			c[col] = make([]byte, n*int64(col.Width()))
		}
	}
	return c
}

// Len returns the number of entries of c.
func (c *Columns) Len() int64 { return int64(len(c[ValueColumn])) }

// Has reports whether the column col is present.
func (c *Columns) Has(col Column) bool { return c[col] != nil }

// Entry decodes entry i; ok is false for a value byte no entry has. A
// theoretical draw has no distance, dtw or mtc, whatever their bytes say
// (see rulesCompact).
func (c *Columns) Entry(i int64) (e rules.Entry, ok bool) {
	ok = c.EntryAt(&e, c[ValueColumn][i], i)
	return e, ok
}

// EntryAt is Entry with v as the value byte of entry i. It is for
// columns kept without their value column, as the prober keeps them. It
// sets *e in place, so that the prober fills its result without a copy.
func (c *Columns) EntryAt(e *rules.Entry, v byte, i int64) (ok bool) {
	dist, dtw, mtc := -1, -1, -1
	if decided(v) {
		if d := c[DistanceColumn]; d != nil {
			dist = int(d[i])
		}
		if d := c[DTWColumn]; d != nil {
			dtw = int(binary.LittleEndian.Uint16(d[2*i:]))
		}
		if d := c[MTCColumn]; d != nil {
			mtc = int(d[i])
		}
	}
	return DecodeEntry(e, v, dist, dtw, mtc)
}

// decided reports whether the value byte v is of a theoretical win or
// loss, whose other columns mean something.
func decided(v byte) bool {
	theory, _ := valuesOf(v)
	return theory != rules.Draw
}

// DecodeEntry sets *e to the entry of value byte v. Its other columns
// hold the bytes dist, dtw and mtc as stored, or -1 where the table lacks
// the column. It reports ok as EntryAt. The other columns matter only
// where e.Theory is not a draw. With -1 for each, DecodeEntry decodes the
// values alone.
func DecodeEntry(e *rules.Entry, v byte, dist, dtw, mtc int) (ok bool) {
	e.Distance, e.DTW, e.MTC = -1, -1, -1
	e.Theory, e.Rules = valuesOf(v)
	if e.Theory == rules.Draw {
		return e.Rules <= rules.Win
	}
	if dist >= 0 && dist != NoDistance {
		e.Distance = dist
	}
	if dtw >= 0 && dtw != noDTW {
		e.DTW = dtw
	}
	if mtc >= 0 {
		if n := byte(mtc) + byte(max(dist, 0)); n != NoMTC { // relative to the distance byte (mtcBase)
			e.MTC = int(n)
		}
	}
	return e.Theory <= rules.Win && e.Rules <= rules.Win
}

// Values decodes the values of entry i, theoretical and under the rules:
// those of Entry(i), without its distances. A value byte no entry has
// gives a value beyond Win.
func (c *Columns) Values(i int64) (theory, ru rules.Value) { return valuesOf(c[ValueColumn][i]) }

// valuesOf decodes the value byte v (see Values).
func valuesOf(v byte) (theory, ru rules.Value) {
	v &^= FreshOnly
	return codeValue(v & 3), codeValue(v >> 2)
}

// ValueByte returns the value byte of an entry with the values theory
// and ru, without FreshOnly: that of ValueColumn, which DecodeEntry reads.
func ValueByte(theory, ru rules.Value) byte { return valueCode(theory) | valueCode(ru)<<2 }

// valueCode returns the code of the value v in a value byte: Loss 0,
// Draw 1, Win 2. The files number the values from 0, rules.Value from
// -1.
func valueCode(v rules.Value) byte { return byte(v - rules.Loss) }

// codeValue returns the value of the code c (see valueCode). The code 3,
// which no entry has, gives a value beyond Win.
func codeValue(c byte) rules.Value { return rules.Value(c) + rules.Loss }

// FreshOnly is a bit of the value byte in a marked value file
// (rulesFreshMarks). It marks a position of a Rule2 material won or lost
// under the rules only with a fresh count. Its rule-2 distance is
// rules.Rule2Plies: a count one ply on draws it. With it, a search
// through the table answers its colour flip from the value file alone
// (package probe).
const FreshOnly = 1 << 4

// markFreshOnly marks entry i FreshOnly if it is a win or loss under the
// rules at rule-2 distance rules.Rule2Plies (its distance column read).
func (c *Columns) markFreshOnly(i int64) {
	if _, ru := c.Values(i); ru != rules.Draw && c[DistanceColumn][i] == rules.Rule2Plies {
		c[ValueColumn][i] |= FreshOnly
	}
}

// Set encodes e as entry i, in the columns present. A distance beyond
// what the column holds is stored as its largest value.
func (c *Columns) Set(i int64, e rules.Entry) {
	c.setValues(i, e.Theory, e.Rules)
	c.setDistance(i, e.Distance)
	c.setDTW(i, e.DTW)
	c.setMTC(i, e.MTC)
}

// SetOutcomes encodes as entry i the entry of a position of class cl
// with outcomes theory and rules, without an mtc. It does what
// Set(i, rules.NewEntry(cl, theory, ru)) does, without the Entry.
func (c *Columns) SetOutcomes(i int64, cl rules.Class, theory, ru rules.Outcome) {
	v, d := cl.Rules(ru)
	c.setValues(i, theory.Value, v)
	c.setDistance(i, d)
	c.setDTW(i, theory.DTW())
	c.setMTC(i, -1)
}

func (c *Columns) setValues(i int64, theory, ru rules.Value) {
	c[ValueColumn][i] = ValueByte(theory, ru)
}

func (c *Columns) setDistance(i int64, d int) {
	if col := c[DistanceColumn]; col != nil {
		col[i] = NoDistance
		if d >= 0 {
			col[i] = byte(min(d, NoDistance-1))
		}
	}
}

func (c *Columns) setDTW(i int64, d int) {
	if col := c[DTWColumn]; col != nil {
		n := uint16(noDTW)
		if d >= 0 {
			n = uint16(min(d, noDTW-1))
		}
		binary.LittleEndian.PutUint16(col[2*i:], n)
	}
}

// setMTC encodes the mtc after the distance, which it is stored
// relative to.
func (c *Columns) setMTC(i int64, d int) {
	if col := c[MTCColumn]; col != nil {
		n := byte(NoMTC)
		if d >= 0 {
			n = byte(min(d, NoMTC-1))
		}
		col[i] = n - c.mtcBase(i)
	}
}

// mtcBase returns what the mtc byte of entry i is stored relative to:
// the distance byte where the table has one, else 0. In a rule-2
// material the rule-2 distance is the mtc unless a conversion leads into
// a cursed win. The difference is then mostly 0.
func (c *Columns) mtcBase(i int64) byte {
	if d := c[DistanceColumn]; d != nil {
		return d[i]
	}
	return 0
}
