package retro

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/blockcache"
	"github.com/dtb-draughts/dtb/table"
)

// TestAbovePositions writes a unit file of 100 positions in file blocks
// of 16, with a value, a dtw and a capture column, and reads ranges of
// it as the level above: within one block (a view), across several
// blocks (a copy), and at the end, under a cache of one block and of
// none; the capture column is not read.
func TestAbovePositions(t *testing.T) {
	const n, size = 100, 16
	values, dtw, capture := make([]byte, n), make([]byte, 2*n), make([]byte, n)
	for i := range n {
		values[i], dtw[2*i], dtw[2*i+1], capture[i] = byte(i), byte(3*i), byte(i>>8), byte(i&1)
	}
	path := filepath.Join(t.TempDir(), "u.unit")
	h := codec.Header{Material: "u", Positions: n, BlockSize: size, Columns: []codec.Column{
		{Name: table.ValueColumn.Name(), Width: 1}, {Name: table.DTWColumn.Name(), Width: 2}, {Name: captureColumn, Width: 1}}}
	w, err := codec.NewWriter(path, h)
	if err != nil {
		t.Fatal(err)
	}
	for c, data := range [][]byte{values, dtw, capture} {
		if _, err := w.Write(c, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{1, 0} {
		r, err := codec.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		u := &aboveUnit{r: r, size: size, blocks: blockcache.NewFile[*table.Columns]((n + size - 1) / size)}
		u.read = u.readBlock
		for k := range u.at {
			u.at[k] = -1
		}
		u.at[table.ValueColumn], u.at[table.DTWColumn] = 0, 1
		a := &aboveLevel{cache: blockcache.New[*table.Columns](budget), units: map[int]*aboveUnit{3: u}}
		for _, c := range [][2]int64{{0, 16}, {17, 30}, {5, 70}, {90, 100}, {31, 33}, {0, 100}} {
			got, err := a.positions(3, c[0], c[1])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got[table.ValueColumn], values[c[0]:c[1]]) || !bytes.Equal(got[table.DTWColumn], dtw[2*c[0]:2*c[1]]) ||
				got[table.DistanceColumn] != nil || got[table.MTCColumn] != nil {
				t.Errorf("budget %d, positions %d to %d: %v", budget, c[0], c[1], got)
			}
		}
		a.close()
	}
}
