// Package testcache keeps what tests build, such as sets of tables, once
// per machine and version of the module's sources, as Go's build cache
// keeps a package:
//
//	if root := testcache.Root(); root != "" {
//		dir, err := testcache.Dir(root, testcache.Key(options), build)
//	}
//
// A folder of the user's cache directory holds a folder per version of
// the sources (the code of every non-test Go file without its comments,
// go.sum and the Go version), and in it a folder per key, beside the
// SHA-256 sums of its files. Callers that
// want a key at once wait on a lock of its folder; one whose files differ
// from their sums (a test changed them) is built again; versions unused
// for a day are removed when another is built. DTB_TEST_CACHE=off turns
// the cache off (Root returns "").
package testcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/dtb-draughts/dtb/internal/dirlock"
)

// Env is the variable that turns the cache off.
const Env = "DTB_TEST_CACHE"

// staleAfter is how long a version of the sources unused stays cached.
const staleAfter = 24 * time.Hour

// Root returns the folder of the current sources' keys, or "" for no
// cache.
func Root() string {
	if os.Getenv(Env) == "off" {
		return ""
	}
	user, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	key, err := sourcesKey(ModuleRoot())
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
		if strings.HasSuffix(name, ".go") {
			b = code(b)
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %d\n", rel, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// code returns the tokens of the Go source src without its comments, but
// for directives (//go:build, //go:embed): an edit of a comment leaves
// the key of the sources as it was.
func code(src []byte) []byte {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, scanner.ScanComments)
	var out bytes.Buffer
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out.Bytes()
		}
		if tok == token.COMMENT && !strings.HasPrefix(lit, "//go:") {
			continue
		}
		fmt.Fprintf(&out, "%d %s\n", tok, lit)
	}
}

// Key returns the key of what parts describe, such as the options of a
// build: their values, printed.
func Key(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%+v\n", p)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Dir returns the folder of key in root, a Root, building it with build
// first where it is not there intact. build writes into the empty folder
// it is given.
func Dir(root, key string, build func(dir string) error) (string, error) {
	dir := filepath.Join(root, key)
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
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	if err := build(tmp); err != nil {
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

// ModuleRoot returns the module's root directory: the nearest directory above
// the working directory (a test's package) whose go.mod is the module's,
// not that of a module nested in it (internal/explore/browser).
func ModuleRoot() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/dtb-draughts/dtb\n") {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
