package retro

import (
	"sync/atomic"

	"github.com/dtb-draughts/dtb/rules"
)

// A word is what an analysis knows of one position, in 16 bits. Its top
// two bits say what the rest hold. Its bit captureBit marks a position
// where the side to move must capture. Such a position's value is that
// of its captures: no quiet move changes it.
//
//   - open: undecided, no win known. In a wide analysis the low bits are
//     the greatest distance of a losing move that leaves the unit. Such
//     a move is a capture or man move. The low bits are noLoss once such
//     a move does not lose. The counts are apart (counts). In a packed
//     analysis every move that leaves the unit counts at distance 0 (see
//     solver.packed).
//     There cannotLose says that such a move does not lose. The low byte
//     counts the quiet moves not yet known to lose.
//   - winning: undecided, a win known. The low bits are the least
//     distance of one found so far.
//   - losing: undecided, every move loses. The low bits are the loss's
//     distance.
//   - decided: wonBit set for a win, clear for a loss, and the distance.
//
// A position never decided is a draw. The counts apart are dropped once
// the analysis is done.
type word uint16

const (
	kindShift       = 14
	open       word = 0 << kindShift
	winning    word = 1 << kindShift
	losing     word = 2 << kindShift
	decided    word = 3 << kindShift
	wonBit     word = 1 << 13 // of a decided word
	cannotLose word = 1 << 13 // of a packed open word
	captureBit word = 1 << 12
	distMask   word = 1<<12 - 1
	noLoss          = 1<<12 - 1 // an open word's distance once a move does not lose
	maxDist         = 1<<12 - 2 // the longest distance a word holds, and more than any table's
)

func (w word) kind() word { return w &^ (1<<kindShift - 1) }

// dist returns the distance of w.
func (w word) dist() uint32 { return uint32(w & distMask) }

// capture reports whether the side to move must capture.
func (w word) capture() bool { return w&captureBit != 0 }

// value returns the value of a decided word, Draw for any other.
func (w word) value() rules.Value {
	switch {
	case w.kind() != decided:
		return rules.Draw
	case w&wonBit != 0:
		return rules.Win
	}
	return rules.Loss
}

// newWord returns the word of kind k (not decided) with distance d.
func newWord(k word, d uint32) word { return k | word(d) }

// decidedWord returns the word of a position decided with value v at
// distance d. The value is a win or a loss.
func decidedWord(v rules.Value, d uint32) word {
	if v == rules.Win {
		return decided | wonBit | word(d)
	}
	return decided | word(d)
}

// words holds the words of an analysis by local id, two to a uint32.
// Concurrent updates are compare-and-swaps of the pair (see cas). The
// owner of a chunk of whole pairs reads and writes them plainly (get,
// set).
type words []uint32

func newWords(n int64) words { return make(words, (n+1)/2) }

func (ws words) get(id int64) word { return word(ws[id/2] >> (16 * (id % 2))) }

func (ws words) set(id int64, w word) {
	shift := 16 * (id % 2)
	ws[id/2] = ws[id/2]&^(0xffff<<shift) | uint32(w)<<shift
}

// load returns the word of id, from any goroutine.
func (ws words) load(id int64) word { return word(atomic.LoadUint32(&ws[id/2]) >> (16 * (id % 2))) }

// cas replaces the word of id by n if it is old, from any goroutine. It
// reports whether it did. A change of the other word of the pair only
// makes it try again.
func (ws words) cas(id int64, old, n word) bool {
	p, shift := &ws[id/2], 16*(id%2)
	for {
		pair := atomic.LoadUint32(p)
		if word(pair>>shift) != old {
			return false
		}
		if atomic.CompareAndSwapUint32(p, pair, pair&^(0xffff<<shift)|uint32(n)<<shift) {
			return true
		}
	}
}

// maxMoves is the most quiet moves a position's count holds.
const maxMoves = 255

// count returns the count of a packed open word.
func (w word) count() uint8 { return uint8(w) }

// counts holds a byte a position, four to a uint32. Concurrent updates
// are atomic adds to the uint32 (see countOff).
type counts []uint32

func newCounts(n int64) counts { return make(counts, (n+3)/4) }

// set sets the count of id, plainly.
func (c counts) set(id int64, v uint8) {
	shift := 8 * (id % 4)
	c[id/4] = c[id/4]&^(0xff<<shift) | uint32(v)<<shift
}

// countOff takes n off the count of id and returns what is left. The
// count is at least n. It may be called from any goroutine. It is always
// atomic: the four counts of a uint32 may lie in two chunks of a pass
// (see propagate).
func (c counts) countOff(id int64, n uint8) uint8 {
	shift := 8 * (id % 4)
	return uint8(atomic.AddUint32(&c[id/4], ^(uint32(n)<<shift-1)) >> shift)
}
