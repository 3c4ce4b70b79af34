package verify_test

import (
	"context"
	"fmt"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/verify"
)

// A check of one table of the golden tables, reading the tables it needs.
func ExampleVerify() {
	m, _ := index.ParseMaterial("KKvK")
	reports, err := verify.Verify(context.Background(), tabletest.Golden, verify.Options{Only: []index.Material{m}})
	if err != nil {
		panic(err)
	}
	for _, r := range reports {
		fmt.Println(r.Material, r.OK(), r.Positions, r.Checked, r.Mismatches)
	}
	// Output:
	// KKvK true 58800 41732 0
}
