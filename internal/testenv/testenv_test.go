package testenv

import (
	"fmt"
	"strings"
	"testing"
)

func TestStride(t *testing.T) {
	race := int64(1)
	if Race {
		race = 8
	}
	t.Setenv("DTB_LONG", "")
	if got := Stride(1, 13); got != 13*race {
		t.Errorf("Stride(1, 13) = %d without DTB_LONG, want %d", got, 13*race)
	}
	t.Setenv("DTB_LONG", "1")
	if got := Stride(1, 13); got != race {
		t.Errorf("Stride(1, 13) = %d under DTB_LONG=1, want %d", got, race)
	}
}

// recorder is a testing.TB that records how a test would end.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }

func TestTool(t *testing.T) {
	if Tool(t, "go", "golang") == "" {
		t.Error("go not found")
	}
	t.Setenv("PATH", t.TempDir())
	for _, require := range []string{"", "1"} {
		t.Setenv("DTB_REQUIRE_TOOLS", require)
		r := &recorder{TB: t}
		Tool(r, "ninja", "ninja-build")
		msg := r.skip
		if require == "1" {
			msg = r.fatal
		}
		if !strings.Contains(msg, "apt-get install ninja-build") || r.fatal != "" && r.skip != "" {
			t.Errorf("DTB_REQUIRE_TOOLS=%q: failed %q, skipped %q", require, r.fatal, r.skip)
		}
	}
}
