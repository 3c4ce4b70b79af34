package probe

import (
	"fmt"

	"github.com/dtb-draughts/dtb/rules"
)

// A Category is a value under the rules beside the theoretical one, as
// players say it and as python-chess numbers its WDL: Loss -2,
// BlessedLoss -1, Draw 0, CursedWin 1, Win 2. A cursed win is won in
// theory and drawn by a move limit or rule 2, a blessed loss the other way
// round. Loss and Win are the values under the rules, the others draws
// under the rules; the sign is the theoretical value, numbered as
// rules.Value. The C library and the Python package number it alike
// (docs/engines.md).
type Category int8

// The categories, from the worst for the side they are for.
const (
	Loss        Category = -2
	BlessedLoss Category = -1
	Draw        Category = 0
	CursedWin   Category = 1
	Win         Category = 2
)

// Unknown is no category: that of a failed probe (rules.Unknown), which
// the zero Category, a draw, cannot say. It is none of the categories
// above.
const Unknown Category = 3

// CategoryOf returns the category of a value under the rules and a
// theoretical value. A value that is not a win, draw or loss, or a pair
// no position has (a draw in theory won under the rules), gives Unknown.
func CategoryOf(ru, theory rules.Value) Category {
	switch {
	case ru == rules.Win && theory == rules.Win:
		return Win
	case ru == rules.Loss && theory == rules.Loss:
		return Loss
	case ru != rules.Draw: // a win or loss under the rules, not in theory: Unknown
	case theory == rules.Win:
		return CursedWin
	case theory == rules.Loss:
		return BlessedLoss
	case theory == rules.Draw:
		return Draw
	}
	return Unknown
}

// words are the categories' names, from Loss.
var words = [...]string{"loss", "blessed-loss", "draw", "cursed-win", "win"}

// String returns "loss", "blessed-loss", "draw", "cursed-win", "win" or
// "unknown".
func (c Category) String() string {
	if c < Loss || c > Win {
		return "unknown"
	}
	return words[c-Loss]
}

// MarshalText writes c as String does; Unknown is an error.
func (c Category) MarshalText() ([]byte, error) {
	if c < Loss || c > Win {
		return nil, fmt.Errorf("invalid category %d", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (c *Category) UnmarshalText(b []byte) error {
	for w := Loss; w <= Win; w++ {
		if string(b) == w.String() {
			*c = w
			return nil
		}
	}
	return fmt.Errorf("invalid category %q", b)
}
