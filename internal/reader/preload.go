package reader

import (
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Preload reads the table of m whole into memory and resolves its capture
// positions by search. From then on a probe of one of its positions needs
// no search, lock or read. It serves a prober that probes much of a
// table, such as the verifier resolving the captures into it. It also
// searches what a slim directory's files leave out: forced threats and
// short rule-2 distances. A table answered by a search through its colour
// flip is searched whole. If that colour flip has short distances, it is
// preloaded first. The table stays in memory as long as t, 1 to 4 bytes a
// position by its columns. Preloading a table again does nothing. Preload
// reads distances, as with WithDistances. So it fails where the directory
// holds the values alone of the table, or of one its searches reach.
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
