package retro

import (
	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/blockcache"
	"github.com/dtb-draughts/dtb/table"
)

// aboveLevel reads the finished units of the level above the units at
// work, where their man moves lead, from the units' work files: the
// lookup columns (see lookupColumns) by file block, through a cache of
// decoded blocks within the solver's share for them (budget.above). The
// man moves of one men configuration reach a few configurations there,
// so a unit reads a small part of the level at a time.
type aboveLevel struct {
	cache *blockcache.Cache[*table.Columns]
	units map[int]*aboveUnit // by unit of the group
}

// aboveUnit is the work file of a finished unit of the level above.
type aboveUnit struct {
	r      *codec.Reader
	size   int64                 // positions a file block
	at     [table.NumColumns]int // the file's column of each lookup column, -1 for none
	blocks *blockcache.File[*table.Columns]
	read   func(b int) (*table.Columns, int64, error) // u.readBlock
}

// openAbove opens the work files of units ns, finished, as the level
// above the units solved next.
func (b *groupBuild) openAbove(ns []int) (*aboveLevel, error) {
	a := &aboveLevel{cache: blockcache.New[*table.Columns](budget(b.o.Mem).above()), units: map[int]*aboveUnit{}}
	for _, n := range ns {
		r, err := b.openUnit(n)
		if err != nil {
			a.close()
			return nil, err
		}
		h := r.Header()
		u := &aboveUnit{r: r, size: int64(h.BlockSize),
			blocks: blockcache.NewFile[*table.Columns](int((h.Positions + int64(h.BlockSize) - 1) / int64(h.BlockSize)))}
		u.read = u.readBlock
		for k := range u.at {
			u.at[k] = -1
		}
		for c, col := range h.Columns {
			if k, ok := unitColumn(col.Name); ok && lookupColumn(k, b.class) {
				u.at[k] = c
			}
		}
		a.units[n] = u
	}
	return a, nil
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
// unit n, by local id: a view of one decoded file block where they lie
// in one, else a copy.
func (a *aboveLevel) positions(n int, lo, hi int64) (table.Columns, error) {
	u := a.units[n]
	var v table.Columns
	first, last := lo/u.size, (hi-1)/u.size
	for b := first; b <= last; b++ {
		blk, err := a.cache.Get(u.blocks, int(b), u.read)
		if err != nil {
			return table.Columns{}, err
		}
		from, to := max(lo, b*u.size)-b*u.size, min(hi, (b+1)*u.size)-b*u.size
		for c, col := range blk {
			if col == nil {
				continue
			}
			w := int64(table.Column(c).Width())
			switch part := col[from*w : to*w]; {
			case first == last:
				v[c] = part // a view
			case v[c] == nil:
				v[c] = append(make([]byte, 0, (hi-lo)*w), part...)
			default:
				v[c] = append(v[c], part...)
			}
		}
	}
	return v, nil
}

// readBlock decodes the lookup columns of file block b of u, and returns
// the bytes they take.
func (u *aboveUnit) readBlock(b int) (*table.Columns, int64, error) {
	var cols table.Columns
	var bytes int64
	for k, c := range u.at {
		if c < 0 {
			continue
		}
		data, err := u.r.ReadBlock(c, b, nil)
		if err != nil {
			return nil, 0, err
		}
		cols[k], bytes = data, bytes+int64(len(data))
	}
	return &cols, bytes, nil
}
