package codec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dtb-draughts/dtb/internal/fault"
)

// TestWriteFaults writes over an existing table while the disk fills or
// the process is killed: the old table must stay whole under its name, and
// only a kill may leave a temporary file.
func TestWriteFaults(t *testing.T) {
	for _, mode := range []fault.Mode{fault.DiskFull, fault.Kill} {
		path, _, _ := writeTable(t, 1000, 64)
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h, data := testTable(2000, 64)
		remove := fault.Inject(mode, 0)
		err = Write(path, h, data)
		errManifest := WriteManifest(filepath.Dir(path), nil)
		remove()
		if mode == fault.DiskFull && (!errors.Is(err, syscall.ENOSPC) || errManifest != nil) {
			t.Errorf("disk full: Write: %v, then WriteManifest: %v; want ENOSPC, then success", err, errManifest)
		}
		if mode == fault.Kill && (!errors.Is(err, fault.ErrKilled) || !errors.Is(errManifest, fault.ErrKilled)) {
			t.Errorf("kill: Write: %v, then WriteManifest: %v; want both killed", err, errManifest)
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, old) {
			t.Errorf("mode %d: the old table changed (%v)", mode, err)
		}
		tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp"))
		if want := map[fault.Mode]int{fault.DiskFull: 0, fault.Kill: 2}[mode]; len(tmps) != want {
			t.Errorf("mode %d: temporary files %q, want %d", mode, tmps, want)
		}
	}
}
