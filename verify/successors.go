package verify

import (
	"slices"

	"github.com/dtb-draughts/dtb/rules"
)

// successors minimaxes the successors of a batch of positions of one
// class: each position's moves are added as reads of its successors'
// entries, and read makes them all, in the order of the pages they read
// (see order). Made in turn, one position's moves would read each table
// at random, a cache miss each. A check recomputes its positions so
// (batch). Capture positions are resolved one by one (captures): their
// successors lie in many small tables, where the order saves less than it
// costs.
type successors struct {
	v      *verifier
	class  rules.Class
	tables []*memTable // the tables read; a read's key names one
	reads  []read
	spare  []read        // order's
	moves  []rules.Moves // by position
}

// A read is the read of one move's successor: the entry at slot
// key&slotMask of table tables[key>>tableShift], for position pos,
// reached by a king move (the clocks run on) or not.
type read struct {
	key  uint64
	pos  uint32
	king bool
}

const (
	tableShift = 56
	slotMask   = 1<<tableShift - 1
)

// batchSize is the positions a batch holds: its reads, about 30 a
// position, take 16 bytes each.
const batchSize = 1 << 12

// start adds a position with no moves yet and returns its number.
func (s *successors) start() uint32 {
	s.moves = append(s.moves, rules.NewMoves(s.class))
	return uint32(len(s.moves) - 1)
}

// add adds to position pos a move to the entry at slot of t.
func (s *successors) add(pos uint32, t *memTable, slot int64, king bool) {
	k := slices.Index(s.tables, t)
	if k < 0 {
		k = len(s.tables)
		s.tables = append(s.tables, t)
	}
	s.reads = append(s.reads, read{key: uint64(k)<<tableShift | uint64(slot), pos: pos, king: king})
}

// read makes the reads and adds each to its position's moves.
func (s *successors) read() error {
	s.order()
	for _, r := range s.reads {
		t := s.tables[r.key>>tableShift]
		e, err := s.v.entry(t, int64(r.key&slotMask))
		if err != nil {
			return err
		}
		if m := &s.moves[r.pos]; r.king {
			m.AddKingMove(e)
		} else {
			m.AddConversion(e.TheoryOutcome(), e.RulesOutcome(s.class, t.class))
		}
	}
	return nil
}

// reset empties s, keeping its tables.
func (s *successors) reset() {
	s.reads, s.moves = s.reads[:0], s.moves[:0]
}

// order orders the reads by the page of their slots (bits 12 to 27, a
// value column's 4 KiB), in two passes of a radix sort on a byte each. A
// full sort would cost more than the cache misses it saves. Pages of
// slots 2^28 apart share a place, and so do the tables' pages: the order
// only spares misses, the entries do not depend on it.
func (s *successors) order() {
	s.spare = slices.Grow(s.spare[:0], len(s.reads))[:len(s.reads)]
	from, to := s.reads, s.spare
	for shift := 12; shift < 28; shift += 8 {
		var at [257]int
		for _, r := range from {
			at[r.key>>shift&255+1]++
		}
		for d := 1; d < len(at); d++ {
			at[d] += at[d-1]
		}
		for _, r := range from {
			d := r.key >> shift & 255
			to[at[d]] = r
			at[d]++
		}
		from, to = to, from
	}
}
