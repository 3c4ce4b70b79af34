package probe

import (
	"encoding/binary"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// Preload reads the table of m whole into memory and resolves its capture
// positions by search, so that from then on a probe of one of its
// positions needs no search, lock or read: for a prober that probes much
// of a table, such as the verifier resolving the captures into it. The
// table stays in memory as long as t, 1 to 4 bytes a position by its
// columns. Preloading a table again does nothing.
func (t *Tables) Preload(m index.Material) error {
	f, err := t.file(m)
	if err != nil || f.mem.Load() != nil {
		return err
	}
	b := &block{}
	for c, col := range f.col {
		if col >= 0 {
			if b.cols[c], err = f.r.ReadColumn(col); err != nil {
				return err
			}
		}
	}
	if f.dontCare {
		if err := t.resolve(f, b); err != nil {
			return err
		}
	}
	f.mem.Store(b)
	return nil
}

// resolve stores in b, which holds the whole table of f, the entries of
// its capture positions, searched in parallel chunks.
func (t *Tables) resolve(f *file, b *block) error {
	const chunk = 1 << 14 // positions
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for lo := int64(0); lo < f.x.Size(); lo += chunk {
		g.Go(func() error {
			pl := f.x.Unrank(lo)
			for i := lo; i < min(lo+chunk, f.x.Size()); i++ {
				if i > lo {
					pl, _ = f.x.Next(pl)
				}
				p := table.Position(pl)
				if !p.HasCapture() {
					continue
				}
				r, err := t.captures(&p, f)
				if err != nil {
					return err
				}
				b.set(i, r)
			}
			return nil
		})
	}
	return g.Wait()
}

// set stores r as entry i of b.
func (b *block) set(i int64, r Result) {
	b.cols[colValue][i] = table.PackValues(r.Theory, r.Value)
	if d := b.cols[colDistance]; d != nil {
		d[i] = table.NoDistance
		if r.Distance >= 0 {
			d[i] = byte(min(r.Distance, table.NoDistance-1))
		}
	}
	if d := b.cols[colDTW]; d != nil {
		n := uint16(table.NoDTW)
		if r.DTW >= 0 {
			n = uint16(r.DTW)
		}
		binary.LittleEndian.PutUint16(d[2*i:], n)
	}
}
