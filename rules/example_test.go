package rules_test

import (
	"fmt"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

// The move-limit class of a few materials, and the plies its clock
// starts with.
func ExampleClassOf() {
	for _, s := range []string{"KKKvK", "KMvK", "KKvKK", "KKvMM"} {
		m, err := index.ParseMaterial(s)
		if err != nil {
			panic(err)
		}
		c := rules.ClassOf(m)
		fmt.Println(s, c, c.Budget())
	}
	// Output:
	// KKKvK class A 32
	// KMvK class B 10
	// KKvKK rule 2 50
	// KKvMM none 0
}

// The entry of a position with two king moves, one to a position lost in
// 4 plies under the clock, the other to a draw: a win in 5.
func ExampleMoves() {
	ms := rules.NewMoves(rules.ClassA)
	ms.AddKingMove(rules.Entry{Rules: rules.Loss, Theory: rules.Loss, Distance: 4, DTW: 4, MTC: 4})
	ms.AddKingMove(rules.Entry{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1, MTC: -1})
	e := ms.Entry()
	fmt.Println(e.Rules, e.Theory, e.Distance, e.DTW, e.MTC)
	fmt.Println(e.RulesWith(rules.ClassA, 4)) // 4 plies left on the clock
	// Output:
	// win win 5 5 5
	// draw
}
