// Package claim settles claims of endgame theory from the tables: how many
// positions of some materials, with some side to move, meeting conditions
// on their squares and values, are won, drawn or lost, which are the
// longest wins, and which positions are examples or counterexamples.
//
// Use it like this:
//
//	t, err := probe.Open("tables", probe.Options{})
//	if err != nil { ... }
//	ms, err := claim.ParseMaterials("KKKvK")
//	if err != nil { ... }
//	c, err := claim.ParseConstraint("bk=diag:5-46")
//	if err != nil { ... }
//	q := claim.Query{Materials: ms, Sides: []draughts.Color{draughts.White, draughts.Black}, Where: []claim.Constraint{c}}
//	res, err := q.Run(ctx, t, 0)
//	for _, r := range res.Rows {
//		fmt.Println(r.Material, r.Side, r.Rules.Win, r.Theory.Win)
//	}
//
// A Query is a Go value; Args writes it as the arguments of dtb claim,
// the command that parses them back. Values are given for White, the
// side named first in a material (in KKKvK, the three kings), whoever is
// to move. WriteReport answers a fixed list of well-known claims
// (ReportQueries) as a Markdown report, the repository's docs/claims.md.
package claim

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// A Query selects positions to settle a claim of endgame theory: every
// position of some materials with some side to move that meets square
// constraints and value conditions. Values are given for White, the side
// named first in a material (in KKKvK, the three kings), whoever is to
// move.
//
//	// KKKvK, White to move, not a White win under the rules, the first
//	// 3 of them: q.Args() is KKKvK --side white --value rules!=win --examples 3.
//	q := claim.Query{Materials: ms, Sides: []draughts.Color{draughts.White},
//		Values: []claim.ValueCond{{Rules: true, Not: true, Value: rules.Win}}, Examples: 3}
//	res, err := q.Run(ctx, tables, 0) // res.Rows: counts by value, longest wins
type Query struct {
	Materials []index.Material
	Sides     []draughts.Color // the sides to move
	Where     []Constraint     // all must hold
	Values    []ValueCond      // all must hold
	// Rule2Cursed keeps only the positions whose theoretical win or loss
	// rule 2 (the 25-move king rule) itself turns into a draw: in a table
	// that tracks rule 2, of a Rule2 material, their rule-2 distance
	// exceeds rules.Rule2Plies (rules.Entry.Rule2Cursed).
	Rule2Cursed bool
	Examples    int // positions to list
}

// String describes q in words: its materials, the side to move, its
// square constraints and value conditions, separated by semicolons.
func (q Query) String() string {
	var names []string
	for _, m := range q.Materials {
		names = append(names, m.String())
	}
	parts := []string{strings.Join(names, ", "), "either side to move"}
	if len(q.Sides) == 1 {
		parts[1] = q.Sides[0].String() + " to move"
	}
	for _, c := range q.Where {
		parts = append(parts, c.String())
	}
	for _, c := range q.Values {
		parts = append(parts, c.String())
	}
	if q.Rule2Cursed {
		parts = append(parts, "cursed by rule 2")
	}
	return strings.Join(parts, "; ")
}

// Result answers a Query.
type Result struct {
	Rows     []Row     // one per material and side to move, in query order
	Examples []Example // the first positions that match, in query order then index order
}

// Row counts the positions of one material and side to move that match.
type Row struct {
	Material index.Material
	Side     draughts.Color // to move
	// Class is the table's class under its rules: rules.Rule2 only where
	// the table tracks rule 2 (see table.Info).
	Class     rules.Class
	Distance  bool // the table has distances (class A and B, rule 2)
	DTW       bool // the table has the dtw column
	MTC       bool // the table has the mtc column
	Positions int64
	Rules     table.Counts // by rules value for White (rules.Win: White wins)
	Theory    table.Counts // by theoretical value for White
	// Longest[c] holds the longest wins of side c: by class or rule-2
	// distance, by dtw and by mtc; nil if there is none.
	Longest [2]struct{ Distance, DTW, MTC *Example }
}

// DescribeLongest describes the longest wins of side c in r in words:
// by class or rule-2 distance, by dtw and by mtc, as far as the table has
// them, each with its position; "" if c wins no position.
func (r Row) DescribeLongest(c draughts.Color) string {
	wins := r.Theory.Win
	if c == draughts.Black {
		wins = r.Theory.Loss
	}
	if wins == 0 {
		return ""
	}
	l := r.Longest[c]
	var parts []string
	if r.Distance && l.Distance != nil {
		name := "class distance"
		if r.Class == rules.Rule2 {
			name = "rule-2 distance"
		}
		parts = append(parts, fmt.Sprintf("%s %d plies (%s)", name, l.Distance.Entry.Distance, l.Distance.Position.FEN()))
	}
	if r.DTW && l.DTW != nil {
		parts = append(parts, fmt.Sprintf("dtw %d plies (%s)", l.DTW.Entry.DTW, l.DTW.Position.FEN()))
	}
	if r.MTC && l.MTC != nil {
		parts = append(parts, fmt.Sprintf("mtc %d plies (%s)", l.MTC.Entry.MTC, l.MTC.Position.FEN()))
	}
	if len(parts) == 0 {
		return "no distance in the tables (no class or rule-2 distance in this material, no dtw or mtc column)"
	}
	return strings.Join(parts, ", ")
}

// Example is a position with its entry for White: its values for White
// whoever is to move, its class or rule-2 distance, dtw and mtc (-1 for
// none).
type Example struct {
	Position draughts.Position
	Entry    rules.Entry
	key      int64
}

// ClassMaterials returns the materials of class A or B with White the
// strong side (and KvK): with both sides to move, every position of the
// class up to colour symmetry, once.
func ClassMaterials(c rules.Class) []index.Material {
	var ms []index.Material
	for _, m := range index.Materials(4) {
		if rules.ClassOf(m) == c && m.WhiteMen+m.WhiteKings >= m.BlackMen+m.BlackKings {
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
			info, err := t.Info(tm)
			if err != nil {
				return nil, err
			}
			l := info.Layout
			row := Row{Material: m, Side: side, Class: info.Class,
				Distance: l.Has(table.DistanceColumn), DTW: l.Has(table.DTWColumn), MTC: l.Has(table.MTCColumn)}
			x := index.New(tm)
			if q.Rule2Cursed && (row.Class != rules.Rule2 || info.Stats.Rule2CursedWins+info.Stats.Rule2BlessedLosses == 0) {
				// Nothing to select: rule 2 decides no position here.
				res.Rows = append(res.Rows, row)
				base += x.Size()
				continue
			}
			var mu sync.Mutex
			err = parallel.Range(ctx, x.Size(), threads, func(lo, hi int64) error {
				var r Row
				var ex []Example
				pl := x.Unrank(lo)
				for i := lo; i < hi; i++ {
					if i > lo {
						pl, _ = x.Next(pl)
					}
					e, ok, err := q.match(t, rules.Position(pl), side, row.Class)
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
// its table, of class c) when side is to move, with its values for
// White, and whether it meets the query.
func (q *Query) match(t *probe.Tables, tp draughts.Position, side draughts.Color, c rules.Class) (Example, bool, error) {
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
	// Every capture restarts the count of rule 2, so rule 2 never draws a
	// position where the side to move must capture: skip their search.
	if q.Rule2Cursed && tp.HasCapture() {
		return e, false, nil
	}
	r, err := t.Probe(tp, probe.Clocks{}, 0)
	if err != nil {
		return e, false, err
	}
	e.Entry = r.Entry
	if q.Rule2Cursed && !e.Entry.Rule2Cursed(c) {
		return e, false, nil
	}
	if side == draughts.Black {
		e.Entry.Rules, e.Entry.Theory = e.Entry.Rules.Neg(), e.Entry.Theory.Neg()
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
	r.Rules.Count(e.Entry.Rules)
	r.Theory.Count(e.Entry.Theory)
	winner := draughts.White
	if e.Entry.Theory == rules.Loss {
		winner = draughts.Black
	}
	if e.Entry.Theory != rules.Draw {
		keep(&r.Longest[winner].Distance, &e, byDistance)
		keep(&r.Longest[winner].DTW, &e, byDTW)
		keep(&r.Longest[winner].MTC, &e, byMTC)
	}
}

// merge adds the counts and longest wins of o to r.
func (r *Row) merge(o *Row) {
	r.Positions += o.Positions
	r.Rules.Merge(o.Rules)
	r.Theory.Merge(o.Theory)
	for c, l := range o.Longest {
		keep(&r.Longest[c].Distance, l.Distance, byDistance)
		keep(&r.Longest[c].DTW, l.DTW, byDTW)
		keep(&r.Longest[c].MTC, l.MTC, byMTC)
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

func byDistance(e *Example) int { return e.Entry.Distance }

func byDTW(e *Example) int { return e.Entry.DTW }

func byMTC(e *Example) int { return e.Entry.MTC }

// firstExamples returns the first n examples in query order.
func firstExamples(ex []Example, n int) []Example {
	slices.SortFunc(ex, func(a, b Example) int { return cmp.Compare(a.key, b.key) })
	return ex[:min(len(ex), n)]
}
