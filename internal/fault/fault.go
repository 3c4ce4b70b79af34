// Package fault injects faults into the file writes of package codec, so
// that tests can choose exactly where a full disk or a killed process
// strikes and check what it leaves in a table directory.
//
//	defer fault.Inject(fault.DiskFull, 3)() // files 0..2 are written, file 3 fails with ENOSPC
//
// codec passes every file it writes through Writer and asks Killed before
// it cleans up after a failure. With no fault injected, Writer returns its
// argument and Killed is false: one atomic load each.
package fault

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"syscall"
)

// Mode is what happens when the fault strikes.
type Mode int

const (
	// DiskFull makes the file's writes fail with ENOSPC after half of the
	// first write: its writer cleans up as usual, and later files are
	// written normally, as on a disk where the failed file's space is
	// freed again.
	DiskFull Mode = iota
	// Kill makes the file's writes fail after half of the first write, and
	// every write of every later file, and tells the writers not to clean
	// up (Killed): the directory stays as a kill -9 would leave it.
	Kill
)

// ErrKilled is the error of the writes after a simulated kill.
var ErrKilled = errors.New("fault: killed")

type state struct {
	mode   Mode
	after  int // files written whole before the fault
	files  int // files started so far
	killed bool
}

var (
	mu     sync.Mutex
	active atomic.Pointer[state]
)

// Inject makes the file write that follows after whole files fail as mode
// says, and returns the function that removes the fault. Faults are
// process-wide: tests that inject one must not run in parallel.
func Inject(mode Mode, after int) (remove func()) {
	active.Store(&state{mode: mode, after: after})
	return func() { active.Store(nil) }
}

// Killed reports whether a simulated kill has struck: a writer must then
// leave its temporary files where they are.
func Killed() bool {
	s := active.Load()
	if s == nil {
		return false
	}
	mu.Lock()
	defer mu.Unlock()
	return s.killed
}

// Writer returns the writer through which to write a new file's bytes to
// w: w itself, unless this is the file an injected fault strikes.
func Writer(w io.Writer) io.Writer {
	s := active.Load()
	if s == nil {
		return w
	}
	mu.Lock()
	defer mu.Unlock()
	n := s.files
	s.files++
	switch {
	case s.killed:
		return &faulty{s: s}
	case n == s.after:
		return &faulty{s: s, w: w}
	}
	return w
}

// faulty writes half of its first write to w (if any), then fails.
type faulty struct {
	s *state
	w io.Writer
}

func (f *faulty) Write(p []byte) (int, error) {
	n := 0
	if f.w != nil {
		n, _ = f.w.Write(p[:len(p)/2])
		f.w = nil
	}
	mu.Lock()
	defer mu.Unlock()
	if f.s.mode == Kill {
		f.s.killed = true
		return n, ErrKilled
	}
	return n, syscall.ENOSPC
}
