package codec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dtb-draughts/dtb/internal/fault"
)

// TestWriteFaults writes over an existing table while the disk fills or
// the process is killed: the old table must stay whole under its name, and
// only a kill may leave temporary files. With spill, the blocks go to a
// second temporary file, the fault's file 1 (the table's is file 0): the
// fault strikes either.
func TestWriteFaults(t *testing.T) {
	for _, tc := range []struct {
		mode  fault.Mode
		spill bool
		after int
		tmps  int // left by a kill: the table's, the spill, the manifest's
	}{
		{fault.DiskFull, false, 0, 0},
		{fault.Kill, false, 0, 2},
		{fault.DiskFull, true, 0, 0},
		{fault.DiskFull, true, 1, 0},
		{fault.Kill, true, 0, 3},
		{fault.Kill, true, 1, 3},
	} {
		t.Run(fmt.Sprintf("mode%d/spill%v/after%d", tc.mode, tc.spill, tc.after), func(t *testing.T) {
			if tc.spill {
				withSpillLimit(t, 1000)
			}
			path, _, _ := writeTable(t, 1000, 64)
			old, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, data := testTable(2000, 64)
			remove := fault.Inject(tc.mode, tc.after)
			err = streamWrite(path, h, data, 100, true)
			errManifest := WriteManifest(filepath.Dir(path), nil)
			remove()
			if tc.mode == fault.DiskFull && (!errors.Is(err, syscall.ENOSPC) || errManifest != nil) {
				t.Errorf("disk full: Write: %v, then WriteManifest: %v; want ENOSPC, then success", err, errManifest)
			}
			if tc.mode == fault.Kill && (!errors.Is(err, fault.ErrKilled) || !errors.Is(errManifest, fault.ErrKilled)) {
				t.Errorf("kill: Write: %v, then WriteManifest: %v; want both killed", err, errManifest)
			}
			if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, old) {
				t.Errorf("the old table changed (%v)", err)
			}
			tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp"))
			if len(tmps) != tc.tmps {
				t.Errorf("temporary files %q, want %d", tmps, tc.tmps)
			}
		})
	}
}
