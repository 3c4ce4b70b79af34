package verify

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// checkFile checks the file at path against its manifest entry e and its
// material m: size and CRC-32C of the whole file, header, and the checksum
// of every block. It returns every problem it finds.
func checkFile(path string, e codec.ManifestEntry, m index.Material) []error {
	size, crc, err := codec.FileCRC(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []error{fmt.Errorf("%s: missing (listed in %s)", path, codec.ManifestName)}
	} else if err != nil {
		return []error{err}
	}
	var errs []error
	damaged := func(format string, args ...any) {
		errs = append(errs, &codec.FileError{Path: path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf(format, args...)})
	}
	if size != e.Size {
		damaged("%d bytes, %s says %d", size, codec.ManifestName, e.Size)
	} else if crc != e.CRC32C {
		damaged("CRC-32C %08x, %s says %08x", crc, codec.ManifestName, e.CRC32C)
	}
	if n := index.New(m).Size(); e.Positions != n {
		errs = append(errs, fmt.Errorf("%s: %s says %d positions, want %d", path, codec.ManifestName, e.Positions, n))
	}
	r, err := codec.Open(path) // checks the header checksum and the block table
	if err != nil {
		return append(errs, err)
	}
	defer r.Close()
	if _, err := table.CheckHeader(path, r.Header(), m); err != nil {
		errs = append(errs, err)
	}
	if err := r.Check(); err != nil { // names the first bad block
		errs = append(errs, err)
	}
	return errs
}
