package retro

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// solved is one solved table held in memory with the real values of every
// position, capture positions included.
type solved struct {
	x     *index.Index
	class table.Class
	cols  table.Columns // the dtw column with Options.DTW only
	// captures marks the positions where the side to move must capture
	// (bit i%64 of word i/64).
	captures []uint64
	summary  *table.Stats // stats, once computed
}

// capture reports whether the side to move must capture in position i.
func (s *solved) capture(i int64) bool { return s.captures[i/64]&(1<<(i%64)) != 0 }

// fen returns the FEN of position i.
func (s *solved) fen(i int64) string {
	p := table.Position(s.x.Unrank(i))
	return p.FEN()
}

// store holds the solved tables by material. It is filled between solves
// and only read during one.
type store struct{ tables [8 * 8 * 8 * 8]*solved }

// key returns the slot of m in a store; every count is at most 7.
func key(m index.Material) int {
	return ((m.WhiteMen*8+m.WhiteKings)*8+m.BlackMen)*8 + m.BlackKings
}

func (s *store) get(m index.Material) *solved    { return s.tables[key(m)] }
func (s *store) put(m index.Material, t *solved) { s.tables[key(m)] = t }

// entry returns the table and index of position q.
func (s *store) entry(q *draughts.Position) (*solved, int64) {
	t := s.get(table.MaterialOf(q))
	return t, t.x.Rank(table.Placement(q))
}

// lost reports whether the side to move in q has no pieces: the game is
// over and no table holds q.
func lost(q *draughts.Position) bool { return q.Pieces(q.Side) == 0 }

// theory returns the theoretical outcome of q.
func (s *store) theory(q draughts.Position) table.Outcome {
	if lost(&q) {
		return table.Outcome{Value: table.Loss}
	}
	t, i := s.entry(&q)
	e, _ := t.cols.Entry(i)
	return e.TheoryOutcome()
}

// rules returns the outcome of q under the rules, seen from a position of
// class from.
func (s *store) rules(from table.Class) externalFunc {
	return func(q draughts.Position) table.Outcome {
		if lost(&q) {
			return table.Outcome{Value: table.Loss}
		}
		t, i := s.entry(&q)
		e, _ := t.cols.Entry(i)
		return e.RulesOutcome(from, t.class)
	}
}
