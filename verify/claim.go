package verify

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/parallel"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// A Query selects positions to settle a claim of endgame theory: every
// position of some materials with some side to move that meets square
// constraints and value conditions. Values are given for White, the side
// named first in a material (in KKKvK, the three kings), whoever is to
// move.
//
//	q := verify.Query{Materials: ms, Sides: []draughts.Color{draughts.White, draughts.Black}, Examples: 3}
//	c, _ := verify.ParseConstraint("bk=diag:5-46") // the black king on the long diagonal
//	q.Where = append(q.Where, c)
//	res, err := q.Run(ctx, tables, 0) // res.Rows: counts by value, longest wins
type Query struct {
	Materials []index.Material
	Sides     []draughts.Color // the sides to move
	Where     []Constraint     // all must hold
	Values    []ValueCond      // all must hold
	Examples  int              // positions to list
}

// Result answers a Query.
type Result struct {
	Rows     []Row     // one per material and side to move, in query order
	Examples []Example // the first positions that match, in query order then index order
}

// Row counts the positions of one material and side to move that match.
type Row struct {
	Material  index.Material
	Side      draughts.Color // to move
	Distance  bool           // the table has class distances (class A and B)
	DTW       bool           // the table has the dtw column
	Positions int64
	Rules     [3]int64 // by rules value for White (table.Win: White wins)
	Theory    [3]int64 // by theoretical value for White
	// Longest[c] holds the longest wins of side c: by class distance
	// and by dtw; nil if there is none.
	Longest [2]struct{ Distance, DTW *Example }
}

// Example is a position with its values for White.
type Example struct {
	Position draughts.Position
	Rules    table.Value
	Theory   table.Value
	Distance int // class distance, -1 if none
	DTW      int // -1 if none
	key      int64
}

// Constraint is a condition on the squares of some pieces, written
// PIECES OP SQUARES (see ParseConstraint).
type Constraint struct {
	text    string
	pieces  string // w, b, wk, wm, bk or bm
	op      string // =, != or ~
	squares uint64 // bitboard
}

func (c Constraint) String() string { return c.text }

// ParseConstraint parses a square constraint PIECES OP SQUARES:
//
//	PIECES   w, b (all White's or Black's pieces), wk, wm, bk, bm (kings, men)
//	OP       =  every such piece stands on SQUARES
//	         != none does
//	         ~  at least one does
//	SQUARES  a comma-separated list of squares (28), ranges (46-50) and
//	         diagonals (diag:5-46, the squares from 5 to 46)
//
// For example bk=diag:5-46 (the black king on the long diagonal) or
// wm!=1-10.
func ParseConstraint(s string) (Constraint, error) {
	c := Constraint{text: s}
	i := strings.IndexAny(s, "!=~")
	if i < 0 {
		return c, fmt.Errorf("constraint %q: want PIECES=SQUARES, PIECES!=SQUARES or PIECES~SQUARES", s)
	}
	c.pieces, c.op = s[:i], s[i:i+1]
	if strings.HasPrefix(s[i:], "!=") {
		c.op = "!="
	} else if c.op == "!" {
		return c, fmt.Errorf("constraint %q: '!' without '='", s)
	}
	if !slices.Contains([]string{"w", "b", "wk", "wm", "bk", "bm"}, c.pieces) {
		return c, fmt.Errorf("constraint %q: pieces %q, want w, b, wk, wm, bk or bm", s, c.pieces)
	}
	var err error
	if c.squares, err = parseSquares(s[i+len(c.op):]); err != nil {
		return c, fmt.Errorf("constraint %q: %v", s, err)
	}
	return c, nil
}

// holds reports whether p meets the constraint.
func (c Constraint) holds(p *draughts.Position) bool {
	set := p.White
	if c.pieces[0] == 'b' {
		set = p.Black
	}
	if len(c.pieces) == 2 && c.pieces[1] == 'k' {
		set &= p.Kings
	} else if len(c.pieces) == 2 {
		set &^= p.Kings
	}
	in := set & c.squares
	switch c.op {
	case "=":
		return in == set
	case "!=":
		return in == 0
	}
	return in != 0
}

// parseSquares parses a list of squares, ranges and diagonals into a
// bitboard.
func parseSquares(s string) (uint64, error) {
	var set uint64
	for _, item := range strings.Split(s, ",") {
		diag := strings.HasPrefix(item, "diag:")
		lo, hi, isRange := strings.Cut(strings.TrimPrefix(item, "diag:"), "-")
		if !isRange {
			if diag {
				return 0, fmt.Errorf("%q: want diag:FROM-TO", item)
			}
			hi = lo
		}
		a, err1 := square(lo)
		b, err2 := square(hi)
		if err := cmp.Or(err1, err2); err != nil {
			return 0, fmt.Errorf("%q: %v", item, err)
		}
		if !diag {
			if a > b {
				return 0, fmt.Errorf("%q: empty range", item)
			}
			for sq := a; sq <= b; sq++ {
				set |= draughts.Bit(sq)
			}
			continue
		}
		ra, ca := draughts.RowCol(a)
		rb, cb := draughts.RowCol(b)
		if abs(rb-ra) != abs(cb-ca) {
			return 0, fmt.Errorf("%q: %d and %d are not on one diagonal", item, a, b)
		}
		dr, dc := sign(rb-ra), sign(cb-ca)
		for r, c := ra, ca; ; r, c = r+dr, c+dc {
			set |= draughts.Bit(draughts.SquareAt(r, c))
			if r == rb {
				break
			}
		}
	}
	return set, nil
}

// square parses a square number.
func square(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 50 {
		return 0, fmt.Errorf("square %q: want 1 to 50", s)
	}
	return n, nil
}

func abs(x int) int { return max(x, -x) }

func sign(x int) int { return cmp.Compare(x, 0) }

// ValueCond is a condition on a value for White: rules=win, theory!=draw.
type ValueCond struct {
	Rules bool // the rules value; else the theoretical one
	Not   bool // != rather than =
	Value table.Value
}

// ParseValueCond parses a value condition (rules|theory)(=|!=)(win|draw|loss),
// the value being White's: rules!=win selects the positions White does
// not win under the rules.
func ParseValueCond(s string) (ValueCond, error) {
	var c ValueCond
	which, value, ok := strings.Cut(s, "=")
	which, c.Not = strings.CutSuffix(which, "!")
	c.Rules = which == "rules"
	i := slices.IndexFunc([]table.Value{table.Loss, table.Draw, table.Win}, func(v table.Value) bool { return v.String() == value })
	if !ok || !c.Rules && which != "theory" || i < 0 {
		return c, fmt.Errorf("value condition %q: want rules or theory, = or !=, then win, draw or loss", s)
	}
	c.Value = table.Value(i)
	return c, nil
}

func (c ValueCond) String() string {
	s := "theory"
	if c.Rules {
		s = "rules"
	}
	if c.Not {
		s += "!"
	}
	return s + "=" + c.Value.String()
}

func (c ValueCond) holds(e *Example) bool {
	v := e.Theory
	if c.Rules {
		v = e.Rules
	}
	return (v == c.Value) != c.Not
}

// ClassMaterials returns the materials of class A or B with White the
// strong side (and KvK): with both sides to move, every position of the
// class up to colour symmetry, once.
func ClassMaterials(c table.Class) []index.Material {
	var ms []index.Material
	for _, m := range index.Materials(4) {
		if table.ClassOf(m) == c && m.WhiteMen+m.WhiteKings >= m.BlackMen+m.BlackKings {
			ms = append(ms, m)
		}
	}
	return ms
}

// Run answers q from the tables t on up to threads goroutines (0 means
// one per CPU).
func (q *Query) Run(ctx context.Context, t *probe.Tables, threads int) (*Result, error) {
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	res := &Result{}
	var base int64 // key of the first position of the row
	for _, m := range q.Materials {
		for _, side := range q.Sides {
			tm := m // the table: m, or its colour flip with Black to move
			if side == draughts.Black {
				tm = m.Flip()
			}
			h, err := t.Header(tm)
			if err != nil {
				return nil, err
			}
			row := Row{Material: m, Side: side, Distance: table.ClassOf(m) != table.NoClass,
				DTW: slices.ContainsFunc(h.Columns, func(c codec.Column) bool { return c.Name == table.DTWColumn.Name() })}
			x := index.New(tm)
			var mu sync.Mutex
			err = parallel.Range(ctx, x.Size(), threads, func(lo, hi int64) error {
				var r Row
				var ex []Example
				pl := x.Unrank(lo)
				for i := lo; i < hi; i++ {
					if i > lo {
						pl, _ = x.Next(pl)
					}
					e, ok, err := q.match(t, table.Position(pl), side)
					if err != nil {
						return err
					}
					if ok {
						e.key = base + i
						r.add(e)
						if len(ex) < q.Examples {
							ex = append(ex, e)
						}
					}
				}
				mu.Lock()
				defer mu.Unlock()
				row.merge(&r)
				res.Examples = firstExamples(append(res.Examples, ex...), q.Examples)
				return nil
			})
			if err != nil {
				return nil, err
			}
			res.Rows = append(res.Rows, row)
			base += x.Size()
		}
	}
	return res, nil
}

// match returns the position whose table entry is tp (White to move in
// its table) when side is to move, with its values for White, and whether
// it meets the query.
func (q *Query) match(t *probe.Tables, tp draughts.Position, side draughts.Color) (Example, bool, error) {
	p := tp
	if side == draughts.Black {
		p = tp.Flip()
	}
	e := Example{Position: p}
	for _, c := range q.Where {
		if !c.holds(&p) {
			return e, false, nil
		}
	}
	r, err := t.Probe(tp)
	if err != nil {
		return e, false, err
	}
	e.Rules, e.Theory, e.Distance, e.DTW = r.Rules, r.Theory, r.Distance, r.DTW
	if side == draughts.Black {
		e.Rules, e.Theory = e.Rules.Neg(), e.Theory.Neg()
	}
	for _, c := range q.Values {
		if !c.holds(&e) {
			return e, false, nil
		}
	}
	return e, true, nil
}

// add counts a matching position.
func (r *Row) add(e Example) {
	r.Positions++
	r.Rules[e.Rules]++
	r.Theory[e.Theory]++
	winner := draughts.White
	if e.Theory == table.Loss {
		winner = draughts.Black
	}
	if e.Theory != table.Draw {
		keep(&r.Longest[winner].Distance, &e, byDistance)
		keep(&r.Longest[winner].DTW, &e, byDTW)
	}
}

// merge adds the counts and longest wins of o to r.
func (r *Row) merge(o *Row) {
	r.Positions += o.Positions
	for v := range r.Rules {
		r.Rules[v] += o.Rules[v]
		r.Theory[v] += o.Theory[v]
	}
	for c, l := range o.Longest {
		keep(&r.Longest[c].Distance, l.Distance, byDistance)
		keep(&r.Longest[c].DTW, l.DTW, byDTW)
	}
}

// keep makes *best a copy of e if e (if not nil) is longer by length, or
// as long and earlier. A negative length is none.
func keep(best **Example, e *Example, length func(*Example) int) {
	if e == nil {
		return
	}
	if n := length(e); n >= 0 && (*best == nil || n > length(*best) || n == length(*best) && e.key < (*best).key) {
		c := *e
		*best = &c
	}
}

func byDistance(e *Example) int { return e.Distance }

func byDTW(e *Example) int { return e.DTW }

// firstExamples returns the first n examples in query order.
func firstExamples(ex []Example, n int) []Example {
	slices.SortFunc(ex, func(a, b Example) int { return cmp.Compare(a.key, b.key) })
	return ex[:min(len(ex), n)]
}
