package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/runs"
)

// Rules flags, stored in each file header.
const (
	rulesRepetition       = 1 << iota // theoretical value: repetition is a draw
	rulesClassLimits                  // rules value: 16-move (class A) and 5-move (class B) limits
	rulesNo25Move                     // the 25-move king rule (rule 2) is not tracked
	rulesCapturesDontCare             // positions with a capture hold no real value on disk
	rules25Move                       // rules value: the 25-move king rule (rule 2), distances in Rule2 materials
	rulesCompact                      // a draw's distance, dtw and mtc bytes hold no value; the mtc byte is less the distance byte
	rulesFreshMarks                   // the value byte marks with FreshOnly the positions a rule-2 count one ply on draws
	rulesShortDistances               // rule-2 distances up to ShortDistance are don't-cares, found by a search
	rulesForcedThreats                // the entries of forced threats (rules.ForcedThreat) are don't-cares, found by a search
)

// ShortDistance is the longest rule-2 distance that a table with
// rulesShortDistances leaves out of its distance file. A search of that
// many plies finds it (package probe).
const ShortDistance = 3

// rulesFlagsFull are the rules of the tables this version writes (Full).
const rulesFlagsFull = rulesRepetition | rulesClassLimits | rules25Move | rulesCapturesDontCare | rulesCompact

// RulesFlags are the rules flags in the header of the tables this version
// writes (docs/format.md, 4.5), for dtb version.
const RulesFlags = rulesFlagsFull

// rulesFlagsWork are the rules of a resolved table (Work): those of
// Full, with the real entry of every capture position.
const rulesFlagsWork = rulesFlagsFull &^ rulesCapturesDontCare

// rulesSlim are the rules flags that a slim directory's files add to
// rulesFlagsFull (package slim): rulesFreshMarks, rulesShortDistances (only
// with rulesFreshMarks) and rulesForcedThreats.
const rulesSlim = rulesFreshMarks | rulesShortDistances | rulesForcedThreats

// knownRules lists the rules flags of the tables this version reads, but
// for rulesSlim (knownRulesFlags).
var knownRules = []uint32{rulesFlagsFull, rulesFlagsWork, rulesFlagsPlain, rulesFlagsNoRule2}

// knownRulesFlags reports whether this version reads the value file of a
// table with the rules flags r.
func knownRulesFlags(r uint32) bool {
	if r&rulesSlim == 0 {
		return slices.Contains(knownRules, r)
	}
	return r&^rulesSlim == rulesFlagsFull && (r&rulesShortDistances == 0 || r&rulesFreshMarks != 0)
}

// Extra lists the optional columns of a table.
type Extra struct {
	DTW bool // the dtw column
	MTC bool // the mtc column
}

// IndexVersion is the version of the index scheme of package index.
const IndexVersion = 1

// statsKey is the meta key of the stats (JSON) in a table file header.
const statsKey = "stats"

// headerStats returns the stats in the header h of a table file.
func headerStats(h codec.Header) (Stats, error) {
	var s Stats
	err := json.Unmarshal([]byte(h.Meta[statsKey]), &s)
	return s, err
}

// FileName returns the name of the file of m's table that a search reads:
// its value file (format 3), or the whole table (formats 1 and 2).
func FileName(m index.Material) string { return m.String() + ValueExt }

// ValueExt ends the name of a value file (FileName): one a table.
const ValueExt = ".dtb"

// DistanceExt ends the name of a distance file: KKvK.dtbd beside KKvK.dtb.
const DistanceExt = ".dtbd"

// ValueFiles returns the paths of the value files in dir, sorted: one a
// table. A directory that does not exist holds none.
func ValueFiles(dir string) ([]string, error) { return filesEnding(dir, ValueExt) }

// Files returns the paths of the table files in dir: its value files,
// then its distance files, each sorted.
func Files(dir string) ([]string, error) {
	values, err := filesEnding(dir, ValueExt)
	if err != nil {
		return nil, err
	}
	dists, err := filesEnding(dir, DistanceExt)
	return append(values, dists...), err
}

// filesEnding returns the paths of the files in dir whose names end in
// ext, sorted.
func filesEnding(dir, ext string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var paths []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ext) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths, err
}

// TempGlobs are the glob patterns of the temporary files that
// interrupted writes leave in a table directory (codec.TempGlob,
// codec.RemoveTemps). They cover value files, distance files and the
// manifest.
var TempGlobs = []string{codec.TempGlob("*" + ValueExt), codec.TempGlob("*" + DistanceExt), codec.TempGlob(codec.ManifestName)}

// DistancePath returns the path of the distance file beside the value
// file at path.
func DistancePath(path string) string { return strings.TrimSuffix(path, ValueExt) + DistanceExt }

// distancesKey is the meta key of a value file that lists the columns
// of its distance file, comma separated in Column order. A table without
// them has no distance file and no key.
const distancesKey = "distances"

// Layout gives each Column its number in a whole table file's header,
// or -1 where the table lacks it. The numbers give the order of the
// columns in both files of format 3.
type Layout [NumColumns]int

// NewLayout returns the layout of the tables of m that this version
// writes. It has the value column, the distance column where m has a
// clock (rules.ClassOf) and the optional columns of x, in Column order.
func NewLayout(m index.Material, x Extra) Layout { return layout(rules.ClassOf(m), x) }

// layout returns the layout of a table of class c with the optional
// columns of x.
func layout(c rules.Class, x Extra) Layout {
	has := [NumColumns]bool{ValueColumn: true, DistanceColumn: c != rules.NoClass, DTWColumn: x.DTW, MTCColumn: x.MTC}
	var l Layout
	n := 0
	for col := range NumColumns {
		l[col] = -1
		if has[col] {
			l[col], n = n, n+1
		}
	}
	return l
}

// Has reports whether the layout has the column col.
func (l Layout) Has(col Column) bool { return l[col] >= 0 }

// extra returns the optional columns of l.
func (l Layout) extra() Extra { return Extra{DTW: l.Has(DTWColumn), MTC: l.Has(MTCColumn)} }

// Distances reports whether l has columns besides the value: a table of
// format 3 with them has a distance file.
func (l Layout) Distances() bool { return l.Width() > ValueColumn.Width() }

// Width returns the bytes an entry takes in the columns of l.
func (l Layout) Width() int {
	n := 0
	for col := range NumColumns {
		if l.Has(col) {
			n += col.Width()
		}
	}
	return n
}

// A File is a table opened for reading, its header checked. It is a
// value file and its distance file (format 3), or a whole table (formats
// 1 and 2). The distance file is opened when first read. A File is safe
// for concurrent use.
type File struct {
	values   *codec.Reader // the value file or the whole table
	fsys     fs.FS         // that holds the files (OpenFS), nil for the system's
	path     string        // of values: in fsys, or the system's
	Material index.Material
	Info
	// ValuesAlone reports that the manifest lists the value file without
	// its distance file (OpenListed). Such is a slim directory written by
	// dtb slim --distances=false. Reading a distance then fails, saying
	// so.
	ValuesAlone bool
	distPath    string
	distWant    *codec.ManifestFile // what the manifest says of the distance file (OpenListed)
	at          [NumColumns]int     // a column's number in its file, -1 for none
	dist        struct {
		once sync.Once
		r    *codec.Reader // the distance file, or values for a whole table
		err  error
	}
}

// Info is what a table file's header says beyond the codec's.
type Info struct {
	// Layout lists the columns of the table, in both files of format 3.
	Layout Layout
	// Split reports whether the table is a value file and a distance file
	// (format 3), not a whole table.
	Split bool
	// Class is the material's class under the file's rules: as rules.ClassOf,
	// but NoClass for a Rule2 material where rule 2 is not tracked.
	Class rules.Class
	// Variant is what the file is, by its rules flags.
	Variant Variant
	// Plain reports whether the file stores its mtc bytes plainly, not
	// less the distance byte (files without rulesCompact); File's reads
	// convert them.
	Plain bool
	// Slim is what a slim directory's file leaves out or marks (Variant
	// Slim); zero for another.
	Slim  SlimFlags
	Stats Stats
}

// Open opens the table of m whose value file (or whole table) is at path.
// It checks the header: material, index version, positions, rules flags
// and columns. A header that does not fit m yields an error wrapping
// codec.ErrCorrupt. An unknown index version or rules flags yield one
// wrapping codec.ErrVersion. The distance file is opened when first
// read, and its header checked against the value file's. A directory may
// hold value files alone.
func Open(path string, m index.Material) (*File, error) { return open(nil, path, -1, m) }

// open opens the table of m whose value file is path, in fsys or the
// system's (fsys nil), as Open does; size is as openCodec takes it.
func open(fsys fs.FS, path string, size int64, m index.Material) (*File, error) {
	r, err := openCodec(fsys, path, size)
	if err != nil {
		return nil, err
	}
	f := &File{values: r, fsys: fsys, path: path, Material: m, distPath: DistancePath(path)}
	if f.Info, err = checkHeader(path, r.Header(), m); err != nil {
		r.Close()
		return nil, err
	}
	for col, n := range f.Layout {
		f.at[col] = n
		if f.Split && col != int(ValueColumn) && n >= 0 {
			f.at[col] = n - 1
		}
	}
	return f, nil
}

// openCodec opens the file path of fsys, or of the system (fsys nil). A
// file that the manifest lists as holding size bytes (-1: unlisted) and
// that holds another fails before any of it is read.
func openCodec(fsys fs.FS, path string, size int64) (*codec.Reader, error) {
	var f fs.File
	var err error
	if fsys == nil {
		f, err = os.Open(path)
	} else {
		f, err = fsys.Open(path)
	}
	if err != nil {
		return nil, err
	}
	if size >= 0 {
		st, err := f.Stat()
		if err == nil && st.Size() != size {
			err = &codec.FileError{Path: path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("%d bytes, %s says %d", st.Size(), codec.ManifestName, size)}
		}
		if err != nil {
			f.Close()
			return nil, err
		}
	}
	return codec.OpenFile(f, path)
}

// OpenListed opens the table of e, an entry of the manifest of dir, as
// Open does. It checks each of the table's files against e when it opens
// it: its size and its header checksum (codec.Reader.HeaderCRC). With
// the blocks' checksums, those cover the whole file. A manifest of
// version 1 has no header checksums. A table that the manifest does not
// vouch for yields an error wrapping codec.ErrCorrupt that names the
// file. So does a generator's work file (Work), which lives in its work
// folder only.
func OpenListed(dir string, e codec.ManifestEntry, m index.Material) (*File, error) {
	join := func(name string) string { return filepath.Join(dir, name) }
	return openListed(nil, join, e, m)
}

// OpenFS opens the table of e, an entry of the manifest at the root of
// fsys (codec.ReadManifestFS), as OpenListed does. It reads the files
// through fsys (codec.OpenFile). It opens the tables of an embed.FS, of an
// archive, or of a system without memory mapping. Errors name the files
// as fsys does.
func OpenFS(fsys fs.FS, e codec.ManifestEntry, m index.Material) (*File, error) {
	name := func(file string) string { return filepath.ToSlash(filepath.Clean(file)) }
	return openListed(fsys, name, e, m)
}

// openListed opens the table of e as OpenListed does, its files named
// by path from their names in e, in fsys or the system's (fsys nil).
func openListed(fsys fs.FS, path func(string) string, e codec.ManifestEntry, m index.Material) (*File, error) {
	p := path(e.File)
	f, err := open(fsys, p, e.Size, m)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &missingError{fmt.Sprintf("%s is listed in %s but missing", p, codec.ManifestName), err}
	} else if err != nil {
		return nil, err
	}
	if err := checkListed(p, f.values, e.HeaderCRC32C); err != nil {
		f.Close()
		return nil, err
	}
	if f.Variant == Work {
		f.Close()
		return nil, &codec.FileError{Path: p, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("rules flags %#x, those of a work file of dtb gen, not of a table", f.Header().Rules)}
	}
	if d := e.Distances; d != nil {
		f.distPath, f.distWant = path(d.File), d
	} else {
		f.ValuesAlone = f.Split && f.Layout.Distances()
	}
	return f, nil
}

// checkListed checks the file at path, open as r, against the header
// checksum its manifest gives (0: none given); openCodec checked its
// size.
func checkListed(path string, r *codec.Reader, headerCRC uint32) error {
	switch {
	case headerCRC == 0 && r.Format().HeaderChecksum():
		// Only manifests of version 1, over files of format 2, list no
		// header checksum; one set back to version 1 must not turn the
		// check off.
		return &codec.FileError{Path: path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("a file of format %d, listed in %s without its header checksum", r.Format(), codec.ManifestName)}
	case headerCRC != 0 && r.HeaderCRC() != headerCRC:
		return &codec.FileError{Path: path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("header checksum %08x, %s says otherwise", r.HeaderCRC(), codec.ManifestName)}
	}
	return nil
}

// Path returns the path of the table's value file (the whole table
// for a table of one file): its name in the fs.FS of OpenFS.
func (f *File) Path() string { return f.path }

// dir names where the table's files are, for errors: the directory of
// the system, or the file system of OpenFS.
func (f *File) dir() string {
	if f.fsys != nil {
		return "the file system"
	}
	return filepath.Dir(f.path)
}

// Header returns the header of the value file or whole table.
func (f *File) Header() codec.Header { return f.values.Header() }

// Close closes the table's files.
func (f *File) Close() error {
	f.dist.once.Do(func() { f.dist.err = errClosed })
	err := f.values.Close()
	if f.Split && f.dist.r != nil {
		err = errors.Join(err, f.dist.r.Close())
	}
	return err
}

var errClosed = errors.New("table closed")

// Check decodes every block of the table's files, as codec.Reader.Check.
func (f *File) Check() error {
	if err := f.values.Check(); err != nil || !f.Split || !f.Layout.Distances() {
		return err
	}
	d, err := f.distances()
	if err != nil {
		return err
	}
	return d.Check()
}

// Readers returns the codec readers of the table's files: the value file
// and the distance file of format 3 (opening the latter), or the whole
// table. The value file's comes first, with the error of opening the
// distance file too.
func (f *File) Readers() ([]*codec.Reader, error) {
	if !f.Split || !f.Layout.Distances() {
		return []*codec.Reader{f.values}, nil
	}
	d, err := f.distances()
	return []*codec.Reader{f.values, d}, err
}

// distances returns the reader of the distance columns, opening the
// distance file on the first call.
func (f *File) distances() (*codec.Reader, error) {
	f.dist.once.Do(func() {
		switch {
		case !f.Split:
			f.dist.r = f.values
			return
		case f.ValuesAlone:
			f.dist.err = &missingError{fmt.Sprintf("%s holds the values of %s alone, not the distances that a running clock, a distance or a list of moves needs (dtb slim writes them unless --distances=false)", f.dir(), f.Material), fs.ErrNotExist}
			return
		}
		size := int64(-1)
		if f.distWant != nil {
			size = f.distWant.Size
		}
		f.dist.r, f.dist.err = openDistances(f.fsys, f.distPath, size, f.values.Header(), f.Layout)
		if f.dist.err == nil && f.distWant != nil {
			if f.dist.err = checkListed(f.distPath, f.dist.r, f.distWant.HeaderCRC32C); f.dist.err != nil {
				f.dist.r.Close()
				f.dist.r = nil
			}
		}
	})
	return f.dist.r, f.dist.err
}

// openDistances opens the distance file path, of fsys or the system's
// (fsys nil), of the table whose value file has header v and layout l,
// and checks its header against them; size is as openCodec takes it.
func openDistances(fsys fs.FS, path string, size int64, v codec.Header, l Layout) (*codec.Reader, error) {
	r, err := openCodec(fsys, path, size)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &missingError{fmt.Sprintf("%s is missing: the table of %s has its distances there (copy it beside %s, or rebuild the table)", path, v.Material, filepath.Base(strings.TrimSuffix(path, DistanceExt)+ValueExt)), fs.ErrNotExist}
	} else if err != nil {
		return nil, err
	}
	if err := checkDistanceHeader(path, r.Header(), v, l); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// missingError is the error of a file that is not there, in words; it
// wraps the error of opening it (fs.ErrNotExist).
type missingError struct {
	msg string
	err error
}

func (e *missingError) Error() string { return e.msg }
func (e *missingError) Unwrap() error { return e.err }

// checkDistanceHeader checks h, the header of the distance file at path,
// against v, the header of its value file of layout l.
func checkDistanceHeader(path string, h, v codec.Header, l Layout) error {
	var want []codec.Column
	for col := DistanceColumn; col < NumColumns; col++ {
		if l.Has(col) {
			want = append(want, codec.Column{Name: col.Name(), Width: col.Width()})
		}
	}
	bad := func(format string, args ...any) error {
		return &codec.FileError{Path: path, Kind: codec.ErrCorrupt, Reason: "header: " + fmt.Sprintf(format, args...)}
	}
	switch {
	case h.Kind != codec.Distances:
		return bad("a %v, want a distance file", h.Kind)
	case h.Material != v.Material || h.IndexVersion != v.IndexVersion || h.Rules != v.Rules&^rulesFreshMarks || h.Positions != v.Positions || h.BlockSize != v.BlockSize:
		return bad("material %q, index version %d, rules %#x, %d positions, blocks of %d; its value file says %q, %d, %#x, %d, %d",
			h.Material, h.IndexVersion, h.Rules, h.Positions, h.BlockSize, v.Material, v.IndexVersion, v.Rules, v.Positions, v.BlockSize)
	case !slices.Equal(h.Columns, want):
		return bad("columns %v, its value file says %v", h.Columns, want)
	}
	return nil
}

// checkHeader checks h, the header of the value file or whole table at
// path, against material m as Open does, and returns what it says.
func checkHeader(path string, h codec.Header, m index.Material) (Info, error) {
	var t Info
	bad := func(kind error, format string, args ...any) (Info, error) {
		return Info{}, &codec.FileError{Path: path, Kind: kind, Reason: "header: " + fmt.Sprintf(format, args...)}
	}
	switch n := index.New(m).Size(); {
	case h.Material != m.String():
		return bad(codec.ErrCorrupt, "material %q, want %s", h.Material, m)
	case h.Kind == codec.Distances:
		return bad(codec.ErrCorrupt, "a distance file, want a value file")
	case h.IndexVersion != IndexVersion:
		return bad(codec.ErrVersion, "index version %d, this version reads %d", h.IndexVersion, IndexVersion)
	case !knownRulesFlags(h.Rules):
		return bad(codec.ErrVersion, "rules flags %#x, this version reads %#x and %#x with some of %#x", h.Rules, knownRules, rulesFlagsFull, rulesSlim)
	case h.Positions != n:
		return bad(codec.ErrCorrupt, "%d positions, want %d", h.Positions, n)
	}
	t.Variant, t.Class = variantOf(h.Rules), rules.ClassOf(m)
	t.Slim = SlimFlags{FreshMarks: h.Rules&rulesFreshMarks != 0, ShortDistances: h.Rules&rulesShortDistances != 0, ForcedThreats: h.Rules&rulesForcedThreats != 0}
	t.Split = h.Kind == codec.Values
	t.legacy(h.Rules)
	if t.Slim.ForcedThreats && t.Class.Carries() {
		return bad(codec.ErrCorrupt, "rules flags %#x: forced threats left out of a table of class %v, whose rules values need its distances", h.Rules, t.Class)
	}
	names := make([]string, len(h.Columns))
	for i, c := range h.Columns {
		col := ColumnNamed(c.Name)
		if col == NumColumns || c.Width != col.Width() {
			return bad(codec.ErrCorrupt, "column %q of %d bytes, want one of %v", c.Name, c.Width, columnNames)
		}
		names[i] = c.Name
	}
	if t.Split {
		if !slices.Equal(names, []string{ValueColumn.Name()}) {
			return bad(codec.ErrCorrupt, "columns %v in a value file, want [value]", names)
		}
		if d := h.Meta[distancesKey]; d != "" {
			names = append(names, strings.Split(d, ",")...)
		}
	}
	l := layoutOf(names)
	if want := layout(t.Class, l.extra()); l != want || len(names) != len(columnList(l)) {
		return bad(codec.ErrCorrupt, "columns %v, want %v", names, columnList(want))
	}
	stats, err := headerStats(h)
	if err != nil {
		return bad(codec.ErrCorrupt, "no valid %q: %v", statsKey, err)
	}
	t.Stats = stats
	t.Layout = l
	return t, nil
}

// layoutOf returns the layout of the columns named, in that order; a
// name that is no column's is left out.
func layoutOf(names []string) Layout {
	var l Layout
	for i := range l {
		l[i] = -1
	}
	for i, name := range names {
		if col := ColumnNamed(name); col < NumColumns && l[col] < 0 {
			l[col] = i
		}
	}
	return l
}

// columnList returns the names of the columns of l, in file order.
func columnList(l Layout) []string {
	names := make([]string, 0, NumColumns)
	for col := range NumColumns {
		if l.Has(col) {
			names = append(names, col.Name())
		}
	}
	return names
}

// ReadColumns decodes every entry of the table.
func (f *File) ReadColumns() (Columns, error) {
	return f.read(nil, func(r *codec.Reader, n int) ([]byte, error) { return r.ReadColumn(n) })
}

// ReadBlock decodes the columns cols of block b, every column of the
// table if cols is empty. A block holds BlockSize entries from entry
// b*BlockSize on, fewer in the last block. A column the table lacks is
// left out. The value column alone reads the value file alone.
func (f *File) ReadBlock(b int, cols ...Column) (Columns, error) {
	return f.read(cols, func(r *codec.Reader, n int) ([]byte, error) { return r.ReadBlock(n, b, nil) })
}

// ReadRuns reads column col of block b, a column of one byte an entry,
// as runs (package runs). A block stored as tokens is parsed, not
// decoded. The prober's cache keeps blocks in this form.
func (f *File) ReadRuns(b int, col Column) (runs.Column, error) {
	if col.Width() != 1 || f.at[col] < 0 {
		return runs.Column{}, fmt.Errorf("%s: no column %s of one byte an entry", f.path, col.Name())
	}
	if f.Plain && col != ValueColumn {
		return f.plainRuns(b, col)
	}
	r, err := f.reader(col)
	if err != nil {
		return runs.Column{}, err
	}
	return r.ReadRuns(f.at[col], b)
}

// reader returns the reader of the file that holds column col.
func (f *File) reader(col Column) (*codec.Reader, error) {
	if col == ValueColumn {
		return f.values, nil
	}
	return f.distances()
}

// read returns the columns cols (all if none) that read(r, n) decodes
// for each, column n of the file of r. The mtc bytes of a plain file are
// converted, which reads its distance column too.
func (f *File) read(cols []Column, read func(r *codec.Reader, n int) ([]byte, error)) (Columns, error) {
	var want [NumColumns]bool
	for _, col := range cols {
		want[col] = true
	}
	if len(cols) == 0 {
		want = [NumColumns]bool{true, true, true, true}
	}
	plainMTC := f.Plain && want[MTCColumn] && f.at[MTCColumn] >= 0
	var c Columns
	for col := range NumColumns {
		n := f.at[col]
		if n < 0 || !want[col] && !(plainMTC && col == DistanceColumn) { // a plain mtc reads the distance
			continue
		}
		r, err := f.reader(col)
		if err == nil {
			c[col], err = read(r, n)
		}
		if err != nil {
			return Columns{}, err
		}
	}
	if plainMTC {
		c.compactMTC(want[DistanceColumn])
	}
	return c, nil
}

// copyFrom writes the entries of f and the stats of its header, and
// closes w.
func (w *Writer) copyFrom(f *File) error {
	w.given = &f.Stats
	// Block by block, marking no capture. Each capture position's entry
	// is already a copy of the entry before it. The Writer then leaves it
	// as it is or fills it as the entry before was filled.
	none := make([]uint64, (f.Header().BlockSize+63)/64)
	for b := range f.values.Blocks() {
		cols, err := f.ReadBlock(b)
		if err == nil {
			err = w.AddColumns(&cols, none)
		}
		if err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// WriteSlim writes to path the table of f as a slim directory holds it
// (package slim). The material has no class clock, or a rule-2 count.
// Unless threats is set, the entries of its forced threats are left out
// (rules.ForcedThreat), for a search over their moves to find. For a Rule2
// material the value bytes are marked: FreshOnly is set where the
// distance file gives a win or loss at rules.Rule2Plies. A search
// through the table then answers its colour flip with fresh clocks from
// the value file alone. If distances is set, WriteSlim writes the
// distance file too, without the rule-2 distances of at most
// ShortDistance plies. The files are written atomically (codec.Write),
// the distance file first.
func WriteSlim(f *File, path string, distances, threats bool) error {
	if !f.Split || f.Class.Carries() || f.Header().Rules != rulesFlagsFull {
		return fmt.Errorf("%s: not the value file of a table that dtb gen builds of a material without a class clock (rules flags %#x)", f.path, f.Header().Rules)
	}
	flags := uint32(rulesFlagsFull)
	if !threats {
		flags |= rulesForcedThreats
	}
	if f.Class == rules.Rule2 {
		flags |= rulesFreshMarks
		if distances {
			flags |= rulesShortDistances
		}
	}
	w, err := newWriter(path, f.Material, f.Layout.extra(), flags, distances)
	if err != nil {
		return err
	}
	return w.copyFrom(f)
}
