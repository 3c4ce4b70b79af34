// Command engine probes dtb tables as an engine's own module does, from
// outside dtb's module (go.mod names dtb with replace):
//
//	cd examples/go && go run . ../../testdata/golden W:WK10:BK5
package main

import (
	"fmt"
	"os"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/probe"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: engine DIR FEN...")
		os.Exit(2)
	}
	t, err := probe.Open(os.Args[1], probe.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "engine:", err)
		os.Exit(1)
	}
	defer t.Close()
	for _, fen := range os.Args[2:] {
		pos, err := draughts.ParseFEN(fen)
		if err != nil {
			fmt.Fprintln(os.Stderr, "engine:", err)
			os.Exit(2)
		}
		r, err := t.Probe(pos, probe.Clocks{}, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "engine:", err)
			os.Exit(1)
		}
		fmt.Printf("%s %v %v %d\n", fen, r.Value, r.Category(), r.Entry.Distance)
	}
}
