//go:build unix

package codec

import (
	"os"
	"syscall"
)

// mapFile maps the size bytes of f into memory, read only, and returns
// them with the function that unmaps them, or nil where it cannot (an
// empty file, one too large for the address space): the caller then
// reads f.
func mapFile(f *os.File, size int64) ([]byte, func() error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil
	}
	return data, func() error { return syscall.Munmap(data) }
}
