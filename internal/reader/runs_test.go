package reader

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"

	"github.com/dtb-draughts/dtb/table"

	"github.com/dtb-draughts/dtb/runs"
)

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
		for n := range int64(f.blocks[values].Len()) {
			b, err := tables.get(f, values, n, false)
			if err != nil {
				t.Fatal(err)
			}
			positions += min(f.blockSize, f.x.Size()-n*f.blockSize)
			bytes += b.value.Size()
		}
	}
	if positions < 20*bytes {
		t.Errorf("value columns of %d positions in %d bytes: %.1f a byte, want 20 or more", positions, bytes, float64(positions)/float64(bytes))
	}
}

// BenchmarkRuns measures the value columns of the tables in benchDir as
// the cache keeps them (runs.Column): all, the cache that holds every
// value block of every table (MB, and cache-pos/B, positions a byte); for
// each piece count, pos/B, the positions a byte of the columns, over
// every block (cache-pos/B with each block's fixed part; a decoded block
// has 1 a byte); read, the read of a random block from the page cache as
// the cache reads it, a miss (ns/block: its tokens parsed where the file
// stores them, else decoded and compacted); at, a lookup of a random
// position (ns/at).
//
//	DTB_BENCH_DIR=tables go test ./internal/reader -run '^$' -bench Runs -cpu 1
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
				for n := range int64(f.blocks[values].Len()) {
					if _, err := all.get(f, values, n, false); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(all.cache.Used())/1e6, "MB")
			b.ReportMetric(float64(positions)/float64(all.cache.Used()), "cache-pos/B")
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
			for i := range b.N {
				k := s.blocks[i%len(s.blocks)]
				if _, err := k.f.r.ReadRuns(k.n, table.ValueColumn); err != nil {
					b.Fatal(err)
				}
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
				v += s.forms[l.r].At(l.i)
			}
			sink = v
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/at")
		})
	}
}

// sample is what BenchmarkRuns measures of a column of some tables.
type sample struct {
	forms            []runs.Column        // every block's
	positions, bytes int64                // of every block, the bytes of the columns
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
		for k := range f.blocks[values].Len() {
			r, err := f.r.ReadRuns(k, table.ValueColumn)
			if err != nil {
				b.Fatal(err)
			}
			n := int(min(f.blockSize, f.x.Size()-int64(k)*f.blockSize))
			s.forms, sizes = append(s.forms, r), append(sizes, n)
			s.positions += int64(n)
			s.bytes += r.Size()
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
