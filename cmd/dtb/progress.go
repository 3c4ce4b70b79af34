package main

import (
	"fmt"
	"strings"
	"time"
)

// progressBar draws a one-line progress bar on stderr when it is a
// terminal: tables done, positions per second and time left. It serves
// both gen and verify.
type progressBar struct {
	e     *env
	start time.Time
	shown bool
}

func newProgressBar(e *env) *progressBar { return &progressBar{e: e, start: time.Now()} }

// show draws the bar: tables and positions done out of their totals, and
// the table at work.
func (b *progressBar) show(tables, tablesTotal int, positions, positionsTotal int64, current string) {
	if !b.e.progress || positionsTotal == 0 {
		return
	}
	frac := float64(positions) / float64(positionsTotal)
	const width = 30
	filled := int(frac * width)
	elapsed := time.Since(b.start)
	rate := float64(positions) / elapsed.Seconds()
	left := "?"
	if positions > 0 {
		left = (time.Duration(float64(elapsed)/frac) - elapsed).Round(time.Second).String()
	}
	fmt.Fprintf(b.e.stderr, "\r[%s%s] %d/%d tables  %.3g pos/s  %s left  %-8s",
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), tables, tablesTotal, rate, left, current)
	b.shown = true
}

// clear erases the bar so that a line can be printed.
func (b *progressBar) clear() {
	if b.shown {
		fmt.Fprintf(b.e.stderr, "\r%s\r", strings.Repeat(" ", 100))
		b.shown = false
	}
}
