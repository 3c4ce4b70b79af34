package reader

import (
	"errors"
	"testing"

	"github.com/dtb-draughts/dtb/rules"
)

// TestMaxPieces limits the golden tables (up to 3 pieces) to 2: the
// 3-piece positions are missing, their files never opened, while 2-piece
// ones answer; lifting the limit brings them back.
func TestMaxPieces(t *testing.T) {
	tables := open(t, dir, Options{MaxPieces: 2})
	if got := tables.MaxPieces(); got != 2 {
		t.Errorf("MaxPieces under a limit of 2: %d, want 2", got)
	}
	for _, m := range tables.Materials() {
		if m.Pieces() > 2 {
			t.Errorf("Materials under a limit of 2 lists %s", m)
		}
	}
	if r, err := tables.Probe(fen(t, "W:WK10:BK5"), Clocks{}, 0); err != nil || r.Value != rules.Win {
		t.Errorf("2 pieces under a limit of 2: %+v %v, want a win", r, err)
	}
	// A king that must capture into 2 pieces.
	three := fen(t, "W:WK28:BK23,K41")
	for _, fl := range []Flags{0, ValuesOnly, CacheOnly, StoredOnly} {
		_, err := tables.Probe(three, Clocks{}, fl)
		var me *MissingError
		if !errors.As(err, &me) || me.Limit != 2 || !errors.Is(err, ErrMissing) {
			t.Errorf("3 pieces under a limit of 2, flags %d: %v, want a MissingError of limit 2", fl, err)
		}
	}
	if _, err := tables.Header(rules.MaterialOf(&three)); !errors.Is(err, ErrMissing) {
		t.Errorf("Header of 3 pieces under a limit of 2: %v, want ErrMissing", err)
	}
	for _, m := range tables.mats {
		if f := tables.files[m.Slot()]; m.Pieces() > 2 && f.opened.Load() {
			t.Errorf("%s opened under a limit of 2", m)
		}
	}

	tables.SetMaxPieces(0)
	if got := tables.MaxPieces(); got != 3 {
		t.Errorf("MaxPieces without a limit: %d, want 3", got)
	}
	if _, err := tables.Probe(fen(t, "W:WK28:BK23,K10"), Clocks{}, 0); err != nil {
		t.Errorf("3 pieces without a limit: %v", err)
	}
	if n := len(tables.Materials()); n != len(tables.mats) {
		t.Errorf("Materials without a limit: %d, want %d", n, len(tables.mats))
	}
}
