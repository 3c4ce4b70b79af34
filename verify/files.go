package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// checkFile checks the table of m in dir against its manifest entry e:
// size and CRC-32C of its files, headers, and the checksum of every
// block. In a slim directory (package slim) a value file may come
// without its distance file. It returns every problem it finds.
func checkFile(dir string, e codec.ManifestEntry, m index.Material, slim bool) []error {
	path := filepath.Join(dir, e.File)
	errs := checkSum(path, e.Size, e.CRC32C)
	if n := index.New(m).Size(); e.Positions != n {
		errs = append(errs, fmt.Errorf("%s: %s says %d positions, want %d", path, codec.ManifestName, e.Positions, n))
	}
	if d := e.Distances; d != nil {
		errs = append(errs, checkSum(filepath.Join(dir, d.File), d.Size, d.CRC32C)...)
	}
	if len(errs) > 0 && errors.Is(errs[0], fs.ErrNotExist) {
		return errs
	}
	f, err := table.OpenListed(dir, e, m) // checks the size, the header checksum, the header, the block table and the rules flags
	if err != nil {
		return appendNew(errs, err)
	}
	defer f.Close()
	if f.Split && f.Layout.Distances() && e.Distances == nil && !slim {
		errs = append(errs, fmt.Errorf("%s: %s lists no distance file for it, and it has one", path, codec.ManifestName))
	}
	readers, err := f.Readers()
	if e.Distances == nil {
		readers, err = readers[:1], nil // the value file's (table.File.Readers)
	}
	if err != nil && !slices.ContainsFunc(errs, func(err error) bool { return errors.Is(err, fs.ErrNotExist) }) {
		errs = appendNew(errs, err)
	}
	for _, r := range readers {
		if r != nil {
			if err := r.Check(); err != nil { // names the first bad block
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// appendNew appends err to errs unless one of them says the same: the
// size of a file that checkSum finds wrong, table.OpenListed finds wrong
// too.
func appendNew(errs []error, err error) []error {
	if slices.ContainsFunc(errs, func(e error) bool { return e.Error() == err.Error() }) {
		return errs
	}
	return append(errs, err)
}

// checkSum checks the size and CRC-32C of the file at path against those
// the manifest gives.
func checkSum(path string, size int64, crc uint32) []error {
	gotSize, gotCRC, err := codec.FileCRC(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []error{&missingError{path}}
	} else if err != nil {
		return []error{err}
	}
	damaged := func(format string, args ...any) []error {
		return []error{&codec.FileError{Path: path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf(format, args...)}}
	}
	if gotSize != size {
		return damaged("%d bytes, %s says %d", gotSize, codec.ManifestName, size)
	} else if gotCRC != crc {
		return damaged("CRC-32C %08x, %s says %08x", gotCRC, codec.ManifestName, crc)
	}
	return nil
}

// missingError is the error of a file the manifest lists and the
// directory lacks.
type missingError struct{ path string }

func (e *missingError) Error() string {
	return fmt.Sprintf("%s: missing (listed in %s)", e.path, codec.ManifestName)
}
func (e *missingError) Unwrap() error { return fs.ErrNotExist }
