package reader

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// A cut bounds the search of a position under ValuesOnly, where only its
// values matter to its caller. It holds a theoretical and a rules value,
// for the side to move. They are the caller's own best so far, seen from
// the other side. Once the moves searched reach both, the other moves
// cannot change what the caller computes. So the search stops. The entry
// it returns then holds values no higher than the position's. Its
// distances mean nothing. This is the cut of alpha-beta search on the
// caller's best. Probe never returns an entry found under a cut.
type cut struct{ theory, rules rules.Value }

// exact is the cut of a search that must find the position's entry.
var exact = cut{rules.Win + 1, rules.Win + 1}

// reached reports whether moves whose values are theory and rules reach
// the cut.
func (c cut) reached(theory, ru rules.Value) bool {
	return theory >= c.theory && ru >= c.rules
}

// cutBelow returns the cut of a successor of a position whose moves so
// far are ms. The successor's values matter only if low enough to raise
// those of ms.
func cutBelow(ms *rules.Moves) cut {
	theory, ru := ms.Values()
	return cut{theory.Neg(), ru.Neg()}
}

// probeCut sets *r to the result of a probe of p under the cut k. Where
// it fails, *r means nothing (Probe returns unknown). It fills *r where its caller keeps it,
// sparing a copy of each field. Passing p by value keeps a successor made
// in a search's loop on the stack.
func (t *Tables) probeCut(r *Result, p draughts.Position, c Clocks, fl Flags, k cut) error {
	if err := Check(p); err != nil {
		return err
	}
	if p.Pieces(p.Side) == 0 {
		if err := t.Beyond(rules.MaterialOf(&p)); err != nil {
			return err
		}
		*r = Result{Entry: rules.Entry{Rules: rules.Loss, Theory: rules.Loss}, Value: rules.Loss}
		return nil
	}
	cachedOnly := fl&CacheOnly != 0
	f, err := t.file(rules.MaterialOf(&p), cachedOnly)
	if err != nil {
		return err
	}
	info := f.file() // the header that says what f holds
	if info.ValuesAlone && fl&WithDistances == 0 {
		fl |= ValuesOnly
	}
	e := &r.Entry
	fresh := false // e is marked FreshOnly, and read without distances
	exact := true  // e's distance is known (see exactDistance)
	switch gap := f.gap(&p); gap {
	case table.NoGap, table.ShortGap:
		last := values
		switch {
		case fl&ValuesOnly == 0:
			last = extras
		case !c.fresh() && !c.marked(f) || info.Class.Carries():
			last = distances
		}
		dist := last != values
		fresh, err = t.stored(e, f, f.x.Rank(rules.Placement(&p)), cachedOnly, last)
		if err == nil && dist && gap == table.ShortGap && e.Theory != rules.Draw {
			exact, err = t.exactDistance(&p, e, c, fl)
		}
	default:
		if fl&StoredOnly != 0 {
			return ErrNotStored
		}
		*e, err = t.searched(&p, f, c, fl, k)
	}
	if err != nil {
		return err
	}
	r.Value, r.Class, r.ValuesAlone = e.Rules, info.Class, info.ValuesAlone
	switch {
	case c.marked(f) && e.Distance < 0 && e.Rules != rules.Draw:
		// Read without distances. A count one ply on draws what only a
		// fresh one wins or loses.
		if fresh {
			r.Value = rules.Draw
		}
	case !exact: // the count leaves more plies than the distance can be
		r.Value = e.Theory
	case !c.fresh(): // else c.Value(r.Class, e) is e.Rules
		r.Value = c.Value(r.Class, *e)
	}
	return nil
}

// captures resolves a capture position of f's material as the generator
// does (rules.Moves). It probes each successor in turn, with the flags
// fl. Under the rules, each successor's outcome is seen through the clock
// that carries over the capture (rules.Entry.RulesOutcome). The search
// stops where the cut k says (see cut), and so does each successor's
// search. It cuts only with ValuesOnly, under a cut other than exact. It
// never cuts in class A or B, whose rules values need distances.
func (t *Tables) captures(p *draughts.Position, f *file, fl Flags, k cut) (rules.Entry, error) {
	info := f.file()
	cs := rules.NewMoves(info.Class)
	cutting := k != exact && fl&ValuesOnly != 0 && !info.Class.Carries()
	dtw := info.Layout.Has(table.DTWColumn)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		next := exact
		if cutting {
			next = cutBelow(&cs)
		}
		var r Result
		if err := t.probeCut(&r, p.Play(m), Clocks{}, fl, next); err != nil {
			return rules.Entry{}, err
		}
		s := r.Entry
		cs.AddConversion(s.TheoryOutcome(), s.RulesOutcome(info.Class, r.Class))
		dtw = dtw && (s.Theory == rules.Draw || s.DTW >= 0)
		if cutting && k.reached(cs.Values()) {
			break
		}
	}
	e := cs.Entry()
	if !dtw {
		e.DTW = -1
	}
	if !info.Layout.Has(table.MTCColumn) {
		e.MTC = -1
	}
	return e, nil
}

// searched answers a position that no file stores, as its generator
// solved it (rules.Moves). A capture position is answered from its
// captures (captures). Any other is answered from its moves. It is either
// a position of a table searched through its colour flip's table (Open),
// or a forced threat (rules.ForcedThreat). The colour flip's table holds
// the position's successors (Black to move), except after a crowning. A
// forced threat's successors must capture.
//
// Under the rules, a quiet king move carries the rule-2 count one ply on.
// With fresh clocks and ValuesOnly, the marks of the successor's value
// file give its value at that count (table.FreshOnly). Otherwise its
// distances give it; a successor that must capture finds its own. With
// fresh clocks and ValuesOnly, the Entry lacks the distances, as a stored
// one read with ValuesOnly. The search then stops at the first move that
// wins in theory and under the rules, or where the cut k says. Each
// successor is then searched under the cut of the moves before it.
func (t *Tables) searched(p *draughts.Position, f *file, c Clocks, fl Flags, k cut) (rules.Entry, error) {
	info := f.file()
	if p.HasCapture() {
		return t.captures(p, f, fl, k)
	}
	values := fl&ValuesOnly != 0 && c.fresh()
	if !values && f.from != nil {
		// Under a running count, a king move's successor needs its
		// distance, even where the directory holds its values alone:
		// the probe then fails, saying so. A forced threat's successors
		// must capture, and find theirs.
		fl = fl&^ValuesOnly | WithDistances
	}
	ms := rules.NewMoves(info.Class)
	dtw, mtc := info.Layout.Has(table.DTWColumn), info.Layout.Has(table.MTCColumn)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		king := p.Kings&draughts.Bit(m.FromSquare()) != 0
		next := Clocks{}
		if king && values {
			next = Clocks{Rule2: 1}
		}
		sk := exact
		if values {
			sk = cutBelow(&ms)
		}
		var r Result
		if err := t.probeCut(&r, p.Play(m), next, fl, sk); err != nil {
			return rules.Entry{}, err
		}
		s := r.Entry
		switch {
		case !king:
			ms.AddConversion(s.TheoryOutcome(), s.RulesOutcome(info.Class, r.Class))
		case values:
			ms.Add(s.TheoryOutcome(), rules.Outcome{Value: r.Value}, s.MTCOutcome())
		default:
			ms.AddKingMove(s)
		}
		dtw = dtw && (s.Theory == rules.Draw || s.DTW >= 0)
		mtc = mtc && (s.Theory == rules.Draw || s.MTC >= 0)
		if values && (ms.Won() || k.reached(ms.Values())) {
			break // the values are known, or matter no more; their distances are not read
		}
	}
	e := ms.Entry()
	if !dtw || values {
		e.DTW = -1
	}
	if !mtc || values {
		e.MTC = -1
	}
	if values && info.Class == rules.Rule2 {
		e.Distance = -1
	}
	return e, nil
}

// exactDistance sets the distance of e, the entry of p read from f, to
// the exact one. The distance file of f leaves out the short rule-2
// distances (table.SlimFlags.ShortDistances). The exact distance is the
// one a search finds if it is at most table.ShortDistance plies
// (shortDistance). Else it is the byte read. With ValuesOnly, the running
// count may leave at least as many plies as both the byte read and
// table.ShortDistance. Then neither the search nor the distance is
// needed: the position has its theoretical value. The distance of e is
// then left out (-1), and exact is false. Otherwise a probe with
// StoredOnly fails with ErrNotStored.
func (t *Tables) exactDistance(p *draughts.Position, e *rules.Entry, c Clocks, fl Flags) (exact bool, err error) {
	stored := e.Distance
	if stored < 0 {
		stored = table.NoDistance
	}
	if left := c.Left(rules.Rule2); fl&ValuesOnly != 0 && left >= max(stored, table.ShortDistance) {
		e.Distance = -1
		return false, nil
	}
	if fl&StoredOnly != 0 {
		return true, ErrNotStored // the byte read may be a don't-care
	}
	d, err := t.shortDistance(p, e.Theory, table.ShortDistance, fl)
	if err == nil && d >= 0 {
		e.Distance = d
	}
	return true, err
}

// shortDistance returns the rule-2 distance of p if it is at most k
// plies. It returns -1 if the distance is longer or there is none. The
// position p is of a Rule2 material, and theory is its theoretical value,
// a win or a loss. The distance is the minimax of rules.Moves, searched k
// plies deep with the successors' values under the rules. A capture or
// man move counts 1 ply if its successor is won for the side that made
// it. That is its stored rules value, since the count starts afresh. A
// quiet king move counts 1 ply more than its successor's distance. The
// winner's search stops at its first 1-ply win, and looks no deeper than
// its best so far. The loser's stops at the first move that escapes the
// bound.
func (t *Tables) shortDistance(p *draughts.Position, theory rules.Value, k int, fl Flags) (int, error) {
	var buf [draughts.MaxMoves]draughts.Move
	moves := p.Moves(buf[:0])
	switch {
	case len(moves) == 0:
		return 0, nil // lost
	case k == 0:
		return -1, nil
	}
	fl = fl&CacheOnly | ValuesOnly
	capture := p.HasCapture()
	quiet := func(m draughts.Move) bool { return !capture && p.Kings&draughts.Bit(m.FromSquare()) != 0 }
	// The winner tries its conversions first, each a win in 1 ply or
	// none. The loser tries its quiet moves first, which most often
	// escape the bound.
	order := [2]bool{true, false} // conversions, then quiet moves
	if theory == rules.Loss {
		order = [2]bool{false, true}
	}
	best := -1
	for _, conversions := range order {
		for _, m := range moves {
			if quiet(m) == conversions {
				continue
			}
			d := -1 // the move's distance, -1 for none within the bound
			if conversions {
				r, err := t.Probe(p.Play(m), Clocks{}, fl)
				if err != nil {
					return -1, err
				}
				if r.Entry.Rules == theory.Neg() {
					d = 1
				}
			} else {
				limit := k - 1
				if theory == rules.Win && best >= 0 {
					limit = min(limit, best-2) // to beat best
				}
				if limit < 0 {
					break
				}
				q := p.Play(m)
				dq, err := t.shortDistance(&q, theory.Neg(), limit, fl)
				if err != nil {
					return -1, err
				}
				if dq >= 0 {
					d = 1 + dq
				}
			}
			switch {
			case theory == rules.Loss && d < 0:
				return -1, nil // an escape
			case theory == rules.Loss:
				best = max(best, d)
			case d == 1:
				return 1, nil
			case d >= 0 && (best < 0 || d < best):
				best = d
			}
		}
	}
	return best, nil
}
