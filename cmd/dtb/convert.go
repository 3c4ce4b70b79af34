package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "convert", args: "", summary: "rewrite tables of an older format (2 or 3) in the current one, without solving",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &convertCmd{}
			dirFlag(fs, &fl.dir, "dir", "d", writeOne, "table directory")
			return fl.run
		},
	})
}

// convertCmd holds the flags of one run of dtb convert.
type convertCmd struct {
	dir string
}

func (fl *convertCmd) run(e *env, args []string) error {
	if tables, _ := table.ValueFiles(fl.dir); len(tables) == 0 {
		return fmt.Errorf("%s holds no tables (build them with: dtb gen --out %s)", fl.dir, fl.dir)
	}
	n := 0
	err := interruptible(func(ctx context.Context) error {
		return retro.Convert(ctx, fl.dir, func(m index.Material) {
			n++
			fmt.Fprintf(e.stdout, "%-8s converted\n", m)
		})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "dtb convert: %d tables converted in %s\n", n, fl.dir)
	return nil
}
