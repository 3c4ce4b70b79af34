package rules

import "github.com/dtb-draughts/dtb/index"

// Class is a material's move-limit class: which clock of docs/rules.md
// can decide its values.
type Class uint8

// The classes of docs/rules.md.
const (
	NoClass Class = iota
	ClassA        // three pieces, at least one a king, against a lone king: 32 plies
	ClassB        // two kings, king and man, or one king against a lone king: 10 plies
	// Rule2 is no class of the rules but is counted like one. It is a
	// material of neither class where both sides have a king: the only
	// ones where the count of the 25-move king rule (rule 2) can reach 50
	// plies. Every man move and capture restarts the count, so it never
	// carries over into another material or level. Classes A and B start
	// only with a capture or a man move, so their clocks and the count
	// never run at once.
	Rule2
)

func (c Class) String() string {
	switch c {
	case ClassA:
		return "class A"
	case ClassB:
		return "class B"
	case Rule2:
		return "rule 2"
	}
	return "none"
}

// ClassOf returns the class of a material.
func ClassOf(m index.Material) Class {
	if c := loneKingClass(m); c != NoClass {
		return c
	}
	if m.WhiteKings > 0 && m.BlackKings > 0 {
		return Rule2
	}
	return NoClass
}

// loneKingClass returns the class A or B of m, or NoClass.
func loneKingClass(m index.Material) Class {
	strongKings, strongMen := m.WhiteKings, m.WhiteMen
	if m.WhiteMen+m.WhiteKings == 1 && m.WhiteKings == 1 {
		strongKings, strongMen = m.BlackKings, m.BlackMen
	} else if !(m.BlackMen+m.BlackKings == 1 && m.BlackKings == 1) {
		return NoClass // neither side is a lone king
	}
	switch {
	case strongKings == 0:
		return NoClass
	case strongKings+strongMen == 3:
		return ClassA
	case strongKings+strongMen <= 2 && strongMen <= 1:
		return ClassB
	}
	return NoClass
}

// Budget returns the plies a clock of the class starts with (0 for none).
func (c Class) Budget() int {
	switch c {
	case ClassA:
		return 32
	case ClassB:
		return 10
	case Rule2:
		return Rule2Plies
	}
	return 0
}

// Rule2Plies is the length of the 25-move king rule (rule 2) in plies.
const Rule2Plies = 50

// Carries reports whether the clock of c runs on across the captures and
// man moves that stay in its class (classes A and B; the count of rule 2
// restarts).
func (c Class) Carries() bool { return c == ClassA || c == ClassB }
