package retro

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// solved is one solved table, in one of the states of tableState.
type solved struct {
	x     *index.Index
	class rules.Class
	state tableState
	path  string
	// copy, if set, is the path of a resolved copy of the table (see
	// resolvedCopy). The store's reader reads it instead of path.
	copy  string
	cols  table.Columns // those lookupColumns keeps, while in memory
	stats table.Stats   // from the file's header
	// final marks the positions whose entry in cols is known to be real,
	// while the table is readInMemory. A capture position is marked once
	// resolved. A quiet one is marked once a lookup has found it quiet.
	final []uint64
}

// tableState is where the store finds the entries of a solved table. A
// table solved in this run has the real entry of every position. Its
// file holds capture positions as don't-cares. A table read from its
// file resolves them from their successors. It does so on first use (see
// store.resolve) or through the reader (internal/reader).
type tableState uint8

const (
	solvedInMemory tableState = iota // solved in this run, its entries in memory
	readInMemory                     // read from its file, its entries in memory, resolved on first use
	onDisk                           // read through the reader from its file
	copiedOnDisk                     // read through the reader from its resolved copy
	spilled                          // dropped by store.shrink, its entries in a spill until store.unspill; as onDisk meanwhile
)

var stateNames = [...]string{"solved in memory", "read in memory", "on disk", "copied on disk", "spilled"}

func (s tableState) String() string { return stateNames[s] }

// inMemory reports whether a table in state s has its entries in memory.
func (s tableState) inMemory() bool { return s == solvedInMemory || s == readInMemory }

// stateMoves are the changes of state a table may make. Each is made by
// one method of store. A put keeps a table in memory or reads it from
// disk. A shrink spills it. An unspill restores a spill, or leaves the
// table on disk.
var stateMoves = map[[2]tableState]bool{
	{solvedInMemory, onDisk}: true, {readInMemory, onDisk}: true, // put, no room
	{solvedInMemory, spilled}: true, {readInMemory, spilled}: true, // shrink
	{spilled, solvedInMemory}: true, {spilled, readInMemory}: true, {spilled, onDisk}: true, // unspill
}

// become moves t to state to, with cols as its entries in memory. A move
// to readInMemory also gets a fresh resolution bitmap. It panics if the
// build made a move that stateMoves does not list, or left t
// inconsistent.
func (t *solved) become(to tableState, cols table.Columns) {
	if !stateMoves[[2]tableState{t.state, to}] {
		panic(fmt.Sprintf("retro: table %v moved from %v to %v", t.x.Material(), t.state, to))
	}
	t.state, t.cols, t.final = to, cols, nil
	if to == readInMemory {
		t.final = make([]uint64, (t.x.Size()+63)/64)
	}
	t.check()
}

// check panics if t's fields do not agree with its state.
func (t *solved) check() {
	if t.state.inMemory() != t.cols.Has(table.ValueColumn) || (t.state == readInMemory) != (t.final != nil) ||
		(t.state == copiedOnDisk) != (t.copy != "") {
		panic(fmt.Sprintf("retro: table %v %v with values %v, bitmap %v, copy %q", t.x.Material(), t.state, t.cols.Has(table.ValueColumn), t.final != nil, t.copy))
	}
}

// lookupColumns removes from c the columns that a solve's external
// successors never read (see lookupColumn). Every lookup reads the
// columns c keeps, each a likely cache miss.
func lookupColumns(c *table.Columns, class rules.Class) {
	for col := range c {
		if !lookupColumn(table.Column(col), class) {
			c[col] = nil
		}
	}
}

// lookupColumn reports whether a solve's external successors read column
// col in a group of class class (see store.outcome). They read every
// column but the mtc. They skip the distance too where the class's clock
// does not carry over a capture or man move.
func lookupColumn(col table.Column, class rules.Class) bool {
	return col != table.MTCColumn && (col != table.DistanceColumn || class.Carries())
}

// bytes returns the memory s takes.
func (s *solved) bytes() int64 {
	var n int64
	for _, c := range s.cols {
		n += int64(len(c))
	}
	return n + 8*int64(len(s.final))
}

// store holds the solved tables that groups still to be solved read. It
// holds them in memory while they fit in limit bytes. Else they are read
// from their files through a reader (internal/reader). It keeps a
// bounded cache of decoded blocks and resolves capture positions by
// search. The store is filled between solves and only read during one.
type store struct {
	tables [index.Slots]*solved // by Material.Slot
	limit  int64                // bytes of tables in memory
	used   int64
	disk   *reader.Tables
	err    atomic.Pointer[error] // of the first lookup that failed
	// writing serialises the writes of resolved entries, striped by
	// their word of solved.final.
	writing [64]sync.Mutex
}

// newStore returns a store for the memory budget mem (0: no bound). The
// tables in memory and the reader's cache get the budget's shares.
func newStore(mem int64) *store {
	if mem <= 0 {
		return &store{limit: math.MaxInt64, disk: reader.New(reader.Options{})}
	}
	return &store{limit: budget(mem).store(), disk: reader.New(reader.Options{CacheBytes: budget(mem).cache()})}
}

func (s *store) get(m index.Material) *solved { return s.tables[m.Slot()] }

// fits reports whether a table of n bytes can be held in memory.
func (s *store) fits(n int64) bool { return s.used+n <= s.limit }

// put adds the table t of m to the store. It keeps t in memory if it
// fits. Else t is read from its file, or from its copy. A nil t makes the
// store forget the entries of the table of m. The resolved copy of that
// table, if any, is then removed.
func (s *store) put(m index.Material, t *solved) error {
	old := s.get(m)
	if old != nil {
		s.used -= old.bytes()
	}
	s.tables[m.Slot()] = t
	if t == nil {
		if old == nil || old.state != copiedOnDisk {
			return nil
		}
		// The reader may still resolve a capture position into m.
		if err := s.disk.Add(m, old.path); err != nil {
			return fmt.Errorf("%s: %v", old.path, err)
		}
		return os.Remove(old.copy)
	}
	t.check()
	// The reader knows every table, even those in memory. It resolves the
	// capture positions of a table on disk by probing smaller tables.
	path := t.path
	if t.state == copiedOnDisk {
		path = t.copy
	}
	if err := s.disk.Add(m, path); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if !t.state.inMemory() {
		return nil
	}
	lookupColumns(&t.cols, t.class)
	if s.fits(t.bytes()) {
		s.used += t.bytes()
		return nil
	}
	t.become(onDisk, table.Columns{})
	return nil
}

// shrink lowers the memory the tables in memory may take to n bytes, at
// least 0. It drops tables from memory until they fit, but not those
// that keep names. The tables dropped are read from their files
// meanwhile. Their entries are first spilled to a file in dir. So
// unspill can restore them as they were. A table solved in this run
// needs that: its file holds don't-cares at capture positions. It
// returns the tables dropped and a function that restores the limit.
// That function may be called more than once. Call neither during a
// solve.
func (s *store) shrink(n int64, keep func(m index.Material) bool, dir string) (dropped []spill, restore func()) {
	old := s.limit
	s.limit = max(n, 0)
	for _, t := range s.tables {
		if s.used <= s.limit {
			break
		}
		if t != nil && t.state.inMemory() && !keep(t.x.Material()) {
			s.used -= t.bytes()
			dropped = append(dropped, spillTable(t, filepath.Join(dir, table.FileName(t.x.Material())+spillExt)))
			t.become(spilled, table.Columns{})
		}
	}
	return dropped, func() { s.limit = old }
}

// spillExt ends the name of a spill file: a codec file of the columns a
// table held in memory.
const spillExt = ".spill"

// A spill is a table that store.shrink dropped from memory. The entries
// it held then are in a file of their own, at path. If writing it
// failed, path is "" and the table is read from its table file from then
// on.
type spill struct {
	t      *solved
	path   string
	header codec.Header
	from   tableState // the state t had
	bytes  int64      // of t in memory
}

// spillTable writes the columns t holds in memory to a codec file at
// path. It returns the spill, whose path is "" if the writing failed.
func spillTable(t *solved, path string) spill {
	sp := spill{t: t, from: t.state, bytes: t.bytes(), header: codec.Header{
		Material:     t.x.Material().String(),
		IndexVersion: table.IndexVersion,
		Rules:        table.Full.Rules(),
		Positions:    t.x.Size(),
	}}
	var data [][]byte
	for col, c := range t.cols {
		if c != nil {
			sp.header.Columns = append(sp.header.Columns, codec.Column{Name: table.Column(col).Name(), Width: table.Column(col).Width()})
			data = append(data, c)
		}
	}
	if codec.Write(path, sp.header, data) == nil {
		sp.path = path
	}
	return sp
}

// unspill puts the tables that shrink dropped back into memory from
// their spills, as far as they fit. It removes the spills. A table read
// from its file comes back with none of its capture positions resolved.
// A table that does not fit, or whose spill cannot be read back, stays
// read from its file.
func (s *store) unspill(dropped []spill) {
	for _, sp := range dropped {
		var cols table.Columns
		ok := false
		if sp.path != "" && s.fits(sp.bytes) {
			cols, ok = sp.read()
		}
		if ok {
			sp.t.become(sp.from, cols)
			s.used += sp.t.bytes()
		} else {
			sp.t.become(onDisk, table.Columns{})
		}
		if sp.path != "" {
			os.Remove(sp.path)
		}
	}
}

// read reads the columns of the spill back from its file. It returns
// false if the file is not what spillTable wrote.
func (sp spill) read() (cols table.Columns, ok bool) {
	r, err := codec.Open(sp.path)
	if err != nil {
		return cols, false
	}
	defer r.Close()
	h := r.Header()
	if h.Material != sp.header.Material || h.Positions != sp.header.Positions || !slices.Equal(h.Columns, sp.header.Columns) {
		return cols, false
	}
	for c, col := range h.Columns {
		k, _ := unitColumn(col.Name)
		if cols[k], err = r.ReadColumn(c); err != nil {
			return cols, false
		}
	}
	return cols, true
}

// locate returns the table in memory that holds position q, and q's
// index there. It makes q's entry real (see resolve). It returns nil if
// q's table is read from its file, or was forgotten. A table read from
// its file may still resolve a capture position into a forgotten table.
func (s *store) locate(q *draughts.Position) (*solved, int64) {
	t := s.get(rules.MaterialOf(q))
	if t == nil || !t.state.inMemory() {
		return nil, 0
	}
	i := t.x.Rank(rules.Placement(q))
	if t.state == readInMemory {
		s.resolve(t, i, q)
	}
	return t, i
}

// probe returns the class and entry of position q from its file. A
// failure to read it is kept for failed, and the entry is then a draw.
func (s *store) probe(q *draughts.Position) (rules.Class, rules.Entry) {
	r, err := s.disk.Probe(*q, reader.Clocks{}, 0)
	if err != nil {
		s.err.CompareAndSwap(nil, &err)
		r.Entry = rules.Entry{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1}
	}
	return rules.ClassOf(rules.MaterialOf(q)), r.Entry
}

// resolve makes entry i of t, a table read from its file, the real entry
// of its position q. It does nothing where a lookup did so already. A
// quiet position's entry is real as read. It is only marked final, so
// that later lookups skip the capture test. A capture position's entry
// becomes the outcome of q's captures, all into smaller tables. Entries
// are resolved on first use, not all as the table is read. That spares
// the search of the many capture positions that no lookup reaches.
func (s *store) resolve(t *solved, i int64, q *draughts.Position) {
	w, bit := i/64, uint64(1)<<(i%64)
	if atomic.LoadUint64(&t.final[w])&bit != 0 {
		return
	}
	if !q.HasCapture() {
		atomic.OrUint64(&t.final[w], bit)
		return
	}
	cs := rules.NewMoves(t.class)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range q.Moves(buf[:0]) {
		o := s.outcome(t.class, new(q.Play(m)))
		cs.AddConversion(o[0], o[1])
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

// lost reports whether the side to move in q has no pieces. The game is
// then over, and no table holds q.
func lost(q *draughts.Position) bool { return q.Pieces(q.Side) == 0 }

// outcome returns the outcomes of q, theoretical and under the rules seen
// from a position of class from.
func (s *store) outcome(from rules.Class, q *draughts.Position) [2]rules.Outcome {
	if lost(q) {
		return [2]rules.Outcome{{Value: rules.Loss}, {Value: rules.Loss}}
	}
	if t, i := s.locate(q); t != nil {
		return outcomesAt(&t.cols, i, from, t.class)
	}
	to, e := s.probe(q)
	return [2]rules.Outcome{e.TheoryOutcome(), e.RulesOutcome(from, to)}
}

// outcomesAt returns the outcomes of entry i of c: theoretical, and under
// the rules seen from a position of class from. The table has class to.
// Its columns are those lookupColumns keeps. Where only the values are
// kept (no dtw, and to's clock does not carry) they are the outcomes.
func outcomesAt(c *table.Columns, i int64, from, to rules.Class) [2]rules.Outcome {
	if !c.Has(table.DistanceColumn) && !c.Has(table.DTWColumn) {
		theory, ru := c.Values(i)
		return [2]rules.Outcome{{Value: theory}, {Value: ru}}
	}
	e, _ := c.Entry(i)
	return [2]rules.Outcome{e.TheoryOutcome(), e.RulesOutcome(from, to)}
}
