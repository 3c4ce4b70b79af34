package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxLine is the longest line dtb reads on standard input: a Hub
// command or a position of a batch is a few hundred bytes.
const maxLine = 64 << 10

// errLongLine is the error of a line over maxLine bytes.
var errLongLine = fmt.Errorf("a line of over %d KiB: want a command or a position a line", maxLine>>10)

// lineReader reads standard input a line at a time, as dtb hub and the
// batches of dtb probe and dtb best take it. A line over maxLine bytes is
// read through and reported (errLongLine), and the lines after it are
// read as usual: a long line is a bad line, not the end of the input.
type lineReader struct {
	r *bufio.Reader
	n int // the lines read
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, maxLine)}
}

// next returns the next line without its line ending, and ok false at
// the end of the input or on a read error (err). A line over maxLine
// bytes comes back cut to its first maxLine bytes with errLongLine.
func (l *lineReader) next() (line string, ok bool, err error) {
	b, err := l.r.ReadSlice('\n')
	line = string(b)
	long := false
	for errors.Is(err, bufio.ErrBufferFull) {
		long = true
		_, err = l.r.ReadSlice('\n')
	}
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		return "", false, err
	case line == "" && !long:
		return "", false, nil // io.EOF
	}
	l.n++
	if long {
		return line, true, errLongLine
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), true, nil
}
