package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "stats", args: "", summary: "summarise the tables: values, cursed wins, longest wins",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &statsCmd{}
			tablesFlag(fs, &fl.dir)
			fs.BoolVar(&fl.asJSON, "json", false, `one JSON object per material: {"material":"KvK","positions":2450,...}`)
			return fl.run
		},
	})
}

// statsRow is the summary of one table.
type statsRow struct {
	m index.Material
	table.Stats
	distance, dtw, mtc bool // the table has the distance, dtw and mtc columns
	// rule2 reports whether the table tracks rule 2 (table.Full);
	// tables of the first version do not (table.NoRule2).
	rule2 bool
	// untracked counts the tables of a total that do not track rule 2;
	// untrackedDTW those of them with the dtw column, whose
	// Rule2Candidates it sums in candidates.
	untracked, untrackedDTW int
	candidates              int64
}

// statsJSON is the JSON form of a row: the header's stats, then what
// depends on the table's columns and rules, null where the table lacks
// them, and White's longest wins as dtb claim gives them.
type statsJSON struct {
	Material      string       `json:"material"`
	Positions     int64        `json:"positions"`
	Captures      int64        `json:"captures"`
	Theory        table.Counts `json:"theory"`
	Rules         table.Counts `json:"rules"`
	CursedWins    int64        `json:"cursed_wins"`
	BlessedLosses int64        `json:"blessed_losses"`
	// Rule2 reports whether the rules value tracks the 25-move king rule.
	Rule2              bool   `json:"rule2"`
	Rule2CursedWins    *int64 `json:"rule2_cursed_wins"`
	Rule2BlessedLosses *int64 `json:"rule2_blessed_losses"`
	// Rule2Candidates only for a table that does not track rule 2.
	Rule2Candidates *int64      `json:"rule2_candidates,omitempty"`
	Longest         longestWins `json:"longest"`
}

// longestWins are the longest wins of a side, in JSON as dtb stats and
// dtb claim give them: by the distance on the clock, by dtw and by mtc,
// each a position and its plies, null where there is none or the table
// lacks the column:
// {"distance":{"fen":"W:WK10:BK5","plies":3},"dtw":{"fen":"W:WK10:BK5","plies":3},"mtc":null}.
type longestWins struct {
	Distance *longestWin `json:"distance"`
	DTW      *longestWin `json:"dtw"`
	MTC      *longestWin `json:"mtc"`
}

// longestWin is a position of a longest win and its length.
type longestWin struct {
	FEN   string `json:"fen"`
	Plies int    `json:"plies"`
}

// win returns the longestWin of plies from the position fen, nil where
// the table lacks the column (has is false) or there is none (fen "").
func win(has bool, fen string, plies int) *longestWin {
	if !has || fen == "" {
		return nil
	}
	return &longestWin{fen, plies}
}

// json returns the JSON form of r.
func (r statsRow) json() statsJSON {
	s := r.Stats
	j := statsJSON{Material: r.m.String(), Positions: s.Positions, Captures: s.Captures, Theory: s.Theory, Rules: s.Rules,
		CursedWins: s.CursedWins, BlessedLosses: s.BlessedLosses, Rule2: r.rule2,
		Longest: longestWins{win(r.distance, s.LongestDistanceFEN, s.LongestDistance), win(r.dtw, s.LongestDTWFEN, s.LongestDTW),
			win(r.mtc, s.LongestMTCFEN, s.LongestMTC)}}
	if r.rule2 {
		j.Rule2CursedWins, j.Rule2BlessedLosses = &s.Rule2CursedWins, &s.Rule2BlessedLosses
	} else if r.dtw {
		j.Rule2Candidates = &s.Rule2Candidates
	}
	return j
}

// printStats prints one aligned row per table, a totals row, the
// positions that the class A and B move limits and rule 2 turn into
// draws, and, for tables that do not track rule 2, where it could matter.
func printStats(e *env, rows []statsRow) error {
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "material\tpositions\tcaptures\trules win\tdraw\tloss\ttheory win\tdraw\tloss\tcursed\tblessed\t"+
		"rule2 cursed\tblessed\tdistance plies\tposition\tdtw plies\tposition\tmtc plies\tposition\t")
	var total statsRow
	var cursed [rules.Rule2 + 1]int64 // by class
	for _, r := range rows {
		printRow(w, r.m.String(), r)
		total.add(r)
		cursed[rules.ClassOf(r.m)] += r.CursedWins
	}
	total.rule2 = total.untracked < len(rows)
	printRow(w, "total", total)
	if err := w.Flush(); err != nil {
		return err
	}
	rule2 := fmt.Sprintf("by the 25-move king rule (rule 2): %d, and losses it saves: %d", total.Rule2CursedWins, total.Rule2BlessedLosses)
	switch {
	case total.untracked == len(rows):
		rule2 = "the 25-move king rule (rule 2) is not tracked"
	case total.untracked > 0:
		rule2 += fmt.Sprintf(" (in the %d tables that track it)", len(rows)-total.untracked)
	}
	_, err := fmt.Fprintf(e.stdout, "\ntheoretical wins turned into draws by the 16-move rule (class A): %d; by the 5-move rule (class B): %d; %s\n",
		cursed[rules.ClassA], cursed[rules.ClassB], rule2)
	if err == nil && total.untrackedDTW > 0 {
		_, err = fmt.Fprintf(e.stdout, "wins and losses longer than %d plies in the %d tables that do not track the 25-move king rule, where it could matter: %d\n",
			rules.Rule2Plies, total.untrackedDTW, total.candidates)
	}
	return err
}

// printRow prints the row of r named name: counts, the wins and losses
// rule 2 turns into draws ("-" where the table does not track it), then
// the longest class or rule-2 distance, dtw and mtc, each with a
// position, or "-" where the table has none.
func printRow(w *tabwriter.Writer, name string, r statsRow) {
	longest := func(has bool, n int, fen string) string {
		if !has {
			return "-\t-"
		}
		return fmt.Sprintf("%d\t%s", n, cmp.Or(fen, "-"))
	}
	rule2 := "-\t-"
	if r.rule2 {
		rule2 = fmt.Sprintf("%d\t%d", r.Rule2CursedWins, r.Rule2BlessedLosses)
	}
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", name, r.Positions, r.Captures,
		r.Rules.Win, r.Rules.Draw, r.Rules.Loss,
		r.Theory.Win, r.Theory.Draw, r.Theory.Loss, r.CursedWins, r.BlessedLosses, rule2,
		longest(r.distance, r.LongestDistance, r.LongestDistanceFEN), longest(r.dtw, r.LongestDTW, r.LongestDTWFEN),
		longest(r.mtc, r.LongestMTC, r.LongestMTCFEN))
}

// add adds the counts of r to t and keeps the longer of their longest
// wins.
func (t *statsRow) add(r statsRow) {
	t.Merge(r.Stats)
	t.distance = t.distance || r.distance
	t.dtw = t.dtw || r.dtw
	t.mtc = t.mtc || r.mtc
	if !r.rule2 {
		t.untracked++
		if r.dtw {
			t.untrackedDTW++
			t.candidates += r.Rule2Candidates
		}
	}
}

// statsCmd holds the flags of one run of dtb stats.
type statsCmd struct {
	dir    string
	asJSON bool
}

func (fl *statsCmd) run(e *env, args []string) error {
	t, err := probe.Open(fl.dir, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	var rows []statsRow
	var searched []index.Material
	for _, m := range t.Materials() {
		info, err := t.Info(m)
		if errors.Is(err, probe.ErrNotStored) {
			searched = append(searched, m)
			continue
		}
		if err != nil {
			return err
		}
		l := info.Layout
		rows = append(rows, statsRow{m: m, Stats: info.Stats,
			distance: l.Has(table.DistanceColumn), dtw: l.Has(table.DTWColumn),
			mtc: l.Has(table.MTCColumn), rule2: info.Variant != table.NoRule2})
	}
	if len(searched) > 0 {
		fmt.Fprintf(e.stderr, "dtb stats: %d tables answered by a search through their colour flips (dtb slim) are not listed: %v\n", len(searched), searched)
	}
	if fl.asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, r := range rows {
			if err := enc.Encode(r.json()); err != nil {
				return err
			}
		}
		return nil
	}
	return printStats(e, rows)
}
