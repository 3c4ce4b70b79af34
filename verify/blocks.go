package verify

import (
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// A block is a decoded block of a table read by blocks, its capture
// positions resolved (see verifier.stored).
type block struct {
	cols table.Columns
	// captures has bit j%64 of word j/64 set for a capture position j.
	captures []uint64
}

// capture reports whether entry j of b is a capture position.
func (b *block) capture(j int64) bool { return b.captures[j/64]>>(j%64)&1 != 0 }

// bytes returns the memory b takes.
func (b *block) bytes() int64 {
	n := int64(len(b.captures)) * 8
	for _, col := range b.cols {
		n += int64(len(col))
	}
	return n
}

// block returns block b of t, reading it if the cache does not hold it.
func (v *verifier) block(t *memTable, b int64) (*block, error) {
	return v.cache.Get(t.blocks, int(b), t.read)
}

// reader returns the function that reads the blocks of t for the cache.
func (v *verifier) reader(t *memTable) func(b int) (*block, int64, error) {
	return func(b int) (*block, int64, error) {
		blk, err := v.readBlock(t, int64(b))
		if err != nil {
			return nil, 0, err
		}
		return blk, blk.bytes(), nil
	}
}

// readBlock decodes block b of t, resolving its capture positions, or
// searches its positions for a table answered by a search.
func (v *verifier) readBlock(t *memTable, b int64) (*block, error) {
	lo := b * t.blockSize
	hi := min(lo+t.blockSize, t.x.Size())
	var cols table.Columns
	if t.file != nil {
		var err error
		if cols, err = t.file.ReadBlock(int(b)); err != nil {
			return nil, err
		}
	} else {
		cols = t.layout.MakeColumns(hi - lo)
	}
	blk := &block{cols: cols, captures: make([]uint64, (hi-lo+63)/64)}
	pl := t.x.Unrank(lo)
	for i := lo; i < hi; i++ {
		if i > lo {
			pl, _ = t.x.Next(pl)
		}
		p := rules.Position(pl)
		capture := p.HasCapture()
		var e rules.Entry
		var resolved bool
		if t.file == nil {
			r, err := v.pt.Probe(p, reader.Clocks{}, reader.WithDistances)
			if err != nil {
				return nil, err
			}
			e, resolved = r.Entry, true
		} else {
			var err error
			if e, resolved, err = v.stored(t.file, &cols, i-lo, i, p, capture); err != nil {
				return nil, err
			}
		}
		if resolved {
			cols.Set(i-lo, e)
		}
		if capture {
			blk.captures[(i-lo)/64] |= 1 << ((i - lo) % 64)
		}
	}
	return blk, nil
}
