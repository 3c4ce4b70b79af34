package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/claim"
	"github.com/dtb-draughts/dtb/cmd/dtb/internal/diagram"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "claim", args: "MATERIAL...  (KKKvK: White's pieces first; A, B: every class A or B material)",
		summary: "settle claims of endgame theory: positions by value, longest wins, counterexamples",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &claimCmd{}
			tablesFlag(fs, &fl.dir)
			fs.BoolVar(&fl.asJSON, "json", false, "print the answer as one JSON object")
			fs.StringVar(&fl.svg, "svg", "", "also draw the matching positions shown as SVG files example-N.svg in this directory")
			fs.IntVarP(&fl.threads, "threads", "t", runtime.NumCPU(), "threads")
			fs.StringVar(&fl.report, "report", "", "answer the known claims instead and write them as Markdown to this file, with their diagrams in claims/ beside it")
			fl.query = claimFlags(fs)
			return fl.run
		},
	})
}

// claimFlags declares the flags of a query on fs: --side, --where,
// --value, --cursed and --examples. It returns the function that builds
// the query from their values and the materials named by the arguments
// left after the flags (claim.ParseMaterials). claim.Query.Args writes a
// query back as such arguments.
func claimFlags(fs *pflag.FlagSet) func(materials []string) (claim.Query, error) {
	side := fs.String("side", "either", "side to move: white, black or either")
	where := fs.StringArray("where", nil, "square constraint PIECES OP SQUARES, all must hold (repeatable); PIECES: w, b (all of a side), wk, wm, bk, bm; "+
		"OP: = (every such piece on SQUARES), != (none), ~ (at least one); SQUARES: a list such as 28,46-50,diag:5-46 (the diagonal from 5 to 46); e.g. bk=diag:5-46")
	value := fs.StringArray("value", nil, "value condition for White, all must hold (repeatable): rules or theory, = or !=, win, draw or loss; e.g. rules!=win")
	cursed := fs.String("cursed", "", "rule2: only the theoretical wins and losses that rule 2, the 25-move king rule, itself turns into draws "+
		"(rule-2 distance over 50 plies, in tables that track rule 2)")
	examples := fs.Int("examples", 3, "matching positions to show")
	return func(materials []string) (claim.Query, error) {
		q := claim.Query{Examples: *examples}
		if len(materials) == 0 {
			return q, errors.New("expected one or more materials")
		}
		if *examples < 0 {
			return q, errors.New("--examples must not be negative")
		}
		switch *cursed {
		case "":
		case "rule2":
			q.Rule2Cursed = true
		default:
			return q, fmt.Errorf("--cursed %q: want rule2", *cursed)
		}
		var err error
		if q.Materials, err = claim.ParseMaterials(materials...); err != nil {
			return q, err
		}
		switch *side {
		case "white":
			q.Sides = []draughts.Color{draughts.White}
		case "black":
			q.Sides = []draughts.Color{draughts.Black}
		case "either":
			q.Sides = []draughts.Color{draughts.White, draughts.Black}
		default:
			return q, fmt.Errorf("--side %q: want white, black or either", *side)
		}
		for _, w := range *where {
			c, err := claim.ParseConstraint(w)
			if err != nil {
				return q, err
			}
			q.Where = append(q.Where, c)
		}
		for _, v := range *value {
			c, err := claim.ParseValueCond(v)
			if err != nil {
				return q, err
			}
			q.Values = append(q.Values, c)
		}
		return q, nil
	}
}

// exampleText describes an example position in one line.
func exampleText(x claim.Example) string {
	return fmt.Sprintf("%s  %v to move  %s (for White)", x.Position.FEN(), x.Position.Side, describe(x.Entry, rules.NoClass, draughts.White, x.Position.Side))
}

// printClaim prints the answer to q: counts, longest wins and examples
// with diagrams, drawn as SVG files in svgDir too if it is not "".
func printClaim(w io.Writer, q claim.Query, res *claim.Result, svgDir string) error {
	fmt.Fprintf(w, "%s (values for White, the side named first)\n\n", q.String())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "material\tto move\tpositions\trules win\tdraw\tloss\ttheory win\tdraw\tloss\t")
	var total claim.Row
	for _, r := range res.Rows {
		printCounts(tw, r.Material.String(), r.Side.String(), r)
		total.Positions += r.Positions
		total.Rules.Merge(r.Rules)
		total.Theory.Merge(r.Theory)
	}
	if len(res.Rows) > 1 {
		printCounts(tw, "total", "", total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nlongest wins:")
	for _, r := range res.Rows {
		for _, c := range []draughts.Color{draughts.White, draughts.Black} {
			if s := r.DescribeLongest(c); s != "" {
				fmt.Fprintf(w, "  %s, %v to move, %v wins: %s\n", r.Material, r.Side, c, s)
			}
		}
	}
	switch n := len(res.Examples); n {
	case 0:
		fmt.Fprintln(w, "\nno matching position shown")
	case 1:
		fmt.Fprintln(w, "\nthe first matching position:")
	default:
		fmt.Fprintf(w, "\nthe first %d matching positions:\n", n)
	}
	if svgDir != "" {
		if err := os.MkdirAll(svgDir, 0o755); err != nil {
			return err
		}
	}
	for i, x := range res.Examples {
		fmt.Fprintf(w, "%d. %s\n%s", i+1, exampleText(x), diagram.Text(x.Position))
		if svgDir == "" {
			continue
		}
		path := filepath.Join(svgDir, fmt.Sprintf("example-%d.svg", i+1))
		if err := os.WriteFile(path, []byte(diagram.SVG(x.Position)), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "(diagram: %s)\n", path)
	}
	return nil
}

// printCounts prints a row of counts.
func printCounts(w io.Writer, name, side string, r claim.Row) {
	fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, side, r.Positions,
		r.Rules.Win, r.Rules.Draw, r.Rules.Loss, r.Theory.Win, r.Theory.Draw, r.Theory.Loss)
}

// claimJSON returns the answer to q as a JSON value: rows of counts as
// table.Counts write them, and positions as fenEntry.
func claimJSON(q claim.Query, res *claim.Result) any {
	ex := func(x *claim.Example) *fenEntry {
		if x == nil {
			return nil
		}
		return &fenEntry{FEN: x.Position.FEN(), Entry: x.Entry}
	}
	type row struct {
		Material  string                 `json:"material"`
		ToMove    string                 `json:"to_move"`
		Positions int64                  `json:"positions"`
		Rules     table.Counts           `json:"rules"`
		Theory    table.Counts           `json:"theory"`
		Longest   map[string]longestWins `json:"longest"`
	}
	var out struct {
		Query     string     `json:"query"`
		ValuesFor string     `json:"values_for"`
		Rows      []row      `json:"rows"`
		Examples  []fenEntry `json:"examples"`
	}
	out.Query, out.ValuesFor, out.Examples = q.String(), "white", []fenEntry{}
	for _, r := range res.Rows {
		l := map[string]longestWins{}
		for c, name := range []string{"white", "black"} {
			l[name] = claimLongest(r.Longest[c])
		}
		out.Rows = append(out.Rows, row{r.Material.String(), strings.ToLower(r.Side.String()), r.Positions, r.Rules, r.Theory, l})
	}
	for _, x := range res.Examples {
		out.Examples = append(out.Examples, *ex(&x))
	}
	return out
}

// claimLongest returns the longest wins l of a side in a row of dtb
// claim as dtb stats gives them.
func claimLongest(l struct{ Distance, DTW, MTC *claim.Example }) longestWins {
	var w longestWins
	if x := l.Distance; x != nil {
		w.Distance = &longestWin{x.Position.FEN(), x.Entry.Distance}
	}
	if x := l.DTW; x != nil {
		w.DTW = &longestWin{x.Position.FEN(), x.Entry.DTW}
	}
	if x := l.MTC; x != nil {
		w.MTC = &longestWin{x.Position.FEN(), x.Entry.MTC}
	}
	return w
}

// claimCmd holds the flags of one run of dtb claim.
type claimCmd struct {
	dir     string
	asJSON  bool
	svg     string
	threads int
	report  string
	query   func(args []string) (claim.Query, error) // from the query flags (claimFlags)
}

func (fl *claimCmd) run(e *env, args []string) error {
	if fl.threads < 1 {
		return badInput("--threads must be at least 1")
	}
	var q claim.Query
	if fl.report != "" && len(args) != 0 {
		return badInput("--report takes no materials")
	} else if fl.report == "" {
		var err error
		if q, err = fl.query(args); err != nil {
			return usageError{err}
		}
	}
	if fl.svg != "" { // check the output before the work
		if err := os.MkdirAll(fl.svg, 0o755); err != nil {
			return err
		}
	}
	t, err := probe.Open(fl.dir, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if fl.report != "" {
		return claim.WriteReport(ctx, t, fl.dir, fl.report, fl.threads)
	}
	res, err := q.Run(ctx, t, fl.threads)
	var missing *probe.MissingError
	if errors.As(err, &missing) {
		return errors.New(explore.Beyond(fl.dir, missing.Material, missing))
	}
	if err != nil {
		return err
	}
	if fl.asJSON {
		return json.NewEncoder(e.stdout).Encode(claimJSON(q, res))
	}
	return printClaim(e.stdout, q, res, fl.svg)
}
