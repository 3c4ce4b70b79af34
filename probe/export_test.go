package probe

import (
	"errors"

	"github.com/dtb-draughts/dtb/index"
)

// Searched reports whether the table of m is answered by a search
// through its colour flip: it has no header of its own.
func (t *Tables) Searched(m index.Material) bool {
	_, err := t.Header(m)
	return errors.Is(err, ErrNotStored)
}

// FEN is fen, for the tests of package probe_test.
var FEN = fen
