package table

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/rules"
)

// A Variant is what a table file is, decoded from its rules flags once
// (checkHeader).
type Variant uint8

// The variants.
const (
	Full    Variant = iota // a table as dtb gen writes it (rulesFlagsFull; rulesFlagsPlain before rulesCompact)
	Work                   // the generator's work file: capture positions hold their entries (rulesFlagsWork)
	Slim                   // a slim directory's file (rulesFlagsFull with some of rulesSlim; Info.Slim)
	NoRule2                // written before rule 2 was tracked (rulesFlagsNoRule2)
)

func (v Variant) String() string {
	return [...]string{"full", "work", "slim", "no rule 2"}[v]
}

// Rules returns the rules flags of v's files as this version writes
// them; a slim file adds its own to those of Full.
func (v Variant) Rules() uint32 {
	return [...]uint32{rulesFlagsFull, rulesFlagsWork, rulesFlagsFull, rulesFlagsNoRule2}[v]
}

// variantOf returns the variant of a file of known rules flags r.
func variantOf(r uint32) Variant {
	switch {
	case r&rulesNo25Move != 0:
		return NoRule2
	case r&rulesCapturesDontCare == 0:
		return Work
	case r&rulesSlim != 0:
		return Slim
	}
	return Full
}

// SlimFlags are what a slim directory's file leaves out or marks.
type SlimFlags struct {
	// FreshMarks: the value bytes mark with FreshOnly the positions whose
	// rules value only a fresh rule-2 count gives (rulesFreshMarks).
	FreshMarks bool
	// ShortDistances: the distance file leaves out the rule-2 distances of
	// at most ShortDistance plies (rulesShortDistances), which a search
	// finds.
	ShortDistances bool
	// ForcedThreats: the entries of forced threats are left out
	// (rulesForcedThreats), which a search over their moves finds
	// (rules.ForcedThreat).
	ForcedThreats bool
}

// A Gap is why a table file does not hold a position's entry.
type Gap uint8

// The gaps.
const (
	NoGap       Gap = iota // the entry is stored
	CaptureGap             // a capture position, resolved by its captures (not in a work file)
	ThreatGap              // a forced threat that a slim value file leaves out
	SearchedGap            // a table that a slim directory answers through its colour flip's file, searched
	ShortGap               // stored, but a win's or loss's rule-2 distance of at most ShortDistance plies is left out of the distance file, searched
)

// Gap returns why the file does not hold the entry of p, a position of
// its table (White to move), a capture position if capture is set. The
// value of a ShortGap position is stored; its distance is where the
// value is a draw.
func (i *Info) Gap(p *draughts.Position, capture bool) Gap {
	switch {
	case capture && i.Variant != Work:
		return CaptureGap
	case i.Slim.ForcedThreats && rules.ForcedThreat(p):
		return ThreatGap
	case i.ShortDistances():
		return ShortGap
	}
	return NoGap
}

// ShortDistances reports whether the distance file leaves out the
// rule-2 distances of at most ShortDistance plies of a win or loss,
// which a search finds (SlimFlags.ShortDistances of a Rule2 material).
func (i *Info) ShortDistances() bool { return i.Slim.ShortDistances && i.Class == rules.Rule2 }
