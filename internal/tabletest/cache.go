package tabletest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/dtb-draughts/dtb/internal/dirlock"
)

// The machine's cache of test tables: a set is built once for every test
// binary and every run of the tests, as long as the sources that build
// it are the same, as Go's build cache keeps a package. A folder of the
// user's cache directory holds a folder per version of the module's
// sources (every non-test Go file, go.sum and the Go version), and in it
// a folder per set, named by its options, beside the SHA-256 sums of its
// files: a set whose files differ from its sums (a test broke the rule
// of Dir) is built again. DTB_TEST_CACHE=off builds every set in the
// test binary instead.

// CacheEnv is the variable that turns the cache off.
const CacheEnv = "DTB_TEST_CACHE"

// staleAfter is how long a version of the sources unused stays cached.
const staleAfter = 24 * time.Hour

// cacheRoot returns the folder of the current sources' sets, or "" for
// no cache.
func cacheRoot() string {
	if os.Getenv(CacheEnv) == "off" {
		return ""
	}
	user, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	key, err := sourcesKey(root())
	if err != nil {
		return ""
	}
	return filepath.Join(user, "dtb-test-tables", key)
}

// sourcesKey returns a hash of the module's sources under dir that a
// set's files may depend on.
func sourcesKey(dir string) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != dir && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || name != "go.sum" && (!strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %d\n", rel, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// cached returns the set's folder in the cache root, building it there
// first if it is not there intact.
func (t *Tables) cached(root string) (string, error) {
	o, only := t.Options, ""
	if o.Only != nil {
		o.Only, only = nil, o.Only.String()
	}
	o.Progress, o.Done = nil, nil
	sum := sha256.Sum256(fmt.Appendf(nil, "%+v %s", o, only))
	dir := filepath.Join(root, hex.EncodeToString(sum[:8]))
	lockDir := dir + ".lock"
	if err := os.MkdirAll(lockDir, 0o755); err != nil {
		return "", err
	}
	l, err := waitLock(lockDir)
	if err != nil {
		return "", err
	}
	defer l.Release()
	now := time.Now()
	os.Chtimes(root, now, now) // in use: not stale
	if intact(dir) {
		return dir, nil
	}
	removeStale(filepath.Dir(root), root)
	tmp := dir + ".tmp"
	for _, d := range []string{dir, tmp} {
		if err := os.RemoveAll(d); err != nil {
			return "", err
		}
	}
	if err := t.generate(tmp); err != nil {
		return "", err
	}
	sums, err := sumFiles(tmp)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(dir+".sha256", sums, 0o644); err != nil {
		return "", err
	}
	return dir, os.Rename(tmp, dir)
}

// waitLock takes the lock of dir, waiting while another test binary
// holds it.
func waitLock(dir string) (*dirlock.Lock, error) {
	for {
		l, err := dirlock.Exclusive(dir)
		if !errors.Is(err, dirlock.ErrHeld) {
			return l, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// intact reports whether dir holds the files its sums list, as they were.
func intact(dir string) bool {
	want, err := os.ReadFile(dir + ".sha256")
	if err != nil {
		return false
	}
	got, err := sumFiles(dir)
	return err == nil && bytes.Equal(got, want)
}

// sumFiles returns the SHA-256 sums of the files of dir, in the format of
// sha256sum, by name.
func sumFiles(dir string) ([]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, e := range entries {
		if !e.Type().IsRegular() {
			return nil, fmt.Errorf("%s: not a file", filepath.Join(dir, e.Name()))
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&out, "%x  %s\n", sha256.Sum256(b), e.Name())
	}
	return out.Bytes(), nil
}

// removeStale removes the folders of parent, but keep, unused for
// staleAfter: the sets of sources since changed.
func removeStale(parent, keep string) {
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		path := filepath.Join(parent, e.Name())
		if info, err := e.Info(); err == nil && path != keep && time.Since(info.ModTime()) > staleAfter {
			os.RemoveAll(path)
		}
	}
}
