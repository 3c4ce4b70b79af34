// Command dtb builds, probes and checks endgame tables for international
// draughts, and exposes the rules engine behind them.
//
//	dtb gen --pieces 4 --out tables     build every table up to 4 pieces
//	dtb probe --dir tables FEN...       look positions up
//	dtb stats --dir tables              summarise the tables
//	dtb verify --dir tables             check every file and value
//	dtb claim --dir tables KKKvK ...    settle claims of endgame theory
//	dtb moves FEN                       list the legal moves
//	dtb perft --depth 9 FEN             count the move tree
//	dtb version                         the version, commit and file formats
//
// Run `dtb help` for every command and `dtb COMMAND --help` for its flags.
// Exit status: 0 success, 1 failure, 2 bad usage or input, 130 interrupted
// (SIGINT or SIGTERM), as the shell gives a command an interrupt ends.
//
// The commands that read tables take --dir as a list of directories,
// joined by the system's list separator, and DTB_PATH when it is left out.
//
// DTB_MEM_UNCHECKED=1 is a testing knob: gen and plan then take any
// --mem, however small, and split every group into its smallest units.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// A command is one subcommand of dtb.
type command struct {
	name    string
	args    string // argument synopsis after the flags; "" for none: run refuses any
	summary string
	// flags declares the command's flags on fs, into a new value of its
	// flag struct (NAMECmd, in the command's file), and returns that
	// value's run method, which runs it with the positional arguments.
	flags func(fs *pflag.FlagSet) func(env *env, args []string) error
}

// env is what a command may touch besides its arguments.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	command        string // the command run, set by run
	progress       bool   // stderr is a terminal: show progress bars
	// progressEvery is the interval of the progress lines of long work
	// when stderr is not a terminal, 0 for none.
	progressEvery time.Duration
	path          string // DTB_PATH: the table directories read when --dir is left out
	// uncheckedMem takes any --mem, below the floor or below what a unit
	// needs (DTB_MEM_UNCHECKED=1): a testing knob to split every group
	// into its smallest units, which then go over the budget.
	uncheckedMem bool
}

var commands []*command

func register(c *command) { commands = append(commands, c) }

// usageError marks bad usage or bad input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// badInput wraps err as a usage error.
func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	stop := profile(os.Getenv("DTB_CPUPROFILE"))
	code := run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, progress: isTerminal(os.Stderr),
		progressEvery: 30 * time.Second, path: os.Getenv(pathVar), uncheckedMem: os.Getenv("DTB_MEM_UNCHECKED") == "1"})
	stop()
	os.Exit(code)
}

// profile starts a CPU profile of the command into the file path
// (DTB_CPUPROFILE, for `go tool pprof`) and returns what stops it; it
// does nothing for path "". A profile that cannot start is said on
// stderr and the command runs without it.
func profile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "dtb: DTB_CPUPROFILE=%s: %v: no profile\n", path, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// errReported is returned by a command that has already said on stderr
// what went wrong, one line per problem: the exit status is 1, or 2 if
// it is wrapped in a usageError.
var errReported = errors.New("reported")

// run executes the command line args and returns the exit status.
func run(args []string, e *env) int {
	if len(args) == 0 { // bad usage: the usage goes to stderr
		printUsage(e.stderr)
		return 2
	}
	switch args[0] {
	case "help", "--help", "-h":
		if len(args) == 1 {
			printUsage(e.stdout)
			return 0
		}
		args = []string{args[1], "--help"} // dtb help COMMAND
	case "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	var cmd *command
	for _, c := range commands {
		if c.name == args[0] {
			cmd = c
		}
	}
	if cmd == nil {
		fmt.Fprintf(e.stderr, "dtb: unknown command %q (see dtb help)\n", args[0])
		return 2
	}
	e.command = cmd.name
	fs := pflag.NewFlagSet(cmd.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	runCmd := cmd.flags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintf(e.stdout, "usage: dtb %s [flags] %s\n\n%s\n\nflags:\n%s", cmd.name, cmd.args, cmd.summary, fs.FlagUsages())
			return 0
		}
		fmt.Fprintf(e.stderr, "dtb %s: %v\n", cmd.name, err)
		return 2
	}
	if cmd.args == "" && fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "dtb %s: unexpected arguments %q\n", cmd.name, fs.Args())
		return 2
	}
	if name := emptyFlag(fs); name != "" {
		fmt.Fprintf(e.stderr, "dtb %s: --%s is given an empty value (leave the flag out for its default)\n", cmd.name, name)
		return 2
	}
	err := checkDirs(fs, e)
	if err == nil {
		err = runCmd(e, fs.Args())
	}
	if err == nil {
		return 0
	}
	if errors.Is(err, context.Canceled) && !errors.As(err, new(interrupted)) {
		err = interrupted("")
	}
	if !errors.Is(err, errReported) {
		fmt.Fprintf(e.stderr, "dtb %s: %s\n", cmd.name, strings.ReplaceAll(explain(err), "\n", " "))
	}
	switch {
	case errors.Is(err, context.Canceled):
		return 130
	case errors.As(err, new(usageError)):
		return 2
	}
	return 1
}

// interrupted is the error of a command stopped by an interrupt (SIGINT
// or SIGTERM, through a context): "interrupted", then what is kept. It
// wraps context.Canceled, which makes the exit status 130, the shell's
// for a command an interrupt ends.
type interrupted string

func (i interrupted) Error() string { return "interrupted" + string(i) }

// Unwrap returns context.Canceled.
func (interrupted) Unwrap() error { return context.Canceled }

// emptyFlag returns the name of a string flag of fs given an empty value
// (--unit ”, --sums ”), which no flag takes: it would read as the flag
// left out and do what was not asked. "" if none.
func emptyFlag(fs *pflag.FlagSet) string {
	name := ""
	fs.Visit(func(f *pflag.Flag) {
		if name == "" && f.Value.Type() == "string" && f.Value.String() == "" {
			name = f.Name
		}
	})
	return name
}

// printUsage writes the usage of dtb: the commands in alphabetical order.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: dtb COMMAND [flags] [arguments]\n\ncommands:")
	sorted := slices.SortedFunc(slices.Values(commands), func(a, b *command) int { return strings.Compare(a.name, b.name) })
	for _, c := range sorted {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun dtb COMMAND --help for the flags of a command.")
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
