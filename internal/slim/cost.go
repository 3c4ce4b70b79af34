package slim

import (
	"context"
	"fmt"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// costSample is about how many positions of a table meanProbes searches.
const costSample = 1024

// meanProbes returns the mean probes that package probe makes to answer
// a quiet position of m, White to move, by a search through its colour
// flip (searchProbes): over the positions of m at evenly spaced indices,
// about costSample of them, less those that must capture (a capture
// position is searched whether its table is kept or not). The count
// depends on the tables' values alone, not on the machine or the cache:
// the same tables give the same choice. t holds the tables of the build.
func meanProbes(ctx context.Context, t *probe.Tables, m index.Material) (float64, error) {
	x := index.New(m)
	step := max(x.Size()/costSample, 1)
	probes, n := 0, 0
	for i := int64(0); i < x.Size(); i += step {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		p := rules.Position(x.Unrank(i))
		if probe.Check(p) != nil || p.HasCapture() {
			continue
		}
		k, err := searchProbes(t, &p, rules.ClassOf(m))
		if err != nil {
			return 0, fmt.Errorf("the search of %s: %v", p.FEN(), err)
		}
		probes += k
		n++
	}
	if n == 0 {
		return 0, nil
	}
	return float64(probes) / float64(n), nil
}

// searchProbes returns the positions that package probe reads to answer
// p, of class c, with fresh clocks and ValuesOnly where its table is
// searched through its colour flip's (Tables.searched): its moves'
// successors in turn, up to the first move that wins in theory and
// under the rules, each successor that must capture counting the
// positions its captures reach (reached). The successors of king moves
// are probed with a fresh rule-2 count where the prober counts one ply:
// the two differ only where a rule-2 distance is 50 plies, and so does
// where the search stops. The cut of a capture search is not modelled:
// a successor that must capture counts all its captures.
func searchProbes(t *probe.Tables, p *draughts.Position, c rules.Class) (int, error) {
	ms := rules.NewMoves(c)
	n := 0
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		s := p.Play(m)
		n += reached(&s)
		r, err := t.Probe(s, probe.Clocks{}, probe.ValuesOnly)
		if err != nil {
			return 0, err
		}
		ms.AddConversion(r.Entry.TheoryOutcome(), r.Entry.RulesOutcome(c, r.Class))
		if ms.Won() {
			break
		}
	}
	return n, nil
}

// reached returns the positions that a probe of p reads: p itself, or
// where it must capture, those its captures reach, in turn.
func reached(p *draughts.Position) int {
	if !p.HasCapture() {
		return 1
	}
	n := 0
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		s := p.Play(m)
		n += reached(&s)
	}
	return n
}
