package retro

import (
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// TestStoreShrink fills a store with the tables up to 3 pieces, then
// shrinks it to nothing and checks that every table has left memory and
// that a lookup of every position gives the outcomes it gave from memory,
// now read from the files; that restoring the limit lets a table be held
// again; and that a table named to keep stays.
func TestStoreShrink(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	mats := index.Materials(3)
	st := newStore(0)
	o := Options{DTW: true, MTC: true, Threads: 2}
	read := func(m index.Material) *solved {
		s := load(st, filepath.Join(dir, table.FileName(m)), index.New(m), o)
		if s == nil {
			t.Fatalf("table %v missing or invalid", m)
		}
		return s
	}
	for _, m := range mats {
		if err := st.put(m, read(m)); err != nil {
			t.Fatal(err)
		}
	}
	outcomes := func() (out [][2]table.Outcome) {
		for _, m := range mats {
			x := index.New(m)
			for i := range x.Size() {
				p := table.Position(x.Unrank(i))
				out = append(out, st.outcome(table.ClassOf(m), &p))
			}
		}
		return out
	}
	want := outcomes()
	if st.used == 0 {
		t.Fatal("no table held in memory")
	}
	dropped, restore := st.shrink(-1, func(index.Material) bool { return false })
	if len(dropped) != len(mats) {
		t.Errorf("%d tables dropped, want %d", len(dropped), len(mats))
	}
	if st.used != 0 {
		t.Errorf("%d bytes of tables in memory after shrinking to nothing", st.used)
	}
	for _, m := range mats {
		if st.get(m).cols.Has(table.ValueColumn) {
			t.Errorf("%v still in memory", m)
		}
	}
	got := outcomes()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("lookup %d: %v from the file, %v from memory", i, got[i], want[i])
		}
	}
	if err := st.put(mats[0], read(mats[0])); err != nil {
		t.Fatal(err)
	}
	if st.used != 0 {
		t.Error("a table held in memory while the store is shrunk")
	}
	restore()
	if err := st.put(mats[0], read(mats[0])); err != nil {
		t.Fatal(err)
	}
	if st.used == 0 {
		t.Error("no table held in memory once the limit is restored")
	}
	if dropped, _ := st.shrink(0, func(m index.Material) bool { return m == mats[0] }); len(dropped) != 0 || !st.get(mats[0]).cols.Has(table.ValueColumn) {
		t.Errorf("a table kept by name was dropped")
	}
}
