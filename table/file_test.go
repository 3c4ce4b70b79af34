package table

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/index"
)

// testEntries returns pseudo-random entries of the table of m, in runs as
// a real table has them, and capture bits for about a quarter of them.
func testEntries(m index.Material, dtw bool) (Columns, []uint64) {
	n := index.New(m).Size()
	cols := MakeColumns(m, n, dtw)
	captures := make([]uint64, (n+63)/64)
	rng := rand.New(rand.NewPCG(uint64(n), 2))
	class := ClassOf(m)
	var e Entry
	for i := range n {
		if i == 0 || rng.IntN(8) == 0 {
			v := Value(rng.IntN(3))
			d := rng.IntN(40)
			e = NewEntry(class, Outcome{Value: v, Dist: d}, Outcome{Value: v, Dist: d + rng.IntN(3)})
		}
		cols.Set(i, e)
		if rng.IntN(4) == 0 {
			captures[i/64] |= 1 << (i % 64)
		}
	}
	return cols, captures
}

// BenchmarkWrite writes the table of KKMvK (2.5 M positions, class A,
// with the dtw column) with Write.
func BenchmarkWrite(b *testing.B) {
	m, _ := index.ParseMaterial("KKMvK")
	cols, captures := testEntries(m, true)
	path := filepath.Join(b.TempDir(), FileName(m))
	b.SetBytes(int64(len(cols[ValueColumn])))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(path, m, cols, captures, Stats{}); err != nil {
			b.Fatal(err)
		}
	}
}
