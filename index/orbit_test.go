package index

import (
	"math/rand/v2"
	"testing"
)

// imagesByRows returns p's images under the four symmetries, by their
// definition on rows and columns.
func imagesByRows(p Placement) [4]Placement {
	mapSet := func(set uint64, f func(row, col int) (int, int)) uint64 {
		var out uint64
		for s := 1; s <= 50; s++ {
			if set&sq(s) != 0 {
				row := (s - 1) / 5
				r, c := f(row, 2*((s-1)%5)+1-row%2)
				if (r+c)%2 == 0 {
					panic("a dark square goes to a light one")
				}
				out |= sq(5*r + c/2 + 1)
			}
		}
		return out
	}
	var out [4]Placement
	for i, f := range [4]func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return 9 - r, 9 - c },
		func(r, c int) (int, int) { return c, r },
		func(r, c int) (int, int) { return 9 - c, 9 - r },
	} {
		out[i] = Placement{WhiteKings: mapSet(p.WhiteKings, f), BlackKings: mapSet(p.BlackKings, f)}
	}
	return out
}

// TestCanonical checks that every image of a placement has its
// representative, which is one of them, and that the symmetries fixing
// it are counted.
func TestCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"KvK", "KKvK", "KKvKK", "KKKKvKKK"} {
		m := mustParse(t, name)
		for range 2000 {
			p := randomPlacement(rng, m)
			im := imagesByRows(p)
			c, stab := Canonical(p)
			fixed, among := 0, false
			for _, q := range im {
				if q == p {
					fixed++
				}
				among = among || q == c
				if cq, sq := Canonical(q); cq != c || sq != stab {
					t.Fatalf("%s: %+v has representative %+v (%d), its image %+v %+v (%d)", name, p, c, stab, q, cq, sq)
				}
			}
			if !among || fixed != stab {
				t.Fatalf("%s: %+v: representative %+v among its images %v, fixed by %d symmetries, not %d", name, p, c, among, stab, fixed)
			}
		}
	}
	// The dark long diagonal is fixed by its reflection.
	diagonal := sq(5, 10, 14, 19, 23, 28, 32, 37, 41, 46)
	if _, stab := Canonical(Placement{WhiteKings: diagonal}); stab != 4 {
		t.Errorf("the dark diagonal is fixed by %d symmetries, want 4", stab)
	}
	if _, stab := Canonical(Placement{WhiteKings: sq(1), BlackKings: sq(50)}); stab != 1 {
		t.Errorf("W:K1 B:K50 is fixed by %d symmetries, want 1", stab)
	}
}

// TestOrbits checks the orbits of small materials by brute force: every
// placement's orbit is the orbit of its representative, the orbits are
// numbered in the index order of their representatives without holes,
// and Burnside's count agrees.
func TestOrbits(t *testing.T) {
	for _, name := range []string{"KvK", "KKvK", "KvKK", "KKvKK", "KKKvK"} {
		m := mustParse(t, name)
		x := New(m)
		for _, threads := range []int{1, 3} {
			o := NewOrbits(x, threads)
			if want := OrbitCount(m); o.Len() != want {
				t.Fatalf("%s: %d orbits, Burnside counts %d", name, o.Len(), want)
			}
			var next int64
			for i := range x.Size() {
				p := x.Unrank(i)
				c, _ := Canonical(p)
				if o.IsRepresentative(i) != (c == p) {
					t.Fatalf("%s: placement %d is a representative: %v", name, i, o.IsRepresentative(i))
				}
				n, _ := o.Rank(p)
				if c == p {
					if n != next || o.Representative(n) != i {
						t.Fatalf("%s: representative %d has orbit %d (want %d), orbit %d representative %d", name, i, n, next, n, o.Representative(n))
					}
					next++
				} else if o.Representative(n) != x.Rank(c) {
					t.Fatalf("%s: placement %d in orbit %d, whose representative is %d, not %d", name, i, n, o.Representative(n), x.Rank(c))
				}
			}
			if next != o.Len() {
				t.Fatalf("%s: %d representatives, %d orbits", name, next, o.Len())
			}
		}
	}
}

func TestOrbitCount(t *testing.T) {
	// KKKKvKKK: 6.99 G positions in its two tables, about a quarter of
	// them orbits.
	m := mustParse(t, "KKKKvKKK")
	n, size := OrbitCount(m), New(m).Size()
	if n < size/4 || n > size/4+size/1000 {
		t.Errorf("KKKKvKKK: %d orbits of %d placements", n, size)
	}
}

func BenchmarkOrbitRank(b *testing.B) {
	m, _ := ParseMaterial("KKKvKK")
	x := New(m)
	o := NewOrbits(x, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	ps := make([]Placement, 1024)
	for i := range ps {
		ps[i] = randomPlacement(rng, m)
	}
	b.ResetTimer()
	for i := range b.N {
		o.Rank(ps[i%len(ps)])
	}
}

// TestOrbitMove checks OrbitMove against Rank for every square a king of
// either colour of random placements may move to.
func TestOrbitMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"KvK", "KKvKK", "KKKvK", "KvKKK"} {
		m := mustParse(t, name)
		o := NewOrbits(New(m), 2)
		for range 300 {
			p := randomPlacement(rng, m)
			for _, black := range []bool{false, true} {
				kingMoves(p, black, o.MoveWhiteKing, o.MoveBlackKing, func(om *OrbitMove, king, sq uint64, q Placement) {
					n, stab := om.RankTo(sq)
					if wn, ws := o.Rank(q); n != wn || stab != ws {
						t.Fatalf("%s: %+v, king %x to %x (black %v): orbit %d (%d), Rank %d (%d)", name, p, king, sq, black, n, stab, wn, ws)
					}
				})
			}
		}
	}
}

func BenchmarkOrbitMove(b *testing.B) {
	m, _ := ParseMaterial("KKKvKK")
	o := NewOrbits(New(m), 2)
	rng := rand.New(rand.NewPCG(1, 2))
	p := randomPlacement(rng, m)
	king := p.WhiteKings & -p.WhiteKings
	free := uint64(1<<50-1) &^ (p.WhiteKings | p.BlackKings)
	b.ResetTimer()
	for i := range b.N {
		om := o.MoveWhiteKing(p, king)
		for f := free >> (i % 8); f != 0; f &= f - 1 {
			om.RankTo(f & -f)
		}
	}
}
