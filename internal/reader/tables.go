package reader

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/blockcache"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Options configure Open.
type Options struct {
	// CacheBytes bounds the blocks kept in memory (see cache.go); 0 (or less)
	// means 64 MiB.
	CacheBytes int64
	// MaxPieces, if positive, limits the tables to positions of at most
	// that many pieces, as Stockfish's SyzygyProbeLimit. A position or
	// table of more is missing: a *MissingError, its file not opened.
	// 0 (or less) means no limit. SetMaxPieces changes it.
	MaxPieces int
}

// ErrMissing is wrapped by the error of a probe whose material has no
// table.
var ErrMissing = errors.New("no table")

// MissingError is the error of a probe that needs a table the directories
// lack. That is the table of the position itself, or of a position its
// captures lead to. It wraps ErrMissing.
type MissingError struct {
	Material index.Material // the material of the missing table
	Limit    int            // the piece limit it is over (Options.MaxPieces), 0 if none
}

func (e *MissingError) Error() string {
	if e.Limit > 0 {
		return fmt.Sprintf("no table for %s: more than %d pieces, the probe limit", e.Material, e.Limit)
	}
	return fmt.Sprintf("no table for %s", e.Material)
}

// Unwrap returns ErrMissing.
func (e *MissingError) Unwrap() error { return ErrMissing }

// maxPieces is the most pieces a material may have. The index of some
// materials with more does not fit in an int64.
const maxPieces = 14

// Tables is a directory of tables, or several, opened for probing.
type Tables struct {
	files      []*file          // by Material.Slot: index.Slots of them
	mats       []index.Material // index.Materials order
	cache      *blockcache.Cache[*block]
	cacheBytes int64        // its budget
	limit      atomic.Int32 // Options.MaxPieces, 0 for none
}

// file is one table file, opened on first use.
type file struct {
	path   string               // of its value file, in fsys if set
	dir    string               // the directory whose manifest lists the table (Open)
	fsys   fs.FS                // or the fs.FS (OpenFS)
	listed *codec.ManifestEntry // and its entry there, nil for a table added
	m      index.Material

	// from, for a table not stored, is the table of its colour flip. That
	// table answers its positions by a search (Tables.searched). A table
	// not stored has no file of its own.
	from *file

	once      sync.Once
	opened    atomic.Bool // once has run. It set err, x and, for a stored table, r, blockSize and blocks.
	err       error       // of opening
	r         *table.File // nil for a table not stored: see file
	x         *index.Index
	blockSize int64
	blocks    [numParts]*blockcache.File[*block]           // the cached blocks, by part; nil for a part the file lacks
	reads     [numParts]func(n int) (*block, int64, error) // read, of f and the part
	mem       atomic.Pointer[block]                        // the whole table after Preload, capture positions resolved
}

// file returns the table file that holds f's entries, or for a table not
// stored the one of the table it is searched through, whose header says
// what its class, columns and directory are. It opens f first.
func (f *file) file() *table.File {
	if f.from != nil {
		return f.from.r
	}
	return f.r
}

// marked reports whether f's value bytes mark FreshOnly: a slim
// directory's stored table of a rule-2 material (table.SlimFlags).
func (f *file) marked() bool { return f.from == nil && f.r.Slim.FreshMarks }

// gap returns why f holds no entry of p, a position of its table
// (table.Gap): table.NoGap where it holds one. A table searched through
// its colour flip holds none, a preloaded table every one.
func (f *file) gap(p *draughts.Position) table.Gap {
	switch {
	case f.mem.Load() != nil:
		return table.NoGap
	case f.from != nil:
		return table.SearchedGap
	}
	return f.r.Gap(p, p.HasCapture())
}

var errClosed = errors.New("tables closed")

// Open reads the manifests of dirs and returns the tables they list,
// as probe.Open.
func Open(dirs string, o Options) (*Tables, error) {
	list := SplitPath(dirs)
	if len(list) == 0 {
		return nil, fmt.Errorf("no table directory in %q", dirs)
	}
	t := New(o)
	for _, dir := range list {
		if err := t.addDir(dir, nil); err != nil {
			t.Close()
			return nil, err
		}
	}
	return t, nil
}

// OpenFS reads the manifest at the root of fsys and returns the tables
// it lists, as probe.OpenFS.
func OpenFS(fsys fs.FS, o Options) (*Tables, error) {
	t := New(o)
	if err := t.addDir("", fsys); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// SplitPath returns the directories of a list as Open reads it
// (probe.SplitPath).
func SplitPath(dirs string) []string {
	return slices.DeleteFunc(filepath.SplitList(dirs), func(d string) bool { return d == "" })
}

// addDir adds the tables of the manifest of dir, or of the root of fsys
// where it is set (dir empty), whose materials no directory added before
// lists.
func (t *Tables) addDir(dir string, fsys fs.FS) error {
	var entries []codec.ManifestEntry
	var err error
	if fsys == nil {
		entries, err = codec.ReadManifest(dir)
	} else {
		entries, err = codec.ReadManifestFS(fsys)
	}
	if err != nil {
		return err
	}
	taken := make(map[index.Material]bool, len(t.mats))
	for _, m := range t.mats {
		taken[m] = true
	}
	for _, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err == nil && taken[m] {
			continue
		}
		if err == nil {
			f := &file{path: filepath.Join(dir, e.File), dir: dir, fsys: fsys, listed: &e, m: m}
			err = t.add(m, f)
			if err == nil && e.Searched != "" {
				err = t.addSearched(e.Searched, f, taken)
			}
		}
		if err != nil {
			return &codec.FileError{Path: filepath.Join(dir, codec.ManifestName), Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("entry %q: %v", e.File, err), Err: err}
		}
	}
	return nil
}

// addSearched adds the table of the material named searched, unless a
// directory before lists it (taken). A search through from, the table of
// its colour flip, answers it.
func (t *Tables) addSearched(searched string, from *file, taken map[index.Material]bool) error {
	m, err := index.ParseMaterial(searched)
	switch {
	case err != nil:
		return err
	case m != from.m.Flip() || m == from.m:
		return fmt.Errorf("searched %s is not the colour flip of %s", m, from.m)
	case rules.ClassOf(m).Carries():
		return fmt.Errorf("searched %s is of class %v, whose tables are stored", m, rules.ClassOf(m))
	case taken[m]:
		return nil
	}
	return t.add(m, &file{path: from.path, m: m, from: from})
}

// New returns Tables without tables; Add adds them. Open is New and Add
// for every table of the directories' manifests.
func New(o Options) *Tables {
	if o.CacheBytes <= 0 {
		o.CacheBytes = 64 << 20
	}
	t := &Tables{files: make([]*file, index.Slots), cache: blockcache.New[*block](o.CacheBytes), cacheBytes: o.CacheBytes}
	t.SetMaxPieces(o.MaxPieces)
	return t
}

// SetMaxPieces sets the piece limit of Options.MaxPieces, as
// probe.Tables.SetMaxPieces.
func (t *Tables) SetMaxPieces(n int) {
	t.limit.Store(int32(min(max(n, 0), maxPieces+1))) // more is no limit
}

// MaxPieces returns the most pieces of a table within the limit
// (probe.Tables.MaxPieces).
func (t *Tables) MaxPieces() int {
	n := 0
	for _, m := range t.Materials() {
		n = max(n, m.Pieces())
	}
	return n
}

// Beyond returns the *MissingError of m if it has more pieces than the
// limit, nil otherwise.
func (t *Tables) Beyond(m index.Material) error {
	if n := int(t.limit.Load()); n > 0 && m.Pieces() > n {
		return &MissingError{Material: m, Limit: n}
	}
	return nil
}

// Add adds the table of m in the file at path. The file is opened on its
// first use. The file may be a work file of the generator (table.Work),
// whose capture positions hold their entries: a resolved copy, read
// without a search. Adding m again replaces the file its table is read
// from, and closes the one before. Add must not run concurrently with
// other methods of t.
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

// close closes f's file, if it was opened. After it, f must not be used.
// Its blocks in the cache stay there until evicted.
func (f *file) close() error {
	f.once.Do(func() { f.err = errClosed })
	if f.r != nil {
		return f.r.Close()
	}
	return nil
}

// Materials returns the materials that have a table within the piece
// limit (probe.Tables.Materials).
func (t *Tables) Materials() []index.Material {
	return slices.DeleteFunc(slices.Clone(t.mats), func(m index.Material) bool { return t.Beyond(m) != nil })
}

// Header returns the file header of the table of m, as
// probe.Tables.Header.
func (t *Tables) Header(m index.Material) (codec.Header, error) {
	f, err := t.storedFile(m)
	if err != nil {
		return codec.Header{}, err
	}
	return f.r.Header(), nil
}

// storedFile returns the opened table of m. For a table answered by a
// search through its colour flip it returns an error wrapping
// ErrNotStored.
func (t *Tables) storedFile(m index.Material) (*file, error) {
	f, err := t.file(m, false)
	if err == nil && f.from != nil {
		err = fmt.Errorf("%s: %w in this slim directory: a search through %s answers it (the directory dtb gen built has its file)", m, ErrNotStored, f.from.m)
	}
	return f, err
}

// Info returns what the header of the table of m says beyond the
// codec's, as probe.Tables.Info.
func (t *Tables) Info(m index.Material) (table.Info, error) {
	f, err := t.storedFile(m)
	if err != nil {
		return table.Info{}, err
	}
	return f.r.Info, nil
}

// file returns the opened table of m, opening it if need be. With
// cachedOnly set, a table not yet opened is ErrNotCached.
func (t *Tables) file(m index.Material, cachedOnly bool) (*file, error) {
	var f *file
	if s := m.Slot(); s < len(t.files) { // a material of more than 15 pieces of a kind has none
		f = t.files[s]
	}
	if err := t.Beyond(m); err != nil {
		return nil, err
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

// open opens the file and checks that its header fits its material. A
// work file of the generator (table.Work) is refused where a manifest
// lists it (table.OpenListed): only Add reads one. A table not stored takes what it needs from the table it is searched
// through. That table must be marked where its material has a rule-2
// count.
func (f *file) open() (err error) {
	if g := f.from; g != nil {
		if err := g.ensureOpen(false); err != nil {
			return err
		}
		if g.r.Class == rules.Rule2 && !g.marked() {
			return &codec.FileError{Path: g.path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("rules flags %#x: not marked, so it cannot answer %s by a search", g.r.Header().Rules, f.m)}
		}
		f.x = index.New(f.m)
		return nil
	}
	switch {
	case f.fsys != nil:
		f.r, err = table.OpenFS(f.fsys, *f.listed, f.m)
	case f.listed != nil:
		f.r, err = table.OpenListed(f.dir, *f.listed, f.m)
	default:
		f.r, err = table.Open(f.path, f.m)
	}
	if err != nil {
		return err
	}
	f.x = index.New(f.m)
	f.blockSize = int64(f.r.Header().BlockSize)
	n := int((f.x.Size() + f.blockSize - 1) / f.blockSize)
	for p := values; p < numParts; p++ {
		has := p == values
		for col := columns[p][0]; col < columns[p][1] && !has; col++ {
			has = f.r.Layout.Has(col)
		}
		if has {
			f.blocks[p] = blockcache.NewFile[*block](n)
			f.reads[p] = func(n int) (*block, int64, error) { return read(f, p, n) }
		}
	}
	return nil
}

// Class returns the class of m under the rules of its table file, as
// probe.Tables.Class. It opens the file.
func (t *Tables) Class(m index.Material) (rules.Class, error) {
	f, err := t.file(m, false)
	if err != nil {
		return rules.NoClass, err
	}
	return f.file().Class, nil
}
