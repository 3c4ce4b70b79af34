package table

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/runs"
)

// Entry is what a table says of a position, from the side to move's point
// of view.
type Entry struct {
	Rules  Value // under the rules, clocks as they stand when the material arose
	Theory Value // when only repetition draws
	// Distance is the distance of a position whose material has a clock
	// (class A, class B or Rule2; see Class): the least budget in plies
	// under which it is won (or lost); -1 for a position drawn under every
	// budget or without a clock. Beyond NoDistance-1 it is that.
	Distance int
	// DTW is the theoretical number of plies until the loser has no move;
	// -1 for a draw or where the table has no dtw column.
	DTW int
	// MTC (moves to conversion) is the number of plies until the next man
	// move or capture in a theoretical win or loss, the winner converting
	// as soon as it can while keeping the win and the loser delaying it
	// (0 where the loser has no move); -1 for a draw or where the table
	// has no mtc column.
	MTC int
}

// NoDistance marks an entry without a class distance in the distance
// column: drawn under every budget.
const NoDistance = 255

// NoDTW marks a draw in the dtw column.
const NoDTW = 0xffff

// NoMTC marks a draw in the mtc column.
const NoMTC = 255

// NewEntry returns the entry of a position of class c from its outcomes:
// theoretical (its distance is the dtw) and under the rules (its distance
// is the distance of c's clock; without a clock it has none). A win or
// loss whose distance exceeds the budget of c is a draw under the rules,
// with the distance kept for clocks that start lower. The mtc is left
// out (-1).
func NewEntry(c Class, theory, rules Outcome) Entry {
	e := Entry{Theory: theory.Value, DTW: dtwOf(theory), MTC: -1}
	e.Rules, e.Distance = classRules(c, rules)
	return e
}

// Moves computes the entry of a position of class c from its moves, as
// the generator solves it and as the prober and the verifier recompute
// it: the winner chooses the shortest win, the loser the longest loss
// (see Minimax), under the rules as in theory. A quiet king move keeps
// the clock running (AddKingMove); a capture or man move converts
// (AddConversion). A capture position, whose every move leaves its table,
// is resolved so: the generator and the prober resolve the capture
// positions that a table file holds as don't-cares.
type Moves struct {
	class              Class
	theory, rules, mtc Minimax
}

// NewMoves returns the moves of a position of class c before any is
// added.
func NewMoves(c Class) Moves { return Moves{class: c} }

// Add adds a move whose successor has the outcomes theory, rules (seen
// through the clock the move carries: Entry.KingMoveOutcome,
// Entry.RulesOutcome) and mtc (Entry.MTCOutcome, Entry.ConversionOutcome).
func (m *Moves) Add(theory, rules, mtc Outcome) {
	m.theory.Add(theory)
	m.rules.Add(rules)
	m.mtc.Add(mtc)
}

// AddKingMove adds a quiet king move to a successor with entry e.
func (m *Moves) AddKingMove(e Entry) {
	m.Add(e.TheoryOutcome(), e.KingMoveOutcome(m.class), e.MTCOutcome())
}

// AddConversion adds a capture or man move to a successor of outcomes
// theory and rules, the latter seen from the class of the position (see
// Entry.RulesOutcome).
func (m *Moves) AddConversion(theory, rules Outcome) {
	m.Add(theory, rules, Outcome{Value: theory.Value})
}

// Won reports whether the moves so far win in theory and under the
// rules: no further move changes the values, only the distances.
func (m *Moves) Won() bool { return m.theory.win > 0 && m.rules.win > 0 }

// Values returns the values of the moves so far, in theory and under the
// rules: a loss before any move. Each further move can only raise them.
func (m *Moves) Values() (theory, rules Value) {
	return m.theory.Outcome().Value, m.rules.Outcome().Value
}

// Entry returns the entry of the position, its mtc from the moves (1 ply
// in a capture position won or lost: every move converts).
func (m *Moves) Entry() Entry {
	e := NewEntry(m.class, m.theory.Outcome(), m.rules.Outcome())
	if o := m.mtc.Outcome(); o.Value != Draw {
		e.MTC = o.Dist
	}
	return e
}

// dtwOf returns the dtw of a position of theoretical outcome theory: its
// distance, -1 for a draw.
func dtwOf(theory Outcome) int {
	if theory.Value == Draw {
		return -1
	}
	return theory.Dist
}

// classRules returns the value under the rules and the class distance
// (-1 for none) of a position of class c whose outcome under the rules
// is rules (see NewEntry).
func classRules(c Class, rules Outcome) (Value, int) {
	if c == NoClass || rules.Value == Draw {
		return rules.Value, -1
	}
	v := rules.Value
	if rules.Dist > c.Budget() {
		v = Draw
	}
	return v, min(rules.Dist, NoDistance-1)
}

// TheoryOutcome returns the theoretical outcome of e, its distance the
// dtw (0 when unknown).
func (e Entry) TheoryOutcome() Outcome { return Outcome{Value: e.Theory, Dist: max(e.DTW, 0)} }

// RulesOutcome returns the outcome under the rules of a successor with
// entry e and class to, seen from a position of class from after a
// capture or a man move. A clock that runs on (inside class A, inside
// class B) keeps the successor's distance; a clock that drops from A to B
// carries min(budget-1, 10), so only distances up to 10 count; otherwise
// (the count of rule 2 among them) the successor starts afresh and its
// rules value holds at distance 0.
func (e Entry) RulesOutcome(from, to Class) Outcome {
	if !from.Carries() || !to.Carries() {
		return Outcome{Value: e.Rules}
	}
	if e.Distance < 0 || from == ClassA && to == ClassB && e.Distance > ClassB.Budget() {
		return Outcome{Value: Draw}
	}
	return Outcome{Value: e.Theory, Dist: e.Distance}
}

// Rule2Cursed reports whether rule 2 itself turns e, the entry of a
// position of class c, from a theoretical win or loss into a draw: c is
// Rule2 and the rule-2 distance exceeds Rule2Plies, so that even a fresh
// count runs out first. (Under the rules such a win is a draw, such a loss
// a draw saved by the count.)
func (e Entry) Rule2Cursed(c Class) bool {
	return c == Rule2 && e.Theory != Draw && e.Distance > Rule2Plies
}

// KingMoveOutcome returns the outcome under the rules of a successor with
// entry e after a quiet king move from a position of class c, which stays
// in c: its clock runs on, so the successor's distance counts.
func (e Entry) KingMoveOutcome(c Class) Outcome {
	switch {
	case c == NoClass:
		return Outcome{Value: e.Rules}
	case e.Distance < 0:
		return Outcome{Value: Draw}
	}
	return Outcome{Value: e.Theory, Dist: e.Distance}
}

// ConversionOutcome returns the theoretical outcome of e as the successor
// of a capture or man move, counted for the mtc: its value at distance 0.
func (e Entry) ConversionOutcome() Outcome { return Outcome{Value: e.Theory} }

// MTCOutcome returns the theoretical outcome of e as the successor of a
// king move, counted for the mtc: its value at its mtc (0 when unknown).
func (e Entry) MTCOutcome() Outcome { return Outcome{Value: e.Theory, Dist: max(e.MTC, 0)} }

// RulesWith returns the value under the rules of a position of class c
// with entry e when its clock has budget plies left (for Rule2, 50 minus
// the plies on the count): with r >= d plies left a position at distance
// d has its theoretical value, with fewer it is drawn (docs/rules.md). A
// negative budget, or one of c's full budget or more, is a full clock:
// the value is e.Rules. Without a clock the value is e.Rules.
func (e Entry) RulesWith(c Class, budget int) Value {
	if c == NoClass || budget < 0 || budget >= c.Budget() {
		return e.Rules
	}
	if e.Distance >= 0 && e.Distance <= budget {
		return e.Theory
	}
	return Draw
}

// entryJSON is the JSON form of an Entry: missing distances are null.
type entryJSON struct {
	Rules    Value `json:"rules"`
	Theory   Value `json:"theory"`
	Distance *int  `json:"distance"`
	DTW      *int  `json:"dtw"`
	MTC      *int  `json:"mtc"`
}

// MarshalJSON writes e as
// {"rules":"win","theory":"win","distance":3,"dtw":null,"mtc":null}.
func (e Entry) MarshalJSON() ([]byte, error) {
	return json.Marshal(entryJSON{e.Rules, e.Theory, orNull(e.Distance), orNull(e.DTW), orNull(e.MTC)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var j entryJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Entry{Rules: j.Rules, Theory: j.Theory, Distance: orMissing(j.Distance), DTW: orMissing(j.DTW), MTC: orMissing(j.MTC)}
	return nil
}

func orNull(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

func orMissing(n *int) int {
	if n == nil {
		return -1
	}
	return *n
}

// MarshalText writes v as "win", "draw" or "loss".
func (v Value) MarshalText() ([]byte, error) {
	if v > Win {
		return nil, fmt.Errorf("invalid value %d", v)
	}
	return []byte(v.String()), nil
}

// UnmarshalText reads "win", "draw" or "loss".
func (v *Value) UnmarshalText(b []byte) error {
	for w := range Win + 1 {
		if string(b) == w.String() {
			*v = w
			return nil
		}
	}
	return fmt.Errorf("invalid value %q", b)
}

// Column is one of the byte columns a table file may have. Each holds one
// fixed-width field of every entry; a table lacks the columns it does not
// need (see Layout).
type Column int

// The columns, in the order a file lists them.
const (
	// ValueColumn, 1 byte: Theory | Rules<<2 (Loss 0, Draw 1, Win 2),
	// and FreshOnly in a marked value file (RulesFreshMarks).
	ValueColumn Column = iota
	// DistanceColumn, 1 byte: the distance, NoDistance for none; the
	// tables of materials with a clock only (class A, B and Rule2).
	DistanceColumn
	// DTWColumn, 2 bytes little-endian: the dtw, NoDTW for a draw;
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

// MakeColumns returns zeroed columns for n entries of a table of m, with
// the optional columns of x.
func MakeColumns(m index.Material, n int64, x Extra) Columns {
	return NewLayout(m, x).MakeColumns(n)
}

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
// (see RulesCompact).
func (c *Columns) Entry(i int64) (e Entry, ok bool) {
	ok = c.EntryAt(&e, c[ValueColumn][i], i)
	return e, ok
}

// EntryAt is Entry with v as the value byte of entry i, for columns kept
// without their value column (the prober keeps the values apart), setting
// *e in place: the prober fills its result without copying it.
func (c *Columns) EntryAt(e *Entry, v byte, i int64) (ok bool) {
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
	return entryOf(e, v, dist, dtw, mtc)
}

// decided reports whether the value byte v is of a theoretical win or
// loss, whose other columns mean something.
func decided(v byte) bool {
	theory, _ := valuesOf(v)
	return theory != Draw
}

// entryOf sets *e to the entry of value byte v whose other columns hold
// the bytes dist, dtw and mtc as stored, each -1 where the table lacks
// the column (or v is of a theoretical draw), and reports ok as EntryAt.
func entryOf(e *Entry, v byte, dist, dtw, mtc int) (ok bool) {
	e.Distance, e.DTW, e.MTC = -1, -1, -1
	e.Theory, e.Rules = valuesOf(v)
	if e.Theory == Draw {
		return e.Rules <= Win
	}
	if dist >= 0 && dist != NoDistance {
		e.Distance = dist
	}
	if dtw >= 0 && dtw != NoDTW {
		e.DTW = dtw
	}
	if mtc >= 0 {
		if n := byte(mtc) + byte(max(dist, 0)); n != NoMTC { // relative to the distance byte (mtcBase)
			e.MTC = int(n)
		}
	}
	return e.Theory <= Win && e.Rules <= Win
}

// Runs holds some columns of a block besides the value as the prober
// keeps them (File.ReadDistanceRuns): each 1-byte column as runs, read in
// place (package runs), the 2-byte dtw column as its bytes.
type Runs struct {
	cols [NumColumns]runs.Column // the 1-byte columns where has says
	has  [NumColumns]bool
	dtw  []byte
}

// Decoded returns r, the columns of a block of n positions, with each
// 1-byte column decoded, a byte a position (runs.Column.Decoded).
func (r *Runs) Decoded(n int) Runs {
	d := *r
	for col := range d.cols {
		if d.has[col] {
			d.cols[col] = r.cols[col].Decoded(n)
		}
	}
	return d
}

// Size returns the bytes r holds beyond its fixed part.
func (r *Runs) Size() int64 {
	n := int64(len(r.dtw))
	for _, c := range r.cols {
		n += c.Size()
	}
	return n
}

// EntryAt is Columns.EntryAt of a block whose value byte at i is v and
// whose other columns are those of parts, which the prober reads apart
// (File.ReadDistanceRuns): each column from a part that has it.
func EntryAt(e *Entry, v byte, i int, parts ...*Runs) (ok bool) {
	dist, dtw, mtc := -1, -1, -1
	if decided(v) {
		for _, r := range parts {
			if r.has[DistanceColumn] {
				dist = int(r.cols[DistanceColumn].At(i))
			}
			if r.has[DTWColumn] {
				dtw = int(binary.LittleEndian.Uint16(r.dtw[2*i:]))
			}
			if r.has[MTCColumn] {
				mtc = int(r.cols[MTCColumn].At(i))
			}
		}
	}
	return entryOf(e, v, dist, dtw, mtc)
}

// Values decodes the values of entry i, theoretical and under the rules:
// those of Entry(i), without its distances. A value byte no entry has
// gives a value beyond Win.
func (c *Columns) Values(i int64) (theory, rules Value) { return valuesOf(c[ValueColumn][i]) }

// valuesOf decodes the value byte v (see Values).
func valuesOf(v byte) (theory, rules Value) {
	v &^= FreshOnly
	return Value(v & 3), Value(v >> 2)
}

// FreshOnly is the bit of the value byte that marks, in a marked value
// file (RulesFreshMarks), a position of a Rule2 material won or lost under
// the rules only with a fresh count: its rule-2 distance is Rule2Plies, so
// that a count one ply on draws it. A search through the table answers
// its colour flip from the value file alone with it (package probe).
const FreshOnly = 1 << 4

// FreshOnly reports whether entry i is marked FreshOnly.
func (c *Columns) FreshOnly(i int64) bool { return c[ValueColumn][i]&FreshOnly != 0 }

// MarkFreshOnly marks entry i FreshOnly if it is a win or loss under the
// rules at rule-2 distance Rule2Plies (its distance column read).
func (c *Columns) MarkFreshOnly(i int64) {
	if _, rules := c.Values(i); rules != Draw && c[DistanceColumn][i] == Rule2Plies {
		c[ValueColumn][i] |= FreshOnly
	}
}

// Set encodes e as entry i, in the columns present. A distance beyond
// what the column holds is stored as its largest value.
func (c *Columns) Set(i int64, e Entry) {
	c.setValues(i, e.Theory, e.Rules)
	c.setDistance(i, e.Distance)
	c.setDTW(i, e.DTW)
	c.setMTC(i, e.MTC)
}

// SetOutcomes encodes as entry i the entry of a position of class cl
// with outcomes theory and rules, without an mtc: what
// Set(i, NewEntry(cl, theory, rules)) does, without the Entry between.
func (c *Columns) SetOutcomes(i int64, cl Class, theory, rules Outcome) {
	v, d := classRules(cl, rules)
	c.setValues(i, theory.Value, v)
	c.setDistance(i, d)
	c.setDTW(i, dtwOf(theory))
	c.setMTC(i, -1)
}

func (c *Columns) setValues(i int64, theory, rules Value) {
	c[ValueColumn][i] = byte(theory) | byte(rules)<<2
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
		n := uint16(NoDTW)
		if d >= 0 {
			n = uint16(min(d, NoDTW-1))
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
// the distance byte where the table has one (in a rule-2 material the
// rule-2 distance is the mtc wherever no conversion leads into a cursed
// win, so the difference is mostly 0), else 0.
func (c *Columns) mtcBase(i int64) byte {
	if d := c[DistanceColumn]; d != nil {
		return d[i]
	}
	return 0
}
