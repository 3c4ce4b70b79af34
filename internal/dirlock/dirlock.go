// Package dirlock keeps two processes from building in one directory at
// once: an advisory lock on the directory itself, which the kernel
// releases when the process ends, however it ends, so that a killed build
// never leaves a stale lock behind, and no file is left in the directory.
//
//	l, err := dirlock.Exclusive("tables") // refused at once if held
//	if err != nil {
//		return err // another dtb gen (pid 1234) is building tables
//	}
//	defer l.Release()
//
// A shared lock admits other shared locks and refuses an exclusive one:
// the units that a scheduler runs side by side in one directory share it,
// each holding the exclusive lock of its own unit's folder.
package dirlock

import (
	"errors"
	"fmt"
	"os"
)

// ErrHeld is wrapped by the error of a lock that another process holds.
var ErrHeld = errors.New("held by another process")

// A Lock is a lock taken on a directory.
type Lock struct{ f *os.File }

// Exclusive locks the directory dir, which must exist, for this process
// alone; it fails at once if another process holds a lock on it.
func Exclusive(dir string) (*Lock, error) { return take(dir, true) }

// Shared locks the directory dir, which must exist, beside other shared
// locks; it fails at once if another process holds it exclusively.
func Shared(dir string) (*Lock, error) { return take(dir, false) }

func take(dir string, exclusive bool) (*Lock, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := lock(f, exclusive); err != nil {
		f.Close()
		if !errors.Is(err, ErrHeld) {
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		return nil, &HeldError{Dir: dir, PID: holder(f.Name())}
	}
	return &Lock{f}, nil
}

// Holder returns the pid of a process that holds a lock on dir, 0 where
// none does or the system does not tell (Linux's /proc/locks tells).
func Holder(dir string) int { return holder(dir) }

// Release releases the lock.
func (l *Lock) Release() error { return l.f.Close() }

// A HeldError is the error of a lock that another process holds.
type HeldError struct {
	Dir string
	PID int // of a process that holds it, 0 if unknown
}

func (e *HeldError) Error() string {
	if e.PID == 0 {
		return fmt.Sprintf("%s: %v", e.Dir, ErrHeld)
	}
	return fmt.Sprintf("%s: held by process %d", e.Dir, e.PID)
}

func (e *HeldError) Unwrap() error { return ErrHeld }
