package retro

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// solved is one solved table held in memory with the real values of every
// position, capture positions included.
type solved struct {
	x      *index.Index
	class  table.Class
	values []byte   // table.PackValues
	dist   []uint8  // class distance; class A and B tables only
	dtw    []uint16 // theoretical distance; with Options.DTW only
}

// store holds the solved tables by material. It is filled between solves
// and only read during one.
type store map[index.Material]*solved

// entry returns the table and index of position q.
func (s store) entry(q *draughts.Position) (*solved, int64) {
	t := s[table.MaterialOf(q)]
	return t, t.x.Rank(table.Placement(q))
}

// lost reports whether the side to move in q has no pieces: the game is
// over and no table holds q.
func lost(q *draughts.Position) bool { return q.Pieces(q.Side) == 0 }

// theory returns the theoretical outcome of q.
func (s store) theory(q *draughts.Position) table.Outcome {
	if lost(q) {
		return table.Outcome{Value: table.Loss}
	}
	t, i := s.entry(q)
	theory, _, _ := table.UnpackValues(t.values[i])
	o := table.Outcome{Value: theory}
	if t.dtw != nil && theory != table.Draw {
		o.Dist = int(t.dtw[i])
	}
	return o
}

// rules returns the outcome of q under the rules, seen from a position of
// class from.
func (s store) rules(from table.Class) externalFunc {
	return func(q *draughts.Position) table.Outcome {
		if lost(q) {
			return table.Outcome{Value: table.Loss}
		}
		t, i := s.entry(q)
		theory, rules, _ := table.UnpackValues(t.values[i])
		dist := table.NoDistance
		if t.dist != nil {
			dist = int(t.dist[i])
		}
		return table.RulesOutcome(from, t.class, theory, rules, dist)
	}
}
