package claim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/diagram"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// knownClaim is a claim of endgame theory that the report answers.
type knownClaim struct {
	title, question string
	queries         []Query
	// answer words the answer from the results of the queries, and
	// returns the position to draw (nil for none).
	answer func(rs []*Result) (string, *Example)
}

// publishedLongest are the longest wins under the rules that RULES.md
// cites, in plies, White to move.
var publishedLongest = []struct {
	material string
	plies    int
}{{"KKKvK", 15}, {"KKMvK", 31}, {"KMMvK", 29}, {"KMvK", 9}, {"KKvK", 7}, {"KvK", 3}}

var knownClaims = []knownClaim{{
	title:    "Three kings against a king on the long diagonal",
	question: "3 kings against 1 king, the lone king on the long diagonal 5-46, either side to move: how many positions of each value?",
	queries:  []Query{{Materials: must(ParseMaterials("KKKvK")), Sides: eitherSide, Where: []Constraint{must(ParseConstraint("bk=diag:5-46"))}}},
	answer: func(rs []*Result) (string, *Example) {
		return countsText(rs[0].Rows) + ". The example is White's longest win with Black to move.", rs[0].Rows[1].Longest[draughts.White].Distance
	},
}, {
	title:    "Four kings against a king",
	question: "4 kings against 1 king: is every position a win for the side with 4 kings? The longest win?",
	queries: []Query{{Materials: must(ParseMaterials("KKKKvK")), Sides: eitherSide, Values: []ValueCond{{Rules: true, Not: true, Value: rules.Win}}, Examples: 1},
		{Materials: must(ParseMaterials("KKKKvK")), Sides: eitherSide}},
	answer: func(rs []*Result) (string, *Example) {
		not, all := total(rs[0].Rows), total(rs[1].Rows)
		s := fmt.Sprintf("Yes: White wins all %d positions under the rules", all)
		if not > 0 {
			s = fmt.Sprintf("No: %d of the %d positions are not White wins under the rules (%s); the example is the first", not, all, bySide(rs[0].Rows))
		}
		return s + ". " + longestWinText(rs[1].Rows) + ".", first(rs[0].Examples)
	},
}, {
	title:    "Wins that the 16-move and 5-move rules turn into draws",
	question: "How many theoretical wins in class-A and class-B material does the 16-move or 5-move rule turn into draws, and which is the longest?",
	queries: []Query{{Materials: must(ParseMaterials("A", "B")), Sides: eitherSide, Values: []ValueCond{{Not: true, Value: rules.Draw}, {Rules: true, Value: rules.Draw}}},
		{Materials: must(ParseMaterials("A", "B")), Sides: eitherSide, Values: []ValueCond{{Not: true, Value: rules.Draw}}}},
	answer: func(rs []*Result) (string, *Example) {
		var drawn [3]int64
		for _, r := range rs[0].Rows {
			drawn[rules.ClassOf(r.Material)] += r.Positions
		}
		a, b := longestIn(rs[1].Rows, rules.ClassA), longestIn(rs[1].Rows, rules.ClassB)
		if a == nil || b == nil {
			return "The tables hold no theoretical win in class A or B.", nil
		}
		limits := fmt.Sprintf("the longest theoretical wins need %d plies of the %d on the clock in class A, at %s, and %d of the %d in class B, at %s",
			a.Entry.Distance, rules.ClassA.Budget(), posText(*a), b.Entry.Distance, rules.ClassB.Budget(), posText(*b))
		if drawn[rules.ClassA]+drawn[rules.ClassB] == 0 {
			return "None: every theoretical win in class A and B material is a win under the rules too, the clock starting when the material arises; " +
				limits + ". The example is the class A one.", a
		}
		l := longestIn(rs[0].Rows, rules.ClassA)
		if l == nil || l.Entry.Distance < longestDistance(longestIn(rs[0].Rows, rules.ClassB)) {
			l = longestIn(rs[0].Rows, rules.ClassB)
		}
		s := fmt.Sprintf("%d in class A (16-move rule) and %d in class B (5-move rule), counting both sides to move and wins of either side; %s",
			drawn[rules.ClassA], drawn[rules.ClassB], limits)
		if l == nil {
			return s + ".", nil
		}
		return s + fmt.Sprintf(". The longest of the drawn ones, the example, needs %d plies: %s.", l.Entry.Distance, posText(*l)), l
	},
}, {
	title:    "Can the lone king beat three kings?",
	question: "Is there any position of 3 kings against 1 king that the lone king wins?",
	queries:  []Query{{Materials: must(ParseMaterials("KKKvK")), Sides: eitherSide, Values: []ValueCond{{Value: rules.Loss}}, Examples: 1}},
	answer: func(rs []*Result) (string, *Example) {
		n := total(rs[0].Rows)
		if n == 0 {
			return "No: Black wins no position, not even in theory.", nil
		}
		return fmt.Sprintf("Yes: Black wins %d positions in theory (%s), for example %s.", n, bySide(rs[0].Rows), posText(rs[0].Examples[0])), first(rs[0].Examples)
	},
}, {
	title:    "The published longest wins",
	question: "Do the tables reproduce the longest wins under the rules published for the class A and B endings (White to move, plies until the loser has no move)?",
	queries: []Query{{Materials: func() []index.Material {
		var ms []index.Material
		for _, p := range publishedLongest {
			ms = append(ms, must(index.ParseMaterial(p.material)))
		}
		return ms
	}(), Sides: []draughts.Color{draughts.White}, Values: []ValueCond{{Rules: true, Value: rules.Win}}}},
	answer: func(rs []*Result) (string, *Example) {
		var b strings.Builder
		b.WriteString("| material | published | tables | agree | longest win |\n|---|---:|---:|---|---|\n")
		agree := true
		var longest *Example
		for i, p := range publishedLongest {
			l := rs[0].Rows[i].Longest[draughts.White].Distance
			got, fen := -1, "-"
			if l != nil {
				got, fen = l.Entry.Distance, "`"+l.Position.FEN()+"`"
				if longest == nil || got > longest.Entry.Distance {
					longest = l
				}
			}
			agree = agree && got == p.plies
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s |\n", p.material, p.plies, got, yesNo(got == p.plies), fen)
		}
		return fmt.Sprintf("%s. The example is the longest of them.\n\n%s", yesNo(agree), strings.TrimSuffix(b.String(), "\n")), longest
	},
}, {
	title: "Wins the 25-move rule draws",
	question: "In the 6-piece materials KKKKvKK, KKKKvKM, KKKMvKK and KKKMvKM, either side to move, how many theoretical wins does the 25-move king rule " +
		"(rule 2) turn into draws, the count fresh (no more than 50 plies, 25 moves each, with only king moves and no capture), and which is the longest?",
	// The materials of the KMvKKKM build where both sides have kings,
	// White the stronger side (with either side to move, their colour
	// flips are counted too).
	queries: []Query{{Materials: must(ParseMaterials("KKKKvKK", "KKKKvKM", "KKKMvKK", "KKKMvKM")), Sides: eitherSide, Rule2Cursed: true, Examples: 3}},
	answer: func(rs []*Result) (string, *Example) {
		var white, black int64
		var parts []string
		for _, r := range rs[0].Rows {
			white += r.Theory.Win
			black += r.Theory.Loss
			if r.Positions > 0 {
				parts = append(parts, fmt.Sprintf("%s with %v to move: White %d, Black %d", r.Material, r.Side, r.Theory.Win, r.Theory.Loss))
			}
		}
		if white+black == 0 {
			return "None: every theoretical win in these materials needs at most 50 plies on the count of rule 2 between man moves and captures.", nil
		}
		var l *Example
		for _, r := range rs[0].Rows {
			for _, w := range r.Longest {
				if longestDistance(w.Distance) > longestDistance(l) {
					l = w.Distance
				}
			}
		}
		s := fmt.Sprintf("%d positions: %d theoretical wins of White and %d of Black (each a loss that rule 2 saves for the other side) need more than %d plies "+
			"on the count, and are draws under the rules (%s)", white+black, white, black, rules.Rule2Plies, strings.Join(parts, "; "))
		var ex []string
		for _, x := range rs[0].Examples {
			ex = append(ex, posText(x))
		}
		s += ". The first of them: " + strings.Join(ex, ", ")
		if l == nil {
			return s + ".", nil
		}
		return s + fmt.Sprintf(". The example is the longest, by rule-2 distance: %s.", posText(*l)), l
	},
}}

// eitherSide is the sides of a query with either side to move.
var eitherSide = []draughts.Color{draughts.White, draughts.Black}

// must returns v, panicking on err: for the queries of knownClaims.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ReportQueries returns the queries that WriteReport answers, in the
// order of the report.
func ReportQueries() []Query {
	var qs []Query
	for _, c := range knownClaims {
		qs = append(qs, c.queries...)
	}
	return qs
}

// WriteReport answers the known claims of endgame theory from the tables t
// on up to threads goroutines (0 means one per CPU) and writes them as
// Markdown to path, with a diagram of each answer's example as an SVG file
// in the directory claims beside it. dir is the directory t was opened
// from, named in the dtb claim commands that the report gives for each
// answer. The report depends on nothing but the tables, dir and path: the
// same tables give the same bytes.
func WriteReport(ctx context.Context, t *probe.Tables, dir, path string, threads int) error {
	if len(t.Materials()) == 0 {
		return fmt.Errorf("no tables in %s", dir)
	}
	svgDir := filepath.Join(filepath.Dir(path), "claims")
	if err := os.MkdirAll(svgDir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	reportHeader(&b, t, dir, path)
	for i, c := range knownClaims {
		fmt.Fprintf(&b, "\n## %d. %s\n\n> %s\n\n", i+1, c.title, c.question)
		var results []*Result
		var cmds, tables strings.Builder
		for _, q := range c.queries {
			fmt.Fprintf(&cmds, "dtb claim --dir %s %s\n", shellQuote(dir), shellQuote(q.Args()...))
			res, err := q.Run(ctx, t, threads)
			if errors.Is(err, probe.ErrMissing) {
				fmt.Fprintf(&b, "**Not answered:** the tables lack a material it needs (%v).\n\n```sh\n%s```\n", err, cmds.String())
				results = nil
				break
			} else if err != nil {
				return err
			}
			results = append(results, res)
			fmt.Fprintf(&tables, "\n`%s`\n\n", q.String())
			countsTable(&tables, res.Rows)
		}
		if results == nil {
			continue
		}
		answer, example := c.answer(results)
		fmt.Fprintf(&b, "**Answer.** %s\n\n```sh\n%s```\n%s", answer, cmds.String(), tables.String())
		if example == nil {
			continue
		}
		name := fmt.Sprintf("%d.svg", i+1)
		if err := os.WriteFile(filepath.Join(svgDir, name), []byte(diagram.SVG(example.Position)), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&b, "\nExample: %s.\n\n![%s](claims/%s)\n\n```text\n%s```\n", posText(*example), example.Position.FEN(), name, diagram.Text(example.Position))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// reportHeader writes the title and what the report was made from.
func reportHeader(w io.Writer, t *probe.Tables, dir, path string) {
	mats := t.Materials()
	dtw, rule2 := true, true
	for _, m := range mats {
		info, err := t.Info(m)
		dtw = dtw && err == nil && info.Layout.Has(table.DTWColumn)
		rule2 = rule2 && err == nil && info.Variant != table.NoRule2
	}
	with := "with"
	if !dtw {
		with = "not all with"
	}
	withRule2 := "the\n25-move king rule (rule 2) with a fresh count"
	if !rule2 {
		withRule2 = "(only in\nthe tables that track it, not all of these) the 25-move king rule\n(rule 2) with a fresh count"
	}
	fmt.Fprintf(w, `# Claims of endgame theory, settled by the tables

Generated by

    go run ./cmd/dtb claim --dir %s --report %s

from %d tables of up to %d pieces, %s the dtw column. Do not edit it by
hand; rerun the command instead. Each answer comes with the `+"`dtb claim`"+`
commands that reproduce it and their counts.

Values are for White, the side named first in a material (KKKvK: three
White kings against a Black king), whichever side is to move. The rules
value honours the 16-move (class A) and 5-move (class B) limits and %s;
the theoretical value only repetition. Distances are in plies: the class
distance is the least clock under which a class A or B position is won,
the rule-2 distance the least count of rule 2 left under which a position
with kings on both sides is won, the dtw the plies until the loser has
no move, the mtc the plies until the next man move or capture.
`, shellQuote(dir), shellQuote(path), len(mats), mats[len(mats)-1].Pieces(), with, withRule2)
}

// countsTable writes the counts of rows as a Markdown table.
func countsTable(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| material | to move | positions | rules: White wins | draws | loses | theory: White wins | draws | loses |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %v | %d | %d | %d | %d | %d | %d | %d |\n", r.Material, r.Side, r.Positions,
			r.Rules.Win, r.Rules.Draw, r.Rules.Loss, r.Theory.Win, r.Theory.Draw, r.Theory.Loss)
	}
}

// shellQuote joins args for a shell, quoting those with characters other
// than letters, digits and -_=:,./
func shellQuote(args ...string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=:,./") != "" {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}

// countsText words the rules and theoretical counts of each row.
func countsText(rows []Row) string {
	var parts []string
	for _, r := range rows {
		pc := func(n int64) string {
			return fmt.Sprintf("%d (%.1f%%)", n, 100*float64(n)/float64(max(r.Positions, 1)))
		}
		parts = append(parts, fmt.Sprintf("with %v to move, White wins %s, draws %s and loses %s of %d positions under the rules (in theory %d, %d and %d)",
			r.Side, pc(r.Rules.Win), pc(r.Rules.Draw), pc(r.Rules.Loss), r.Positions,
			r.Theory.Win, r.Theory.Draw, r.Theory.Loss))
	}
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// longestWinText words White's longest wins over rows.
func longestWinText(rows []Row) string {
	var parts []string
	for _, r := range rows {
		if s := r.DescribeLongest(draughts.White); s != "" {
			parts = append(parts, fmt.Sprintf("with %v to move, %s", r.Side, s))
		}
	}
	if len(parts) == 0 {
		return "White wins no position"
	}
	return "The longest White wins: " + strings.Join(parts, "; ")
}

// longestIn returns the longest win by class distance, of either side,
// in the rows of class c; nil if there is none.
func longestIn(rows []Row, c rules.Class) *Example {
	var l *Example
	for _, r := range rows {
		for _, w := range r.Longest {
			if rules.ClassOf(r.Material) == c && longestDistance(w.Distance) > longestDistance(l) {
				l = w.Distance
			}
		}
	}
	return l
}

// longestDistance returns the class distance of x, -1 for nil.
func longestDistance(x *Example) int {
	if x == nil {
		return -1
	}
	return x.Entry.Distance
}

// total returns the positions of rows.
func total(rows []Row) int64 {
	var n int64
	for _, r := range rows {
		n += r.Positions
	}
	return n
}

// bySide words the positions of rows by side to move.
func bySide(rows []Row) string {
	var parts []string
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%d with %v to move", r.Positions, r.Side))
	}
	return strings.Join(parts, ", ")
}

// posText words a position and its values in Markdown.
func posText(x Example) string {
	e := x.Entry
	s := fmt.Sprintf("`%s` (%v to move; rules %v, theoretical %v for White", x.Position.FEN(), x.Position.Side, e.Rules, e.Theory)
	if e.Distance >= 0 {
		s += fmt.Sprintf(", distance %d", e.Distance)
	}
	if e.DTW >= 0 {
		s += fmt.Sprintf(", dtw %d", e.DTW)
	}
	if e.MTC >= 0 {
		s += fmt.Sprintf(", mtc %d", e.MTC)
	}
	return s + ")"
}

// first returns the first example, or nil.
func first(xs []Example) *Example {
	if len(xs) == 0 {
		return nil
	}
	return &xs[0]
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}
