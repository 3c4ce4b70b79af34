// Package plan writes the unit graph of a table build (retro.Units) for a
// scheduler to run: as a JSON document, a Makefile, a build.ninja or a
// Slurm submission script. Each job runs `dtb gen --unit ID` for one unit
// once the units it depends on are done, and a last one `dtb gen
// --manifest`. With Build.Verify, the Slurm script also submits a `dtb
// verify --only` job a unit, after the manifest's. The units of
// retro.Parts cut large groups into parts, GROUP.lLEVEL.IofP, that run
// on several nodes at once; a part writes no table, so its make and
// ninja target is an empty file in PartsDir.
//
//	units, err := retro.Parts(retro.Options{Pieces: 4}, 2)
//	b := plan.Build{Units: units, Dtb: "/usr/local/bin/dtb", Dir: "/data/tables", Threads: 1}
//	err = b.Write(os.Stdout, "make") // then: make -f FILE -j 8
//
// The files name the paths of the dtb binary and of the table directory
// as given, so that they work from any directory when those are absolute.
package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/table"
)

// Formats are the formats Write knows.
var Formats = []string{"json", "make", "ninja", "slurm"}

// Build is a build to write out.
type Build struct {
	Units   []retro.Unit // in build order, as retro.Units returns them
	Dtb     string       // the dtb binary the jobs run
	Dir     string       // the table directory, which every job must see
	Threads int          // threads of each job
	Jobs    int          // jobs make and ninja run at once (-j), 0 for N in the comments
	Mem     int64        // memory budget of each job in bytes (dtb gen --mem; a Slurm job's cap, see Job), 0 for dtb gen's default
	DTW     bool         // build the tables with the dtw column
	MTC     bool         // build the tables with the mtc column
	Nodes   int          // nodes of Threads cores for the JSON's simulated schedule, 0 for none
	Verify  bool         // slurm only: a dtb verify job a unit, after the manifest
}

// Write writes b in format, one of Formats. A Makefile, a build.ninja and
// a Slurm script take paths of letters, digits and /._+- only, which need
// no quoting in any of them; an error says so for other paths.
func (b *Build) Write(w io.Writer, format string) error {
	if len(b.Units) == 0 {
		return errors.New("no units")
	}
	if b.Verify && format != "slurm" {
		return fmt.Errorf("verify jobs are for the slurm format, not %s", format)
	}
	if format == "json" {
		return b.json(w)
	}
	write := map[string]func(*strings.Builder){"make": b.make, "ninja": b.ninja, "slurm": b.slurm}[format]
	if write == nil {
		return fmt.Errorf("unknown format %q: one of %s", format, strings.Join(Formats, ", "))
	}
	for _, p := range []struct{ what, path string }{{"dtb", b.Dtb}, {"table directory", b.Dir}} {
		if !safePath.MatchString(p.path) {
			return fmt.Errorf("%s path %q: the %s format takes only letters, digits and /._+-", p.what, p.path, format)
		}
	}
	var s strings.Builder
	write(&s)
	_, err := io.WriteString(w, s.String())
	return err
}

var safePath = regexp.MustCompile(`^[A-Za-z0-9/._+-]+$`)

// jsonUnit is a unit in the JSON document.
type jsonUnit struct {
	ID        string   `json:"id"`
	Deps      []string `json:"deps"`
	Group     string   `json:"group,omitempty"`     // of a part
	Assembles bool     `json:"assembles,omitempty"` // a group after its parts
	Materials []string `json:"materials"`
	Files     []string `json:"files"`
	Positions int64    `json:"positions"`
	Memory    int64    `json:"memory"`
	Wave      int      `json:"wave"`
	CPU       float64  `json:"cpu_seconds"`  // estimated (retro.Unit.CPUSeconds)
	Wall      float64  `json:"wall_seconds"` // estimated, on Threads
}

// jsonDoc is the JSON document.
type jsonDoc struct {
	Units        []jsonUnit    `json:"units"`
	Threads      int           `json:"threads"`
	Rate         float64       `json:"rate"` // positions a CPU-second over the units (Rate)
	CPUHours     float64       `json:"cpu_hours"`
	CriticalPath jsonPath      `json:"critical_path"`
	Schedule     *jsonSchedule `json:"schedule,omitempty"`
}

// jsonPath is the longest chain of estimated wall times.
type jsonPath struct {
	Units []string `json:"units"`
	Wall  float64  `json:"wall_seconds"`
}

// jsonSchedule is the simulated wall time on Nodes nodes (Simulate).
type jsonSchedule struct {
	Nodes int     `json:"nodes"`
	Cores int     `json:"cores"`
	Wall  float64 `json:"wall_seconds"`
}

// json writes the units in build order with their estimates, the
// critical path and the CPU-hours, and a schedule if b.Nodes > 0.
func (b *Build) json(w io.Writer) error {
	threads := max(b.Threads, 1)
	doc := jsonDoc{Units: []jsonUnit{}, Threads: threads, Rate: Rate(b.Units)}
	doc.CriticalPath.Units, doc.CriticalPath.Wall = CriticalPath(b.Units, threads)
	if b.Nodes > 0 {
		doc.Schedule = &jsonSchedule{Nodes: b.Nodes, Cores: threads, Wall: Simulate(b.Units, b.Nodes, threads)}
	}
	waves := b.waves()
	for _, u := range b.Units {
		doc.CPUHours += CPUSeconds(u) / 3600
		j := jsonUnit{ID: u.ID, Deps: append([]string{}, u.Deps...), Group: u.Group, Assembles: u.Assembles, Materials: []string{}, Files: []string{},
			Positions: u.Positions, Memory: u.Memory, Wave: waves[u.ID], CPU: CPUSeconds(u), Wall: WallSeconds(u, threads)}
		for _, m := range u.Materials {
			j.Materials = append(j.Materials, m.String())
			j.Files = append(j.Files, table.FileName(m))
		}
		doc.Units = append(doc.Units, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// waves returns the wave of each unit: 0 for a unit without deps, else
// one more than its deps' greatest.
func (b *Build) waves() map[string]int {
	wave := map[string]int{}
	for _, u := range b.Units {
		for _, d := range u.Deps {
			wave[u.ID] = max(wave[u.ID], wave[d]+1)
		}
	}
	return wave
}

// genFlags returns the flags of every dtb gen --unit after the unit's ID,
// with a memory budget of mem bytes (none for 0).
func (b *Build) genFlags(mem int64) string {
	f := fmt.Sprintf("--threads %d", b.Threads)
	if mem > 0 {
		f += fmt.Sprintf(" --mem %dMiB", max(mem>>20, 1))
	}
	if b.DTW {
		f += " --dtw"
	}
	if b.MTC {
		f += " --mtc"
	}
	return f
}

// splitFlag returns the --split of u's job (retro.Unit.Split), with a
// leading space; empty for none.
func splitFlag(u retro.Unit) string {
	if u.Split == 0 {
		return ""
	}
	return fmt.Sprintf(" --split %d", u.Split)
}

// PartsDir is the folder of the table directory where the make and
// ninja jobs of a part (retro.Parts) leave an empty file named after the
// part once it is done: a part writes no table to stand for it.
const PartsDir = retro.WorkDir + "/parts"

// files returns the table files of u, each prefixed with dir; for a
// part, its file in PartsDir.
func files(dir string, u retro.Unit) []string {
	if u.Group != "" {
		return []string{dir + "/" + PartsDir + "/" + u.ID}
	}
	var out []string
	for _, m := range u.Materials {
		out = append(out, dir+"/"+table.FileName(m))
	}
	return out
}

// depFiles returns the table files of the deps of u, each prefixed with
// dir.
func (b *Build) depFiles(dir string, u retro.Unit) []string {
	var out []string
	for _, v := range b.Units {
		for _, d := range u.Deps {
			if v.ID == d {
				out = append(out, files(dir, v)...)
			}
		}
	}
	return out
}

// allFiles returns every table file of the build, each prefixed with dir.
func (b *Build) allFiles(dir string) []string {
	var out []string
	for _, u := range b.Units {
		out = append(out, files(dir, u)...)
	}
	return out
}

// header writes the comment that opens a Makefile or build.ninja, whose
// tool runs as tool -f FILE -j JOBS.
func (b *Build) header(s *strings.Builder, tool string) {
	run := tool + " -f FILE -j N"
	if b.Jobs > 0 {
		run = fmt.Sprintf("%s -f FILE -j %d", tool, b.Jobs)
	}
	fmt.Fprintf(s, "# Written by dtb plan: %d units of tables into %s.\n", len(b.Units), b.Dir)
	fmt.Fprintf(s, "#   %-28s every table, then the manifest\n", run)
	fmt.Fprintf(s, "#   %-28s one unit and those it needs\n", run+" "+b.Units[len(b.Units)-1].ID)
	fmt.Fprintf(s, "# Each unit's tables are built from those of its deps by dtb gen --unit;\n")
	fmt.Fprintf(s, "# dtb gen --manifest lists the valid tables at the end.\n")
}

// make writes a Makefile for GNU make 4.3 or later (grouped targets).
func (b *Build) make(s *strings.Builder) {
	b.header(s, "make")
	fmt.Fprintf(s, "# Needs GNU make 4.3 or later (grouped targets, &:).\n\n")
	fmt.Fprintf(s, "DTB := %s\nDIR := %s\nGEN := $(DTB) gen --out $(DIR) %s\n\n", b.Dtb, b.Dir, b.genFlags(b.Mem))
	fmt.Fprintf(s, ".PHONY: manifest")
	for _, u := range b.Units {
		fmt.Fprintf(s, " %s", u.ID)
	}
	fmt.Fprintf(s, "\n\nmanifest: $(DIR)/MANIFEST.json\n\n$(DIR)/MANIFEST.json:%s\n", continued(b.allFiles("$(DIR)")))
	fmt.Fprintf(s, "\t$(DTB) gen --manifest --out $(DIR)\n")
	for _, u := range b.Units {
		out := strings.Join(files("$(DIR)", u), " ")
		fmt.Fprintf(s, "\n%s: %s\n%s &:%s\n\t$(GEN) --unit %s%s\n", u.ID, out, out, continued(b.depFiles("$(DIR)", u)), u.ID, splitFlag(u))
		if u.Group != "" {
			fmt.Fprintf(s, "\tmkdir -p $(DIR)/%s && touch $@\n", PartsDir)
		}
	}
}

// continued returns the words of a long list, each on its own line after
// a backslash.
func continued(words []string) string {
	var s strings.Builder
	for _, w := range words {
		s.WriteString(" \\\n    " + w)
	}
	return s.String()
}

// ninja writes a build.ninja.
func (b *Build) ninja(s *strings.Builder) {
	b.header(s, "ninja")
	fmt.Fprintf(s, "\n")
	fmt.Fprintf(s, "dtb = %s\ndir = %s\n\n", b.Dtb, b.Dir)
	fmt.Fprintf(s, "rule unit\n  command = $dtb gen --unit $id$split --out $dir %s\n  description = unit $id\n\n", b.genFlags(b.Mem))
	fmt.Fprintf(s, "rule part\n  command = $dtb gen --unit $id$split --out $dir %s && mkdir -p $dir/%s && touch $out\n  description = part $id\n\n", b.genFlags(b.Mem), PartsDir)
	fmt.Fprintf(s, "rule manifest\n  command = $dtb gen --manifest --out $dir\n  description = manifest\n\n")
	for _, u := range b.Units {
		out := strings.Join(files("$dir", u), " ")
		rule := "unit"
		if u.Group != "" {
			rule = "part"
		}
		fmt.Fprintf(s, "build %s: %s%s\n  id = %s\n", out, rule, implicit(b.depFiles("$dir", u)), u.ID)
		if u.Split > 0 {
			fmt.Fprintf(s, "  split =%s\n", splitFlag(u))
		}
		fmt.Fprintf(s, "build %s: phony %s\n\n", u.ID, out)
	}
	fmt.Fprintf(s, "build $dir/MANIFEST.json: manifest%s\nbuild manifest: phony $dir/MANIFEST.json\ndefault manifest\n", implicit(b.allFiles("$dir")))
}

// implicit returns the implicit inputs of a ninja build line: " |" and
// the words, each on its own line after a $; nothing for no words.
func implicit(words []string) string {
	if len(words) == 0 {
		return ""
	}
	return " |" + strings.ReplaceAll(continued(words), `\`, "$")
}
