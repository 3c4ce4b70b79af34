// Package probe looks positions up in a directory of endgame tables.
//
//	t, err := probe.Open("tables", probe.Options{})
//	if err != nil {
//		return err
//	}
//	defer t.Close()
//	pos, _ := draughts.ParseFEN("W:WK10:BK5")
//	r, err := t.Probe(pos, probe.Clocks{}, 0)
//	// r.Value == rules.Win, r.Entry.Distance == 3
//
// Open reads the directory's manifest; each table is opened on its first
// use: its value file, and its distance file when a probe first needs a
// distance. A Tables is safe for concurrent use by many goroutines: files
// are opened once, and blocks are kept in a bounded cache (their 1-byte
// columns as run-length tokens read in place, package runs: 25 to 50
// positions a byte of a value column; the blocks probed most decoded, a
// byte a position, in a sixteenth of it) that a probe of a cached block
// reads without taking a lock (see cache.go).
//
// Probe is the one lookup. Its Result holds the entry exactly as the
// generator (package retro) computed it, including for positions whose
// side to move must capture: those hold no real value on disk
// (table.RulesCapturesDontCare) and are resolved by a search over the
// captures, each capture's result probed in turn; a resolved table
// (table.RulesFlagsResolved, such as the generator keeps for its own
// lookups) holds them and needs no search. With it come the rules value
// under the game's running clocks (Clocks) and the clock the entry's
// distance counts. For a search, the flag ValuesOnly reads the value
// files alone while the clocks are fresh, so that the cache holds value
// blocks only and an engine's directory may lack the distance files; the
// flag CacheOnly keeps a probe off the disk: it fails with ErrNotCached
// where it would read a block. At the root, RootMoves values every legal
// move, best first:
//
//	moves, err := t.RootMoves(pos, probe.Clocks{})
//	// moves[0].Move is the best move, moves[0].Value its value
//
// # What an engine passes
//
// The rules value of an entry assumes the clocks as they stand when the
// material arose. An engine passes the clocks of its game as Clocks, from
// its game history, both as plies already played:
//
//   - Rule2: the plies played since the last man move or capture (the
//     count of the 25-move king rule, rule 2; 0 right after one). It
//     matters where both sides have a king and the position is of neither
//     class A nor B (rules.Rule2).
//   - Class: in a class A or B position, the plies played on its class
//     clock (16-move and 5-move rules) since the ply that produced the
//     class material, 0 on that ply; max(a+1-22, 0) after a capture from
//     class A, with a plies played there, into class B.
//
// The two never run at once: a class material arises only by a capture
// or a man move, which restarts the rule-2 count, and in class A or B only
// the class clock counts. Each is ignored where it does not apply; the
// zero Clocks are both as they stand on the ply that produced the
// position's material. Inside a search, RootMoves shows how they advance:
// a move inside class A or B adds a ply to the class clock, a quiet king
// move adds a ply to the rule-2 count, a capture or man move restarts the
// count. Tables built before rule 2 was tracked (TracksRule2 false)
// ignore the rule-2 count: their rules values assume the count never
// runs out.
package probe

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Options configure Open.
type Options struct {
	// CacheBytes bounds the blocks kept in memory (cache.go); 0 (or less)
	// means 64 MiB.
	CacheBytes int64
}

// ErrMissing is wrapped by the error of a probe whose material has no
// table in the directory.
var ErrMissing = errors.New("no table")

// MissingError is the error of a probe that needs a table the directory
// lacks: the table of the position itself, or of a position its captures
// lead to. It wraps ErrMissing.
type MissingError struct {
	Material index.Material // the material of the missing table
}

func (e *MissingError) Error() string { return fmt.Sprintf("no table for %s", e.Material) }

// Unwrap returns ErrMissing.
func (e *MissingError) Unwrap() error { return ErrMissing }

// ErrIllegal is wrapped by the error of a probe of a position that no
// table holds: not a legal position, or one whose game is over.
var ErrIllegal = errors.New("not a legal position")

// ErrNotCached is the error of a cache-only probe (CacheOnly) that would
// have to read a table file.
var ErrNotCached = errors.New("not in the cache")

// ErrNotStored is the error of a probe with StoredOnly of a position that
// the files do not store: one that must capture, a forced threat that a
// slim directory's table leaves out, or one of a table answered by a
// search through its colour flip.
var ErrNotStored = errors.New("not stored")

// maxPieces is the most pieces a material may have: the index of some
// materials with more does not fit in an int64.
const maxPieces = 14

// Tables is a directory of tables opened for probing.
type Tables struct {
	files []*file          // by Material.Slot: index.Slots of them
	mats  []index.Material // index.Materials order
	cache cache
}

// file is one table file, opened on first use.
type file struct {
	path   string
	dir    string               // the directory of a table opened from its manifest (Open)
	listed *codec.ManifestEntry // and its entry there, nil for a table added
	m      index.Material

	// from, for a table not stored, is the table of its colour flip, which
	// answers its positions by a search (Tables.searched); f itself has no
	// file.
	from *file

	once      sync.Once
	opened    atomic.Bool // once has run: err, class, layout and, for a stored table, r, x, blockSize and blocks are set
	err       error       // of opening
	class     rules.Class // under the file's rules (table.Info)
	rule2     bool        // the file's rules value tracks rule 2 (table.Info)
	resolved  bool        // capture positions hold their entries (table.Info)
	marked    bool        // the value bytes mark FreshOnly (table.Info)
	short     bool        // the distance file leaves out short rule-2 distances (table.Info)
	threats   bool        // forced threats are don't-cares on disk (table.Info)
	alone     bool        // the directory holds the values alone (table.File.ValuesAlone)
	layout    table.Layout
	r         *table.File
	x         *index.Index
	blockSize int64
	blocks    [numParts][]atomic.Pointer[block] // the cached blocks, by part and number; nil for a part the file lacks
	mem       atomic.Pointer[block]             // the whole table after Preload, capture positions resolved
}

var errClosed = errors.New("tables closed")

// Open reads dir's manifest and returns the tables it lists. It opens no
// table file. Each file is checked against the manifest when it is opened
// (table.OpenListed): a table the manifest does not vouch for is damaged.
func Open(dir string, o Options) (*Tables, error) {
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	t := New(o)
	for _, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err == nil {
			f := &file{path: filepath.Join(dir, e.File), dir: dir, listed: &e, m: m}
			err = t.add(m, f)
			if err == nil && e.Searched != "" {
				err = t.addSearched(e.Searched, f)
			}
		}
		if err != nil {
			return nil, &codec.FileError{Path: filepath.Join(dir, codec.ManifestName), Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("entry %q: %v", e.File, err), Err: err}
		}
	}
	return t, nil
}

// addSearched adds the table of the material named searched, answered by
// a search through from, the table of its colour flip.
func (t *Tables) addSearched(searched string, from *file) error {
	m, err := index.ParseMaterial(searched)
	switch {
	case err != nil:
		return err
	case m != from.m.Flip() || m == from.m:
		return fmt.Errorf("searched %s is not the colour flip of %s", m, from.m)
	case rules.ClassOf(m).Carries():
		return fmt.Errorf("searched %s is of class %v, whose tables are stored", m, rules.ClassOf(m))
	}
	return t.add(m, &file{path: from.path, m: m, from: from})
}

// New returns Tables without tables; Add adds them. Open is New and Add
// for every table of a directory's manifest.
func New(o Options) *Tables {
	if o.CacheBytes <= 0 {
		o.CacheBytes = 64 << 20
	}
	return &Tables{files: make([]*file, index.Slots), cache: cache{limit: o.CacheBytes}}
}

// Add adds the table of m in the file at path, which is opened on its
// first use; adding m again replaces the file its table is read from,
// closing the one before. It must not run concurrently with other
// methods of t.
func (t *Tables) Add(m index.Material, path string) error {
	return t.add(m, &file{path: path, m: m})
}

// add adds the table of m in f, not yet opened (see Add).
func (t *Tables) add(m index.Material, f *file) error {
	if m.Pieces() > maxPieces {
		return fmt.Errorf("more than %d pieces", maxPieces)
	}
	if old := t.files[m.Slot()]; old != nil {
		old.close()
	} else {
		i, _ := slices.BinarySearchFunc(t.mats, m, index.Compare)
		t.mats = slices.Insert(t.mats, i, m)
	}
	t.files[m.Slot()] = f
	return nil
}

// Close closes the table files. The Tables must not be used afterwards.
func (t *Tables) Close() error {
	var errs []error
	for _, m := range t.mats {
		errs = append(errs, t.files[m.Slot()].close())
	}
	return errors.Join(errs...)
}

// close closes f's file, if it was opened; f must not be used afterwards.
// Its blocks in the cache stay there until evicted.
func (f *file) close() error {
	f.once.Do(func() { f.err = errClosed })
	if f.r != nil {
		return f.r.Close()
	}
	return nil
}

// Materials returns the materials that have a table, in the order of
// index.Materials.
func (t *Tables) Materials() []index.Material { return slices.Clone(t.mats) }

// Header returns the file header of the table of m; a table answered by
// a search through its colour flip has none: an error wrapping
// ErrNotStored.
func (t *Tables) Header(m index.Material) (codec.Header, error) {
	f, err := t.file(m, false)
	if err != nil {
		return codec.Header{}, err
	}
	if f.from != nil {
		return codec.Header{}, fmt.Errorf("%s: %w in this slim directory: a search through %s answers it (the directory dtb gen built has its file)", m, ErrNotStored, f.from.m)
	}
	return f.r.Header(), nil
}

// file returns the opened table of m, opening it unless cachedOnly is
// set, in which case a table not yet opened is ErrNotCached.
func (t *Tables) file(m index.Material, cachedOnly bool) (*file, error) {
	var f *file
	if s := m.Slot(); s < len(t.files) { // a material of more than 15 pieces of a kind has none
		f = t.files[s]
	}
	if f == nil || f.m != m {
		return nil, &MissingError{Material: m}
	}
	return f, f.ensureOpen(cachedOnly)
}

// ensureOpen opens f unless it is open, or fails with ErrNotCached if
// cachedOnly is set.
func (f *file) ensureOpen(cachedOnly bool) error {
	if !f.opened.Load() {
		if cachedOnly {
			return ErrNotCached
		}
		f.once.Do(func() {
			f.err = f.open()
			f.opened.Store(true)
		})
	}
	return f.err
}

// open opens the file and checks that its header fits its material; a
// table not stored takes what it needs from the table it is searched
// through, which must be marked where its material has a rule-2 count.
func (f *file) open() (err error) {
	if g := f.from; g != nil {
		if err := g.ensureOpen(false); err != nil {
			return err
		}
		if g.class == rules.Rule2 && !g.marked {
			return &codec.FileError{Path: g.path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("rules flags %#x: not marked, so it cannot answer %s by a search", g.r.Header().Rules, f.m)}
		}
		f.x, f.class, f.rule2, f.resolved, f.layout, f.alone = index.New(f.m), g.class, g.rule2, g.resolved, g.layout, g.alone
		return nil
	}
	if f.listed != nil {
		f.r, err = table.OpenListed(f.dir, *f.listed, f.m)
	} else {
		f.r, err = table.Open(f.path, f.m)
	}
	if err != nil {
		return err
	}
	f.x, f.class, f.rule2, f.resolved, f.marked, f.layout = index.New(f.m), f.r.Class, f.r.Rule2, f.r.Resolved, f.r.Marked, f.r.Layout
	f.short = f.r.Short && f.class == rules.Rule2
	f.threats, f.alone = f.r.Threats, f.r.ValuesAlone
	f.blockSize = int64(f.r.Header().BlockSize)
	n := (f.x.Size() + f.blockSize - 1) / f.blockSize
	f.blocks[values] = make([]atomic.Pointer[block], n)
	for p := distances; p < numParts; p++ {
		for col := columns[p][0]; col < columns[p][1]; col++ {
			if f.layout.Has(col) {
				f.blocks[p] = make([]atomic.Pointer[block], n)
				break
			}
		}
	}
	return nil
}

// Flags modify a probe.
type Flags uint8

// CacheOnly makes a probe never touch the disk: where it would open a
// table file or read a block not in the cache, it fails with ErrNotCached.
// A search can probe with it at every node and leave the reads to probes
// near the root.
const CacheOnly Flags = 1

// ValuesOnly makes a probe with fresh clocks read the value files alone
// (and the distance column of class A and B, whose rules values need
// it): its Entry's DTW and MTC are -1, and its Distance outside class A
// and B, except where the search of a capture position finds them. With
// running clocks it reads the distance column. It never reads dtw or
// mtc. A search probes with it: a directory may then hold value files
// without their distance files, and the cache holds value blocks and
// the few distance columns of class A and B alone. A table whose
// directory holds its values alone (a slim directory written without
// distances, table.File.ValuesAlone) is always probed so; a probe of it
// with running clocks fails, saying so, as does RootMoves.
const ValuesOnly Flags = 2

// StoredOnly makes a probe answer only positions whose entry a file
// stores: a position that must capture (a don't-care on disk), a forced
// threat that a slim directory's table leaves out (rules.ForcedThreat,
// table.RulesForcedThreats) or a position
// of a table answered by a search (package slim) fails with ErrNotStored
// instead of being searched, for an engine that searches
// them itself; so does a win or loss of a table whose distance file
// leaves out the short rule-2 distances (table.RulesShortDistances)
// wherever the probe needs its distance. A table preloaded into memory
// (Preload) answers all its positions: none needs a search.
const StoredOnly Flags = 4

// WithDistances makes a probe read the distances of a table whose
// directory holds its values alone (table.File.ValuesAlone), and so fail
// with an error wrapping fs.ErrNotExist that says they are not there,
// where without it the probe reads that table as with ValuesOnly.
// RootMoves, which orders moves by their distances, probes with it, as
// does a verifier.
const WithDistances Flags = 8

// Result is what the tables say of a position under the running clocks.
type Result struct {
	// Entry is the position's entry, exactly as the generator computed it:
	// its Rules is the value with the clocks as they stand when the
	// material arose.
	Entry rules.Entry
	// Value is the value under the rules with the clocks passed.
	Value rules.Value
	// Class is the class of the position's table under its file's rules
	// (Tables.Class): the clock Entry.Distance counts (the class clock of
	// class A or B, the rule-2 count of Rule2), NoClass for none.
	Class rules.Class
	// Rule2Tracked is false for a table built before rule 2 was tracked:
	// its rules values ignore the 25-move king rule, and so does Value.
	Rule2Tracked bool
	// ValuesAlone reports that the position's table was read as with
	// ValuesOnly because its directory holds its values alone: Entry has
	// no distances, though the table has them.
	ValuesAlone bool
}

// Probe returns the entry of p with its value under the rules with the
// clocks c (which change Value alone) and the clock its distance counts.
// A position whose side to move has no pieces (and the other side some)
// is lost at distance 0 without a table. Probe returns a *MissingError if
// a table it needs is not in the directory, a *codec.FileError (naming
// the file and block) if a table is damaged, Check's error for a position
// that no table holds, and ErrNotCached if f has CacheOnly and a table
// would have to be read.
func (t *Tables) Probe(p draughts.Position, c Clocks, f Flags) (Result, error) {
	var r Result
	err := t.probeCut(&r, p, c, f, exact)
	return r, err
}

// A cut bounds the search of a position whose values only matter to its
// caller, with ValuesOnly, below a theoretical and a rules value (for the
// side to move): once the moves searched reach both, the other moves
// cannot change what the caller computes (the caller's own best so far,
// seen from the other side), so the search stops, and the entry it
// returns holds values no higher than the position's, without distances
// that mean anything. This is the cut of alpha-beta search on the
// caller's best. Entries found under a cut are never returned by Probe.
type cut struct{ theory, rules rules.Value }

// exact is the cut of a search that must find the position's entry.
var exact = cut{rules.Win + 1, rules.Win + 1}

// reached reports whether moves whose values are theory and rules reach
// the cut.
func (c cut) reached(theory, ru rules.Value) bool {
	return theory >= c.theory && ru >= c.rules
}

// cutBelow returns the cut of a successor of a position whose moves so far
// are ms: the successor's values matter only where they are low enough to
// raise those of ms.
func cutBelow(ms *rules.Moves) cut {
	theory, ru := ms.Values()
	return cut{theory.Neg(), ru.Neg()}
}

// probeCut sets *r to the result of probe of p under the cut k; *r is the
// zero Result where it fails. It fills *r where its caller keeps it,
// sparing a copy of each field; p is passed by value, so that a
// successor made in a search's loop stays on the stack.
func (t *Tables) probeCut(r *Result, p draughts.Position, c Clocks, fl Flags, k cut) error {
	if err := Check(p); err != nil {
		return err
	}
	if p.Pieces(p.Side) == 0 {
		*r = Result{Entry: rules.Entry{Rules: rules.Loss, Theory: rules.Loss}, Value: rules.Loss, Rule2Tracked: true}
		return nil
	}
	cachedOnly := fl&CacheOnly != 0
	f, err := t.file(rules.MaterialOf(&p), cachedOnly)
	if err != nil {
		return err
	}
	if f.alone && fl&WithDistances == 0 {
		fl |= ValuesOnly
	}
	e := &r.Entry
	fresh := false // e is marked FreshOnly, and read without distances
	exact := true  // e's distance is known (see exactDistance)
	switch {
	case f.mem.Load() != nil:
		_, err = t.stored(e, f, f.x.Rank(rules.Placement(&p)), cachedOnly, extras)
	case f.from != nil || !f.resolved && p.HasCapture() || f.threats && rules.ForcedThreat(&p): // not stored
		if fl&StoredOnly != 0 {
			return ErrNotStored
		}
		*e, err = t.searched(&p, f, c, fl, k)
	default:
		last := values
		switch {
		case fl&ValuesOnly == 0:
			last = extras
		case !c.fresh() && !c.marked(f) || f.class.Carries():
			last = distances
		}
		dist := last != values
		fresh, err = t.stored(e, f, f.x.Rank(rules.Placement(&p)), cachedOnly, last)
		if err == nil && dist && f.short && e.Theory != rules.Draw {
			exact, err = t.exactDistance(&p, e, c, fl)
		}
	}
	if err != nil {
		*r = Result{}
		return err
	}
	r.Value, r.Class, r.Rule2Tracked, r.ValuesAlone = e.Rules, f.class, f.rule2, f.alone
	switch {
	case c.marked(f) && e.Distance < 0 && e.Rules != rules.Draw:
		// Read without distances: a count one ply on draws what only a
		// fresh one wins or loses.
		if fresh {
			r.Value = rules.Draw
		}
	case !exact: // the count leaves more plies than the distance can be
		r.Value = e.Theory
	case !c.fresh(): // else c.Value(r.Class, e) is e.Rules
		r.Value = c.Value(r.Class, *e)
	}
	return nil
}

// Class returns the class of m under the rules of its table file: which
// clock the distance of its entries counts (table.Info.Class). It is
// rules.ClassOf(m) except for a table built before rule 2 was tracked,
// whose Rule2 materials have no clock (NoClass). It opens the file.
func (t *Tables) Class(m index.Material) (rules.Class, error) {
	f, err := t.file(m, false)
	if err != nil {
		return rules.NoClass, err
	}
	return f.class, nil
}

// TracksRule2 reports whether the table of m tracks the 25-move king rule
// (rule 2). A table built before it was tracked does not: its rules
// values ignore rule 2, as if the count never ran out, and the rule-2
// count of Clocks does not change them. It opens the file.
func (t *Tables) TracksRule2(m index.Material) (bool, error) {
	f, err := t.file(m, false)
	if err != nil {
		return false, err
	}
	return f.rule2, nil
}

// Check returns the error of a probe of p if no table holds it, nil
// otherwise: an error wrapping ErrIllegal that names p and says why:
// pieces off the board or on one square, a man on its crowning row, no
// pieces at all, or a side to move whose opponent has no pieces. (A side
// to move without pieces has lost: Probe answers it without a table.)
func Check(p draughts.Position) error {
	switch {
	case p.White&p.Black != 0 || (p.White|p.Black)&^draughts.Board != 0 ||
		p.Kings&^(p.White|p.Black) != 0 || p.Side > draughts.Black ||
		p.White&^p.Kings&draughts.WhiteCrown != 0 || p.Black&^p.Kings&draughts.BlackCrown != 0:
		return &illegalError{p.FEN() + ": not a legal position"}
	case p.White|p.Black == 0:
		return &illegalError{p.FEN() + ": no pieces on the board"}
	case p.Pieces(p.Side) != 0 && p.Pieces(p.Side.Opponent()) == 0:
		return &illegalError{fmt.Sprintf("%s: %v has no pieces: the game is over", p.FEN(), p.Side.Opponent())}
	}
	return nil
}

// illegalError is the error of Check: its message in words, wrapping
// ErrIllegal.
type illegalError struct{ msg string }

func (e *illegalError) Error() string { return e.msg }
func (e *illegalError) Unwrap() error { return ErrIllegal }

// noDistances is the distances of a block read without them: none, so
// that its entries hold the values alone. It is never written.
var noDistances table.Runs

// stored sets *e to the values stored for entry i of f, and the columns
// of its parts up to last (see part), reading their blocks unless
// cachedOnly is set, and reports whether the entry is marked FreshOnly.
func (t *Tables) stored(e *rules.Entry, f *file, i int64, cachedOnly bool, last part) (fresh bool, err error) {
	var v byte
	var ok bool
	if b := f.mem.Load(); b != nil {
		v = b.cols[table.ValueColumn][i]
		ok = b.cols.EntryAt(e, v, i)
	} else {
		n, j := i/f.blockSize, int(i%f.blockSize)
		b, err := t.cache.get(f, values, n, cachedOnly)
		if err != nil {
			return false, err
		}
		t.cache.count(f, values, n, b, j)
		v = b.value.At(j)
		var parts [numParts]*table.Runs
		for p := distances; p < numParts; p++ {
			parts[p] = &noDistances
			if p <= last && f.blocks[p] != nil {
				b, err := t.cache.get(f, p, n, cachedOnly)
				if err != nil {
					return false, err
				}
				t.cache.count(f, p, n, b, j)
				parts[p] = &b.dist
			}
		}
		ok = table.EntryAt(e, v, j, parts[distances], parts[extras])
	}
	fresh = v&table.FreshOnly != 0
	if !ok || fresh && !f.marked {
		return false, &codec.FileError{Path: f.path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("entry %d: bad value byte %#x", i, v)}
	}
	return fresh, nil
}

// captures resolves a capture position of f's material as the generator
// does (rules.Moves): from its successors, each probed in turn; under
// the rules each successor's outcome is seen through the clock that
// carries over the capture (table.RulesOutcome). The successors are
// probed with the flags fl. Under a cut other than exact, with
// ValuesOnly and a class whose rules values need no distance, it stops
// where the cut says (see cut), and so does the search of each successor.
func (t *Tables) captures(p *draughts.Position, f *file, fl Flags, k cut) (rules.Entry, error) {
	cs := rules.NewMoves(f.class)
	cutting := k != exact && fl&ValuesOnly != 0 && !f.class.Carries()
	dtw := f.layout.Has(table.DTWColumn)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		next := exact
		if cutting {
			next = cutBelow(&cs)
		}
		var r Result
		if err := t.probeCut(&r, p.Play(m), Clocks{}, fl, next); err != nil {
			return rules.Entry{}, err
		}
		s := r.Entry
		cs.AddConversion(s.TheoryOutcome(), s.RulesOutcome(f.class, r.Class))
		dtw = dtw && (s.Theory == rules.Draw || s.DTW >= 0)
		if cutting && k.reached(cs.Values()) {
			break
		}
	}
	e := cs.Entry()
	if !dtw {
		e.DTW = -1
	}
	if !f.layout.Has(table.MTCColumn) {
		e.MTC = -1
	}
	return e, nil
}

// searched answers a position that no file stores, as its generator
// solved it (rules.Moves): a capture position from its captures
// (captures), any other from its moves: a position of a table searched
// through the table of its colour flip (Open), which holds its
// successors (Black to move) but after a crowning, or a forced threat
// (rules.ForcedThreat), whose successors must capture. Under the rules,
// a quiet king move carries the rule-2 count one ply on: with fresh
// clocks and ValuesOnly, the successor's value one ply on comes from the
// marks of its value file (table.FreshOnly), with its distances
// otherwise (a successor that must capture finds its own). Its Entry
// then lacks the distances, as a stored one read with ValuesOnly, and
// the search stops at the first move that wins in theory and under the
// rules, or where the cut k says; each successor is searched under the
// cut of the moves before it.
func (t *Tables) searched(p *draughts.Position, f *file, c Clocks, fl Flags, k cut) (rules.Entry, error) {
	if p.HasCapture() {
		return t.captures(p, f, fl, k)
	}
	values := fl&ValuesOnly != 0 && c.fresh()
	if !values && f.from != nil {
		// Under a running count a king move's successor needs its
		// distance; a forced threat's successors, which must capture,
		// find theirs.
		fl &^= ValuesOnly
	}
	ms := rules.NewMoves(f.class)
	dtw, mtc := f.layout.Has(table.DTWColumn), f.layout.Has(table.MTCColumn)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		king := p.Kings&draughts.Bit(m.FromSquare()) != 0
		next := Clocks{}
		if king && values {
			next = Clocks{Rule2: 1}
		}
		sk := exact
		if values {
			sk = cutBelow(&ms)
		}
		var r Result
		if err := t.probeCut(&r, p.Play(m), next, fl, sk); err != nil {
			return rules.Entry{}, err
		}
		s := r.Entry
		switch {
		case !king:
			ms.AddConversion(s.TheoryOutcome(), s.RulesOutcome(f.class, r.Class))
		case values:
			ms.Add(s.TheoryOutcome(), rules.Outcome{Value: r.Value}, s.MTCOutcome())
		default:
			ms.AddKingMove(s)
		}
		dtw = dtw && (s.Theory == rules.Draw || s.DTW >= 0)
		mtc = mtc && (s.Theory == rules.Draw || s.MTC >= 0)
		if values && (ms.Won() || k.reached(ms.Values())) {
			break // the values are known, or matter no more; their distances are not read
		}
	}
	e := ms.Entry()
	if !dtw || values {
		e.DTW = -1
	}
	if !mtc || values {
		e.MTC = -1
	}
	if values && f.class == rules.Rule2 {
		e.Distance = -1
	}
	return e, nil
}

// exactDistance sets the distance of e, the entry of p read from f, a
// table whose distance file leaves out the short rule-2 distances
// (table.RulesShortDistances), to the exact one: the distance a search
// finds if it is at most table.ShortDistance plies (shortDistance), else
// the byte read. With ValuesOnly, where the running count leaves at least
// as many plies as the byte read and table.ShortDistance, neither the
// search nor the distance is needed: the position has its theoretical
// value; e's distance is then left out (-1) and exact is false. Else
// StoredOnly fails with ErrNotStored.
func (t *Tables) exactDistance(p *draughts.Position, e *rules.Entry, c Clocks, fl Flags) (exact bool, err error) {
	stored := e.Distance
	if stored < 0 {
		stored = table.NoDistance
	}
	if left := c.left(rules.Rule2); fl&ValuesOnly != 0 && left >= max(stored, table.ShortDistance) {
		e.Distance = -1
		return false, nil
	}
	if fl&StoredOnly != 0 {
		return true, ErrNotStored // the byte read may be a don't-care
	}
	d, err := t.shortDistance(p, e.Theory, table.ShortDistance, fl)
	if err == nil && d >= 0 {
		e.Distance = d
	}
	return true, err
}

// shortDistance returns the rule-2 distance of p, a position of a Rule2
// material of theoretical value theory (a win or a loss), if it is at
// most k plies, and -1 if it is longer or there is none: the minimax of
// rules.Moves, searched k plies deep with the successors' values under
// the rules. A capture or man move counts 1 ply if its successor is won
// for the side that made it (its stored rules value: the count starts
// afresh); a quiet king move 1 ply more than its successor's distance.
// The winner's search stops at its first 1-ply win and looks no deeper
// than its best so far; the loser's stops at the first move that escapes
// the bound.
func (t *Tables) shortDistance(p *draughts.Position, theory rules.Value, k int, fl Flags) (int, error) {
	var buf [draughts.MaxMoves]draughts.Move
	moves := p.Moves(buf[:0])
	switch {
	case len(moves) == 0:
		return 0, nil // lost
	case k == 0:
		return -1, nil
	}
	fl = fl&CacheOnly | ValuesOnly
	capture := p.HasCapture()
	quiet := func(m draughts.Move) bool { return !capture && p.Kings&draughts.Bit(m.FromSquare()) != 0 }
	// The winner tries its conversions first, each a win in 1 ply or
	// none; the loser its quiet moves, which most often escape the bound.
	order := [2]bool{true, false} // conversions, then quiet moves
	if theory == rules.Loss {
		order = [2]bool{false, true}
	}
	best := -1
	for _, conversions := range order {
		for _, m := range moves {
			if quiet(m) == conversions {
				continue
			}
			d := -1 // the move's distance, -1 for none within the bound
			if conversions {
				r, err := t.Probe(p.Play(m), Clocks{}, fl)
				if err != nil {
					return -1, err
				}
				if r.Entry.Rules == theory.Neg() {
					d = 1
				}
			} else {
				limit := k - 1
				if theory == rules.Win && best >= 0 {
					limit = min(limit, best-2) // to beat best
				}
				if limit < 0 {
					break
				}
				q := p.Play(m)
				dq, err := t.shortDistance(&q, theory.Neg(), limit, fl)
				if err != nil {
					return -1, err
				}
				if dq >= 0 {
					d = 1 + dq
				}
			}
			switch {
			case theory == rules.Loss && d < 0:
				return -1, nil // an escape
			case theory == rules.Loss:
				best = max(best, d)
			case d == 1:
				return 1, nil
			case d >= 0 && (best < 0 || d < best):
				best = d
			}
		}
	}
	return best, nil
}
