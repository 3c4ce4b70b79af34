// Package testenv tells the tests what this run allows, so that
// `go test ./...` passes in a few minutes on a stock machine while CI
// runs everything:
//
//	testenv.SkipUnlessLong(t, "5-piece build")   // only under DTB_LONG=1
//	for i := int64(0); i < n; i += testenv.Stride(1, 64) { ... } // every position under DTB_LONG=1
//	ninja := testenv.Tool(t, "ninja", "ninja-build")         // skip, or fail under DTB_REQUIRE_TOOLS=1
//	fsys := testenv.StreamFS{FS: mem}                        // files without ReadAt
//
// DTB_LONG=1 runs the checks that take minutes: deep perft, 5-piece
// builds, exhaustive checks of every 4-piece position. Without it an
// exhaustive check still runs, on a sample of the positions.
// DTB_REQUIRE_TOOLS=1 makes a missing tool (make, ninja, Chromium) fail
// the test instead of skipping it. .ci/run sets both.
package testenv

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"testing"
)

// Long reports whether DTB_LONG=1 asks for the checks that take minutes.
func Long() bool { return os.Getenv("DTB_LONG") == "1" }

// SkipUnlessLong skips the test, naming what it checks, unless Long.
func SkipUnlessLong(tb testing.TB, what string) {
	tb.Helper()
	if !Long() {
		tb.Skipf("%s takes minutes: run with DTB_LONG=1", what)
	}
}

// Stride returns the step of a check over the positions of a table:
// long under DTB_LONG=1 (1 for a check of every position), else quick;
// eight times that under the race detector, which runs code about ten
// times slower.
func Stride(long, quick int) int64 {
	n := quick
	if Long() {
		n = long
	}
	if Race {
		n *= 8
	}
	return int64(n)
}

// Tool returns the path of the command name, which Debian's package pkg
// installs. Where it is missing the test is skipped with a message
// saying how to install it, or fails under DTB_REQUIRE_TOOLS=1.
func Tool(tb testing.TB, name, pkg string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	msg := fmt.Sprintf("%s is not installed (apt-get install %s)", name, pkg)
	if os.Getenv("DTB_REQUIRE_TOOLS") == "1" {
		tb.Fatalf("%s, and DTB_REQUIRE_TOOLS=1 requires it", msg)
	} else {
		tb.Skipf("%s: skipped; set DTB_REQUIRE_TOOLS=1 to make it fail", msg)
	}
	return ""
}

// StreamFS is an fs.FS whose files have no ReadAt, as archive/zip's: it
// tests the readers of an fs.FS that read such files whole.
type StreamFS struct{ fs.FS }

// Open opens the file name of the FS, hiding all its methods but
// fs.File's.
func (s StreamFS) Open(name string) (fs.File, error) {
	f, err := s.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return struct{ fs.File }{f}, nil
}
