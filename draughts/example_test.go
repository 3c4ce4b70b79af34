package draughts_test

import (
	"fmt"

	"github.com/dtb-draughts/dtb/draughts"
)

// The moves of a position where White must capture, and the positions
// after them.
func ExamplePosition_Moves() {
	pos, err := draughts.ParseFEN("W:W28:B22,13")
	if err != nil {
		panic(err)
	}
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range pos.Moves(buf[:0]) {
		fmt.Println(pos.Notation(m), pos.Play(m).FEN())
	}
	// Output:
	// 28x17 B:W17:B13
}
