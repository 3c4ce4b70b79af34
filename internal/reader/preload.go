package reader

import (
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Preload reads the table of m whole into memory and resolves what its
// files leave out (resolve), as probe.Tables.Preload. A table answered
// through its colour flip is searched whole; if that flip has short
// distances, it is preloaded first.
func (t *Tables) Preload(m index.Material) error {
	f, err := t.file(m, false)
	if err != nil || f.mem.Load() != nil {
		return err
	}
	b := &block{}
	switch {
	case f.from != nil:
		if f.from.r.ShortDistances() {
			if err := t.Preload(f.from.m); err != nil {
				return err
			}
		}
		b.cols = f.from.r.Layout.MakeColumns(f.x.Size())
		err = t.resolve(f, b)
	case f.r.Variant == table.Work:
		b.cols, err = f.r.ReadColumns()
	default:
		if b.cols, err = f.r.ReadColumns(); err == nil {
			err = t.resolve(f, b)
		}
	}
	if err != nil {
		return err
	}
	f.mem.Store(b)
	return nil
}

// resolve fills in b, which holds the whole table of f. It stores the
// entries its files lack (file.gap): those of its capture positions and
// forced threats, or every one of a table not stored, searched in
// parallel chunks. For a table that leaves out short distances, it stores
// the exact ones (exactDistance).
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
				p := rules.Position(pl)
				var r rules.Entry
				var err error
				switch f.gap(&p) {
				case table.NoGap:
					continue
				case table.ShortGap:
					if r, _ = b.cols.Entry(i); r.Theory == rules.Draw {
						continue
					}
					_, err = t.exactDistance(&p, &r, Clocks{}, WithDistances)
				default:
					r, err = t.searched(&p, f, Clocks{}, WithDistances, exact)
				}
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
