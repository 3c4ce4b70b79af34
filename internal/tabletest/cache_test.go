package tabletest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/internal/testcache"
	"github.com/dtb-draughts/dtb/retro"
)

// TestCache builds a set in a new cache, finds it there from a second
// Tables, builds it again after a file of it changed, and builds it in
// the test binary with the cache off.
func TestCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	two := func() *Tables { return &Tables{Options: retro.Options{Pieces: 2}} }
	dir := two().Dir(t)
	if !strings.HasPrefix(dir, cache) {
		t.Fatalf("set built in %s, outside the cache %s", dir, cache)
	}
	path := filepath.Join(dir, "KvK.dtb")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again := two().Dir(t); again != dir {
		t.Fatalf("second build in %s, first in %s", again, dir)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Errorf("a changed file of the cached set was kept: %q", got)
	}
	t.Setenv(testcache.Env, "off")
	if off := two().Dir(t); strings.HasPrefix(off, cache) {
		t.Errorf("with %s=off, set built in the cache: %s", testcache.Env, off)
	}
}
