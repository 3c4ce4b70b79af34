package retro

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/rules"
)

// propagate decides the positions layer by layer. Pass d decides every
// position whose win or loss distance is d, then tells its predecessors.
// It leaves each decided position's result in its word.
//
// A pass deals the unit out in chunks. A chunk is whole pairs of blocks
// where the unit has enough pairs for every thread, or there is one
// thread. Every predecessor of a position lies in the position's pair.
// So a chunk's goroutine alone updates the words of its positions
// (owned), without atomic operations. Their counts, four to a uint32 that
// two chunks may share, are always updated atomically. Else a chunk is
// parallel.Chunk positions, and a word is updated by compare-and-swap.
// Within a pass the order of the updates does not matter: they only set
// distances beyond d.
func (a *analysis) propagate(ctx context.Context, u *unit, threads int) error {
	span := max(parallel.Chunk/(2*u.k), 1) * 2 * u.k
	owned := threads == 1 || u.size()/span >= ownedChunks*int64(threads)
	if !owned {
		span = parallel.Chunk
	}
	p := &propagation{a: a, u: u, words: a.words, owned: owned}
	for d := uint32(0); d <= a.horizon.Load(); d++ {
		a.now, a.next = a.next, a.now
		clear(a.next)
		err := parallel.Chunks(ctx, u.size(), span, threads, func(lo, hi int64) error {
			p.pass(lo, hi, d)
			return nil
		})
		if err != nil {
			return err
		}
		if d >= maxDist {
			return fmt.Errorf("distances exceed %d plies", maxDist)
		}
	}
	return nil
}

// ownedChunks is the fewest chunks per thread for which propagate deals
// a unit out by pairs. Fewer would leave threads idle at the end of a
// pass.
const ownedChunks = 4

// A propagation is the state of an analysis' passes (see propagate).
type propagation struct {
	a     *analysis
	u     *unit
	words words // a.words
	owned bool  // a chunk's goroutine alone updates its positions' states
}

// pass decides the pending positions of ids lo to hi whose distance is d.
// It tells their predecessors. It goes through the lines marked now. A
// line at either end is read only within lo to hi, since two chunks may
// share it. It marks next the lines that still hold a pending position.
func (p *propagation) pass(lo, hi int64, d uint32) {
	var buf [maxUnmoves]pred
	var men blockMen
	var n int64 // positions decided
	first, last := lo/lineSize, (hi-1)/lineSize
	for w := first / 64; w <= last/64; w++ {
		set := p.a.now[w] // read only during the pass
		if w == first/64 {
			set &= ^uint64(0) << (first % 64)
		}
		if w == last/64 && last%64 != 63 {
			set &= 1<<(last%64+1) - 1
		}
		for ; set != 0; set &= set - 1 {
			line := w*64 + int64(bits.TrailingZeros64(set))
			left := false
			for id := max(lo, line*lineSize); id < min(hi, (line+1)*lineSize); id++ {
				st := p.load(id)
				if k := st.kind(); k != winning && k != losing {
					continue
				}
				if st.dist() != d {
					left = true
					continue
				}
				v := rules.Loss
				if st.kind() == winning {
					v = rules.Win
				}
				p.settle(id, v, d, p.u.predecessors(id, buf[:0], &men))
				n++
			}
			if left {
				p.a.pend(line * lineSize)
			}
		}
	}
	p.u.work.Add(n)
}

// load returns the word of id: plainly where a chunk's goroutine owns
// it, else atomically.
func (p *propagation) load(id int64) word {
	if p.owned {
		return p.words.get(id)
	}
	return p.words.load(id)
}

// swap replaces the word of id by n if it is old. It reports whether it
// did.
func (p *propagation) swap(id int64, old, n word) bool {
	if p.owned {
		if p.words.get(id) != old {
			return false
		}
		p.words.set(id, n)
		return true
	}
	return p.words.cas(id, old, n)
}

// settle records position id as decided at distance d with value v. It
// then tells preds, its predecessors. If v is a loss, an undecided one
// wins at d+1. If v is a win, it has a move fewer not known to lose (see
// lose).
func (p *propagation) settle(id int64, v rules.Value, d uint32, preds []pred) {
	// Another goroutine may meanwhile update a predecessor of its own.
	// Then the compare-and-swap of the pair fails and tries again.
	for old := p.load(id); !p.swap(id, old, decidedWord(v, d)|old&captureBit); old = p.load(id) {
	}
	touch(p.words, p.a.moves, preds)
	for _, pr := range preds {
		if v == rules.Loss {
			p.win(pr.id, d+1)
		} else {
			p.lose(pr.id, d, pr.moves)
		}
	}
}

// win records that position id has a move that wins at distance d.
func (p *propagation) win(id int64, d uint32) {
	for {
		old := p.load(id)
		if k := old.kind(); k != open && (k != winning || old.dist() <= d) || old.capture() {
			return // decided, a win as short known, or a capture's. An undecided position that wins cannot lose.
		}
		if p.swap(id, old, newWord(winning, d)) {
			break
		}
	}
	p.a.raise(d)
	p.a.pend(id)
}

// lose records that position id has moves quiet moves that lose, to a
// position decided at distance d. It counts them off the moves not known
// to lose. The goroutine that counts the last one off finds the loss. Its
// distance is d+1, unless a move that leaves the unit loses later (in a
// wide analysis). The moves are decided in the order of their distances,
// so the last one counted off loses latest.
func (p *propagation) lose(id int64, d uint32, moves uint8) {
	if p.a.moves != nil {
		p.loseWide(id, d, moves)
		return
	}
	for {
		old := p.load(id)
		if old.kind() != open || old&cannotLose != 0 {
			return // decided, it wins, or it cannot lose (a capture's among them). Its count no longer matters.
		}
		n := old - word(moves)
		if old.count() == moves {
			n = newWord(losing, d+1)
		}
		if p.swap(id, old, n) {
			if n.kind() == losing {
				p.a.raise(d + 1)
				p.a.pend(id)
			}
			return
		}
	}
}

// loseWide is lose in a wide analysis, whose counts are apart.
func (p *propagation) loseWide(id int64, d uint32, moves uint8) {
	old := p.load(id)
	if old.kind() != open || old.dist() == noLoss || old.capture() {
		return // decided, it wins, it cannot lose, or it is a capture's. Its count no longer matters.
	}
	if p.a.moves.countOff(id, moves) != 0 {
		return
	}
	loss := max(old.dist(), d+1)
	if p.swap(id, old, newWord(losing, loss)) { // an open word's distance never changes
		p.a.raise(loss)
		p.a.pend(id)
	}
}

// touch loads the words and counts of preds, so that the cache misses
// of the updates that follow overlap. A compare-and-swap waits for every
// memory access before it. Without touch, the updates would take the
// misses one at a time. The loads are atomic, for the race detector. On
// amd64 and arm64 they are plain loads.
func touch(ws words, moves counts, preds []pred) {
	for _, pr := range preds {
		atomic.LoadUint32(&ws[pr.id/2])
		if moves != nil {
			atomic.LoadUint32(&moves[pr.id/4])
		}
	}
}
