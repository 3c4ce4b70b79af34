package index

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// sq returns the set holding the given squares (numbered 1..50).
func sq(squares ...int) uint64 {
	var set uint64
	for _, s := range squares {
		set |= 1 << (s - 1)
	}
	return set
}

// allowed returns, square by square, where each kind of piece may stand, in
// the order white men, white kings, black men, black kings.
func allowed() [4]uint64 {
	var a [4]uint64
	for s := 1; s <= 50; s++ {
		if s >= 6 {
			a[0] |= sq(s)
		}
		if s <= 45 {
			a[2] |= sq(s)
		}
		a[1] |= sq(s)
		a[3] |= sq(s)
	}
	return a
}

func counts(m Material) [4]int { return [4]int{m.WhiteMen, m.WhiteKings, m.BlackMen, m.BlackKings} }

func sets(p Placement) [4]uint64 {
	return [4]uint64{p.WhiteMen, p.WhiteKings, p.BlackMen, p.BlackKings}
}

// checkLegal reports why p is not a legal placement of m, or nil.
func checkLegal(m Material, p Placement) error {
	a, n, s := allowed(), counts(m), sets(p)
	var occupied uint64
	for kind := range s {
		switch {
		case bits.OnesCount64(s[kind]) != n[kind]:
			return fmt.Errorf("kind %d: %d pieces, want %d", kind, bits.OnesCount64(s[kind]), n[kind])
		case s[kind]&^a[kind] != 0:
			return fmt.Errorf("kind %d: pieces on forbidden squares %#x", kind, s[kind]&^a[kind])
		case s[kind]&occupied != 0:
			return fmt.Errorf("kind %d: overlaps another kind", kind)
		}
		occupied |= s[kind]
	}
	return nil
}

// enumerate calls f with every legal placement of m, by brute force.
func enumerate(m Material, f func(Placement)) {
	a, n := allowed(), counts(m)
	var s [4]uint64
	var place func(kind, left, from int, occupied uint64)
	place = func(kind, left, from int, occupied uint64) {
		if left == 0 {
			if kind == 3 {
				f(Placement{WhiteMen: s[0], WhiteKings: s[1], BlackMen: s[2], BlackKings: s[3]})
			} else {
				place(kind+1, n[kind+1], 1, occupied)
			}
			return
		}
		for sqr := from; sqr <= 50; sqr++ {
			if b := sq(sqr); a[kind]&b != 0 && occupied&b == 0 {
				s[kind] |= b
				place(kind, left-1, sqr+1, occupied|b)
				s[kind] &^= b
			}
		}
	}
	place(0, n[0], 1, 0)
}

// randomPlacement returns a random legal placement of m, drawn square by
// square independently of the index.
func randomPlacement(rng *rand.Rand, m Material) Placement {
	a, n := allowed(), counts(m)
	var s [4]uint64
	var occupied uint64
	for kind := range s {
		for range n[kind] {
			for {
				b := sq(1 + rng.IntN(50))
				if a[kind]&b != 0 && occupied&b == 0 {
					s[kind] |= b
					occupied |= b
					break
				}
			}
		}
	}
	return Placement{WhiteMen: s[0], WhiteKings: s[1], BlackMen: s[2], BlackKings: s[3]}
}

func mustParse(t testing.TB, s string) Material {
	t.Helper()
	m, err := ParseMaterial(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSizes(t *testing.T) {
	for name, want := range map[string]int64{"KvK": 50 * 49, "KvM": 45 * 49, "MvK": 45 * 49, "MvM": 45*45 - 40} {
		if got := New(mustParse(t, name)).Size(); got != want {
			t.Errorf("%s: Size = %d, want %d", name, got, want)
		}
	}
	want := map[int]int64{2: 8_845, 3: 806_300, 4: 41_971_200, 5: 1_570_600_750, 6: 46_198_758_750}
	got := map[int]int64{}
	for _, m := range Materials(6) {
		x := New(m)
		if x.Size() != x.MenConfigs()*x.KingPlacements() {
			t.Errorf("%v: Size %d != %d * %d", m, x.Size(), x.MenConfigs(), x.KingPlacements())
		}
		got[m.Pieces()] += x.Size()
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%d pieces: total Size %d, want %d", n, got[n], w)
		}
	}
}

func TestExhaustive(t *testing.T) {
	for _, m := range Materials(3) {
		x := New(m)
		for i := range x.Size() {
			p := x.Unrank(i)
			if err := checkLegal(m, p); err != nil {
				t.Fatalf("%v: Unrank(%d) = %+v: %v", m, i, p, err)
			}
			if r := x.Rank(p); r != i {
				t.Fatalf("%v: Rank(Unrank(%d)) = %d", m, i, r)
			}
		}
		for c := range x.MenConfigs() {
			if r := x.RankMen(x.UnrankMen(c)); r != c {
				t.Fatalf("%v: RankMen(UnrankMen(%d)) = %d", m, c, r)
			}
		}
		seen := make([]bool, x.Size())
		var n int64
		enumerate(m, func(p Placement) {
			n++
			r := x.Rank(p)
			if r < 0 || r >= x.Size() || seen[r] {
				t.Fatalf("%v: Rank(%+v) = %d: out of range or repeated", m, p, r)
			}
			seen[r] = true
		})
		if n != x.Size() {
			t.Errorf("%v: %d placements, Size %d", m, n, x.Size())
		}
	}
}

func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range Materials(6) {
		if m.Pieces() < 4 {
			continue
		}
		x := New(m)
		k := x.KingPlacements()
		for range 2000 {
			i := rng.Int64N(x.Size())
			p := x.Unrank(i)
			if err := checkLegal(m, p); err != nil {
				t.Fatalf("%v: Unrank(%d) = %+v: %v", m, i, p, err)
			}
			if r := x.Rank(p); r != i {
				t.Fatalf("%v: Rank(Unrank(%d)) = %d", m, i, r)
			}

			p = randomPlacement(rng, m)
			r := x.Rank(p)
			if r < 0 || r >= x.Size() || x.Unrank(r) != p {
				t.Fatalf("%v: Rank(%+v) = %d does not unrank to it", m, p, r)
			}
			// Men-major: the same men with other kings stay in the men's block.
			q := randomPlacement(rng, m)
			q.WhiteMen, q.BlackMen = p.WhiteMen, p.BlackMen
			for q.WhiteKings&(q.WhiteMen|q.BlackMen) != 0 || q.BlackKings&(q.WhiteMen|q.BlackMen|q.WhiteKings) != 0 {
				q = randomPlacement(rng, m)
				q.WhiteMen, q.BlackMen = p.WhiteMen, p.BlackMen
			}
			c := x.RankMen(p.WhiteMen, p.BlackMen)
			if r/k != c || x.Rank(q)/k != c {
				t.Fatalf("%v: ranks %d and %d of men configuration %d are outside its block", m, r, x.Rank(q), c)
			}
			wm, bm := x.UnrankMen(c)
			first, last := x.Unrank(c*k), x.Unrank(c*k+k-1)
			if wm != p.WhiteMen || bm != p.BlackMen || first.WhiteMen != wm || first.BlackMen != bm ||
				last.WhiteMen != wm || last.BlackMen != bm {
				t.Fatalf("%v: men configuration %d: block does not share its men", m, c)
			}
		}
	}
}

func TestNoAllocation(t *testing.T) {
	x := New(mustParse(t, "KMMvKM"))
	p := x.Unrank(x.Size() / 3)
	if n := testing.AllocsPerRun(100, func() { x.Unrank(x.Rank(p)) }); n != 0 {
		t.Errorf("Rank and Unrank allocate %v times", n)
	}
}

func TestNewPanics(t *testing.T) {
	for _, m := range []Material{{}, {WhiteKings: 1, BlackMen: 21}, {WhiteMen: 20, WhiteKings: 10, BlackMen: 20, BlackKings: 1},
		{WhiteMen: 20, WhiteKings: 5, BlackMen: 20, BlackKings: 5}, // Size overflows
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%+v) did not panic", m)
				}
			}()
			New(m)
		}()
	}
}

func TestMaterialNames(t *testing.T) {
	for _, m := range Materials(6) {
		got, err := ParseMaterial(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMaterial(%q) = %+v, %v; want %+v", m.String(), got, err, m)
		}
		if m.Flip().Flip() != m || m.Flip().Pieces() != m.Pieces() || m.Flip().Men() != m.Men() {
			t.Errorf("%v: Flip is not a colour swap", m)
		}
	}
	m := mustParse(t, "KKMvK")
	if want := (Material{WhiteMen: 1, WhiteKings: 2, BlackKings: 1}); m != want {
		t.Errorf("KKMvK parses as %+v, want %+v", m, want)
	}
	if got := m.Flip().String(); got != "KvKKM" {
		t.Errorf("KKMvK flipped is %s, want KvKKM", got)
	}
	if m.Pieces() != 4 || m.Men() != 1 {
		t.Errorf("KKMvK: Pieces %d, Men %d", m.Pieces(), m.Men())
	}
}

func TestParseErrors(t *testing.T) {
	for s, want := range map[string]string{
		"":                             `material "": empty name`,
		"KXvK":                         `material "KXvK": unexpected 'X' at position 2`,
		"KK":                           `material "KK": missing 'v' between White's and Black's pieces`,
		"KvKvK":                        `material "KvKvK": unexpected 'v' at position 4`,
		"kvK":                          `material "kvK": unexpected 'k' at position 1`,
		"KvK ":                         `material "KvK ": unexpected ' ' at position 4`,
		"MKvK":                         `material "MKvK": king after a man at position 2 (kings come first)`,
		"KvMK":                         `material "KvMK": king after a man at position 4 (kings come first)`,
		"vK":                           `material "vK": White has no pieces`,
		"Kv":                           `material "Kv": Black has no pieces`,
		"Kv" + strings.Repeat("M", 21): `Black has 21 men, at most 20`,
		strings.Repeat("M", 21) + "vK": `White has 21 men, at most 20`,
		strings.Repeat("K", 30) + "v" + strings.Repeat("K", 21): `51 pieces, at most 50`,
	} {
		_, err := ParseMaterial(s)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseMaterial(%q) error %v, want %q", s, err, want)
		}
	}
}

func FuzzParseMaterial(f *testing.F) {
	for _, s := range []string{"KvK", "KKMvK", "MvM", "vK", "KXvK", "MKvK", "KvKvK", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMaterial(s)
		if err != nil {
			return
		}
		if m.String() != s {
			t.Errorf("ParseMaterial(%q).String() = %q", s, m.String())
		}
		if m2, err := ParseMaterial(m.String()); err != nil || m2 != m {
			t.Errorf("ParseMaterial(%q) = %+v, %v; want %+v", m.String(), m2, err, m)
		}
	})
}

func TestMaterialsOrder(t *testing.T) {
	list := Materials(7)
	pos := map[Material]int{}
	for i, m := range list {
		if _, dup := pos[m]; dup {
			t.Fatalf("%v listed twice", m)
		}
		pos[m] = i
	}
	if len(Materials(2)) != 4 {
		t.Errorf("Materials(2) = %v, want KvK, KvM, MvK, MvM", Materials(2))
	}
	for i, m := range list {
		var next []Material
		for _, f := range []func(*Material) bool{
			func(m *Material) bool { m.WhiteMen--; return m.WhiteMen >= 0 },
			func(m *Material) bool { m.WhiteKings--; return m.WhiteKings >= 0 },
			func(m *Material) bool { m.BlackMen--; return m.BlackMen >= 0 },
			func(m *Material) bool { m.BlackKings--; return m.BlackKings >= 0 },
			func(m *Material) bool { m.WhiteMen--; m.WhiteKings++; return m.WhiteMen >= 0 },
			func(m *Material) bool { m.BlackMen--; m.BlackKings++; return m.BlackMen >= 0 },
		} {
			n := m
			if f(&n) && n.WhiteMen+n.WhiteKings > 0 && n.BlackMen+n.BlackKings > 0 {
				next = append(next, n)
			}
		}
		for _, n := range next {
			if j, ok := pos[n]; !ok || j >= i {
				t.Errorf("%v (at %d) leads to %v (at %d, listed %v)", m, i, n, j, ok)
			}
		}
	}
}

var sink int64

func benchPlacements(b *testing.B) (*Index, []Placement) {
	x := New(mustParse(b, "KMMvKM"))
	rng := rand.New(rand.NewPCG(3, 4))
	ps := make([]Placement, 1024)
	for i := range ps {
		ps[i] = x.Unrank(rng.Int64N(x.Size()))
	}
	return x, ps
}

func BenchmarkRank(b *testing.B) {
	x, ps := benchPlacements(b)
	for i := 0; b.Loop(); i++ {
		sink += x.Rank(ps[i%len(ps)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

func BenchmarkUnrank(b *testing.B) {
	x, ps := benchPlacements(b)
	is := make([]int64, len(ps))
	for i, p := range ps {
		is[i] = x.Rank(p)
	}
	for i := 0; b.Loop(); i++ {
		sink += int64(x.Unrank(is[i%len(is)]).BlackKings)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// TestNext walks every material up to 3 pieces and a stretch of larger ones
// with Next and checks it against Unrank.
func TestNext(t *testing.T) {
	for _, m := range Materials(5) {
		x := New(m)
		n := x.Size()
		if m.Pieces() > 3 {
			n = min(n, 100000)
		}
		p := x.Unrank(0)
		for i := int64(0); i < n; i++ {
			if want := x.Unrank(i); p != want {
				t.Fatalf("%v: Next reached %+v at %d, want %+v", m, p, i, want)
			}
			var ok bool
			p, ok = x.Next(p)
			if ok != (i+1 < x.Size()) {
				t.Fatalf("%v: Next after %d reports %v", m, i, ok)
			}
		}
	}
}

// TestSlot checks that every material of up to 14 pieces has its own
// slot below Slots, in the order of its counts.
func TestSlot(t *testing.T) {
	prev, n := -1, 0
	for m := range allMaterials(14) {
		if s := m.Slot(); s <= prev || s >= Slots {
			t.Fatalf("%v: slot %d after %d, below %d", m, s, prev, Slots)
		}
		prev = m.Slot()
		n++
	}
	if n < 1000 {
		t.Errorf("%d materials", n)
	}
}

// allMaterials yields every material of at most n pieces with a piece on
// each side, in the order of White's men, White's kings, Black's men and
// Black's kings.
func allMaterials(n int) func(yield func(Material) bool) {
	return func(yield func(Material) bool) {
		for wm := 0; wm <= n; wm++ {
			for wk := 0; wm+wk <= n; wk++ {
				for bm := 0; wm+wk+bm <= n; bm++ {
					for bk := 0; wm+wk+bm+bk <= n; bk++ {
						if wm+wk > 0 && bm+bk > 0 && !yield(Material{wm, wk, bm, bk}) {
							return
						}
					}
				}
			}
		}
	}
}
