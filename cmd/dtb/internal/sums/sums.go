// Package sums writes and checks the SHA-256 checksums of a table
// directory, in the format of sha256sum, so that a user compares a build
// with a published list in seconds: dtb gen writes the same bytes
// whatever the machine, memory budget, threads or crash history.
//
//	list, err := sums.Of("tables")          // every table and the manifest
//	err = sums.Write(os.Stdout, list)        // "<sha256>  KvK.dtb" lines
//	want, err := sums.Parse(f, "pieces4.sha256")
//	results, err := sums.Check("tables", want)
package sums

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/table"
)

// A Sum is the SHA-256 of one file of a directory, in hex.
type Sum struct {
	Name string // the file's name in the directory
	Hex  string
}

// Of returns the sums of the table files of dir (value files or whole
// tables, *.dtb, and distance files) and of its manifest, by name.
func Of(dir string) ([]Sum, error) {
	names, err := table.Files(dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, codec.ManifestName)); err == nil {
		names = append(names, filepath.Join(dir, codec.ManifestName))
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no tables", dir)
	}
	var out []Sum
	for _, path := range names {
		h, err := file(path)
		if err != nil {
			return nil, err
		}
		out = append(out, Sum{filepath.Base(path), h})
	}
	slices.SortFunc(out, func(a, b Sum) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// file returns the SHA-256 of the file at path, in hex.
func file(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Write writes sums as sha256sum does: one "<hex>  <name>" line each.
func Write(w io.Writer, sums []Sum) error {
	bw := bufio.NewWriter(w)
	for _, s := range sums {
		fmt.Fprintf(bw, "%s  %s\n", s.Hex, s.Name)
	}
	return bw.Flush()
}

// Parse reads a list in the format of sha256sum ("<hex>  <name>", or
// "<hex> *<name>" in binary mode; blank lines skipped) from r, named
// name in errors, which give the line.
func Parse(r io.Reader, name string) ([]Sum, error) {
	var out []Sum
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		h, file, ok := strings.Cut(line, " ")
		file, bin := strings.CutPrefix(file, "*")
		if !bin {
			file, ok = strings.CutPrefix(file, " ")
		}
		if _, err := hex.DecodeString(h); !ok || err != nil || len(h) != 2*sha256.Size || file == "" || file == "." || file == ".." || file != filepath.Base(file) {
			return nil, fmt.Errorf("%s line %d: not a SHA-256 line of sha256sum (%q)", name, n, line)
		}
		if seen[file] {
			return nil, fmt.Errorf("%s line %d: %s listed twice", name, n, file)
		}
		seen[file] = true
		out = append(out, Sum{file, strings.ToLower(h)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no files", name)
	}
	return out, nil
}

// A Result is the check of one listed file.
type Result struct {
	Sum
	Got string // the file's SHA-256; "" if it is missing
}

// OK reports whether the file is there with the listed sum.
func (r Result) OK() bool { return r.Got == r.Hex }

// Check computes the sum of every file of dir that want lists; files of
// dir it does not list are not read. An error is one of reading a file
// that is there.
func Check(dir string, want []Sum) ([]Result, error) {
	var out []Result
	for _, s := range want {
		got, err := file(filepath.Join(dir, s.Name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		out = append(out, Result{s, got})
	}
	return out, nil
}
