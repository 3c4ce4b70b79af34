package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "stats", args: "", summary: "summarise the tables: values, cursed wins, longest wins",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			dir := fs.StringP("dir", "d", "tables", "table directory")
			asJSON := fs.Bool("json", false, `one JSON object per material: {"material":"KvK","positions":2450,...}`)
			return func(e *env, args []string) error {
				if len(args) != 0 {
					return badInput("unexpected arguments %q", args)
				}
				t, err := probe.Open(*dir, probe.Options{})
				if err != nil {
					return err
				}
				defer t.Close()
				var rows []statsRow
				for _, m := range t.Materials() {
					h, err := t.Header(m)
					if err != nil {
						return err
					}
					var s table.Stats
					if err := json.Unmarshal([]byte(h.Meta[table.StatsKey]), &s); err != nil {
						return fmt.Errorf("%s: no valid %q in the header: %v", table.FileName(m), table.StatsKey, err)
					}
					rows = append(rows, statsRow{m, s, table.HasColumn(h, table.DistanceColumn), table.HasColumn(h, table.DTWColumn)})
				}
				if *asJSON {
					enc := json.NewEncoder(e.stdout)
					for _, r := range rows {
						if err := enc.Encode(struct {
							Material string `json:"material"`
							table.Stats
						}{r.m.String(), r.Stats}); err != nil {
							return err
						}
					}
					return nil
				}
				return printStats(e, rows)
			}
		},
	})
}

// statsRow is the summary of one table.
type statsRow struct {
	m index.Material
	table.Stats
	distance, dtw bool // the table has the distance and dtw columns
}

// printStats prints one aligned row per table, a totals row and the
// positions that the class A and B move limits turn into draws.
func printStats(e *env, rows []statsRow) error {
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "material\tpositions\tcaptures\trules win\tdraw\tloss\ttheory win\tdraw\tloss\tcursed\tblessed\tdistance\tposition\tdtw\tposition\t")
	var total statsRow
	var cursed [table.Rule2 + 1]int64 // by class
	for _, r := range rows {
		printRow(w, r.m.String(), r)
		total.add(r)
		cursed[table.ClassOf(r.m)] += r.CursedWins
	}
	printRow(w, "total", total)
	if err := w.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(e.stdout, "\ntheoretical wins turned into draws by the 16-move rule (class A): %d; by the 5-move rule (class B): %d\n",
		cursed[table.ClassA], cursed[table.ClassB])
	if err == nil && total.dtw {
		_, err = fmt.Fprintf(e.stdout, "wins and losses longer than %d plies, where the untracked 25-move king rule could matter: %d\n",
			table.Rule2Plies, total.Rule2Candidates)
	}
	return err
}

// printRow prints the row of r named name: counts, then the longest class
// distance and dtw, each with a position, or "-" where the table has none.
func printRow(w *tabwriter.Writer, name string, r statsRow) {
	longest := func(has bool, n int, fen string) string {
		if !has {
			return "-\t-"
		}
		return fmt.Sprintf("%d\t%s", n, cmp.Or(fen, "-"))
	}
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", name, r.Positions, r.Captures,
		r.Rules[table.Win], r.Rules[table.Draw], r.Rules[table.Loss],
		r.Theory[table.Win], r.Theory[table.Draw], r.Theory[table.Loss], r.CursedWins, r.BlessedLosses,
		longest(r.distance, r.LongestDistance, r.LongestDistanceFEN), longest(r.dtw, r.LongestDTW, r.LongestDTWFEN))
}

// add adds the counts of r to t and keeps the longer of their longest
// wins.
func (t *statsRow) add(r statsRow) {
	t.Merge(r.Stats)
	t.distance = t.distance || r.distance
	t.dtw = t.dtw || r.dtw
}
