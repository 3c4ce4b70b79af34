package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// TestProbeClassA checks that --clock passes the plies played on a class
// A clock as package probe takes them: on KKKvK positions at several
// counts, from fresh to run out, the values of dtb probe --moves --json
// (the position's and each move's, the clock carried over the move, into
// class B by the lone king's captures) are those of probe.Tables.Probe
// and RootMoves with Clocks{Class: N}, which capi's TestCClassA compares
// with the C library's; and a few of them are as docs/rules.md reads the
// distance: a win in 15 plies holds with 17 plies played and is drawn
// with 18, a capture into class B lost in 2 plies holds with 30 played
// and is drawn with 31.
func TestProbeClassA(t *testing.T) {
	dir := tabletest.ClassA.Dir(t)
	tables, err := probe.Open(dir, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables.Close()
	type move struct {
		Move  string
		Rules rules.Value
	}
	var got struct {
		FEN   string
		Rules rules.Value
		Moves []move
	}
	known := map[string]rules.Value{
		"W:WK1,K7,K18:BK35 17":       rules.Win,
		"W:WK1,K7,K18:BK35 18":       rules.Draw,
		"B:WK12,K16,K20:BK3 3x21 30": rules.Loss,
		"B:WK12,K16,K20:BK3 3x21 31": rules.Draw,
	}
	for _, fen := range []string{"W:WK1,K7,K18:BK35", "B:WK12,K16,K20:BK3", "B:WK1,K7,K18:BK35"} {
		p, err := draughts.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, played := range []int{0, 1, 17, 18, 22, 29, 30, 31, 32} {
			c := probe.Clocks{Class: played}
			r, err := tables.Probe(p, c, 0)
			if err != nil {
				t.Fatal(err)
			}
			moves, err := tables.RootMoves(p, c)
			if err != nil {
				t.Fatal(err)
			}
			want := []move{}
			for _, m := range moves {
				want = append(want, move{p.Notation(m.Move), m.Value})
			}
			out, errOut, code := dtb("probe", "--dir", dir, "--moves", "--json", "--clock", fmt.Sprint(played), fen)
			if code != 0 {
				t.Fatalf("probe --clock %d %s: %d %q", played, fen, code, errOut)
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("probe --clock %d %s: %v: %q", played, fen, err, out)
			}
			if got.Rules != r.Value || fmt.Sprint(got.Moves) != fmt.Sprint(want) {
				t.Errorf("probe --clock %d %s: %v %v; the Go probe: %v %v", played, fen, got.Rules, got.Moves, r.Value, want)
			}
			for _, m := range append([]move{{"", got.Rules}}, got.Moves...) {
				key := fmt.Sprintf("%s %d", fen, played)
				if m.Move != "" {
					key = fmt.Sprintf("%s %s %d", fen, m.Move, played)
				}
				if v, ok := known[key]; ok {
					if m.Rules != v {
						t.Errorf("probe --clock %d %s %s: %v, want %v", played, fen, m.Move, m.Rules, v)
					}
					delete(known, key)
				}
			}
			if played == rules.ClassA.Budget() && (got.Rules != rules.Draw || len(got.Moves) == 0 || got.Moves[0].Rules != rules.Draw) {
				t.Errorf("probe --clock %d %s: %v %v, want every move a draw: the clock has run out", played, fen, got.Rules, got.Moves)
			}
		}
	}
	if len(known) > 0 {
		t.Errorf("values not met: %v", known)
	}
}
