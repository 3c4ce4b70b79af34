package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/sums"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "sums", args: "", summary: "write the SHA-256 of every table, as sha256sum does, to check a build with dtb verify --sums",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &sumsCmd{}
			dirFlag(fs, &fl.dir, "dir", "d", readOne, "table directory")
			return fl.run
		},
	})
}

// publishedList returns the list in dtb's repository of the SHA-256 of
// the files that the build o writes (testdata/README.md), or "" where
// none is published. Threads, budget and split change no file.
func publishedList(o retro.Options) string {
	switch {
	case o.Only != nil:
		return ""
	case o.Pieces == 4 && !o.MTC: // dtw is stored up to 4 pieces anyway
		return "testdata/checksums/pieces4.sha256"
	case o.Pieces == 5 && !o.DTW && !o.MTC:
		return "testdata/checksums/pieces5.sha256"
	case o.Pieces == 5 && o.DTW && o.MTC:
		return "testdata/checksums/pieces5-dtw-mtc.sha256"
	}
	return ""
}

// checkSums checks the files of dir that the list in the file named list
// gives the SHA-256 of, prints one line for each and returns an error if
// any is missing or differs, with the command to run next.
func checkSums(w io.Writer, dir, list string) error {
	f, err := os.Open(list)
	if err != nil {
		return usageError{err}
	}
	want, err := sums.Parse(f, list)
	f.Close()
	if err != nil {
		return usageError{err}
	}
	results, err := sums.Check(dir, want)
	if err != nil {
		return err
	}
	var missing, differ []string
	pieces := 2
	for _, r := range results {
		status := "ok"
		switch {
		case r.Got == "":
			status, missing = "MISSING", append(missing, r.Name)
		case !r.OK():
			status, differ = "MISMATCH (sha256 "+r.Got+")", append(differ, r.Name)
		}
		fmt.Fprintf(w, "%-16s %s\n", r.Name, status)
		if m, err := index.ParseMaterial(strings.TrimSuffix(r.Name, table.ValueExt)); err == nil {
			pieces = max(pieces, m.Pieces())
		}
	}
	fmt.Fprintf(w, "\n%d files checked against %s: %d missing, %d differ\n", len(results), list, len(missing), len(differ))
	var why []string
	if len(missing) > 0 {
		why = append(why, fmt.Sprintf("%d missing (%s; build them with: dtb gen --pieces %d --out %s%s)",
			len(missing), some(missing), pieces, dir, genFlags(dir)))
	}
	if len(differ) > 0 {
		why = append(why, fmt.Sprintf("%d differ (%s; dtb verify --dir %s tells a damaged table from one built with other flags or by another version)",
			len(differ), some(differ), dir))
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d files listed in %s: %s", len(missing)+len(differ), len(results), list, strings.Join(why, "; "))
}

// some returns the first few of names, joined.
func some(names []string) string {
	const few = 4
	if len(names) <= few {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:few], ", ") + fmt.Sprintf(" and %d more", len(names)-few)
}

// sumsCmd holds the flags of one run of dtb sums.
type sumsCmd struct {
	dir string
}

func (fl *sumsCmd) run(e *env, args []string) error {
	list, err := sums.Of(fl.dir)
	if err != nil {
		return err
	}
	return sums.Write(e.stdout, list)
}
