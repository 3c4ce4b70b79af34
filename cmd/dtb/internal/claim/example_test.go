package claim_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/claim"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
)

// Example asks how the positions of a king against a king on the long
// diagonal end, White to move.
func Example() {
	dir, err := tabletest.Four.Build() // the tables of up to 4 pieces, built by the generator
	if err != nil {
		panic(err)
	}
	t, err := probe.Open(dir, probe.Options{})
	if err != nil {
		panic(err)
	}
	defer t.Close()

	ms, err := claim.ParseMaterials("KvK")
	if err != nil {
		panic(err)
	}
	diag, err := claim.ParseConstraint("bk=diag:5-46") // the black king on the long diagonal
	if err != nil {
		panic(err)
	}
	q := claim.Query{Materials: ms, Sides: []draughts.Color{draughts.White}, Where: []claim.Constraint{diag}, Examples: 1}
	fmt.Println("dtb claim", strings.Join(q.Args(), " "))
	res, err := q.Run(context.Background(), t, 0)
	if err != nil {
		panic(err)
	}
	r := res.Rows[0]
	fmt.Println(q)
	fmt.Printf("%d positions: White wins %d, draws %d, loses %d\n", r.Positions, r.Rules.Win, r.Rules.Draw, r.Rules.Loss)
	fmt.Println("longest win:", r.DescribeLongest(draughts.White))
	x := res.Examples[0]
	fmt.Println("first position:", x.Position.FEN(), x.Entry.Rules)
	// Output:
	// dtb claim KvK --side white --where bk=diag:5-46 --examples 1
	// KvK; White to move; bk=diag:5-46
	// 490 positions: White wins 128, draws 360, loses 2
	// longest win: class distance 3 plies (W:WK10:BK5), dtw 3 plies (W:WK10:BK5), mtc 3 plies (W:WK10:BK5)
	// first position: W:WK1:BK5 draw
}
