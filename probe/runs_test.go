package probe

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"
)

// checkRuns checks that the compact form of the column b answers every
// position as b does, made with its values given as
// codec.Reader.ReadBlockValues gives them as well as without, and
// returns it.
func checkRuns(tb testing.TB, b []byte) runs {
	tb.Helper()
	r := compact(b, nil)
	check := func(r runs, values []byte) {
		tb.Helper()
		for i, want := range b {
			if got := r.at(i); got != want {
				tb.Fatalf("%d positions, values %v, form %s: position %d is %d, want %d", len(b), values, form(&r), i, got, want)
			}
		}
		if r.size() > int64(len(b)) {
			tb.Errorf("%d positions take %d bytes in form %s", len(b), r.size(), form(&r))
		}
	}
	check(r, nil)
	if values := slices.Compact(slices.Sorted(slices.Values(b))); len(values) <= 4 {
		check(compact(b, values), values)
	}
	return r
}

// form names the form of r.
func form(r *runs) string {
	switch {
	case r.lay != nil:
		return "compact"
	case r.data == nil:
		return "uniform"
	}
	return "raw"
}

// column returns n positions drawn from k values, in runs whose lengths
// are 1 to maxRun, uniformly.
func column(rng *rand.Rand, n, k, maxRun int) []byte {
	vals := make([]byte, k)
	for i := range vals {
		vals[i] = byte(rng.IntN(256))
	}
	b := make([]byte, n)
	for i := 0; i < n; {
		v := vals[rng.IntN(k)]
		for end := min(n, i+1+rng.IntN(maxRun)); i < end; i++ {
			b[i] = v
		}
	}
	return b
}

// TestRuns checks columns of every palette size and of short and long
// runs, in every form.
func TestRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	forms := map[string]bool{}
	for _, n := range []int{1, 7, 100, 5000, 1 << 16, 1<<16 + 1} {
		for _, k := range []int{1, 2, 3, 4, 5, 9, 16, 17, 60, 128, 129, 200} {
			for _, maxRun := range []int{1, 3, 40, 3000} {
				r := checkRuns(t, column(rng, n, k, maxRun))
				forms[form(&r)] = true
			}
		}
	}
	for _, f := range []string{"compact", "uniform", "raw"} {
		if !forms[f] {
			t.Errorf("no column kept %s", f)
		}
	}
}

// TestRunsLayouts checks that every layout's tokens mean what encode
// means by them: a literal's digits, a run's length.
func TestRunsLayouts(t *testing.T) {
	for k := 2; k <= maxPalette; k++ {
		l := layoutOf(k)
		if l.w < 1 || l.w > 7 || l.lits+len(l.lens)*k > 256 || l.lens[0] != l.w+1 {
			t.Fatalf("k %d: w %d, %d literals, %d lengths from %d", k, l.w, l.lits, len(l.lens), l.lens[0])
		}
		for c := range 256 {
			if c >= l.lits+len(l.lens)*k {
				break // unused
			}
			if l.adv[c] == 0 {
				t.Fatalf("k %d: token %d covers no position", k, c)
			}
			for d := range min(int(l.adv[c]), 8) {
				if int(l.num[c][d]) >= k {
					t.Fatalf("k %d: token %d, position %d: palette number %d", k, c, d, l.num[c][d])
				}
			}
		}
	}
}

// FuzzRuns checks that the compact form of any column answers every
// position as the column does.
func FuzzRuns(f *testing.F) {
	f.Add([]byte{1, 1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3})
	f.Add([]byte{5, 0, 5, 0, 5, 0, 7, 0, 7, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		// Stretch b into runs so that run tokens are met as well as literals:
		// each byte pair (value, length) is a run.
		var col []byte
		for i := 0; i+1 < len(b) && len(col) < 1<<17; i += 2 {
			for range int(b[i+1])*int(b[i+1]) + 1 {
				col = append(col, b[i])
			}
		}
		checkRuns(t, col)
	})
}

// TestRunsSize checks that the value columns of the golden tables take at
// least 20 positions a byte in the cache, as its blocks count them.
func TestRunsSize(t *testing.T) {
	tables := open(t, dir, Options{CacheBytes: 1 << 30})
	var positions, bytes int64
	for _, m := range tables.Materials() {
		f, err := tables.file(m, false)
		if err != nil {
			t.Fatal(err)
		}
		for n := range int64(len(f.blocks[values])) {
			b, err := tables.cache.get(f, values, n, false)
			if err != nil {
				t.Fatal(err)
			}
			positions += min(f.blockSize, f.x.Size()-n*f.blockSize)
			bytes += b.value.size()
		}
	}
	if positions < 20*bytes {
		t.Errorf("value columns of %d positions in %d bytes: %.1f a byte, want 20 or more", positions, bytes, float64(positions)/float64(bytes))
	}
}

// BenchmarkRuns measures the compact form of the value columns of the
// tables in benchDir: all, the cache that holds every value block of every
// table (MB, and cache-pos/B, positions a byte); for each piece count,
// pos/B, the positions a byte of the compact forms, over every block
// (cache-pos/B with each block's fixed part; a decoded block has 1 a
// byte); read, the read of a random block from the page cache, its decode
// and its conversion (ns/block; BenchmarkPieces's pieces=N/values is the
// decode alone); at, a lookup of a random position (ns/at).
//
//	DTB_BENCH_DIR=tables go test ./probe -run '^$' -bench Runs -cpu 1
func BenchmarkRuns(b *testing.B) {
	tables := open(b, benchDir(), Options{})
	b.Run("all", func(b *testing.B) {
		for range b.N {
			all := open(b, benchDir(), Options{CacheBytes: 1 << 62})
			var positions int64
			for _, m := range all.Materials() {
				f, err := all.file(m, false)
				if err != nil {
					b.Fatal(err)
				}
				if f.from != nil {
					continue
				}
				positions += f.x.Size()
				for n := range int64(len(f.blocks[values])) {
					if _, err := all.cache.get(f, values, n, false); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(all.cache.size)/1e6, "MB")
			b.ReportMetric(float64(positions)/float64(all.cache.size), "cache-pos/B")
		}
	})
	for n := 2; n <= maxPieces; n++ {
		var files []*file // of n pieces, stored
		for _, m := range tables.Materials() {
			if f, err := tables.file(m, false); err != nil {
				b.Fatal(err)
			} else if m.Pieces() == n && f.from == nil {
				files = append(files, f)
			}
		}
		if files == nil {
			continue
		}
		var once sync.Once
		var s *sample
		get := func(b *testing.B) *sample {
			once.Do(func() { s = newSample(b, files, rand.New(rand.NewPCG(uint64(n), 0))) })
			return s
		}
		name := fmt.Sprintf("pieces=%d", n)
		b.Run(name+"/read", func(b *testing.B) {
			s := get(b)
			b.ResetTimer()
			var buf []byte
			for i := range b.N {
				k := s.blocks[i%len(s.blocks)]
				d, values, err := k.f.r.ReadValueBlock(k.n, buf)
				if err != nil {
					b.Fatal(err)
				}
				buf = d
				compact(d, values)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/block")
			fixed := int64(unsafe.Sizeof(block{}))
			b.ReportMetric(float64(s.positions)/float64(s.bytes), "pos/B")
			b.ReportMetric(float64(s.positions)/float64(s.bytes+fixed*int64(len(s.forms))), "cache-pos/B")
		})
		b.Run(name+"/at", func(b *testing.B) {
			s := get(b)
			b.ResetTimer()
			v := byte(0)
			for i := range b.N {
				l := s.lookups[i%len(s.lookups)]
				v += s.forms[l.r].at(l.i)
			}
			sink = v
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/at")
		})
	}
}

// sample is what BenchmarkRuns measures of a column of some tables.
type sample struct {
	forms            []runs               // every block's
	positions, bytes int64                // of every block, the bytes of the compact forms
	blocks           []fileBlock          // a uniform sample of 256 blocks
	lookups          []struct{ r, i int } // 4096 random positions, uniform: form r, position i
}

// fileBlock is block n of f.
type fileBlock struct {
	f *file
	n int
}

// newSample reads every value block of files.
func newSample(b *testing.B, files []*file, rng *rand.Rand) *sample {
	s := &sample{}
	var sizes []int // the positions of each form
	for _, f := range files {
		for k := range len(f.blocks[values]) {
			d, values, err := f.r.ReadValueBlock(k, nil)
			if err != nil {
				b.Fatal(err)
			}
			r := compact(d, values)
			s.forms, sizes = append(s.forms, r), append(sizes, len(d))
			s.positions += int64(len(d))
			s.bytes += r.size()
			if len(s.blocks) < 256 {
				s.blocks = append(s.blocks, fileBlock{f, k})
			} else if j := rng.IntN(len(s.forms)); j < len(s.blocks) {
				s.blocks[j].f, s.blocks[j].n = f, k
			}
		}
	}
	s.lookups = make([]struct{ r, i int }, 4096)
	for k := range s.lookups {
		i := rng.IntN(int(s.positions))
		r := 0
		for ; i >= sizes[r]; r++ {
			i -= sizes[r]
		}
		s.lookups[k].r, s.lookups[k].i = r, i
	}
	return s
}

// sink keeps the lookups of BenchmarkRuns.
var sink byte
