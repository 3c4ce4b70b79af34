package probe

import (
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
)

// dir holds the golden tables (see ../testdata/README.md): every table
// up to 3 pieces.
var dir = filepath.Join("..", "testdata", "golden")

func open(tb testing.TB, dir string, o Options) *Tables {
	tb.Helper()
	t, err := Open(dir, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t
}

func fen(tb testing.TB, s string) draughts.Position {
	tb.Helper()
	p, err := draughts.ParseFEN(s)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
