package index

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestKingMove checks RankTo against RankKings for every king of random
// placements, of either colour, and every square it may stand on.
func TestKingMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range Materials(7) {
		x := New(m)
		for range 50 {
			p := x.Unrank(rng.Int64N(x.Size()))
			for _, black := range []bool{false, true} {
				kingMoves(p, black, x.MoveWhiteKing, x.MoveBlackKing, func(km *KingMove, king, sq uint64, q Placement) {
					if got, want := km.RankTo(sq), x.RankKings(q); got != want {
						t.Fatalf("%v: %+v, king %#x to %#x: RankTo %d, RankKings %d", m, p, king, sq, got, want)
					}
				})
			}
		}
	}
}

// kingMoves calls f for every king of p of the colour black says and
// every square it may stand on, its own included: the king's move (from
// moveWhite or moveBlack), the king, the square and p with the king
// there.
func kingMoves[M any](p Placement, black bool, moveWhite, moveBlack func(Placement, uint64) M, f func(m *M, king, sq uint64, q Placement)) {
	kings, move := p.WhiteKings, moveWhite
	if black {
		kings, move = p.BlackKings, moveBlack
	}
	for left := kings; left != 0; left &= left - 1 {
		king := left & -left
		m := move(p, king)
		for sq := uint64(1); sq < 1<<squares; sq <<= 1 {
			if sq != king && sq&(p.WhiteMen|p.WhiteKings|p.BlackMen|p.BlackKings) != 0 {
				continue
			}
			q := p
			if black {
				q.BlackKings = q.BlackKings&^king | sq
			} else {
				q.WhiteKings = q.WhiteKings&^king | sq
			}
			f(&m, king, sq, q)
		}
	}
}

func BenchmarkKingMove(b *testing.B) {
	m, _ := ParseMaterial("KKKKvKK")
	x := New(m)
	p := x.Unrank(x.Size() / 3)
	king := p.WhiteKings & -p.WhiteKings
	free := allSquares &^ (p.WhiteMen | p.WhiteKings | p.BlackMen | p.BlackKings)
	b.Run("RankKings", func(b *testing.B) {
		var sum int64
		for b.Loop() {
			for sq := free; sq != 0; sq &= sq - 1 {
				q := p
				q.WhiteKings = q.WhiteKings&^king | sq&-sq
				sum += x.RankKings(q)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bits.OnesCount64(free)), "ns/rank")
	})
	b.Run("RankTo", func(b *testing.B) {
		var sum int64
		for b.Loop() {
			km := x.MoveWhiteKing(p, king)
			for sq := free; sq != 0; sq &= sq - 1 {
				sum += km.RankTo(sq & -sq)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bits.OnesCount64(free)), "ns/rank")
	})
}
