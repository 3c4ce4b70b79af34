package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/dtb-draughts/dtb/retro"
)

// progressBar draws a one-line progress bar on stderr when it is a
// terminal: tables done, positions per second and time left.
type progressBar struct {
	e     *env
	start time.Time
	shown bool
}

func newProgressBar(e *env) *progressBar { return &progressBar{e: e, start: time.Now()} }

func (b *progressBar) update(p retro.Progress) {
	if !b.e.progress || p.PositionsTotal == 0 {
		return
	}
	frac := float64(p.Positions) / float64(p.PositionsTotal)
	const width = 30
	filled := int(frac * width)
	elapsed := time.Since(b.start)
	rate := float64(p.Positions) / elapsed.Seconds()
	left := "?"
	if p.Positions > 0 {
		left = (time.Duration(float64(elapsed)/frac) - elapsed).Round(time.Second).String()
	}
	fmt.Fprintf(b.e.stderr, "\r[%s%s] %d/%d tables  %.3g pos/s  %s left  %-8s",
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.Tables, p.TablesTotal, rate, left, p.Current)
	b.shown = true
}

// clear erases the bar so that a line can be printed.
func (b *progressBar) clear() {
	if b.shown {
		fmt.Fprintf(b.e.stderr, "\r%s\r", strings.Repeat(" ", 100))
		b.shown = false
	}
}
