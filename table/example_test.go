package table_test

import (
	"fmt"
	"path/filepath"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// The entry of a position, read from a table file of the golden tables.
func ExampleOpen() {
	pos, err := draughts.ParseFEN("W:WK1,K2:BK45")
	if err != nil {
		panic(err)
	}
	m := rules.MaterialOf(&pos)
	f, err := table.Open(filepath.Join(tabletest.Golden, table.FileName(m)), m)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	cols, err := f.ReadColumns()
	if err != nil {
		panic(err)
	}
	e, _ := cols.Entry(index.New(m).Rank(rules.Placement(&pos)))
	fmt.Println(m, f.Class, e.Rules, e.Distance, e.DTW)
	// Output:
	// KKvK class B win 7 7
}
