package main

import (
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressBar shows a one-line progress bar on stderr when it is a
// terminal: tables done, positions per second and time left. It serves
// both gen and verify.
type progressBar struct {
	e   *env
	bar *progressbar.ProgressBar // made on the first show
}

func newProgressBar(e *env) *progressBar { return &progressBar{e: e} }

// show draws the bar: tables and positions done out of their totals, and
// the table at work.
func (b *progressBar) show(tables, tablesTotal int, positions, positionsTotal int64, current string) {
	if !b.e.progress || positionsTotal == 0 {
		return
	}
	if b.bar == nil {
		b.bar = progressbar.NewOptions64(positionsTotal,
			progressbar.OptionSetWriter(b.e.stderr),
			progressbar.OptionSetWidth(30),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("pos"),
			progressbar.OptionSetPredictTime(true), // [elapsed:left]
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	b.bar.Describe(fmt.Sprintf("%d/%d tables %-8s", tables, tablesTotal, current))
	b.bar.Set64(positions)
}

// clear erases the bar so that a line can be printed.
func (b *progressBar) clear() {
	if b.bar != nil {
		b.bar.Clear()
	}
}
