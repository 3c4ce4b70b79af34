package retro

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// solved is one solved table: in memory with its entries, or only its
// stats when the store reads it from its file. A table solved in this
// run holds the real entry of every position; one read from its file
// holds none at its capture positions, which a lookup resolves from their
// successors on first use (see store.settle).
type solved struct {
	x     *index.Index
	class table.Class
	path  string
	// copy, if set, is the path of a resolved copy of the table (see
	// resolvedCopy), which the store's prober reads instead of path.
	copy  string
	cols  table.Columns // those lookupColumns keeps; none when on disk
	stats table.Stats   // from the file's header
	// final, for a table read from its file, marks the positions whose
	// entry in cols is known to be the real one: capture positions once
	// resolved, quiet ones once a lookup has found them quiet; nil for a
	// table solved in this run.
	final []uint64
}

// lookupColumns removes from c the columns that the external successors
// of a solve never read (see store.outcomes): the mtc, and the distance
// of a class whose clock does not carry over a capture or man move. Every
// lookup reads the columns c keeps, each a likely cache miss.
func lookupColumns(c *table.Columns, class table.Class) {
	c[table.MTCColumn] = nil
	if !class.Carries() {
		c[table.DistanceColumn] = nil
	}
}

// bytes returns the memory s takes.
func (s *solved) bytes() int64 {
	var n int64
	for _, c := range s.cols {
		n += int64(len(c))
	}
	return n + 8*int64(len(s.final))
}

// store holds the solved tables that groups still to be solved read: in
// memory while they fit in limit bytes, else read from their files
// through a prober, which keeps a bounded cache of decoded blocks and
// resolves capture positions by search. It is filled between solves and
// only read during one.
type store struct {
	tables [index.Slots]*solved // by Material.Slot
	limit  int64                // bytes of tables in memory
	used   int64
	disk   *probe.Tables
	err    atomic.Pointer[error] // of the first lookup that failed
	// writing serialises the writes of resolved entries, striped by
	// their word of solved.final.
	writing [64]sync.Mutex
}

// newStore returns a store for the memory budget mem (0: no bound), with
// the budget's shares for the tables in memory and the prober's cache.
func newStore(mem int64) *store {
	if mem <= 0 {
		return &store{limit: math.MaxInt64, disk: probe.New(probe.Options{})}
	}
	return &store{limit: budget(mem).store(), disk: probe.New(probe.Options{CacheBytes: budget(mem).cache()})}
}

func (s *store) get(m index.Material) *solved { return s.tables[m.Slot()] }

// fits reports whether a table of n bytes can be held in memory.
func (s *store) fits(n int64) bool { return s.used+n <= s.limit }

// put adds the table t of m, in memory if it fits (else only its stats
// are kept, and it is read from t.copy if set, else from t.path), or
// forgets the entries of the table of m if t is nil, and removes its
// resolved copy.
func (s *store) put(m index.Material, t *solved) error {
	old := s.get(m)
	if old != nil {
		s.used -= old.bytes()
	}
	s.tables[m.Slot()] = t
	if t == nil {
		if old == nil || old.copy == "" {
			return nil
		}
		// The prober may still resolve a capture position into m.
		if err := s.disk.Add(m, old.path); err != nil {
			return fmt.Errorf("%s: %v", old.path, err)
		}
		return os.Remove(old.copy)
	}
	// The prober knows every table, even those in memory: it resolves the
	// capture positions of a table on disk by probing smaller tables.
	path := t.path
	if t.copy != "" {
		path = t.copy
	}
	if err := s.disk.Add(m, path); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	lookupColumns(&t.cols, t.class)
	if t.cols.Has(table.ValueColumn) && s.fits(t.bytes()) {
		s.used += t.bytes()
		return nil
	}
	t.cols, t.final = table.Columns{}, nil
	return nil
}

// shrink lowers the memory the tables in memory may take to n bytes (at
// least 0), dropping tables from memory until they fit, but those that
// keep names: the others are read from their files meanwhile. The entries
// of each table dropped are spilled to a file in dir first, so that
// readBack can restore them as they were: the real entries of a table
// solved in this run, which its file holds as don't-cares at capture
// positions. It returns the tables dropped and a function that restores
// the limit, which may be called more than once. Call neither during a
// solve.
func (s *store) shrink(n int64, keep func(m index.Material) bool, dir string) (dropped []spill, restore func()) {
	old := s.limit
	s.limit = max(n, 0)
	for _, t := range s.tables {
		if s.used <= s.limit {
			break
		}
		if t != nil && t.cols.Has(table.ValueColumn) && !keep(t.x.Material()) {
			s.used -= t.bytes()
			dropped = append(dropped, spillTable(t, filepath.Join(dir, table.FileName(t.x.Material())+".spill.tmp")))
			t.cols, t.final = table.Columns{}, nil
		}
	}
	return dropped, func() { s.limit = old }
}

// A spill is a table that store.shrink dropped from memory, with the
// entries it held then in a file of their own (path; "" where writing it
// failed: the table is then read from its table file from then on).
type spill struct {
	t       *solved
	path    string
	lens    [table.NumColumns]int // of t.cols
	settled bool                  // t.final was set: t was read from its file
}

// spillTable writes the columns t holds in memory to path, followed by
// their CRC-32C, and returns the spill; its path is "" if the writing
// failed (the file is then removed).
func spillTable(t *solved, path string) spill {
	sp := spill{t: t, settled: t.final != nil}
	for col, c := range t.cols {
		sp.lens[col] = len(c)
	}
	f, err := os.Create(path)
	if err != nil {
		return sp
	}
	crc := crc32.New(castagnoli)
	w := io.MultiWriter(f, crc)
	for _, c := range t.cols {
		if _, err = w.Write(c); err != nil {
			break
		}
	}
	if err == nil {
		_, err = f.Write(crc.Sum(nil))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return sp
	}
	sp.path = path
	return sp
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// readBack puts the tables that shrink dropped back into memory from
// their spills, as far as they fit, and removes the spills. A table read
// from its file comes back with none of its capture positions resolved;
// one whose spill cannot be read back stays read from its file.
func (s *store) readBack(dropped []spill) {
	for _, sp := range dropped {
		if sp.path == "" {
			continue
		}
		var words int64 // of the resolution bitmap, if settled
		if sp.settled {
			words = (sp.t.x.Size() + 63) / 64
		}
		n := words * 8 // what sp.t.bytes() will be
		for _, l := range sp.lens {
			n += int64(l)
		}
		if s.fits(n) {
			if cols, ok := sp.read(); ok {
				sp.t.cols = cols
				if sp.settled {
					sp.t.final = make([]uint64, words)
				}
				s.used += sp.t.bytes()
			}
		}
		os.Remove(sp.path)
	}
}

// read reads the columns of the spill back from its file; false if the
// file is not what spillTable wrote.
func (sp spill) read() (cols table.Columns, ok bool) {
	f, err := os.Open(sp.path)
	if err != nil {
		return cols, false
	}
	defer f.Close()
	crc := crc32.New(castagnoli)
	r := io.TeeReader(f, crc)
	for col, l := range sp.lens {
		if l > 0 {
			cols[col] = make([]byte, l)
			if _, err := io.ReadFull(r, cols[col]); err != nil {
				return cols, false
			}
		}
	}
	var sum [4]byte
	if _, err := io.ReadFull(f, sum[:]); err != nil || !bytes.Equal(sum[:], crc.Sum(nil)) {
		return cols, false
	}
	if n, _ := f.Read(sum[:1]); n != 0 {
		return cols, false
	}
	return cols, true
}

// locate returns the table in memory that holds position q and q's
// index there, its entry made real (see settle); nil if q's table is
// read from its file, or was (a table forgotten while a table read from
// its file may still resolve a capture position into it).
func (s *store) locate(q *draughts.Position) (*solved, int64) {
	t := s.get(table.MaterialOf(q))
	if t == nil || !t.cols.Has(table.ValueColumn) {
		return nil, 0
	}
	i := t.x.Rank(table.Placement(q))
	if t.final != nil {
		s.settle(t, i, q)
	}
	return t, i
}

// probe returns the class and entry of position q from its file. A
// failure to read it is kept for failed, and the entry is then a draw.
func (s *store) probe(q *draughts.Position) (table.Class, table.Entry) {
	r, err := s.disk.Probe(*q, probe.FreshClocks, 0)
	if err != nil {
		s.err.CompareAndSwap(nil, &err)
		r.Entry = table.Entry{Rules: table.Draw, Theory: table.Draw, Distance: -1, DTW: -1}
	}
	return table.ClassOf(table.MaterialOf(q)), r.Entry
}

// settle makes entry i of t, read from its file, the real entry of its
// position q, unless a lookup has done so already. A quiet position's
// entry is real as read: it is only marked final, so that later lookups
// skip the capture test. A capture position's is resolved: the outcome
// of q's captures, all into smaller tables. Resolving on first use,
// rather than every capture position as the table is read, spares the
// search of the many that no lookup reaches.
func (s *store) settle(t *solved, i int64, q *draughts.Position) {
	w, bit := i/64, uint64(1)<<(i%64)
	if atomic.LoadUint64(&t.final[w])&bit != 0 {
		return
	}
	if !q.HasCapture() {
		atomic.OrUint64(&t.final[w], bit)
		return
	}
	cs := table.NewCaptures(t.class)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range q.Moves(buf[:0]) {
		o := s.outcome(t.class, new(q.Play(m)))
		cs.Add(o[0], o[1])
	}
	e := cs.Entry()
	mu := &s.writing[w%int64(len(s.writing))]
	mu.Lock()
	if atomic.LoadUint64(&t.final[w])&bit == 0 {
		t.cols.Set(i, e)
		atomic.OrUint64(&t.final[w], bit) // after the entry: readers test the bit first
	}
	mu.Unlock()
}

// failed returns the error of the first lookup that failed, if any.
func (s *store) failed() error {
	if err := s.err.Load(); err != nil {
		return *err
	}
	return nil
}

// lost reports whether the side to move in q has no pieces: the game is
// over and no table holds q.
func lost(q *draughts.Position) bool { return q.Pieces(q.Side) == 0 }

// outcome returns the outcomes of q, theoretical and under the rules seen
// from a position of class from.
func (s *store) outcome(from table.Class, q *draughts.Position) [2]table.Outcome {
	if lost(q) {
		return [2]table.Outcome{{Value: table.Loss}, {Value: table.Loss}}
	}
	if t, i := s.locate(q); t != nil {
		return outcomesAt(&t.cols, i, from, t.class)
	}
	to, e := s.probe(q)
	return [2]table.Outcome{e.TheoryOutcome(), e.RulesOutcome(from, to)}
}

// outcomesAt returns the outcomes, theoretical and under the rules seen
// from a position of class from, of entry i of c, in a table of class to
// whose columns are those lookupColumns keeps. Where only the values are
// kept (no dtw, and to's clock does not carry) they are the outcomes.
func outcomesAt(c *table.Columns, i int64, from, to table.Class) [2]table.Outcome {
	if !c.Has(table.DistanceColumn) && !c.Has(table.DTWColumn) {
		theory, rules := c.Values(i)
		return [2]table.Outcome{{Value: theory}, {Value: rules}}
	}
	e, _ := c.Entry(i)
	return [2]table.Outcome{e.TheoryOutcome(), e.RulesOutcome(from, to)}
}
