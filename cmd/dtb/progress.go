package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/dtb-draughts/dtb/retro"
)

// progressBar shows the progress of gen or verify on stderr: tables and
// positions done, the table at work and the time left, estimated from
// the average rate since the start. On a terminal it is a one-line bar;
// elsewhere (a log) a plain line every env.progressEvery.
type progressBar struct {
	e         *env
	start     time.Time
	bar       *progressbar.ProgressBar // made on the first show on a terminal
	lastPlain time.Time
}

func newProgressBar(e *env) *progressBar {
	now := time.Now()
	return &progressBar{e: e, start: now, lastPlain: now}
}

// show draws the bar: tables and positions done out of their totals, and
// the group or unit at work (named after its first material).
func (b *progressBar) show(tables, tablesTotal int, positions, positionsTotal int64, current string) {
	if positionsTotal == 0 {
		return
	}
	elapsed := time.Since(b.start)
	left := ""
	if positions > 0 {
		rest := time.Duration(float64(elapsed) * float64(positionsTotal-positions) / float64(positions))
		left = ", about " + rest.Round(time.Second).String() + " left"
	}
	if !b.e.progress {
		if b.e.progressEvery > 0 && time.Since(b.lastPlain) >= b.e.progressEvery {
			b.lastPlain = time.Now()
			fmt.Fprintf(b.e.stderr, "dtb %s: %d/%d tables, %s/%s positions, %s elapsed%s\n", b.e.command, tables, tablesTotal,
				count(positions), count(positionsTotal), elapsed.Round(time.Second), left)
		}
		return
	}
	if b.bar == nil {
		b.bar = progressbar.NewOptions64(positionsTotal,
			progressbar.OptionSetWriter(b.e.stderr),
			progressbar.OptionSetWidth(30),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("pos"),
			progressbar.OptionSetPredictTime(false), // its rate is the last instant's: see left
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	material, _, _ := strings.Cut(current, ".") // a unit: GROUP.lLEVEL.N
	b.bar.Describe(fmt.Sprintf("%d/%d tables %-8s %s elapsed%s", tables, tablesTotal, material, elapsed.Round(time.Second), left))
	b.bar.Set64(positions)
}

// retroProgress shows the progress of retro.Generate or retro.BuildUnit.
func (b *progressBar) retroProgress(p retro.Progress) {
	b.show(p.Tables, p.TablesTotal, p.Positions, p.PositionsTotal, p.Current)
}

// clear erases the bar so that a line can be printed.
func (b *progressBar) clear() {
	if b.bar != nil {
		b.bar.Clear()
	}
}

// count writes n with a k, M, G or T suffix (powers of 1000).
func count(n int64) string {
	f := float64(n)
	for _, unit := range []string{"", " k", " M", " G"} {
		if f < 1000 {
			if unit == "" {
				return fmt.Sprint(n)
			}
			return fmt.Sprintf("%.1f%s", f, unit)
		}
		f /= 1000
	}
	return fmt.Sprintf("%.1f T", f)
}

// plural returns n and the noun, with an s unless n is 1: "1 game",
// "2 games".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
