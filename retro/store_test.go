package retro

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// TestStoreShrink fills a store with the tables up to 3 pieces, then
// shrinks it to nothing and checks that every table has left memory and
// that a lookup of every position gives the outcomes it gave from memory,
// now read from the files; that the tables are read back from their
// spills as they were, but one whose spill is damaged; that restoring the
// limit lets a table be held again; and that a table named to keep stays.
func TestStoreShrink(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	mats := index.Materials(3)
	st := newStore(0)
	o := Options{DTW: true, MTC: true, Threads: 2}
	read := func(m index.Material) *solved {
		s := loadTable(st, filepath.Join(dir, table.FileName(m)), index.New(m), &builder{Options: o})
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
	outcomes := func() (out [][2]rules.Outcome) {
		for _, m := range mats {
			x := index.New(m)
			for i := range x.Size() {
				p := rules.Position(x.Unrank(i))
				out = append(out, st.outcome(rules.ClassOf(m), &p))
			}
		}
		return out
	}
	want := outcomes()
	if st.used == 0 {
		t.Fatal("no table held in memory")
	}
	// Every entry is real now: the first table stands for one solved in
	// the run, which comes back from its spill as such.
	first := st.get(mats[0])
	st.used -= first.bytes()
	first.state, first.final = solvedInMemory, nil
	st.used += first.bytes()
	held := map[index.Material]table.Columns{}
	for _, m := range mats {
		held[m] = st.get(m).cols
	}
	spills := t.TempDir()
	dropped, restore := st.shrink(-1, func(index.Material) bool { return false }, spills)
	if len(dropped) != len(mats) {
		t.Fatalf("%d tables dropped, want %d", len(dropped), len(mats))
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
	damaged := dropped[len(dropped)-1]
	b, err := os.ReadFile(damaged.path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(damaged.path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	restore()
	st.unspill(dropped)
	for _, d := range dropped {
		m := d.t.x.Material()
		if d.t == damaged.t {
			if d.t.state != onDisk {
				t.Errorf("%v %v after reading back a damaged spill", m, d.t.state)
			}
			continue
		}
		for col, c := range held[m] {
			if !bytes.Equal(d.t.cols[col], c) {
				t.Errorf("%v: column %d read back changed", m, col)
			}
		}
		if want := map[bool]tableState{true: solvedInMemory, false: readInMemory}[m == mats[0]]; d.t.state != want {
			t.Errorf("%v: read back %v, want %v", m, d.t.state, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(spills, "*")); len(left) != 0 {
		t.Errorf("spills left: %v", left)
	}
	if got := outcomes(); !slices.Equal(got, want) {
		t.Error("lookups differ once read back")
	}
	restore()
	st.shrink(-1, func(index.Material) bool { return false }, spills)
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
	if dropped, _ := st.shrink(0, func(m index.Material) bool { return m == mats[0] }, spills); len(dropped) != 0 || !st.get(mats[0]).cols.Has(table.ValueColumn) {
		t.Errorf("a table kept by name was dropped")
	}
}

// TestTableStates checks that a table moves only as stateMoves lists,
// and that become leaves its fields as its state says.
func TestTableStates(t *testing.T) {
	m, _ := index.ParseMaterial("KvK")
	x := index.New(m)
	cols := table.NewLayout(m, table.Extra{}).MakeColumns(x.Size())
	for from := range stateNames {
		for to := range stateNames {
			s := &solved{x: x, state: tableState(from)}
			if s.state.inMemory() {
				s.cols = cols
			}
			if s.state == readInMemory {
				s.final = make([]uint64, 1)
			}
			if s.state == copiedOnDisk {
				s.copy = "copy"
			}
			give := table.Columns{}
			if tableState(to).inMemory() {
				give = cols
			}
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				s.become(tableState(to), give)
				return false
			}()
			if want := !stateMoves[[2]tableState{tableState(from), tableState(to)}]; panicked != want {
				t.Errorf("%v to %v: panicked %v, want %v", tableState(from), tableState(to), panicked, want)
			}
			if !panicked && (s.state.inMemory() != s.cols.Has(table.ValueColumn) || (s.state == readInMemory) != (s.final != nil)) {
				t.Errorf("%v to %v: values in memory %v, bitmap %v", tableState(from), tableState(to), s.cols.Has(table.ValueColumn), s.final != nil)
			}
		}
	}
}
