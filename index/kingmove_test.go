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
				move := x.MoveWhiteKing
				if black {
					move = x.MoveBlackKing
				}
				var km KingMove
				kingMoves(p, black, func(king, sq uint64, q Placement) {
					if sq == king {
						km = move(p, king)
					}
					if got, want := km.RankTo(sq), x.RankKings(q); got != want {
						t.Fatalf("%v: %+v, king %#x to %#x: RankTo %d, RankKings %d", m, p, king, sq, got, want)
					}
				})
			}
		}
	}
}

// kingMoves calls f for every king of p of the colour black says and
// every square it may stand on, its own first: the king, the square and
// p with the king there.
func kingMoves(p Placement, black bool, f func(king, sq uint64, q Placement)) {
	kings := p.WhiteKings
	if black {
		kings = p.BlackKings
	}
	for left := kings; left != 0; left &= left - 1 {
		king := left & -left
		f(king, king, p)
		for sq := uint64(1); sq < 1<<squares; sq <<= 1 {
			if sq == king || sq&(p.WhiteMen|p.WhiteKings|p.BlackMen|p.BlackKings) != 0 {
				continue
			}
			q := p
			if black {
				q.BlackKings = q.BlackKings&^king | sq
			} else {
				q.WhiteKings = q.WhiteKings&^king | sq
			}
			f(king, sq, q)
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
