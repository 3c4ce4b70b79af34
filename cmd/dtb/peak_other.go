//go:build !unix

package main

// peakMemory says nothing here: the system keeps no peak to ask for.
func peakMemory() (int64, bool) { return 0, false }
