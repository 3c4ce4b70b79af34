// Package verify checks a directory of endgame tables independently of the
// generator. Use it like this:
//
//	reports, err := verify.Verify(ctx, "tables", verify.Options{})
//	if err != nil {
//		return err // no readable manifest
//	}
//	for _, r := range reports {
//		if !r.OK() {
//			fmt.Println(r.File, r.Errors, r.Mismatches, r.Examples)
//		}
//	}
//
// # What Verify checks
//
// Files: every table the manifest lists is there with the size and CRC-32C
// the manifest records, its header fits its material (index version,
// number of positions, rules flags, columns, stats) and every block
// decodes to its checksum; a table file the manifest does not list, and a
// temporary file left by an unfinished write, are reported too. A damaged
// table is reported by file and block, and the other tables are still
// checked.
//
// Values: for every stored position of a table (White to move, no capture:
// capture positions hold no real value on disk), Verify generates the
// moves with package draughts, reads every successor's entry and recomputes
// the position's theoretical value, rules value, class distance and dtw as
// package rules defines them (rules.Minimax, rules.Entry.RulesOutcome), then
// compares them with what is stored. It does so by batches of
// positions, whose successors are read in the order of the pages they
// read, not position by position: at random, each read would be a cache
// miss. The header's stats are recomputed too. Verify shares no code
// with the generator (package retro) beyond the rules and the files:
// packages draughts, index, rules and table.
//
// Memory: the tables read are decoded by blocks, their capture positions
// resolved from their captures, and kept in a cache within
// Options.Memory, which drops the blocks not read lately (package
// internal/blockcache).
// The table checked is read through the same cache: the check of its
// colour flip, which comes next, reads it again. The captures lead to
// smaller tables, read the same way before (their own capture positions
// resolved once each, as they are read), down to the smallest. A
// slim directory's forced threats and short distances are searched with
// package reader, the core below the prober. A table of kings alone is
// held whole as one entry per orbit of its positions under the four
// symmetries of the board that keep the dark squares (index.Orbits), a
// quarter of its positions: the entries of the representatives
// (index.Canonical) are recomputed, and every other position must hold
// its representative's, which the rules make it (the symmetries map moves
// to moves, captures to captures). Where a table of kings alone and its
// colour flip do not fit in Options.Memory together, the table checked
// is read from its file instead, every position recomputed.
//
// Progress: with Options.Work, a check that runs for more than a minute
// keeps there the blocks of its table checked and their tallies, every
// minute and when ctx is done. Verify called again goes on where it
// stopped, unless the manifest entries of the tables the check reads, or
// Options.Examples, have changed; a table an earlier call finished is
// not read again, beyond its file's checksums.
//
// # What a passing check proves
//
// The check is local, but the distances make it a proof. A stored win at
// dtw d has a move to a stored loss at dtw d-1, a stored loss at dtw d has
// every move going to a stored win at dtw below d, and a position without
// moves is a loss at 0; so by induction on d every stored win or loss is
// one, in the stored number of plies, and every real win or loss in n plies
// is stored as such (induction on n), which leaves the stored draws real
// draws. The class distance does the same for the rules values of class A
// and B materials. Successors in other tables (after a crowning, or the
// captures that resolve a capture position) are checked in their own
// tables: the induction runs over the materials in dependency order.
// Without the dtw column, and for the rules values of materials without a
// move limit, there is no distance that must shrink, and the check proves
// only that every value agrees with its successors' (a cycle of positions
// that all wrongly claim wins and losses would pass).
package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/blockcache"
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Options configure Verify.
type Options struct {
	// Only, if set, checks only these tables (reading the tables they
	// need), in dependency order: the two tables of a group, checked in
	// one call, decode each other once.
	Only    []index.Material
	Threads int // 0 means runtime.NumCPU()
	// Memory is the bytes that the tables a check reads may take: the
	// tables of kings alone, held whole (by orbit), and the blocks read
	// of the others, which are dropped and read again as needed. 0 means
	// no limit. The prober that resolves capture positions takes its
	// own (cacheBytes), and the tables it preloads.
	Memory   int64
	Examples int // mismatches listed per table; 0 means 10
	// Work, if set, is a folder where a long check keeps its progress,
	// every minute and when interrupted, so that Verify called again goes
	// on where it stopped (the tables it reads unchanged); Verify empties
	// it of the plan's tables when it ends.
	Work string
	// Progress, if set, is called from time to time.
	Progress func(Progress)
	// Done, if set, is called with each table's report as soon as it is
	// checked. Progress and Done are never called at the same time.
	Done func(Report)
}

// Progress tells how far Verify is.
type Progress struct {
	Tables, TablesTotal       int
	Positions, PositionsTotal int64 // positions of the tables checked
	Current                   string
}

// Report is the result of checking one table file.
type Report struct {
	Material   index.Material // zero for a file the manifest does not list
	File       string         // path of the file; "" for a table answered by a search (Note)
	Positions  int64          // positions of the table
	Checked    int64          // stored positions whose values were recomputed
	Mismatches int64          // stored positions whose values disagree with their successors'
	Examples   []Mismatch     // the first mismatches, in index order
	// Errors are the file's damage (a *codec.FileError of File) and
	// whatever kept its values from being checked, each naming the file
	// (and block) at fault: a *SourceError for a damaged table they read.
	// A table answered by a search fails with the table it is searched
	// through: its error, or its mismatches.
	Errors []error
	// Note says why the values were not recomputed where that is no
	// fault: a table of a slim directory (package slim) answered by a
	// search, checked with the table it is searched through; a table of a
	// slim directory that lacks the distance files its check reads, whose
	// files alone are checked.
	Note    string
	Elapsed time.Duration // of this call
	Resumed int64         // of Checked, those checked by an earlier call (Options.Work)
}

// OK reports whether the table passed every check.
func (r *Report) OK() bool { return r.Mismatches == 0 && len(r.Errors) == 0 }

// Mismatch is a stored position whose entry disagrees with its successors,
// or, in a table of kings alone, with the entry of its orbit's
// representative (index.Canonical), which Recomputed then holds.
type Mismatch struct {
	Index      int64             // in the table
	Position   draughts.Position // White to move
	Stored     rules.Entry
	Recomputed rules.Entry
}

// cacheBytes is the block cache of the prober, which answers the tables
// of a slim directory that are searched, their forced threats and short
// distances.
const cacheBytes = 512 << 20

// Verify checks the tables of dir and returns a report per table file, in
// dependency order (a table answered by a search right after the one it
// is searched through, the stray files, unlisted or temporary, last).
//
// dir may be a list of directories, as reader.Open reads it. A table is
// checked where reader.Open reads it, in the first directory that lists
// it. A copy in a later directory is not read: the report's Note says it
// is there, and whether its manifest entry differs (sizes or sums), which
// is no fault. Each directory's stray files are reported. It returns
// an error only when it cannot start (no readable manifest, or a table of
// Options.Only missing from it) or when ctx is done, with the reports of
// the tables checked before.
func Verify(ctx context.Context, dir string, o Options) ([]Report, error) {
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	if o.Examples <= 0 {
		o.Examples = 10
	}
	v, err := newVerifier(dir, o)
	if err != nil {
		return nil, err
	}
	defer v.pt.Close()
	defer func() {
		for m := range v.loaded {
			v.drop(m)
		}
	}()
	plan := v.pt.Materials()
	if o.Only != nil {
		only := slices.Clone(o.Only)
		for _, m := range o.Only {
			if _, ok := v.entries[m]; !ok && v.searched[m] == (index.Material{}) {
				return nil, fmt.Errorf("%w for %s in %s", reader.ErrMissing, m, dir)
			}
			if s, ok := v.searched[m]; ok {
				only = append(only, s) // answered through s: checked with it
			}
		}
		plan = slices.DeleteFunc(plan, func(m index.Material) bool { return !slices.Contains(only, m) })
	}
	plan = v.sourcesFirst(plan)
	for _, m := range plan {
		for _, n := range v.reads(m) {
			v.refs[n]++
		}
	}
	prog := Progress{TablesTotal: len(plan)}
	for _, m := range plan {
		prog.PositionsTotal += index.New(m).Size()
	}
	var reports []Report
	done := func(r Report) {
		reports = append(reports, r)
		if o.Done != nil {
			v.callback.Lock()
			o.Done(r)
			v.callback.Unlock()
		}
	}
	stop := v.showProgress(&prog)
	for _, m := range plan {
		if ctx.Err() != nil {
			break
		}
		v.current.Store(m.String())
		r := v.check(ctx, m)
		v.release(m)
		if ctx.Err() != nil {
			break // an interrupted check is no report
		}
		v.tablesDone.Add(1)
		v.failures[m] = failure(r)
		done(r)
	}
	stop()
	if ctx.Err() == nil {
		v.forget(plan)
	}
	if o.Only == nil && ctx.Err() == nil {
		unlisted, err := v.unlisted()
		if err != nil {
			return reports, err
		}
		for _, r := range unlisted {
			done(r)
		}
	}
	return reports, ctx.Err()
}

// verifier holds the state of one Verify call.
type verifier struct {
	dirs    []string
	o       Options
	pt      *reader.Tables
	entries map[index.Material]codec.ManifestEntry
	// searched maps each table of a slim directory answered by a search
	// to the table it is searched through (codec.ManifestEntry.Searched).
	searched map[index.Material]index.Material
	dirOf    map[index.Material]string // the directory that lists each table read
	slim     map[string]bool           // the directories that list tables searched
	listed   map[string]bool           // the paths of the files every manifest lists
	copies   map[index.Material]string // the note on the copies not read of a table

	// Used by Verify's goroutine only:
	loaded   map[index.Material]*loadResult // tables opened so far
	refs     map[index.Material]int         // checks of the plan that still need a table
	failures map[index.Material]error       // of the tables checked, failure's

	cache *blockcache.Cache[*block] // the blocks read of the tables read by blocks

	callback      sync.Mutex // held while calling Options.Progress or Done
	positionsDone atomic.Int64
	tablesDone    atomic.Int64
	current       atomic.Value // string
}

// loadResult is a decoded table or the error that kept it from loading.
type loadResult struct {
	t   *memTable
	err error
}

func newVerifier(dirs string, o Options) (*verifier, error) {
	pt, err := reader.Open(dirs, reader.Options{CacheBytes: cacheBytes})
	if err != nil {
		return nil, err
	}
	v := &verifier{dirs: reader.SplitPath(dirs), o: o, pt: pt, entries: map[index.Material]codec.ManifestEntry{}, searched: map[index.Material]index.Material{},
		dirOf: map[index.Material]string{}, slim: map[string]bool{}, listed: map[string]bool{}, copies: map[index.Material]string{},
		loaded: map[index.Material]*loadResult{}, refs: map[index.Material]int{}, failures: map[index.Material]error{}, cache: blockcache.New[*block](o.Memory)}
	keys := map[index.Material]string{} // of the copy read of each table (copyKey)
	for _, dir := range v.dirs {
		entries, err := codec.ReadManifest(dir)
		if err != nil {
			pt.Close()
			return nil, err
		}
		for _, e := range entries {
			m, _ := index.ParseMaterial(e.Material) // reader.Open checked it
			v.listFiles(dir, e)
			if keys[m] != "" { // read from a directory before, as reader.Open does
				v.addCopy(m, dir, keys[m] == copyKey(e, ""))
				if e.Searched != "" {
					v.addCopy(m.Flip(), dir, keys[m.Flip()] == copyKey(e, e.Searched))
				}
				continue
			}
			v.entries[m], v.dirOf[m], keys[m] = e, dir, copyKey(e, "")
			if e.Searched != "" {
				v.slim[dir] = true
				if f := m.Flip(); keys[f] != "" {
					v.addCopy(f, dir, keys[f] == copyKey(e, e.Searched))
				} else {
					v.searched[f], v.dirOf[f], keys[f] = m, dir, copyKey(e, e.Searched)
				}
			}
		}
	}
	return v, nil
}

// copyKey returns what tells copies of a table apart: the sizes and sums
// of its manifest entry e, or, for the table e's is searched through
// (searched), that entry's.
func copyKey(e codec.ManifestEntry, searched string) string {
	key := fmt.Sprint(e.Material, e.Size, e.CRC32C, e.HeaderCRC32C)
	if d := e.Distances; d != nil {
		key += fmt.Sprint(" distances ", d.Size, d.CRC32C, d.HeaderCRC32C)
	}
	if searched != "" {
		key = searched + " searched through " + key
	}
	return key
}

// addCopy notes that dir lists the table of m too, after the directory
// it is read from: the same files (same) or another copy.
func (v *verifier) addCopy(m index.Material, dir string, same bool) {
	note := fmt.Sprintf("a copy in %s is not read: its manifest entry is the same", dir)
	if !same {
		note = fmt.Sprintf("a copy in %s is not read: its manifest entry differs (dtb verify --dir %s checks it)", dir, dir)
	}
	v.copies[m] = joinNotes(v.copies[m], note)
}

// joinNotes joins two notes of a report, either possibly empty.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// listFiles records the files of dir's manifest entry e as listed.
func (v *verifier) listFiles(dir string, e codec.ManifestEntry) {
	v.listed[filepath.Join(dir, e.File)] = true
	if e.Distances != nil {
		v.listed[filepath.Join(dir, e.Distances.File)] = true
	}
}

// needs returns the tables that checking m reads: its own, the one its
// quiet moves lead to (its colour flip, Black to move) and the one a
// crowning leads to.
func needs(m index.Material) []index.Material {
	ms := []index.Material{m, m.Flip()}
	if m.WhiteMen > 0 {
		crowned := m
		crowned.WhiteMen--
		crowned.WhiteKings++
		ms = append(ms, crowned.Flip())
	}
	return ms
}

// reads returns the tables that checking m reads: those it needs, and
// the tables that resolve the capture positions of each table read from
// its file, down to the smallest (loadCaptures).
func (v *verifier) reads(m index.Material) []index.Material {
	var ms []index.Material
	var add func(n index.Material)
	add = func(n index.Material) {
		if slices.Contains(ms, n) {
			return
		}
		ms = append(ms, n)
		if _, ok := v.entries[n]; ok {
			for _, c := range captureTables(n) {
				add(c)
			}
		}
	}
	for _, n := range needs(m) {
		add(n)
	}
	return ms
}

// check checks the table of m: its file, then its values.
func (v *verifier) check(ctx context.Context, m index.Material) (r Report) {
	start := time.Now()
	r = Report{Material: m, Positions: index.New(m).Size()}
	defer func() {
		r.Elapsed = time.Since(start)
		r.Note = joinNotes(r.Note, v.copies[m])
	}()
	if from, ok := v.searched[m]; ok {
		if err := v.failures[from]; err != nil {
			r.Errors = []error{notChecked(r.File, err)}
		} else {
			r.Note = fmt.Sprintf("answered by a search through %s, checked with it", from)
		}
		v.positionsDone.Add(r.Positions)
		return r
	}
	e := v.entries[m]
	r.File = v.path(m)
	if r.Errors = checkFile(v.dirOf[m], e, m, v.slim[v.dirOf[m]]); len(r.Errors) > 0 {
		v.positionsDone.Add(r.Positions)
		return r
	}
	h, err := v.pt.Header(m)
	if err != nil {
		r.Errors = append(r.Errors, notChecked(r.File, err))
		v.positionsDone.Add(r.Positions)
		return r
	}
	prog, err := v.progress(m, int64(h.BlockSize))
	if err != nil {
		r.Errors = append(r.Errors, err)
		v.positionsDone.Add(r.Positions)
		return r
	}
	finished := prog.complete(r.Positions) // by an earlier run: the tables need not be read
	var tables []*memTable
	for _, n := range needs(m) {
		var t *memTable
		var err error
		if finished {
			t, err = v.describe(n)
		} else if n == m && v.streams(m) {
			v.drop(m) // held for its flip's check: the flip takes its place
			if t, err = v.openFile(ctx, r.File, m); err == nil {
				t.streamed = true
				defer t.close()
			}
		} else {
			t, err = v.table(ctx, n)
		}
		if err != nil && len(v.searched) > 0 && errors.Is(err, fs.ErrNotExist) {
			// A slim directory may hold value files alone.
			r.Note = "values not recomputed: a distance file they read is not here (dtb slim --distances writes them)"
			v.positionsDone.Add(r.Positions)
			return r
		}
		if err != nil {
			r.Errors = append(r.Errors, notChecked(r.File, err))
			v.positionsDone.Add(r.Positions)
			return r
		}
		tables = append(tables, t)
	}
	own, c := tables[0], v.newChecker(tables, &r)
	if finished {
		v.positionsDone.Add(r.Positions)
	} else {
		err = v.checkValues(ctx, own, c, prog)
	}
	if serr := prog.save(ctx.Err() != nil); serr != nil && err == nil {
		err = serr
	}
	prog.report(&r)
	if err != nil {
		r.Errors = append(r.Errors, notChecked(r.File, err))
	} else if own.header != prog.stats {
		r.Errors = append(r.Errors, fmt.Errorf("%s: header stats differ from the entries: %s", r.File, statsDiff(own.header, prog.stats)))
	}
	return r
}

// newChecker returns the checker of the table tables[0] from the tables
// it reads, tables[1:], and adds to r's errors the columns it cannot
// check: those a table it reads lacks, and rule 2 that it tracks where a
// table it reads does not.
func (v *verifier) newChecker(tables []*memTable, r *Report) *checker {
	own := tables[0]
	c := &checker{v: v, class: own.class, succ: tables[1:], dtw: true, mtc: own.layout.Has(table.MTCColumn)}
	for _, t := range tables {
		if !t.layout.Has(table.DTWColumn) {
			c.dtw = false
			if own.layout.Has(table.DTWColumn) {
				r.Errors = append(r.Errors, fmt.Errorf("dtw column not checked: %s has none", v.path(t.m)))
			}
		}
		if t.class != rules.ClassOf(t.m) && own.class == rules.ClassOf(own.m) {
			r.Errors = append(r.Errors, fmt.Errorf("%s does not track rule 2, but %s does", v.path(t.m), r.File))
		}
	}
	if c.mtc && !tables[1].layout.Has(table.MTCColumn) {
		c.mtc = false
		r.Errors = append(r.Errors, fmt.Errorf("mtc column not checked: %s has none", v.path(tables[1].m)))
	}
	return c
}

// A SourceError is the error of a table whose values were not checked
// because a table they read is damaged: Err, that table's error, which
// its own report holds too.
type SourceError struct {
	Err *codec.FileError
}

func (e *SourceError) Error() string { return "not checked: reads the damaged " + e.Err.Path }
func (e *SourceError) Unwrap() error { return e.Err }

// notChecked returns the error of the table file at path whose values
// were not checked for err: a *SourceError if err is another file's
// damage.
func notChecked(path string, err error) error {
	var damaged *codec.FileError
	if errors.As(err, &damaged) && damaged.Path != path {
		return &SourceError{damaged}
	}
	return fmt.Errorf("values not checked: %w", err)
}

// sourcesFirst returns plan with each table answered by a search right
// after the table it is searched through, where plan holds that one:
// the check of that table answers for it (failure).
func (v *verifier) sourcesFirst(plan []index.Material) []index.Material {
	var out []index.Material
	for _, m := range plan {
		if from, ok := v.searched[m]; ok && slices.Contains(plan, from) {
			continue
		}
		out = append(out, m)
		if f := m.Flip(); v.searched[f] == m && slices.Contains(plan, f) {
			out = append(out, f)
		}
	}
	return out
}

// failure returns what keeps the table of report r from answering for
// the table searched through it: its first error, or its mismatches;
// nil where it passed.
func failure(r Report) error {
	switch {
	case len(r.Errors) > 0:
		return r.Errors[0]
	case r.Mismatches > 0:
		return fmt.Errorf("%s has %d mismatching positions", r.File, r.Mismatches)
	}
	return nil
}

// path returns the path of the value file of the table of m.
func (v *verifier) path(m index.Material) string {
	return filepath.Join(v.dirOf[m], v.entries[m].File)
}

// table returns the table of m, opening it on first use.
func (v *verifier) table(ctx context.Context, m index.Material) (*memTable, error) {
	if l := v.loaded[m]; l != nil {
		return l.t, l.err
	}
	l := &loadResult{}
	if _, ok := v.entries[m]; ok {
		l.t, l.err = v.open(ctx, v.path(m), m)
	} else if _, ok := v.searched[m]; ok {
		l.t, l.err = v.openSearched(ctx, m)
	} else {
		l.err = fmt.Errorf("%w for %s", reader.ErrMissing, m)
	}
	if ctx.Err() != nil { // an interrupted load says nothing about the table
		if l.t != nil {
			l.t.close()
		}
		return nil, ctx.Err()
	}
	v.loaded[m] = l
	if l.err == nil {
		v.cache.Hold(l.t.bytes())
	}
	return l.t, l.err
}

// release drops the tables that no check left in the plan needs.
func (v *verifier) release(m index.Material) {
	for _, n := range v.reads(m) {
		if v.refs[n]--; v.refs[n] == 0 {
			v.drop(n)
		}
	}
}

// drop closes the table of m, if open, and frees its memory.
func (v *verifier) drop(m index.Material) {
	if l := v.loaded[m]; l != nil && l.t != nil {
		v.cache.Drop(l.t.blocks)
		v.cache.Hold(-l.t.bytes())
		l.t.close()
	}
	delete(v.loaded, m)
}

// showProgress calls Options.Progress every so often until the returned
// function is called.
func (v *verifier) showProgress(p *Progress) (stop func()) {
	if v.o.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			p.Tables, p.Positions = int(v.tablesDone.Load()), v.positionsDone.Load()
			p.Current, _ = v.current.Load().(string)
			v.callback.Lock()
			v.o.Progress(*p)
			v.callback.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// unlisted reports the stray files of the directories: the table files
// that no manifest lists, and the temporary files of writes that never
// finished (dtb gen removes them when it runs again).
func (v *verifier) unlisted() ([]Report, error) {
	var reports []Report
	for _, dir := range v.dirs {
		files, err := table.Files(dir)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !v.listed[f] {
				reports = append(reports, Report{File: f, Errors: []error{fmt.Errorf("%s: not listed in %s", f, codec.ManifestName)}})
			}
		}
		tmps, err := filepath.Glob(filepath.Join(dir, "*.tmp"))
		if err != nil {
			return nil, err
		}
		for _, f := range tmps {
			reports = append(reports, Report{File: f, Errors: []error{fmt.Errorf("%s: temporary file of an unfinished write", f)}})
		}
		if f := filepath.Join(dir, codec.ConvertingName); fileExists(f) {
			reports = append(reports, Report{File: f, Errors: []error{fmt.Errorf("%s: a dtb convert here did not finish: rerun it", f)}})
		}
	}
	return reports, nil
}

// fileExists reports whether there is a file at path.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
