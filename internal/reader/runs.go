package reader

import (
	"encoding/binary"

	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/runs"
	"github.com/dtb-draughts/dtb/table"
)

// distRuns holds some columns of a block besides the value, as the cache
// keeps them: each 1-byte column as runs, read in place (package runs);
// the 2-byte dtw column as its bytes.
type distRuns struct {
	cols [table.NumColumns]runs.Column // the 1-byte columns where has says
	has  [table.NumColumns]bool
	dtw  []byte
}

// readDistRuns reads the columns from first up to end of block b of f.
// The columns f lacks are left out.
func readDistRuns(f *table.File, b int, first, end table.Column) (distRuns, error) {
	var r distRuns
	for col := first; col < end; col++ {
		if !f.Layout.Has(col) {
			continue
		}
		var err error
		if col.Width() == 1 {
			r.cols[col], err = f.ReadRuns(b, col)
		} else {
			var c table.Columns
			c, err = f.ReadBlock(b, col)
			r.dtw = c[col]
		}
		if err != nil {
			return distRuns{}, err
		}
		r.has[col] = true
	}
	return r, nil
}

// decoded returns r, the columns of a block of n positions, with each
// 1-byte column decoded, a byte a position (runs.Column.Decoded).
func (r *distRuns) decoded(n int) distRuns {
	d := *r
	for col := range d.cols {
		if d.has[col] {
			d.cols[col] = r.cols[col].Decoded(n)
		}
	}
	return d
}

// size returns the bytes r holds beyond its fixed part.
func (r *distRuns) size() int64 {
	n := int64(len(r.dtw))
	for _, c := range r.cols {
		n += c.Size()
	}
	return n
}

// entryAt sets *e to entry i of a block whose value byte at i is v and
// whose other columns are those of parts, each column from a part that
// has it. It reports ok as table.Columns.EntryAt.
func entryAt(e *rules.Entry, v byte, i int, parts ...*distRuns) (ok bool) {
	if ok = table.DecodeEntry(e, v, -1, -1, -1); !ok || e.Theory == rules.Draw {
		return ok
	}
	dist, dtw, mtc := -1, -1, -1
	for _, r := range parts {
		if r.has[table.DistanceColumn] {
			dist = int(r.cols[table.DistanceColumn].At(i))
		}
		if r.has[table.DTWColumn] {
			dtw = int(binary.LittleEndian.Uint16(r.dtw[2*i:]))
		}
		if r.has[table.MTCColumn] {
			mtc = int(r.cols[table.MTCColumn].At(i))
		}
	}
	return table.DecodeEntry(e, v, dist, dtw, mtc)
}
