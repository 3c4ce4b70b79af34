package retro

import (
	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/blockcache"
	"github.com/dtb-draughts/dtb/table"
)

// aboveLevel reads the finished units of the level above the units at
// work. The man moves of the units at work lead there. It reads the
// lookup columns (see lookupColumns) from the units' work files, a span
// at a time. A span is a file block, or a men configuration where its
// positions fill more than one file block. Decoded spans go through a
// cache within the solver's share for them (budget.above). The man moves
// of one men configuration reach a few configurations there. So a unit
// reads a small part of the level at a time.
type aboveLevel struct {
	cache *blockcache.Cache[*table.Columns]
	units map[int]*aboveUnit // by unit of the group
}

// aboveUnit is the work file of a finished unit of the level above.
type aboveUnit struct {
	r *codec.Reader
	// A file block has size positions, a span span positions. A span is
	// a file block, whose size is a multiple of a configuration's
	// positions. Where those are more, a span is one configuration.
	size, span int64
	at         [table.NumColumns]int // the file's column of each lookup column, -1 for none
	spans      *blockcache.File[*table.Columns]
	read       func(s int) (*table.Columns, int64, error) // u.readSpan
}

// openAbove opens the work files of the finished units ns. They serve as
// the level above the units solved next.
func (w *groupWork) openAbove(ns []int) (*aboveLevel, error) {
	a := &aboveLevel{cache: blockcache.New[*table.Columns](budget(w.o.Mem).above()), units: map[int]*aboveUnit{}}
	for _, n := range ns {
		r, err := w.openUnit(n)
		if err != nil {
			a.close()
			return nil, err
		}
		at := [table.NumColumns]int{-1, -1, -1, -1}
		for c, col := range r.Header().Columns {
			if k, ok := unitColumn(col.Name); ok && lookupColumn(k, w.class) {
				at[k] = c
			}
		}
		a.units[n] = newAboveUnit(r, w.k, at)
	}
	return a, nil
}

// newAboveUnit returns the unit of work file r, reading the columns at.
// Its men configurations have k positions each.
func newAboveUnit(r *codec.Reader, k int64, at [table.NumColumns]int) *aboveUnit {
	h := r.Header()
	u := &aboveUnit{r: r, size: int64(h.BlockSize), span: max(int64(h.BlockSize), k), at: at}
	u.spans = blockcache.NewFile[*table.Columns](int((h.Positions + u.span - 1) / u.span))
	u.read = u.readSpan
	return u
}

// close closes the work files; a nil level is closed already.
func (a *aboveLevel) close() {
	if a == nil {
		return
	}
	for _, u := range a.units {
		u.r.Close()
	}
}

// positions returns the lookup columns of the positions lo to hi of
// unit n, by local id. They lie in one span, as a men configuration's
// do. The columns are a view of the decoded span.
func (a *aboveLevel) positions(n int, lo, hi int64) (table.Columns, error) {
	u := a.units[n]
	s := lo / u.span
	cols, err := a.cache.Get(u.spans, int(s), u.read)
	if err != nil {
		return table.Columns{}, err
	}
	var v table.Columns
	for c, col := range cols {
		if col != nil {
			w := int64(table.Column(c).Width())
			v[c] = col[(lo-s*u.span)*w : (hi-s*u.span)*w]
		}
	}
	return v, nil
}

// readSpan decodes the lookup columns of span s of u, and returns the
// bytes they take.
func (u *aboveUnit) readSpan(s int) (*table.Columns, int64, error) {
	lo := int64(s) * u.span
	hi := min(lo+u.span, u.r.Header().Positions)
	var cols table.Columns
	var bytes int64
	for k, c := range u.at {
		if c < 0 {
			continue
		}
		w := int64(table.Column(k).Width())
		for b := lo / u.size; b*u.size < hi; b++ {
			data, err := u.r.ReadBlock(c, int(b), nil)
			if err != nil {
				return nil, 0, err
			}
			if u.span == u.size {
				cols[k] = data // the span is the block
				break
			}
			if cols[k] == nil {
				cols[k] = make([]byte, 0, (hi-lo)*w)
			}
			from, to := max(lo, b*u.size)-b*u.size, min(hi, (b+1)*u.size)-b*u.size
			cols[k] = append(cols[k], data[from*w:to*w]...)
		}
		bytes += int64(len(cols[k]))
	}
	return &cols, bytes, nil
}
