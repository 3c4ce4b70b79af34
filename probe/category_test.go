package probe

import (
	"errors"
	"testing"

	"github.com/dtb-draughts/dtb/rules"
)

// TestCategoryOf checks the categories of the pairs of values, their
// numbers (python-chess's WDL, whose sign is the theoretical value) and
// their words, and that a pair no position has, or an unknown value, is
// Unknown.
func TestCategoryOf(t *testing.T) {
	for _, c := range []struct {
		rules, theory rules.Value
		want          Category
		n             int
		word          string
	}{
		{rules.Loss, rules.Loss, Loss, -2, "loss"},
		{rules.Draw, rules.Loss, BlessedLoss, -1, "blessed-loss"},
		{rules.Draw, rules.Draw, Draw, 0, "draw"},
		{rules.Draw, rules.Win, CursedWin, 1, "cursed-win"},
		{rules.Win, rules.Win, Win, 2, "win"},
		{rules.Win, rules.Draw, Unknown, 3, "unknown"},
		{rules.Loss, rules.Win, Unknown, 3, "unknown"},
		{rules.Unknown, rules.Unknown, Unknown, 3, "unknown"},
		{rules.Draw, rules.Unknown, Unknown, 3, "unknown"},
	} {
		got := CategoryOf(c.rules, c.theory)
		if got != c.want || int(got) != c.n || got.String() != c.word {
			t.Errorf("CategoryOf(%v, %v) = %d %s, want %d %s", c.rules, c.theory, got, got, c.n, c.word)
		}
		b, err := got.MarshalText()
		var back Category
		switch {
		case got == Unknown && err == nil:
			t.Errorf("Unknown marshals as %q", b)
		case got != Unknown && (err != nil || back.UnmarshalText(b) != nil || back != got):
			t.Errorf("%s: text %q, %v, back %s", got, b, err, back)
		}
	}
	if int(rules.Loss) != -1 || int(rules.Draw) != 0 || int(rules.Win) != 1 || int(rules.Unknown) != int(Unknown) {
		t.Errorf("values %d %d %d, unknown %d; want -1 0 1 and Category's %d", rules.Loss, rules.Draw, rules.Win, rules.Unknown, Unknown)
	}
}

// TestFailedProbeIsUnknown checks that a failed probe reads as no value:
// a CacheOnly miss, an illegal position and a missing table each give
// rules.Unknown values, the Unknown category and no distances, never
// the zero Result's draw (nor the loss that Loss 0 once made of it).
func TestFailedProbeIsUnknown(t *testing.T) {
	tables := open(t, dir, Options{})
	for _, c := range []struct {
		fen   string
		flags Flags
		err   error
	}{
		{"W:WK10:BK5", CacheOnly, ErrNotCached}, // nothing read yet
		{"W:WK10", 0, ErrIllegal},               // Black has no pieces: the game is over
		{"W:WK1,K2:BK7,K8", 0, ErrMissing},      // 4 pieces, beyond the golden tables
	} {
		r, err := tables.Probe(fen(t, c.fen), Clocks{}, c.flags)
		if !errors.Is(err, c.err) {
			t.Fatalf("%s: error %v, want %v", c.fen, err, c.err)
		}
		if r.Value != rules.Unknown || r.Entry.Rules != rules.Unknown || r.Entry.Theory != rules.Unknown ||
			r.Category() != Unknown || r.Entry.Distance != -1 || r.Entry.DTW != -1 || r.Entry.MTC != -1 {
			t.Errorf("%s: %v gives %+v, category %s; want unknown values and no distances", c.fen, err, r, r.Category())
		}
	}
}

// TestCategories finds each category on the golden tables: the longest
// class B win fresh and with 2 plies of 10 played (a cursed win), the
// blessed loss after its best move, a draw and a blocked loss. The sign
// of each is its theoretical value; its ends (Loss, Win) are the values
// under the rules.
func TestCategories(t *testing.T) {
	tables := open(t, dir, Options{})
	cursed, err := tables.RootMoves(fen(t, "W:WK2,6:BK50"), Clocks{Class: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fen    string
		clocks Clocks
		want   Category
	}{
		{"W:WK2,6:BK50", Clocks{}, Win},
		{"W:WK2,6:BK50", Clocks{Class: 2}, CursedWin},
		{fen(t, "W:WK2,6:BK50").Play(cursed[0].Move).FEN(), cursed[0].Clocks, BlessedLoss},
		{"W:WK2:BK26", Clocks{}, Draw},
		{"W:W6:BK1", Clocks{}, Loss},
	} {
		r, err := tables.Probe(fen(t, c.fen), c.clocks, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Category()
		if got != c.want || rules.Value(min(max(got, -1), 1)) != r.Entry.Theory || (got == Win || got == Loss) != (r.Value == r.Entry.Theory && r.Value != rules.Draw) {
			t.Errorf("%s, %+v: %s (%d), values %v, %v in theory; want %s", c.fen, c.clocks, got, got, r.Value, r.Entry.Theory, c.want)
		}
	}
	if got := cursed[0].Category(); got != CursedWin {
		t.Errorf("the best move of a cursed win: %s for its mover, want cursed-win", got)
	}
}
