package reader

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

// ProbeCut is probe under the cut of the given values, for the tests of
// package reader_test.
func (t *Tables) ProbeCut(p draughts.Position, c Clocks, fl Flags, theory, ru rules.Value) (r Result, err error) {
	err = t.probeCut(&r, p, c, fl, cut{theory, ru})
	return r, err
}

// Searched reports whether the table of m is answered by a search.
func (t *Tables) Searched(m index.Material) bool {
	f, err := t.file(m, false)
	return err == nil && f.from != nil
}
