package verify

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/blockcache"
	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// memTable is a table that a check reads. A table of kings alone is held
// whole, as one entry per orbit of its placements under the board's
// symmetries (index.Orbits), that of the orbit's representative:
// symmetric positions have the same entry (see index.Canonical), so the
// others are read from the file as they are checked (checkValues).
// Another is read by blocks, each decoded when first read, its capture
// positions resolved, and kept while the verifier's cache has room.
type memTable struct {
	m      index.Material
	x      *index.Index
	class  rules.Class
	layout table.Layout
	file   *table.File // nil for a table answered by a search
	header table.Stats // from the file header, without example positions

	// A table of kings alone:
	orbits *index.Orbits
	cols   table.Columns // an entry per orbit
	// captures has bit n%64 of word n/64 set for the capture positions of
	// orbit n.
	captures []uint64

	// A table of kings alone checked without being held (see streams):
	// read from its file block by block, every position recomputed.
	streamed bool

	// Another:
	blockSize int64
	blocks    *blockcache.File[*block]
	read      func(b int) (*block, int64, error) // verifier.reader's
}

// slot returns where t holds the entry of placement p, position i (its
// orbit, or i for a material with men), and whether it holds p's own:
// whether p is its orbit's representative.
func (t *memTable) slot(p index.Placement, i int64) (n int64, held bool) {
	switch {
	case t.orbits == nil:
		return i, true
	case t.orbits.IsRepresentative(i):
		return t.orbits.RankRepresentative(i), true
	}
	n, _ = t.orbits.Rank(p)
	return n, false
}

// placementSlot returns the slot of placement p.
func (t *memTable) placementSlot(p index.Placement) int64 {
	if t.orbits != nil {
		n, _ := t.orbits.Rank(p)
		return n
	}
	return t.x.Rank(p)
}

// orbitEntry returns the entry of orbit n, in a table of kings alone.
func (t *memTable) orbitEntry(n int64) rules.Entry {
	e, _ := t.cols.Entry(n)
	return e
}

// capture reports whether orbit n holds capture positions, in a table of
// kings alone.
func (t *memTable) capture(n int64) bool { return t.captures[n/64]>>(n%64)&1 != 0 }

// entry returns the entry of slot n, reading its block if t has blocks.
func (v *verifier) entry(t *memTable, n int64) (rules.Entry, error) {
	if t.orbits != nil {
		return t.orbitEntry(n), nil
	}
	b, err := v.block(t, n/t.blockSize)
	if err != nil {
		return rules.Entry{}, err
	}
	e, _ := b.cols.Entry(n % t.blockSize)
	return e, nil
}

// open opens the table of m at path for a check to read: a table of
// kings alone is decoded whole, block by block, its capture positions
// resolved with the prober, and the forced threats and short rule-2
// distances of a slim directory's table (table.Info.Gap, ShortDistances);
// another is decoded by blocks as they are read (block).
func (v *verifier) open(ctx context.Context, path string, m index.Material) (*memTable, error) {
	t, err := v.openFile(ctx, path, m)
	if err != nil {
		return nil, err
	}
	if m.Men() != 0 {
		v.readByBlocks(t)
		return t, nil
	}
	t.newOrbits(v.o.Threads)
	err = v.blocksOf(ctx, t, func(lo int64, cols *table.Columns) error {
		return t.walk(lo, lo+cols.Len(), false, func(i int64, pl index.Placement, n int64, _ bool) error {
			p := rules.Position(pl)
			capture := p.HasCapture()
			e, _, err := v.stored(t.file, cols, i-lo, i, p, capture)
			if err == nil {
				t.set(n, e, capture)
			}
			return err
		})
	})
	if err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// openFile opens the table file of m at path, after loading the tables
// that resolve its capture positions (loadCaptures).
func (v *verifier) openFile(ctx context.Context, path string, m index.Material) (*memTable, error) {
	f, err := table.Open(path, m)
	if err != nil {
		return nil, err
	}
	if _, err := f.Readers(); err != nil { // a slim directory may lack the distance file
		f.Close()
		return nil, err
	}
	if err := v.loadCaptures(ctx, m); err != nil {
		f.Close()
		return nil, err
	}
	return fileTable(f, m), nil
}

// fileTable returns the table of f, of m, without its entries.
func fileTable(f *table.File, m index.Material) *memTable {
	t := &memTable{m: m, x: index.New(m), class: f.Class, layout: f.Layout, file: f, header: f.Stats,
		blockSize: int64(f.Header().BlockSize)}
	t.header.LongestDistanceFEN, t.header.LongestDTWFEN, t.header.LongestMTCFEN = "", "", ""
	return t
}

// describe returns the table of m without its entries or file: its
// layout, class and header stats, for the check of a table that an
// earlier run finished (progress).
func (v *verifier) describe(m index.Material) (*memTable, error) {
	if _, ok := v.searched[m]; ok {
		return v.searchedTable(m)
	}
	f, err := table.Open(v.path(m), m)
	if err != nil {
		return nil, err
	}
	f.Close()
	t := fileTable(f, m)
	t.file = nil
	return t, nil
}

// loadCaptures loads the tables that the captures from m's positions
// lead to, each after its own (see captures). It returns the error of
// the first listed that fails to load. A table not listed keeps its
// error, which the first capture into it returns.
func (v *verifier) loadCaptures(ctx context.Context, m index.Material) error {
	for _, n := range captureTables(m) {
		_, listed := v.entries[n]
		if _, err := v.table(ctx, n); err != nil && (listed || v.searched[n] != (index.Material{})) {
			return err
		}
	}
	return nil
}

// readByBlocks sets t, a table with men, to be read by blocks through
// the cache.
func (v *verifier) readByBlocks(t *memTable) {
	t.blocks = blockcache.NewFile[*block](int((t.x.Size() + t.blockSize - 1) / t.blockSize))
	t.read = v.reader(t)
}

// newOrbits numbers the orbits of t, a table of kings alone, and makes
// room for their entries.
func (t *memTable) newOrbits(threads int) {
	t.orbits = index.NewOrbits(t.x, threads)
	t.cols, t.captures = t.layout.MakeColumns(t.orbits.Len()), make([]uint64, (t.orbits.Len()+63)/64)
}

// set records e, the entry of orbit n, a capture position if capture.
func (t *memTable) set(n int64, e rules.Entry, capture bool) {
	t.cols.Set(n, e)
	if capture {
		atomic.OrUint64(&t.captures[n/64], 1<<(n%64)) // orbits of two chunks may share a word
	}
}

// bytes returns the bytes t holds whole.
func (t *memTable) bytes() int64 {
	n := int64(len(t.captures)) * 8
	for _, c := range t.cols {
		n += int64(len(c))
	}
	if t.orbits != nil {
		n += t.x.Size() / 7 // index.Orbits: about a seventh of a byte a placement
	}
	return n
}

// streams reports whether the check of m, a table of kings alone, reads
// it from its file instead of holding it whole: when it and its colour
// flip, which the check holds whole, do not fit in Options.Memory.
func (v *verifier) streams(m index.Material) bool {
	if _, ok := v.entries[m]; !ok || m.Men() != 0 || m == m.Flip() || v.o.Memory <= 0 {
		return false
	}
	info, err := v.pt.Info(m)
	if err != nil {
		return false // the check reports it
	}
	return wholeBytes(m, info.Layout)+wholeBytes(m.Flip(), info.Layout) > v.o.Memory
}

// wholeBytes returns about the bytes that the table of m, of kings alone
// with layout l, takes held whole (see memTable.bytes).
func wholeBytes(m index.Material, l table.Layout) int64 {
	orbits := index.OrbitCount(m)
	return orbits*int64(l.Width()) + orbits/8 + index.New(m).Size()/7
}

// close closes t's file.
func (t *memTable) close() {
	if t.file != nil {
		t.file.Close()
	}
}

// blocksOf calls do, on up to Options.Threads goroutines, with each block
// of t's file decoded, and the index of its first entry.
func (v *verifier) blocksOf(ctx context.Context, t *memTable, do func(lo int64, cols *table.Columns) error) error {
	return parallel.Chunks(ctx, t.x.Size(), t.blockSize, v.o.Threads, func(lo, hi int64) error {
		cols, err := t.file.ReadBlock(int(lo / t.blockSize))
		if err != nil {
			return err
		}
		return do(lo, &cols)
	})
}

// walk calls f with the positions i of t from lo to hi, their placements
// and slots (see slot), and stops at its first error. Unless all is set
// it leaves out the positions whose entries t does not hold.
func (t *memTable) walk(lo, hi int64, all bool, f func(i int64, pl index.Placement, n int64, held bool) error) error {
	pl := t.x.Unrank(lo)
	for i := lo; i < hi; i++ {
		if i > lo {
			pl, _ = t.x.Next(pl)
		}
		if !all && t.orbits != nil && !t.orbits.IsRepresentative(i) {
			continue
		}
		n, held := t.slot(pl, i)
		if err := f(i, pl, n, held); err != nil {
			return err
		}
	}
	return nil
}

// stored returns the entry of position p, entry j of cols and i of the
// table file f, as the table means it, and whether the entry was not read
// from cols: that of a capture position (capture says whether p is one),
// resolved from its captures, or of a forced threat or short rule-2
// distance of a slim directory's table, the prober's.
func (v *verifier) stored(f *table.File, cols *table.Columns, j, i int64, p draughts.Position, capture bool) (e rules.Entry, resolved bool, err error) {
	theory, _ := cols.Values(j)
	switch gap := f.Gap(&p, capture); {
	case gap == table.CaptureGap:
		e, err = v.captures(&p, f.Class, f.Layout)
	case gap != table.NoGap && !(gap == table.ShortGap && theory == rules.Draw):
		var r reader.Result
		r, err = v.pt.Probe(p, reader.Clocks{}, reader.WithDistances)
		e = r.Entry
	default:
		var ok bool
		if e, ok = cols.Entry(j); !ok {
			return e, false, fmt.Errorf("%s: entry %d (%s): bad value byte %#x", f.Path(), i, p.FEN(), cols[table.ValueColumn][j])
		}
		return e, false, nil
	}
	if err != nil {
		return e, true, fmt.Errorf("position %s of %s: %w", p.FEN(), f.Path(), err)
	}
	return e, true, nil
}

// captures returns the entry of p, a capture position of a table of class
// class and layout l, from its captures, as its generator solved it. Each
// leads to a smaller table that the check loaded first (loadCaptures),
// whose entries are real: its own capture positions resolved so, once
// each. That spares the prober's search, which resolves a capture
// position's successors again at every visit.
func (v *verifier) captures(p *draughts.Position, class rules.Class, l table.Layout) (rules.Entry, error) {
	cs := rules.NewMoves(class)
	dtw := l.Has(table.DTWColumn)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		q := p.Play(m)
		s, to := rules.Entry{Rules: rules.Loss, Theory: rules.Loss}, rules.NoClass // no pieces left to move: lost
		if q.Pieces(q.Side) != 0 {
			n := rules.MaterialOf(&q)
			ld := v.loaded[n] // read-only while positions are checked
			if ld == nil {
				return rules.Entry{}, fmt.Errorf("%w for %s", reader.ErrMissing, n)
			}
			if ld.err != nil {
				return rules.Entry{}, ld.err
			}
			var err error
			if s, err = v.entry(ld.t, ld.t.placementSlot(rules.Placement(&q))); err != nil {
				return rules.Entry{}, err
			}
			to = ld.t.class
		}
		cs.AddConversion(s.TheoryOutcome(), s.RulesOutcome(class, to))
		dtw = dtw && (s.Theory == rules.Draw || s.DTW >= 0)
	}
	e := cs.Entry()
	if !dtw {
		e.DTW = -1
	}
	if !l.Has(table.MTCColumn) {
		e.MTC = -1
	}
	return e, nil
}

// openSearched returns the table of m of a slim directory, answered by a
// search through its colour flip: every position searched (probe's
// Preload), a table of kings alone whole, another by blocks as they are
// read.
func (v *verifier) openSearched(ctx context.Context, m index.Material) (*memTable, error) {
	if err := v.pt.Preload(m); err != nil {
		return nil, err
	}
	t, err := v.searchedTable(m)
	if err != nil {
		return nil, err
	}
	if m.Men() != 0 {
		v.readByBlocks(t)
		return t, nil
	}
	t.newOrbits(v.o.Threads)
	err = parallel.Range(ctx, t.x.Size(), v.o.Threads, func(lo, hi int64) error {
		return t.walk(lo, hi, false, func(_ int64, pl index.Placement, n int64, _ bool) error {
			p := rules.Position(pl)
			r, err := v.pt.Probe(p, reader.Clocks{}, reader.WithDistances)
			if err == nil {
				t.set(n, r.Entry, p.HasCapture())
			}
			return err
		})
	})
	return t, err
}

// searchedTable returns the table of m of a slim directory, answered by
// a search through its colour flip, without its entries.
func (v *verifier) searchedTable(m index.Material) (*memTable, error) {
	info, err := v.pt.Info(v.searched[m]) // its layout: the table it is searched through has the same
	if err != nil {
		return nil, err
	}
	class, err := v.pt.Class(m)
	if err != nil {
		return nil, err
	}
	return &memTable{m: m, x: index.New(m), class: class, layout: info.Layout, blockSize: parallel.Chunk}, nil
}

// captureTables returns the tables that the captures from m's positions
// lead to: Black keeps some of its pieces, a White man may be crowned,
// and Black is to move (so the tables are colour flips).
func captureTables(m index.Material) []index.Material {
	var ms []index.Material
	for crowned := range min(m.WhiteMen, 1) + 1 {
		for bm := range m.BlackMen + 1 {
			for bk := range m.BlackKings + 1 {
				if bm+bk > 0 && bm+bk < m.BlackMen+m.BlackKings {
					ms = append(ms, index.Material{WhiteMen: m.WhiteMen - crowned, WhiteKings: m.WhiteKings + crowned,
						BlackMen: bm, BlackKings: bk}.Flip())
				}
			}
		}
	}
	return ms
}

// statsDiff lists the fields, by JSON name, in which the stats of a file
// header differ from those counted from its entries.
func statsDiff(header, counted table.Stats) string {
	h, c := jsonFields(header), jsonFields(counted)
	keys := slices.Collect(maps.Keys(h))
	for k := range c {
		if _, ok := h[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		if h[k] != c[k] { // a field left out is zero
			diffs = append(diffs, fmt.Sprintf("%s %s, counted %s", k, cmp.Or(h[k], "0"), cmp.Or(c[k], "0")))
		}
	}
	return strings.Join(diffs, "; ")
}

// jsonFields returns the fields of s as JSON, by name.
func jsonFields(s table.Stats) map[string]string {
	b, _ := json.Marshal(s) // numbers and strings: cannot fail
	var raw map[string]json.RawMessage
	json.Unmarshal(b, &raw)
	m := map[string]string{}
	for k, v := range raw {
		m[k] = string(v)
	}
	return m
}

// checker recomputes the entries of one table's stored positions.
type checker struct {
	v     *verifier
	class rules.Class
	succ  []*memTable // the tables quiet moves lead to: the colour flip, then the crowned material's
	dtw   bool        // recompute dtw too
	mtc   bool        // recompute mtc too (the colour flip has it)
}

// A batch is the stored positions of a chunk checked together, in order:
// the successors of those recomputed are read together (successors).
type batch struct {
	c         *checker
	positions []checkedPosition
	succ      successors // its positions' moves, by position
}

// newBatch returns an empty batch of c.
func newBatch(c *checker) *batch {
	return &batch{c: c, succ: successors{v: c.v, class: c.class}}
}

// checkedPosition is a position of a batch: entry i, position p, stored
// as got. Where known is set, want is its entry, else flush recomputes it.
type checkedPosition struct {
	i         int64
	p         draughts.Position
	got, want rules.Entry
	known     bool
}

// addKnown adds the stored position i, p, stored as got, whose entry must
// be want.
func (b *batch) addKnown(i int64, p draughts.Position, got, want rules.Entry) {
	b.positions = append(b.positions, checkedPosition{i: i, p: p, got: got, want: want, known: true})
	b.succ.start()
}

// add adds the stored position i, p with placement pl (White to move),
// stored as got, and the reads of its (quiet) moves' successors. A
// successor, Black to move, is held in its table as its colour flip (see
// rules.Placement): the board turned by 180 degrees (square s becomes
// 51-s), Black's pieces made White's and the other way round. So the
// successors' placements are pl's flip with the moving piece changed.
func (b *batch) add(i int64, p draughts.Position, pl index.Placement, moves []draughts.Move, got rules.Entry) {
	b.positions = append(b.positions, checkedPosition{i: i, p: p, got: got})
	pos := b.succ.start()
	flip := rules.FlipPlacement(pl)
	flipped := b.c.succ[0]
	men := flipped.x.RankMen(flip.WhiteMen, flip.BlackMen) * flipped.x.KingPlacements() // what king moves leave alone
	// The king moved last, ranked by orbit in a table of kings alone:
	var om index.OrbitMove
	var km index.KingMove
	moved := 0
	for _, mv := range moves {
		from, to := mv.FromSquare(), mv.ToSquare()
		mfrom, mto := uint64(1)<<(50-from), uint64(1)<<(50-to) // square 51-s in a square set
		q, s := flip, flipped
		var i int64
		king := pl.WhiteKings>>(from-1)&1 != 0
		switch {
		case king && s.orbits != nil:
			if from != moved { // a king's moves come one after the other
				om, moved = s.orbits.MoveBlackKing(q, mfrom), from
			}
			i, _ = om.RankTo(mto)
		case king:
			if from != moved {
				km, moved = s.x.MoveBlackKing(q, mfrom), from
			}
			i = men + km.RankTo(mto)
		case draughts.Bit(to)&draughts.WhiteCrown != 0:
			q.BlackMen ^= mfrom
			q.BlackKings |= mto
			s = b.c.succ[1]
			i = s.placementSlot(q)
		default:
			q.BlackMen ^= mfrom | mto
			i = s.placementSlot(q)
		}
		b.succ.add(pos, s, i, king)
	}
}

// flush recomputes the entries of the batch's positions from their
// successors' and calls check with each position, in the order they were
// added. The columns the check lacks (dtw, mtc) are taken from the stored
// entry. It empties the batch.
func (b *batch) flush(check func(p *checkedPosition)) error {
	c := b.c
	if err := b.succ.read(); err != nil {
		return err
	}
	for k := range b.positions {
		p := &b.positions[k]
		if !p.known {
			p.want = b.succ.moves[k].Entry()
			if !c.dtw {
				p.want.DTW = p.got.DTW
			}
			if !c.mtc {
				p.want.MTC = p.got.MTC
			}
		}
		check(p)
	}
	b.positions = b.positions[:0]
	b.succ.reset()
	return nil
}

// checkValues recomputes the entry of every stored position whose entry
// own holds, and, in a table of kings alone, checks that each other
// position, read from the file, holds its orbit's; it tallies the
// mismatches and the stats of own's entries in prog, by chunks of a block,
// leaving out the chunks prog has.
func (v *verifier) checkValues(ctx context.Context, own *memTable, c *checker, prog *progress) error {
	return parallel.Chunks(ctx, own.x.Size(), own.blockSize, v.o.Threads, func(lo, hi int64) error {
		if prog.isDone(lo / own.blockSize) {
			v.positionsDone.Add(hi - lo)
			return nil
		}
		blk, err := v.ownBlock(own, lo/own.blockSize)
		if err != nil {
			return err
		}
		var buf [draughts.MaxMoves]draughts.Move
		var checked, found int64
		var ms []Mismatch
		var s table.Stats
		b := newBatch(c)
		check := func(p *checkedPosition) {
			if p.got != p.want {
				if found++; len(ms) < v.o.Examples {
					ms = append(ms, Mismatch{Index: p.i, Position: p.p, Stored: p.got, Recomputed: p.want})
				}
			}
		}
		err = own.walk(lo, hi, true, func(i int64, pl index.Placement, n int64, held bool) error {
			p := rules.Position(pl)
			var got rules.Entry
			var capture bool
			var err error
			counts := 1 // the positions that got stands for in the stats
			switch {
			case own.streamed:
				rep, stab := index.Canonical(pl)
				if capture = p.HasCapture(); capture && rep != pl {
					return nil // counted with its orbit's representative
				}
				if got, _, err = v.stored(own.file, &blk.cols, i-lo, i, p, capture); err != nil {
					return err
				}
				if capture {
					counts = 4 / stab // the positions of its orbit, captures all, resolved alike
				}
			case own.orbits == nil:
				got, _ = blk.cols.Entry(i - lo)
				capture = blk.capture(i - lo)
			case held || own.capture(n):
				got, capture = own.orbitEntry(n), own.capture(n)
			default:
				capture = p.HasCapture()
				if got, _, err = v.stored(own.file, &blk.cols, i-lo, i, p, capture); err != nil {
					return err
				}
			}
			for range counts {
				s.Add(own.class, got, capture, nil)
			}
			if capture {
				return nil
			}
			checked++
			if held {
				b.add(i, p, pl, p.Moves(buf[:0]), got)
			} else {
				b.addKnown(i, p, got, own.orbitEntry(n))
			}
			if len(b.positions) == batchSize {
				return b.flush(check)
			}
			return nil
		})
		if err == nil {
			err = b.flush(check)
		}
		if err != nil {
			return err
		}
		v.positionsDone.Add(hi - lo)
		err = prog.add(lo/own.blockSize, checked, found, ms, s)
		if testHookChunk != nil {
			testHookChunk()
		}
		return err
	})
}

// testHookChunk, if set, is called after each chunk that checkValues
// tallies.
var testHookChunk func()

// ownBlock returns block b of own, the table checked: read through the
// cache (the check of its colour flip reads it next), or, for a table of
// kings alone, as the file has it.
func (v *verifier) ownBlock(own *memTable, b int64) (*block, error) {
	if own.orbits == nil && !own.streamed {
		return v.block(own, b)
	}
	cols, err := own.file.ReadBlock(int(b))
	return &block{cols: cols}, err
}
