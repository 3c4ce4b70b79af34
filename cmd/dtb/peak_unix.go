//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// peakMemory returns the most memory the process has held resident, in
// bytes, and whether the system says.
func peakMemory() (int64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	peak := int64(ru.Maxrss)
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		peak <<= 10 // kilobytes elsewhere
	}
	return peak, true
}
