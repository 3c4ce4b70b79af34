package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
	"github.com/dtb-draughts/dtb/verify"
)

func init() {
	register(&command{
		name: "claim", args: "MATERIAL...  (KKKvK: White's pieces first; A, B: every class A or B material)",
		summary: "settle claims of endgame theory: positions by value, longest wins, counterexamples",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			dir := fs.StringP("dir", "d", "tables", "table directory")
			query := queryFlags(fs)
			asJSON := fs.Bool("json", false, "print the answer as one JSON object")
			svg := fs.String("svg", "", "also draw the matching positions shown as SVG files example-N.svg in this directory")
			threads := fs.IntP("threads", "t", runtime.NumCPU(), "threads")
			report := fs.String("report", "", "answer the known claims instead and write them as Markdown to this file, with their diagrams in claims/ beside it")
			return func(e *env, args []string) error {
				if *threads < 1 {
					return badInput("--threads must be at least 1")
				}
				if *svg != "" { // check the output before the work
					if err := os.MkdirAll(*svg, 0o755); err != nil {
						return err
					}
				}
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
				defer stop()
				if *report != "" {
					if len(args) != 0 {
						return badInput("--report takes no materials")
					}
					return writeReport(ctx, *dir, *report, *threads)
				}
				q, err := query(args)
				if err != nil {
					return err
				}
				t, err := probe.Open(*dir, probe.Options{})
				if err != nil {
					return err
				}
				defer t.Close()
				res, err := q.Run(ctx, t, *threads)
				if err != nil {
					return err
				}
				if *asJSON {
					return json.NewEncoder(e.stdout).Encode(claimJSON(q, res))
				}
				return printClaim(e.stdout, q, res, *svg)
			}
		},
	})
}

// queryFlags declares the flags of a claim query on fs and returns the
// function that builds the query from them and the materials args.
func queryFlags(fs *pflag.FlagSet) func(args []string) (verify.Query, error) {
	side := fs.String("side", "either", "side to move: white, black or either")
	where := fs.StringArray("where", nil, "square constraint PIECES OP SQUARES, all must hold (repeatable); PIECES: w, b (all of a side), wk, wm, bk, bm; "+
		"OP: = (every such piece on SQUARES), != (none), ~ (at least one); SQUARES: a list such as 28,46-50,diag:5-46 (the diagonal from 5 to 46); e.g. bk=diag:5-46")
	value := fs.StringArray("value", nil, "value condition for White, all must hold (repeatable): rules or theory, = or !=, win, draw or loss; e.g. rules!=win")
	examples := fs.Int("examples", 3, "matching positions to show")
	return func(args []string) (verify.Query, error) {
		q := verify.Query{Examples: *examples}
		if len(args) == 0 {
			return q, badInput("expected one or more materials")
		}
		if *examples < 0 {
			return q, badInput("--examples must not be negative")
		}
		for _, a := range args {
			switch a {
			case "A":
				q.Materials = append(q.Materials, verify.ClassMaterials(table.ClassA)...)
			case "B":
				q.Materials = append(q.Materials, verify.ClassMaterials(table.ClassB)...)
			default:
				m, err := index.ParseMaterial(a)
				if err != nil {
					return q, usageError{err}
				}
				q.Materials = append(q.Materials, m)
			}
		}
		switch *side {
		case "white":
			q.Sides = []draughts.Color{draughts.White}
		case "black":
			q.Sides = []draughts.Color{draughts.Black}
		case "either":
			q.Sides = []draughts.Color{draughts.White, draughts.Black}
		default:
			return q, badInput("--side %q: want white, black or either", *side)
		}
		for _, w := range *where {
			c, err := verify.ParseConstraint(w)
			if err != nil {
				return q, usageError{err}
			}
			q.Where = append(q.Where, c)
		}
		for _, v := range *value {
			c, err := verify.ParseValueCond(v)
			if err != nil {
				return q, usageError{err}
			}
			q.Values = append(q.Values, c)
		}
		return q, nil
	}
}

// queryText describes q in words.
func queryText(q verify.Query) string {
	var names []string
	for _, m := range q.Materials {
		names = append(names, m.String())
	}
	parts := []string{strings.Join(names, ", "), "either side to move"}
	if len(q.Sides) == 1 {
		parts[1] = q.Sides[0].String() + " to move"
	}
	for _, c := range q.Where {
		parts = append(parts, c.String())
	}
	for _, c := range q.Values {
		parts = append(parts, c.String())
	}
	return strings.Join(parts, "; ")
}

// wins returns the number of positions of r that side c wins in theory.
func wins(r verify.Row, c draughts.Color) int64 {
	if c == draughts.White {
		return r.Theory[table.Win]
	}
	return r.Theory[table.Loss]
}

// longestText describes the longest wins of side c in r: by class
// distance and by dtw, as far as the table has them; "" if c wins no
// position.
func longestText(r verify.Row, c draughts.Color) string {
	if wins(r, c) == 0 {
		return ""
	}
	l := r.Longest[c]
	var parts []string
	if r.Distance && l.Distance != nil {
		parts = append(parts, fmt.Sprintf("class distance %d plies (%s)", l.Distance.Distance, l.Distance.Position.FEN()))
	}
	if r.DTW && l.DTW != nil {
		parts = append(parts, fmt.Sprintf("dtw %d plies (%s)", l.DTW.DTW, l.DTW.Position.FEN()))
	}
	if len(parts) == 0 {
		return "no distance in the tables (no class distance outside class A and B, no dtw column)"
	}
	return strings.Join(parts, ", ")
}

// exampleText describes an example position in one line.
func exampleText(x verify.Example) string {
	return fmt.Sprintf("%s  %v to move  rules %v  theoretical %v%s%s (for White)", x.Position.FEN(), x.Position.Side,
		x.Rules, x.Theory, field("distance", x.Distance), field("dtw", x.DTW))
}

// printClaim prints the answer to q: counts, longest wins and examples
// with diagrams, drawn as SVG files in svgDir too if it is not "".
func printClaim(w io.Writer, q verify.Query, res *verify.Result, svgDir string) error {
	fmt.Fprintf(w, "%s (values for White, the side named first)\n\n", queryText(q))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "material\tto move\tpositions\trules win\tdraw\tloss\ttheory win\tdraw\tloss\t")
	var total verify.Row
	for _, r := range res.Rows {
		printCounts(tw, r.Material.String(), r.Side.String(), r)
		total.Positions += r.Positions
		for v := range total.Rules {
			total.Rules[v] += r.Rules[v]
			total.Theory[v] += r.Theory[v]
		}
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
			if s := longestText(r, c); s != "" {
				fmt.Fprintf(w, "  %s, %v to move, %v wins: %s\n", r.Material, r.Side, c, s)
			}
		}
	}
	fmt.Fprintf(w, "\nthe first %d matching positions:\n", len(res.Examples))
	if svgDir != "" {
		if err := os.MkdirAll(svgDir, 0o755); err != nil {
			return err
		}
	}
	for i, x := range res.Examples {
		fmt.Fprintf(w, "%d. %s\n%s", i+1, exampleText(x), textDiagram(x.Position))
		if svgDir == "" {
			continue
		}
		path := filepath.Join(svgDir, fmt.Sprintf("example-%d.svg", i+1))
		if err := os.WriteFile(path, []byte(svgDiagram(x.Position)), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "(diagram: %s)\n", path)
	}
	return nil
}

// printCounts prints a row of counts.
func printCounts(w io.Writer, name, side string, r verify.Row) {
	fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, side, r.Positions,
		r.Rules[table.Win], r.Rules[table.Draw], r.Rules[table.Loss], r.Theory[table.Win], r.Theory[table.Draw], r.Theory[table.Loss])
}

// claimJSON returns the answer to q as a JSON value.
func claimJSON(q verify.Query, res *verify.Result) any {
	type example struct {
		FEN      string `json:"fen"`
		Rules    string `json:"rules"`
		Theory   string `json:"theory"`
		Distance *int   `json:"distance"`
		DTW      *int   `json:"dtw"`
	}
	ex := func(x *verify.Example) *example {
		if x == nil {
			return nil
		}
		return &example{x.Position.FEN(), x.Rules.String(), x.Theory.String(), orNull(x.Distance), orNull(x.DTW)}
	}
	counts := func(c [3]int64) map[string]int64 {
		return map[string]int64{"win": c[table.Win], "draw": c[table.Draw], "loss": c[table.Loss]}
	}
	type longest struct {
		Distance *example `json:"distance"`
		DTW      *example `json:"dtw"`
	}
	type row struct {
		Material  string             `json:"material"`
		ToMove    string             `json:"to_move"`
		Positions int64              `json:"positions"`
		Rules     map[string]int64   `json:"rules"`
		Theory    map[string]int64   `json:"theory"`
		Longest   map[string]longest `json:"longest"`
	}
	var out struct {
		Query     string    `json:"query"`
		ValuesFor string    `json:"values_for"`
		Rows      []row     `json:"rows"`
		Examples  []example `json:"examples"`
	}
	out.Query, out.ValuesFor, out.Examples = queryText(q), "white", []example{}
	for _, r := range res.Rows {
		l := map[string]longest{}
		for c, name := range []string{"white", "black"} {
			l[name] = longest{ex(r.Longest[c].Distance), ex(r.Longest[c].DTW)}
		}
		out.Rows = append(out.Rows, row{r.Material.String(), strings.ToLower(r.Side.String()), r.Positions,
			counts(r.Rules), counts(r.Theory), l})
	}
	for _, x := range res.Examples {
		out.Examples = append(out.Examples, *ex(&x))
	}
	return out
}
