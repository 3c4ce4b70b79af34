package claim

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// Flags declares the flags of a query on fs: --side, --where, --value,
// --cursed and --examples, as dtb claim has them. It returns the function that builds
// the query from their values and the materials named by the arguments
// left after the flags: material names such as KKKvK, or A and B for
// every material of class A or B (see ClassMaterials).
func Flags(fs *pflag.FlagSet) func(materials []string) (Query, error) {
	side := fs.String("side", "either", "side to move: white, black or either")
	where := fs.StringArray("where", nil, "square constraint PIECES OP SQUARES, all must hold (repeatable); PIECES: w, b (all of a side), wk, wm, bk, bm; "+
		"OP: = (every such piece on SQUARES), != (none), ~ (at least one); SQUARES: a list such as 28,46-50,diag:5-46 (the diagonal from 5 to 46); e.g. bk=diag:5-46")
	value := fs.StringArray("value", nil, "value condition for White, all must hold (repeatable): rules or theory, = or !=, win, draw or loss; e.g. rules!=win")
	cursed := fs.String("cursed", "", "rule2: only the theoretical wins and losses that rule 2, the 25-move king rule, itself turns into draws "+
		"(rule-2 distance over 50 plies, in tables that track rule 2)")
	examples := fs.Int("examples", 3, "matching positions to show")
	return func(materials []string) (Query, error) {
		q := Query{Examples: *examples}
		if len(materials) == 0 {
			return q, errors.New("expected one or more materials")
		}
		if *examples < 0 {
			return q, errors.New("--examples must not be negative")
		}
		switch *cursed {
		case "":
		case "rule2":
			q.Rule2Cursed = true
		default:
			return q, fmt.Errorf("--cursed %q: want rule2", *cursed)
		}
		for _, a := range materials {
			switch a {
			case "A":
				q.Materials = append(q.Materials, ClassMaterials(table.ClassA)...)
			case "B":
				q.Materials = append(q.Materials, ClassMaterials(table.ClassB)...)
			default:
				m, err := index.ParseMaterial(a)
				if err != nil {
					return q, err
				}
				q.Materials = append(q.Materials, m)
			}
		}
		switch *side {
		case "white":
			q.Sides = []draughts.Color{draughts.White}
		case "black":
			q.Sides = []draughts.Color{draughts.Black}
		case "either":
			q.Sides = []draughts.Color{draughts.White, draughts.Black}
		default:
			return q, fmt.Errorf("--side %q: want white, black or either", *side)
		}
		for _, w := range *where {
			c, err := ParseConstraint(w)
			if err != nil {
				return q, err
			}
			q.Where = append(q.Where, c)
		}
		for _, v := range *value {
			c, err := ParseValueCond(v)
			if err != nil {
				return q, err
			}
			q.Values = append(q.Values, c)
		}
		return q, nil
	}
}

// ParseArgs builds the query of the arguments of dtb claim: materials
// and the flags of Flags, in any order, such as
// KKKvK --where bk=diag:5-46 --value rules!=win.
func ParseArgs(args []string) (Query, error) {
	fs := pflag.NewFlagSet("claim", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	build := Flags(fs)
	if err := fs.Parse(args); err != nil {
		return Query{}, err
	}
	return build(fs.Args())
}
