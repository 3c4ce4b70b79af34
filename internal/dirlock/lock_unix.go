//go:build unix

package dirlock

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// lock takes the flock of f without waiting; ErrHeld if another process
// holds it.
func lock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EWOULDBLOCK:
			return ErrHeld
		}
		return err
	}
}

// holder returns the pid of a process that holds a flock on path, as
// Linux's /proc/locks lists them ("1: FLOCK ADVISORY WRITE 1234
// 08:01:5678 0 EOF": the pid, then the device and inode locked); 0 where
// that file is missing or does not tell.
func holder(path string) int {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return 0
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer f.Close()
	dev := uint64(st.Dev)
	major, minor := dev>>8&0xfff|dev>>32&^0xfff, dev&0xff|dev>>12&^0xff
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if i := slices.Index(fields, "FLOCK"); i >= 0 && len(fields) > i+4 && fields[i+4] == want {
			if pid, err := strconv.Atoi(fields[i+3]); err == nil {
				return pid
			}
		}
	}
	return 0
}
