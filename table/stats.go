package table

import (
	"bytes"
	"encoding/json"

	"github.com/dtb-draughts/dtb/rules"
)

// Stats summarises a table (White to move), stored in its file header
// under statsKey as JSON. Value counts cover every position, capture
// positions with their real values.
type Stats struct {
	Positions     int64  `json:"positions"`
	Captures      int64  `json:"captures"`
	Theory        Counts `json:"theory"`
	Rules         Counts `json:"rules"`
	CursedWins    int64  `json:"cursed_wins"`    // theoretical win, not a win under the rules
	BlessedLosses int64  `json:"blessed_losses"` // theoretical loss, not a loss under the rules
	// Rule2CursedWins and Rule2BlessedLosses count the wins and losses
	// that the 25-move king rule itself turns into draws: in a Rule2
	// material, those whose distance exceeds rules.Rule2Plies. (A cursed win can
	// also stem from a draw under the rules after a capture or man move.)
	Rule2CursedWins    int64 `json:"rule2_cursed_wins,omitempty"`
	Rule2BlessedLosses int64 `json:"rule2_blessed_losses,omitempty"`
	// Longest distance of a win under the rules (class A, class B, rule 2).
	LongestDistance    int    `json:"longest_distance,omitempty"`
	LongestDistanceFEN string `json:"longest_distance_fen,omitempty"`
	// Longest theoretical win (with the dtw column).
	LongestDTW    int    `json:"longest_dtw,omitempty"`
	LongestDTWFEN string `json:"longest_dtw_fen,omitempty"`
	// Longest mtc of a theoretical win (with the mtc column).
	LongestMTC    int    `json:"longest_mtc,omitempty"`
	LongestMTCFEN string `json:"longest_mtc_fen,omitempty"`
	// Rule2Candidates counts the wins and losses (with the dtw column)
	// whose dtw exceeds rules.Rule2Plies: only there could the 25-move king rule
	// change a value, which tables of the first version do not track.
	Rule2Candidates int64 `json:"rule2_candidates,omitempty"`
}

// Add counts the entry e of a position of class c, a capture position if
// capture is set. If e is a longer win than any counted so far, fen (if
// not nil) is called for the position's FEN, kept as the example.
func (s *Stats) Add(c rules.Class, e rules.Entry, capture bool, fen func() string) {
	s.count(e.Theory, e.Rules, capture)
	if e.Theory == rules.Draw { // nothing below counts a theoretical draw
		return
	}
	if e.Theory == rules.Win && e.Rules != rules.Win {
		s.CursedWins++
	}
	if e.Theory == rules.Loss && e.Rules != rules.Loss {
		s.BlessedLosses++
	}
	if e.Rule2Cursed(c) {
		if e.Theory == rules.Win {
			s.Rule2CursedWins++
		} else {
			s.Rule2BlessedLosses++
		}
	}
	if e.Rules == rules.Win && e.Distance > s.LongestDistance {
		s.LongestDistance, s.LongestDistanceFEN = e.Distance, example(fen)
	}
	if e.Theory == rules.Win && e.DTW > s.LongestDTW {
		s.LongestDTW, s.LongestDTWFEN = e.DTW, example(fen)
	}
	if e.Theory == rules.Win && e.MTC > s.LongestMTC {
		s.LongestMTC, s.LongestMTCFEN = e.MTC, example(fen)
	}
	if e.Theory != rules.Draw && e.DTW > rules.Rule2Plies {
		s.Rule2Candidates++
	}
}

// count counts a position with these values, a capture position if
// capture is set: all that Add counts of a theoretical draw.
func (s *Stats) count(theory, ru rules.Value, capture bool) {
	s.Positions++
	if capture {
		s.Captures++
	}
	s.Theory.Count(theory)
	s.Rules.Count(ru)
}

func example(fen func() string) string {
	if fen == nil {
		return ""
	}
	return fen()
}

// Merge adds the counts of o to s. Of two longest wins of the same length
// it keeps s's example, so merging the stats of consecutive runs of
// positions in order gives the stats of the whole.
func (s *Stats) Merge(o Stats) {
	s.Positions += o.Positions
	s.Captures += o.Captures
	s.Theory.Merge(o.Theory)
	s.Rules.Merge(o.Rules)
	s.CursedWins += o.CursedWins
	s.BlessedLosses += o.BlessedLosses
	s.Rule2CursedWins += o.Rule2CursedWins
	s.Rule2BlessedLosses += o.Rule2BlessedLosses
	if o.LongestDistance > s.LongestDistance {
		s.LongestDistance, s.LongestDistanceFEN = o.LongestDistance, o.LongestDistanceFEN
	}
	if o.LongestDTW > s.LongestDTW {
		s.LongestDTW, s.LongestDTWFEN = o.LongestDTW, o.LongestDTWFEN
	}
	if o.LongestMTC > s.LongestMTC {
		s.LongestMTC, s.LongestMTCFEN = o.LongestMTC, o.LongestMTCFEN
	}
	s.Rule2Candidates += o.Rule2Candidates
}

// Counts counts positions by value. In JSON it is an object
// {"win":…,"draw":…,"loss":…}.
type Counts struct {
	Win  int64 `json:"win"`
	Draw int64 `json:"draw"`
	Loss int64 `json:"loss"`
}

// Count counts a position of value v, which is a win, draw or loss.
func (c *Counts) Count(v rules.Value) {
	switch v {
	case rules.Win:
		c.Win++
	case rules.Draw:
		c.Draw++
	case rules.Loss:
		c.Loss++
	}
}

// Merge adds the counts of o to c.
func (c *Counts) Merge(o Counts) {
	c.Win += o.Win
	c.Draw += o.Draw
	c.Loss += o.Loss
}

// countsFields is Counts without its methods, for its JSON.
type countsFields Counts

// UnmarshalJSON reads what json.Marshal writes of c, and the array [loss,
// draw, win] of the first version's file headers.
func (c *Counts) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		var a [3]int64
		err := json.Unmarshal(b, &a)
		*c = Counts{Loss: a[0], Draw: a[1], Win: a[2]}
		return err
	}
	return json.Unmarshal(b, (*countsFields)(c))
}
