package probe

import (
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
	f, err := t.file(m, false)
	if err != nil || f.mem.Load() != nil {
		return err
	}
	b := &block{}
	if b.cols, err = f.r.ReadColumns(); err != nil {
		return err
	}
	if !f.resolved {
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
				r, err := t.captures(&p, f, 0)
				if err != nil {
					return err
				}
				b.cols.Set(i, r)
			}
			return nil
		})
	}
	return g.Wait()
}
