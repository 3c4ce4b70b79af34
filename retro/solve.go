package retro

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// exits gives solve the outcomes of the moves that leave a unit.
// Captures and crownings lead into tables solved before. The other man
// moves lead into the finished units of the level above.
type exits interface {
	// outcomes returns the outcomes of the position q that a capture or
	// a crowning leads to. The position has Black to move and lies in a
	// table solved before. The outcomes are for its side to move: the
	// theoretical one and the one under the rules.
	outcomes(q draughts.Position) [2]rules.Outcome
	// manMoves appends to buf the quiet moves of the men of block j of
	// the unit. It ignores kings: a position of the block makes those
	// whose square its kings leave free.
	manMoves(j int64, buf []manMove) ([]manMove, error)
}

// A manMove is a quiet move of a man of a block's positions. Its square
// to, a bitboard bit, must be free of kings. A move that crowns leaves
// the group. Any other leads to the level above, to the positions of the
// same men after the move. These lie in one block of a finished unit, in
// cols, ranked by x. The placement men holds their men, as x places
// them. Their kings are those of the position the move is made from,
// turned and recoloured.
type manMove struct {
	move  draughts.Move
	to    uint64
	crown bool
	x     *index.Index
	men   index.Placement
	cols  table.Columns
}

// at returns the index in m.cols of the position that m leads to from p.
// The move m must not crown. The position p lies in m's block.
func (m *manMove) at(p *draughts.Position) int64 {
	pl := m.men // Black to move after the move: its table turns and recolours the kings
	pl.WhiteKings = draughts.MirrorSet(draughts.SquareSet(p.Black & p.Kings))
	pl.BlackKings = draughts.MirrorSet(draughts.SquareSet(p.White & p.Kings))
	return m.x.RankKings(pl)
}

// result is the solution of a unit under one rating of the external
// successors. The words of its analysis give every local id its value
// for the side to move and its distance in plies. The distance is 0 for
// draws, and for every id where dist is unset: no one reads those. A
// result that another analysis follows is spilled to the work folder, by
// position (see groupSolver.spill). It is read back a batch at a time as
// the unit is written (resultFile).
type result struct {
	words words // by local id; nil once spilled
	dist  bool
	file  *resultFile
}

// word returns the word of local id, position i of the batch at work.
func (r *result) word(id, i int64) word {
	if r.file != nil {
		return r.file.word(i)
	}
	return r.words.get(id)
}

// outcome returns the outcome of w, a word of r. It has w's value, and
// w's distance where r has distances (else 0).
func (r *result) outcome(w word) rules.Outcome {
	o := rules.Outcome{Value: w.value()}
	if r.dist && o.Value != rules.Draw {
		o.Dist = int(w.dist())
	}
	return o
}

// analysis is the state of one retrograde analysis of a unit.
type analysis struct {
	words words
	// moves counts each position's quiet moves not yet known to lose, in
	// a wide analysis. It is nil in a packed one, whose words hold the
	// counts (see word).
	moves counts
	// now and next mark the lines (lineSize local ids) that hold a
	// pending position. A pending position is undecided but will be
	// decided at some distance. Either a win is known, or every move
	// loses. Its word is winning or losing. A pass goes through the lines
	// marked when it starts (now). It marks next those that still hold a
	// pending position, or one pended by the pass.
	now, next []uint64
	horizon   atomic.Uint32 // greatest finite distance seen so far
}

// lineSize is the local ids of a line of pending positions. The marks
// thus take a 64th of a bit a position.
const lineSize = 64

// newLines returns a bit set of the lines of n local ids.
func newLines(n int64) []uint64 { return make([]uint64, (n+lineSize*64-1)/(lineSize*64)) }

// pend marks the line of position id pending. Any goroutine may call it.
// A line is often pended more than once. So the bit is tested first, by a
// plain load. Only the first pend then pays for a locked instruction.
func (a *analysis) pend(id int64) {
	line := id / lineSize
	w, bit := &a.next[line/64], uint64(1)<<(line%64)
	if atomic.LoadUint64(w)&bit == 0 {
		atomic.OrUint64(w, bit)
	}
}

// raise raises the horizon to d if d is greater, from any goroutine.
func (a *analysis) raise(d uint32) {
	for h := a.horizon.Load(); d > h && !a.horizon.CompareAndSwap(h, d); h = a.horizon.Load() {
	}
}

// The analyses of a unit differ in the outcome that an external
// successor counts with. An external successor is reached by a capture,
// a crowning or a man move. In the theory analysis it counts with its
// theoretical outcome. Without dtw that outcome is at distance 0: only
// the values matter. In the rules analysis it counts with its outcome
// under the rules, seen from the unit's class. In the mtc analysis it
// counts with its theoretical value at distance 0. The distance found is
// then the mtc: the plies to the next capture or man move.
const (
	theoryAnalysis = iota
	rulesAnalysis
	mtcAnalysis
	numAnalyses
)

// exitOutcome returns the outcome that an external successor counts with
// in analysis k. Its outcomes o are theoretical and under the rules, as
// exits.outcomes gives them. The flag dtw tells whether theoretical
// distances are wanted.
func exitOutcome(o [2]rules.Outcome, k int, dtw bool) rules.Outcome {
	if k == mtcAnalysis || k == theoryAnalysis && !dtw {
		return rules.Outcome{Value: o[0].Value}
	}
	return o[k]
}

// solve computes the value and distance of every position of the unit in
// each analysis. The analyses are theory, rules, and mtc if extra.MTC is
// set. The outcomes of the moves that leave the unit come from x. Each
// analysis is a min-max retrograde analysis. The winner goes for the
// shortest win and the loser for the longest loss. Positions that reach
// neither are draws (repetition). The results are indexed by analysis.
//
// The analyses run one after the other, each from a first pass of its
// own. So the unit holds the state of one analysis at a time. A result
// that another analysis follows goes to spill, which writes it to the
// work folder. With dtw, the mtc analysis follows the theory analysis.
// It starts from what the theory analysis' first pass found of its
// external successors (solver.ahead). So they are looked up once.
// Analyses whose external successors count alike share one result.
// Without extra.DTW the theory analysis counts them as the mtc analysis
// does. The rules analysis may share either (see solver.shared). The
// theory analysis' first pass finds which.
func solve(ctx context.Context, u *unit, x exits, class rules.Class, extra table.Extra, threads int, spill func(*result) (*result, error)) (results [numAnalyses]*result, err error) {
	s := &solver{u: u, x: x, class: class, extra: extra}
	order := []int{theoryAnalysis}
	if extra.MTC && extra.DTW { // without dtw the theory analysis gives the mtc
		order = append(order, mtcAnalysis)
		s.ahead = newExitValues(u.size())
	}
	u.passes.Store(2 * int64(len(order)+1)) // the rules analysis too, until known
	shared := -1
	for i := 0; i < len(order); i++ {
		k := order[i]
		words, err := s.analyse(ctx, k, threads)
		if err != nil {
			return results, err
		}
		if k == theoryAnalysis {
			if shared = s.shared(); shared < 0 {
				order = append(order, rulesAnalysis)
			} else {
				u.passes.Store(2 * int64(len(order)))
			}
		}
		r := &result{words: words, dist: s.wantDist(shared)[k]}
		if i < len(order)-1 {
			if r, err = spill(r); err != nil {
				return results, err
			}
		}
		results[k] = r
	}
	if shared >= 0 {
		results[rulesAnalysis] = results[shared]
	}
	if extra.MTC && !extra.DTW {
		results[mtcAnalysis] = results[theoryAnalysis]
	}
	return results, nil
}

// A solver holds the analysis at work while solve computes a unit's
// analyses.
type solver struct {
	u     *unit
	x     exits
	class rules.Class
	extra table.Extra
	k     int       // the analysis at work
	a     *analysis // its state
	// ahead, if set, holds for each position the outcome of its moves
	// that leave the unit, in the mtc analysis. The first pass of the
	// theory analysis finds it along the way (see exitValues).
	ahead exitValues
	// differ is set once an external successor's value under the rules
	// differs from its theoretical one.
	differ atomic.Bool
}

// exitValues holds, for each position, an outcome of the moves that leave
// the unit. It counts them as a packed analysis does, at distance 0. The
// outcome is a win or loss in one ply, a draw, or a loss in none where
// there is no such move. Each outcome takes 2 bits, 32 to a uint64. So a
// chunk of a walk owns whole words.
type exitValues []uint64

func newExitValues(n int64) exitValues { return make(exitValues, (n+31)/32) }

// exitOutcomes are the outcomes of exitValues, by their 2 bits.
var exitOutcomes = [4]rules.Outcome{{Value: rules.Loss}, {Value: rules.Loss, Dist: 1}, {Value: rules.Draw}, {Value: rules.Win, Dist: 1}}

func (e exitValues) set(id int64, o rules.Outcome) {
	var v uint64 // a loss in none
	switch {
	case o.Value == rules.Win:
		v = 3
	case o.Value == rules.Draw:
		v = 2
	case o.Dist > 0:
		v = 1
	}
	e[id/32] |= v << (2 * (id % 32))
}

func (e exitValues) get(id int64) rules.Outcome { return exitOutcomes[e[id/32]>>(2*(id%32))&3] }

// analyse runs analysis k and returns its words. A first pass starts
// every position from its moves. Then the passes of propagate decide
// them.
func (s *solver) analyse(ctx context.Context, k, threads int) (words, error) {
	s.k, s.a = k, &analysis{words: newWords(s.u.size()), now: newLines(s.u.size()), next: newLines(s.u.size())}
	if !s.packed(k) {
		s.a.moves = newCounts(s.u.size())
	}
	defer func() { s.a = nil }() // its counts and pending lines are no longer needed
	first := s.firstPass
	if k == mtcAnalysis && s.ahead != nil {
		first = s.aheadPass
	}
	if err := s.u.walk(ctx, threads, first); err != nil {
		return nil, err
	}
	if k == mtcAnalysis {
		s.ahead = nil
	}
	if err := s.a.propagate(ctx, s.u, threads); err != nil {
		return nil, err
	}
	return s.a.words, nil
}

// packed reports whether analysis k counts every move that leaves the
// unit at distance 0. Its words then hold the counts (see word). A loss's
// distance is that of the pass that counts its last quiet move off. Two
// analyses count those moves at their distances, and are wide. One is
// the theory analysis with dtw. The other is the rules analysis of a
// class whose clock carries over captures (class A and B).
func (s *solver) packed(k int) bool {
	return !(k == theoryAnalysis && s.extra.DTW || k == rulesAnalysis && s.class.Carries())
}

// shared returns the analysis whose result the rules analysis shares, or
// -1 if none. Sharing needs two things. First, the class's clock does not
// carry over a capture or man move (see rules.Entry.RulesOutcome).
// Second, every external successor looked up has the same value under the
// rules as in theory. A position's are looked up until its outcomes are
// final. Then the rules analysis counts them as the mtc analysis does,
// and as the theory analysis does without dtw. Without dtw it shares the
// theory result. It does so too for a material of no class: the rules
// distances mean nothing there. Else it shares the mtc result, if any.
func (s *solver) shared() int {
	switch {
	case s.differ.Load() || s.class.Carries():
		return -1
	case !s.extra.DTW || s.class == rules.NoClass:
		return theoryAnalysis
	case s.extra.MTC:
		return mtcAnalysis
	}
	return -1
}

// wantDist returns, by analysis, whether its result needs distances. The
// rules analysis shares the result of analysis shared (-1 if none). The
// distances are those an entry reads (see groupWork.fill). The theory
// analysis gives the dtw or the mtc. Without dtw the mtc analysis shares
// its result. The rules analysis, or the one it shares, gives the class
// or rule-2 distance.
func (s *solver) wantDist(shared int) [numAnalyses]bool {
	return [numAnalyses]bool{
		theoryAnalysis: s.extra.DTW || s.extra.MTC || shared == theoryAnalysis && s.class != rules.NoClass,
		rulesAnalysis:  s.class != rules.NoClass,
		mtcAnalysis:    true,
	}
}

// firstPass returns a visitor of the first pass. That pass initialises
// the state of every position from its moves. Each goroutine of the walk
// has its own visitor. Chunks are multiples of 64 lines, so each word of
// the analysis' pending lines has one writer.
func (s *solver) firstPass() visitor {
	f := &firstPass{s: s, block: -1}
	return f.visit
}

// A firstPass is the state of one goroutine of the first pass.
type firstPass struct {
	s       *solver
	men     []manMove // of the block of the last quiet position
	at      []int64   // by man move: the index of its position in its cols
	block   int64
	minimax rules.Minimax // of the moves of the position visited that leave the unit
	ahead   rules.Minimax // the same in the mtc analysis, where the solver has ahead
}

// aheadPass returns a visitor of the first pass of the mtc analysis, for
// a solver with ahead set. The outcomes of the moves that leave the unit
// come from ahead: they are not looked up again.
func (s *solver) aheadPass() visitor {
	return func(id int64, p draughts.Position, buf []draughts.Move) error {
		kingMoves, capture := 0, p.HasCapture()
		if !capture {
			kingMoves = p.KingMoves()
		}
		return s.a.start(id, s.ahead.get(id), kingMoves, capture)
	}
}

// visit initialises the state of position id. Every move leaves the
// unit but the quiet king moves, which are only counted.
func (f *firstPass) visit(id int64, p draughts.Position, buf []draughts.Move) error {
	f.minimax, f.ahead = rules.Minimax{}, rules.Minimax{}
	var kingMoves int
	caps := p.Captures(buf)
	if len(caps) > 0 {
		for _, m := range caps {
			if f.count(f.s.x.outcomes(p.Play(m))) {
				break
			}
		}
	} else {
		if err := f.countManMoves(id, &p); err != nil {
			return err
		}
		kingMoves = p.KingMoves()
	}
	if kingMoves > maxMoves {
		return fmt.Errorf("position %s has %d quiet moves, more than %d", p.FEN(), kingMoves, maxMoves)
	}
	if err := f.s.a.start(id, f.minimax.Outcome(), kingMoves, len(caps) > 0); err != nil {
		return fmt.Errorf("position %s: %w", p.FEN(), err)
	}
	if f.s.ahead != nil {
		f.s.ahead.set(id, f.ahead.Outcome())
	}
	return nil
}

// countManMoves counts the man moves of position id, p, until the
// outcomes are final. The position has no capture.
func (f *firstPass) countManMoves(id int64, p *draughts.Position) error {
	if j := id / f.s.u.k; j != f.block {
		men, err := f.s.x.manMoves(j, f.men[:0])
		if err != nil {
			return err
		}
		f.block, f.men = j, men
		f.at = slices.Grow(f.at[:0], len(f.men))[:len(f.men)]
	}
	// The man moves' positions are all located before any is read. Their
	// reads, likely cache misses, then follow each other closely and
	// overlap.
	for i := range f.men {
		if m := &f.men[i]; !m.crown && p.Kings&m.to == 0 {
			f.at[i] = m.at(p)
		}
	}
	for i := range f.men {
		var o [2]rules.Outcome
		switch m := &f.men[i]; {
		case p.Kings&m.to != 0: // a king stands there
			continue
		case m.crown:
			o = f.s.x.outcomes(p.Play(m.move))
		default:
			o = outcomesAt(&m.cols, f.at[i], f.s.class, f.s.class)
		}
		if f.count(o) {
			return nil
		}
	}
	return nil
}

// count counts a move to a position of outcomes o. It reports whether the
// outcomes are final: each is a win in one ply. No other move can change
// such an outcome, so the moves left need no lookup. Skipping them may
// leave differ unset where a skipped move's values differ. The analyses
// then start alike and agree anyway, as sharing assumes.
func (f *firstPass) count(o [2]rules.Outcome) (final bool) {
	if o[0].Value != o[1].Value && !f.s.differ.Load() {
		f.s.differ.Store(true) // once: a store on every move would bounce the line between threads
	}
	won := rules.Outcome{Value: rules.Win, Dist: 1}
	f.minimax.Add(exitOutcome(o, f.s.k, f.s.extra.DTW))
	if f.s.ahead == nil {
		return f.minimax.Outcome() == won
	}
	f.ahead.Add(exitOutcome(o, mtcAnalysis, f.s.extra.DTW))
	return f.minimax.Outcome() == won && f.ahead.Outcome() == won
}

// start sets the word of position id. The outcome of its moves that leave
// the unit is o (rules.Minimax). Its quiet moves that stay number
// kingMoves. The flag capture tells whether it must capture. It pends
// the position if it will be decided at some distance: a win is known,
// or every move loses. In a packed analysis, a loss in o further than one
// ply is an error.
func (a *analysis) start(id int64, o rules.Outcome, kingMoves int, capture bool) error {
	packed := a.moves == nil
	w := newWord(open, noLoss)
	if packed {
		w = open | cannotLose
	}
	switch d := uint32(min(o.Dist, maxDist)); {
	case o.Value == rules.Win:
		w = newWord(winning, d)
	case o.Value == rules.Loss && kingMoves == 0:
		w = newWord(losing, d)
	case o.Value == rules.Loss && packed && d > 1:
		return fmt.Errorf("a move that leaves the unit loses at %d plies, where the analysis counts them at 0", d-1)
	case o.Value == rules.Loss && packed:
		w = open | word(kingMoves)
	case o.Value == rules.Loss:
		w = newWord(open, d)
	}
	if k := w.kind(); k == winning || k == losing {
		a.raise(w.dist())
		line := id / lineSize
		a.next[line/64] |= 1 << (line % 64)
	}
	if capture {
		w |= captureBit
	}
	a.words.set(id, w)
	if !packed {
		a.moves.set(id, uint8(kingMoves))
	}
	return nil
}
