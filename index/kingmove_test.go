package index

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestKingMove checks RankTo against RankKings for every white king of
// random placements and every square it may stand on.
func TestKingMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range Materials(7) {
		if m.WhiteKings == 0 {
			continue
		}
		x := New(m)
		for range 50 {
			p := x.Unrank(rng.Int64N(x.Size()))
			for kings := p.WhiteKings; kings != 0; kings &= kings - 1 {
				king := kings & -kings
				km := x.MoveWhiteKing(p, king)
				for sq := uint64(1); sq < 1<<squares; sq <<= 1 {
					if sq != king && sq&(p.WhiteMen|p.WhiteKings|p.BlackMen|p.BlackKings) != 0 {
						continue
					}
					q := p
					q.WhiteKings = q.WhiteKings&^king | sq
					if got, want := km.RankTo(sq), x.RankKings(q); got != want {
						t.Fatalf("%v: %+v, king %#x to %#x: RankTo %d, RankKings %d", m, p, king, sq, got, want)
					}
				}
			}
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
