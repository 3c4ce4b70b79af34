package dirlock

import (
	"errors"
	"os"
	"runtime"
	"testing"
)

// TestLocks checks that an exclusive lock refuses every other lock of the
// directory, naming this process as the holder where the system tells,
// that shared locks admit each other but not an exclusive one, and that a
// released lock can be taken again. Locks taken through two opens of the
// directory conflict as two processes' would (flock locks an open file).
func TestLocks(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock on " + runtime.GOOS)
	}
	dir := t.TempDir()
	ex, err := Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, take := range map[string]func(string) (*Lock, error){"exclusive": Exclusive, "shared": Shared} {
		_, err := take(dir)
		var held *HeldError
		if !errors.As(err, &held) || !errors.Is(err, ErrHeld) {
			t.Fatalf("%s lock beside an exclusive one: %v", name, err)
		}
		if _, err := os.Stat("/proc/locks"); err == nil && held.PID != os.Getpid() {
			t.Errorf("%s lock beside an exclusive one: holder %d, want %d", name, held.PID, os.Getpid())
		}
	}
	if err := ex.Release(); err != nil {
		t.Fatal(err)
	}
	a, err := Shared(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Shared(dir)
	if err != nil {
		t.Fatalf("two shared locks: %v", err)
	}
	if _, err := Exclusive(dir); !errors.Is(err, ErrHeld) {
		t.Errorf("exclusive lock beside shared ones: %v", err)
	}
	a.Release()
	b.Release()
	l, err := Exclusive(dir)
	if err != nil {
		t.Fatalf("exclusive lock once the others are released: %v", err)
	}
	l.Release()
	if _, err := Exclusive(dir + "/missing"); err == nil || errors.Is(err, ErrHeld) {
		t.Errorf("lock of a missing directory: %v", err)
	}
}
