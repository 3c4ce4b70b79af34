package diagram_test

import (
	"fmt"
	"log"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/diagram"
	"github.com/dtb-draughts/dtb/draughts"
)

func ExampleText() {
	p, err := draughts.ParseFEN("W:WK10,28:B23,K41")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(diagram.Text(p))
	// Output:
	//    .   .   .   .   .    1-5
	//  .   .   .   .   W      6-10
	//    .   .   .   .   .   11-15
	//  .   .   .   .   .     16-20
	//    .   .   b   .   .   21-25
	//  .   .   w   .   .     26-30
	//    .   .   .   .   .   31-35
	//  .   .   .   .   .     36-40
	//    B   .   .   .   .   41-45
	//  .   .   .   .   .     46-50
	// White to move; w/W White man/king, b/B Black man/king
}
