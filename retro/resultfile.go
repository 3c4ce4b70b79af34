package retro

import (
	"context"
	"encoding/binary"
	"io"
	"os"
	"slices"

	"github.com/dtb-draughts/dtb/internal/parallel"
)

// A resultFile holds the words of a result that another analysis
// follows (see solve). It holds two bytes a position, in the order of
// the unit's work file. It is a scratch file of the group's work folder,
// removed once the unit is written. It is read back a batch at a time.
type resultFile struct {
	f     *os.File
	batch []byte // the words of the batch at work
}

// resultExt ends the name of a result file.
const resultExt = ".result"

// spill writes the words of r, a result of unit u, to a result file. It
// returns r read from that file, its words dropped.
func (s *groupSolver) spill(ctx context.Context, u *unit, r *result) (*result, error) {
	f, err := os.CreateTemp(s.scratch, u.name+".*"+resultExt)
	if err != nil {
		return nil, err
	}
	rf := &resultFile{f: f}
	batch := min(u.positions(), writeBatch)
	buf := make([]byte, 2*batch)
	for base := int64(0); base < u.positions(); base += batch {
		k := min(batch, u.positions()-base)
		err := parallel.Range(ctx, k, s.o.Threads, func(lo, hi int64) error {
			ids := u.localIDs(base + lo)
			for i := lo; i < hi; i++ {
				binary.LittleEndian.PutUint16(buf[2*i:], uint16(r.words.get(ids.next())))
			}
			return nil
		})
		if err == nil {
			_, err = f.Write(buf[:2*k])
		}
		if err != nil {
			rf.close()
			return nil, err
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		rf.close()
		return nil, err
	}
	return &result{dist: r.dist, file: rf}, nil
}

// next reads the words of the next n positions.
func (f *resultFile) next(n int64) error {
	f.batch = slices.Grow(f.batch[:0], int(2*n))[:2*n]
	_, err := io.ReadFull(f.f, f.batch)
	return err
}

// word returns the word of position i of the batch.
func (f *resultFile) word(i int64) word { return word(binary.LittleEndian.Uint16(f.batch[2*i:])) }

// close closes and removes the file.
func (f *resultFile) close() {
	f.f.Close()
	os.Remove(f.f.Name())
}

// closeResults closes the result files of results.
func closeResults(results [numAnalyses]*result) {
	for _, r := range results {
		if r != nil && r.file != nil {
			r.file.close() // a result shared by two analyses is closed twice: the second does nothing
		}
	}
}
