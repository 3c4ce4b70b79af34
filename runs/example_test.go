package runs_test

import (
	"bytes"
	"fmt"

	"github.com/dtb-draughts/dtb/runs"
)

// A column of 1,000 bytes of three values, in runs, stored in a few
// tokens and read in place.
func ExampleParse() {
	block := append(append(bytes.Repeat([]byte{2}, 600), bytes.Repeat([]byte{1}, 300)...), bytes.Repeat([]byte{0}, 100)...)
	form, ok := runs.Append(nil, block)
	if !ok {
		panic("no shorter form")
	}
	c, err := runs.Parse(form, len(block))
	if err != nil {
		panic(err)
	}
	fmt.Println(len(block), "bytes stored in", len(form))
	fmt.Println(c.At(0), c.At(599), c.At(600), c.At(999))
	// Output:
	// 1000 bytes stored in 12
	// 2 2 1 0
}
