package retro

import (
	"math"
	"path/filepath"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/blockcache"
	"github.com/dtb-draughts/dtb/table"
	"golang.org/x/sync/errgroup"
)

// An assembler writes the tables of a group from the work files of its
// finished units (groupWork), and puts them in the store.
type assembler struct {
	*groupWork
	st *store
	// readLater, if set, reports whether a group built after this one
	// reads the table of m. Such a table gets a resolved copy if the store
	// will not hold it in memory (see resolvedCopy).
	readLater func(m index.Material) bool
}

// writeTables writes the group's tables from its finished units. It
// writes two at once where Options.Threads allows. It puts the tables in
// the store. Those that a later group reads (readLater) stay in memory,
// as far as they fit beside each other. The others are read from their
// files.
func (a *assembler) writeTables() error {
	n := len(a.g.tables)
	keep := make([]bool, n)
	var kept int64
	for t, x := range a.g.tables {
		size := tableBytes(x.Material(), x.Size(), a.extra)
		if (a.readLater == nil || a.readLater(x.Material())) && a.st.fits(kept+size) {
			keep[t], kept = true, kept+size
		}
	}
	limit := int64(math.MaxInt64)
	if a.o.Mem > 0 {
		limit = budget(a.o.Mem).writing(n)
	}
	tables := make([]*solved, n)
	var g errgroup.Group
	g.SetLimit(a.o.Threads)
	for t, x := range a.g.tables {
		copied := !keep[t] && a.readLater != nil && a.readLater(x.Material())
		g.Go(func() (err error) {
			tables[t], err = a.assemble(t, keep[t], copied, limit)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for t, x := range a.g.tables {
		if err := a.st.put(x.Material(), tables[t]); err != nil {
			return err
		}
	}
	return nil
}

// resolvedCopy returns the path of the resolved copy of the table of m
// in the work folder of dir. Generate writes a copy of a table built in
// the run that the store does not hold in memory. It does so where a
// later group reads the table. The store's reader then reads the real
// entries of its capture positions. The table's file holds them as
// don't-cares. Each lookup would resolve them by a search and by probes
// of smaller tables. A crowning leads into the group built just before,
// often too large to hold. So a group with men looks up many such
// positions. The copy is removed at the start of a run, and once no group
// left to build reads the table.
func resolvedCopy(dir string, m index.Material) string {
	return filepath.Join(dir, WorkDir, table.FileName(m))
}

// assemble writes table t of the group from its finished units, block by
// block in index order. If keep is set, it holds the entries in memory,
// for the store. If copied is set, it also writes the resolved copy. It
// holds decoded blocks of the units within limit bytes (see unitFiles).
func (a *assembler) assemble(t int, keep, copied bool, limit int64) (*solved, error) {
	x := a.g.tables[t]
	m, k := x.Material(), x.KingPlacements()
	s := &solved{x: x, class: a.class, state: onDisk, path: filepath.Join(a.o.Dir, table.FileName(m))}
	if keep {
		s.state, s.cols = solvedInMemory, table.NewLayout(m, a.extra).MakeColumns(x.Size())
		lookupColumns(&s.cols, s.class)
	}
	w, err := table.NewWriter(s.path, m, a.extra, table.Full)
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	var wc *table.Writer // of the resolved copy, if copied
	if copied {
		s.state, s.copy = copiedOnDisk, resolvedCopy(a.o.Dir, m)
		if wc, err = table.NewWriter(s.copy, m, a.extra, table.Work); err != nil {
			return nil, err
		}
		defer wc.Abort()
	}
	files := newUnitFiles(a.groupWork, limit)
	defer files.close()
	// A block of over writeBatch positions is read a part at a time. The
	// one unit of a group of kings only may have such blocks. The parts
	// end where the unit's file blocks do (see unitHeader). A part that is
	// a whole file block is not cached.
	for r := range x.MenConfigs() {
		n, j := a.locate(t, r)
		for lo, hi := int64(0), int64(0); lo < k; lo = hi {
			hi = k
			if k > writeBatch {
				hi = min(lo+writeBatch-(int64(j)*k+lo)%writeBatch, k)
			}
			cols, captures, err := files.entries(n, int64(j)*k+lo, int64(j)*k+hi)
			if err != nil {
				return nil, err
			}
			if !a.extra.DTW {
				cols[table.DTWColumn] = nil
			}
			if err := w.AddColumns(&cols, captures); err != nil {
				return nil, err
			}
			if wc != nil {
				if err := wc.AddColumns(&cols, captures); err != nil {
					return nil, err
				}
			}
			if keep {
				for col, c := range cols {
					if s.cols[col] != nil {
						wd := int64(table.Column(col).Width())
						copy(s.cols[col][(r*k+lo)*wd:], c)
					}
				}
			}
		}
	}
	if wc != nil {
		if err := wc.Close(); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	s.stats = w.Stats()
	return s, nil
}

// unitFiles reads blocks of finished units from their work files. It
// decodes file blocks, every column. It keeps them in a cache within
// limit bytes (blockcache).
//
// In index order a table's blocks come from the units of every level in
// turn. The units of a level come in order. Those of the group's second
// table come in the order of their pairs. A file block holds whole
// blocks where they are small (see unitHeader). So the file block last
// read of each level serves the blocks that follow.
type unitFiles struct {
	w     *groupWork
	cache *blockcache.Cache[*decodedBlock]
	open  map[int]*unitFile // by unit, until close
}

// unitFile is the work file of a unit, opened, and its blocks in the
// cache.
type unitFile struct {
	r      *codec.Reader
	blocks *blockcache.File[*decodedBlock]
	read   func(blk int) (*decodedBlock, int64, error) // decode of r
}

// decodedBlock is a file block decoded: by column of the work file.
type decodedBlock struct {
	cols [][]byte
}

func newUnitFiles(w *groupWork, limit int64) *unitFiles {
	return &unitFiles{w: w, cache: blockcache.New[*decodedBlock](limit), open: map[int]*unitFile{}}
}

// close closes the work files opened.
func (f *unitFiles) close() {
	for _, u := range f.open {
		u.r.Close()
	}
	clear(f.open)
}

// file returns the work file of unit n, opened.
func (f *unitFiles) file(n int) (*unitFile, error) {
	if u := f.open[n]; u != nil {
		return u, nil
	}
	r, err := f.w.openUnit(n)
	if err != nil {
		return nil, err
	}
	u := &unitFile{r: r, blocks: blockcache.NewFile[*decodedBlock](r.Blocks())}
	u.read = func(blk int) (*decodedBlock, int64, error) { return decode(r, blk) }
	f.open[n] = u
	return u, nil
}

// decode decodes file block blk of r, every column, and returns the
// bytes it takes.
func decode(r *codec.Reader, blk int) (*decodedBlock, int64, error) {
	d := &decodedBlock{}
	var bytes int64
	for c := range r.Header().Columns {
		data, err := r.ReadBlock(c, blk, nil)
		if err != nil {
			return nil, 0, err
		}
		d.cols = append(d.cols, data)
		bytes += int64(len(data))
	}
	return d, bytes, nil
}

// fileBlock returns file block blk of u, decoded. It caches the block
// unless once is set. A block read whole at once is not read again: a
// table's assembly reads each position once.
func (f *unitFiles) fileBlock(u *unitFile, blk int, once bool) (*decodedBlock, error) {
	if once {
		if d, ok := f.cache.Held(u.blocks, blk); ok {
			return d, nil
		}
		d, _, err := u.read(blk)
		return d, err
	}
	return f.cache.Get(u.blocks, blk, u.read)
}

// entries returns the entries and the capture bits of the positions lo
// to hi of unit n, by local id. The entries have every column, dtw
// included.
func (f *unitFiles) entries(n int, lo, hi int64) (table.Columns, []uint64, error) {
	k := hi - lo
	var cols table.Columns
	var capture []byte
	u, err := f.file(n)
	if err != nil {
		return table.Columns{}, nil, err
	}
	r := u.r
	size := int64(r.Header().BlockSize)
	for pos := lo; pos < hi; {
		from, to := pos%size, min(hi-pos+pos%size, size)
		whole := from == 0 && to == min(size, r.Header().Positions-pos)
		d, err := f.fileBlock(u, int(pos/size), whole)
		if err != nil {
			return table.Columns{}, nil, err
		}
		for c, col := range r.Header().Columns {
			w := int64(col.Width)
			part := d.cols[c][from*w : to*w]
			dst := &capture
			if k, ok := unitColumn(col.Name); ok {
				dst = &cols[k]
			}
			if pos == lo && to-from == k { // the block lies in one file block
				*dst = part
			} else {
				*dst = append(*dst, part...)
			}
		}
		pos += to - from
	}
	captures := make([]uint64, (k+63)/64)
	for i, v := range capture {
		captures[i/64] |= uint64(v&1) << (i % 64)
	}
	return cols, captures, nil
}
