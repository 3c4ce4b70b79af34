package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/sizes"
	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "size", args: "", summary: "bytes and bits per position of the tables, by piece count, column and kind of file",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &sizeCmd{}
			dirFlag(fs, &fl.dir, "dir", "d", readOne, "table directory")
			fs.BoolVar(&fl.asJSON, "json", false, `one JSON object per piece count, then the total: {"pieces":2,"tables":7,...}`)
			return fl.run
		},
	})
}

// sizeParts returns the parts a row's bytes are counted in, with their
// names: the columns, the headers with the block tables, and the total;
// then the same bytes by kind of file: value files and distance files
// (formats 3 and 4), whole tables (formats 1 and 2).
func sizeParts(r sizes.Row) ([]string, []int64) {
	names, bytes := []string{}, []int64{}
	for col := range table.NumColumns {
		names, bytes = append(names, col.Name()), append(bytes, r.Columns[col])
	}
	return append(names, "headers", "total", "value_files", "distance_files", "whole_tables"),
		append(bytes, r.Prefix, r.Bytes(), r.Files[codec.Values], r.Files[codec.Distances], r.Files[codec.Whole])
}

// printSize prints one aligned row per piece count and the total: the
// tables, positions, and the bytes and bits per position of each part.
func printSize(e *env, rows []sizes.Row) error {
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	names, _ := sizeParts(sizes.Row{})
	fmt.Fprint(w, "pieces\ttables\tpositions\t")
	for _, n := range names {
		fmt.Fprintf(w, "%s bytes\tbits/pos\t", n)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		name := fmt.Sprint(r.Pieces)
		if r.Pieces == 0 {
			name = "total"
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t", name, r.Tables, r.Positions)
		_, bytes := sizeParts(r)
		for _, n := range bytes {
			fmt.Fprintf(w, "%d\t%.4f\t", n, r.Bits(n))
		}
		fmt.Fprintln(w)
	}
	return w.Flush()
}

// printSizeJSON prints each row as a JSON object, the total with pieces
// null: {"pieces":2,"tables":7,"positions":N,"bytes":{"value":N,...},
// "bits":{"value":X,...}}.
func printSizeJSON(e *env, rows []sizes.Row) error {
	enc := json.NewEncoder(e.stdout)
	for _, r := range rows {
		var pieces *int
		if r.Pieces != 0 {
			pieces = &r.Pieces
		}
		names, bytes := sizeParts(r)
		b, bits := map[string]int64{}, map[string]float64{}
		for i, n := range names {
			b[n], bits[n] = bytes[i], r.Bits(bytes[i])
		}
		if err := enc.Encode(struct {
			Pieces    *int               `json:"pieces"`
			Tables    int                `json:"tables"`
			Positions int64              `json:"positions"`
			Bytes     map[string]int64   `json:"bytes"`
			Bits      map[string]float64 `json:"bits"`
		}{pieces, r.Tables, r.Positions, b, bits}); err != nil {
			return err
		}
	}
	return nil
}

// sizeCmd holds the flags of one run of dtb size.
type sizeCmd struct {
	dir    string
	asJSON bool
}

func (fl *sizeCmd) run(e *env, args []string) error {
	rows, err := sizes.Measure(fl.dir)
	if err != nil {
		return err
	}
	if fl.asJSON {
		return printSizeJSON(e, rows)
	}
	return printSize(e, rows)
}
