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
// of 16, with a value, a dtw and a capture column, and reads every men
// configuration of it as the level above, and a part of one, where a
// configuration has 8 positions (two to a file block: spans of a block)
// and 25 (across blocks: spans of a configuration), under a cache of one
// span and of none: the lookup columns only, the bytes of the file.
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
	at := [table.NumColumns]int{-1, -1, -1, -1}
	at[table.ValueColumn], at[table.DTWColumn] = 0, 1
	for _, k := range []int64{8, 25} {
		for _, budget := range []int64{1, 0} {
			r, err := codec.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			a := &aboveLevel{cache: blockcache.New[*table.Columns](budget), units: map[int]*aboveUnit{3: newAboveUnit(r, k, at)}}
			ranges := [][2]int64{{k + 1, 2*k - 1}}
			for lo := int64(0); lo < n; lo += k {
				ranges = append(ranges, [2]int64{lo, min(lo+k, n)})
			}
			for _, c := range ranges {
				got, err := a.positions(3, c[0], c[1])
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got[table.ValueColumn], values[c[0]:c[1]]) || !bytes.Equal(got[table.DTWColumn], dtw[2*c[0]:2*c[1]]) ||
					got[table.DistanceColumn] != nil || got[table.MTCColumn] != nil {
					t.Errorf("configurations of %d, budget %d, positions %d to %d: %v", k, budget, c[0], c[1], got)
				}
			}
			a.close()
		}
	}
}
