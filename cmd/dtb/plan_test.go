package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/sums"
	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testcache"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/retro"
)

// binary is the dtb command built once, for the tests that run it as a
// scheduler would, with the reference builds it made (see reference).
var binary struct {
	once sync.Once
	dir  string
	path string
	err  error
	refs map[int]string // by pieces
}

// dtbBinary returns the path of the dtb binary.
func dtbBinary(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		if binary.dir, binary.err = os.MkdirTemp("", "dtb-bin"); binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "dtb")
		out, err := exec.Command("go", "build", "-o", binary.path, ".").CombinedOutput()
		if err != nil {
			binary.err = fmt.Errorf("go build: %v: %s", err, out)
		}
		binary.refs = map[int]string{}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

// reference returns the directory of the tables up to n pieces built by
// dtb gen, once: for 3 pieces the golden tables, which retro's TestGolden
// checks a build reproduces.
func reference(t *testing.T, n int) string {
	t.Helper()
	if n == 3 {
		return tabletest.Golden
	}
	bin := dtbBinary(t)
	if dir, ok := binary.refs[n]; ok {
		return dir
	}
	dir := filepath.Join(binary.dir, fmt.Sprint("ref", n))
	runTool(t, "", bin, "gen", "--pieces", fmt.Sprint(n), "--threads", "2", "--out", dir)
	binary.refs[n] = dir
	return dir
}

// runTool runs name with args in dir and fails the test if it fails; it
// returns the output.
func runTool(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// writePlan writes the plan of the tables up to n pieces into work/tables
// in format as the file work/name and returns the table directory.
func writePlan(t *testing.T, work string, n int, format, name string) string {
	t.Helper()
	tables := filepath.Join(work, "tables")
	out := runTool(t, "", dtbBinary(t), "plan", "--pieces", fmt.Sprint(n), "--out", tables, "--format", format)
	if err := os.WriteFile(filepath.Join(work, name), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return tables
}

// schedulerPieces is the size of the builds that make and ninja run: 3
// pieces, 4 (every kind of unit dependency) under DTB_LONG=1.
func schedulerPieces() int {
	if testenv.Long() {
		return 4
	}
	return 3
}

func TestPlanMake(t *testing.T) {
	gmake := testenv.Tool(t, "make", "make")
	work := t.TempDir()
	n := schedulerPieces()
	tables := writePlan(t, work, n, "make", "Makefile")
	runTool(t, work, gmake, "-f", "Makefile", "-j2")
	checkSame(t, "make -j2", tables, reference(t, n))
	runTool(t, work, gmake, "-q", "-f", "Makefile") // everything up to date
}

func TestPlanNinja(t *testing.T) {
	ninja := testenv.Tool(t, "ninja", "ninja-build")
	work := t.TempDir()
	n := schedulerPieces()
	tables := writePlan(t, work, n, "ninja", "build.ninja")
	runTool(t, work, ninja, "-j2")
	checkSame(t, "ninja -j2", tables, reference(t, n))
	if out := runTool(t, work, ninja, "-n"); !strings.Contains(out, "no work to do") {
		t.Errorf("ninja after the build: %s", out)
	}
}

// TestPlanParts runs the plan of KKvKM with --nodes 2 under the default
// budget: KKvKM, the largest group, gets --split 2, two solver units a
// level, so that the level's two parts run at once: make -j2 builds
// the tables of the published sums, and then has nothing left to do.
// The tables KKvKM reads are built first by dtb gen, without a budget,
// so that make builds the parts alone. ninja -n takes the same plan.
func TestPlanParts(t *testing.T) {
	testenv.SkipUnlessLong(t, "dtb gen of KKvKM's deps, then make -j2 of the 19 jobs of KKvKM: 13 s (retro's TestParts builds the parts in process)")
	gmake := testenv.Tool(t, "make", "make")
	work := t.TempDir()
	tables := filepath.Join(work, "tables")
	if _, stderr, code := dtb("gen", "--only", "KKvKM", "--out", tables); code != 0 {
		t.Fatalf("gen: status %d, %s", code, stderr)
	}
	for _, name := range []string{"KKvKM.dtb", "KKvKM.dtbd", "KMvKK.dtb", "KMvKK.dtbd", codec.ManifestName} {
		if err := os.Remove(filepath.Join(tables, name)); err != nil {
			t.Fatal(err)
		}
	}
	plan := func(format string) string {
		return runTool(t, "", dtbBinary(t), "plan", "--only", "KKvKM", "--nodes", "2", "--out", tables, "--format", format)
	}
	makefile := plan("make")
	if !strings.Contains(makefile, "--unit KKvKM.l8.2of2 --split 2\n") {
		t.Fatalf("no part KKvKM.l8.2of2 in the Makefile:\n%s", makefile)
	}
	if err := os.WriteFile(filepath.Join(work, "Makefile"), []byte(makefile), 0o644); err != nil {
		t.Fatal(err)
	}
	runTool(t, work, gmake, "-f", "Makefile", "-j2")
	hex := map[string]string{}
	for _, s := range publishedSums(t) {
		hex[s.Name] = s.Hex
	}
	got, err := sums.Of(tables)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		if s.Name != "MANIFEST.json" && s.Hex != hex[s.Name] {
			t.Errorf("%s differs from the published sums", s.Name)
		}
	}
	if len(got) != 25 { // 12 tables and their distance files, the manifest
		t.Errorf("%d files, want 25", len(got))
	}
	runTool(t, work, gmake, "-q", "-f", "Makefile")
	if ninja, err := exec.LookPath("ninja"); err == nil {
		if err := os.WriteFile(filepath.Join(work, "build.ninja"), []byte(plan("ninja")), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := runTool(t, work, ninja, "-n"); !strings.Contains(out, "part KKvKM.l8.2of2") {
			t.Errorf("ninja -n of the plan: no part KKvKM.l8.2of2 in %s", out)
		}
	}
}

// fakeSbatch stands in for Slurm's sbatch: it records its arguments and
// the job script it reads on stdin in its directory (jobN.args, one a
// line, and jobN.sh), checks that the jobs of a dependency are done, runs
// the script at once and prints the job ID with a cluster name as sbatch
// --parsable does.
const fakeSbatch = `#!/usr/bin/env bash
set -euo pipefail
state=$(dirname "$0")
id=$(($(cat "$state/last-job" 2>/dev/null || echo 0) + 1))
for a in "$@"; do
  case $a in
  --dependency=*)
    IFS=: read -ra deps <<<"${a#--dependency=afterok:}"
    for d in "${deps[@]}"; do
      [[ -e $state/job$d.ok ]] || { echo "sbatch: $a: job $d is not done" >&2; exit 1; }
    done ;;
  esac
done
printf '%s\n' "$@" >"$state/job$id.args"
cat >"$state/job$id.sh"
bash "$state/job$id.sh" >/dev/null
touch "$state/job$id.ok"
echo "$id" >"$state/last-job"
echo "$id;cluster"
`

// slurmJob is a job that fakeSbatch recorded.
type slurmJob struct {
	id     string
	args   []string
	script string
}

// submitSlurm runs the script work/submit.sh with fakeSbatch in a new
// directory and returns the jobs it submitted by job name.
func submitSlurm(t *testing.T, work string) map[string]slurmJob {
	t.Helper()
	bin, err := os.MkdirTemp(work, "bin")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fakeSbatch), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "submit.sh")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash submit.sh: %v: %s", err, out)
	}
	jobs := map[string]slurmJob{}
	for i := 1; ; i++ {
		args, err := os.ReadFile(filepath.Join(bin, fmt.Sprintf("job%d.args", i)))
		if err != nil {
			break
		}
		script, _ := os.ReadFile(filepath.Join(bin, fmt.Sprintf("job%d.sh", i)))
		j := slurmJob{id: strconv.Itoa(i), args: strings.Fields(string(args)), script: string(script)}
		name := ""
		for _, a := range j.args {
			if n, ok := strings.CutPrefix(a, "--job-name=dtb-"); ok {
				name = n
			}
		}
		jobs[name] = j
	}
	return jobs
}

// option returns the value of the option --name= in args, and whether
// there is one.
func option(args []string, name string) (string, bool) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// planUnit is a unit of dtb plan --format json.
type planUnit struct {
	ID   string
	Deps []string
}

// checkSlurmJobs checks that jobs, by name, are those of the units want
// (in build order in units) and the manifest: each after the jobs of its
// deps among them, the manifest after them all, each requeued, each
// unit's dtb gen with the memory and threads its job asks Slurm for.
func checkSlurmJobs(t *testing.T, run string, units []planUnit, jobs map[string]slurmJob, want ...string) {
	t.Helper()
	if len(jobs) != len(want)+1 {
		t.Errorf("%s: %d jobs, want %d (%s and the manifest)", run, len(jobs), len(want)+1, strings.Join(want, ", "))
	}
	var all []string
	for _, u := range units {
		j, ok := jobs[u.ID]
		if !slices.Contains(want, u.ID) {
			if ok {
				t.Errorf("%s: a job for unit %s, which is built", run, u.ID)
			}
			continue
		}
		all = append(all, j.id)
		var deps []string
		for _, d := range u.Deps {
			if dj, ok := jobs[d]; ok {
				deps = append(deps, dj.id)
			}
		}
		checkSlurmJob(t, run+": unit "+u.ID, j, deps)
		mem, _ := option(j.args, "mem")
		cpus, _ := option(j.args, "cpus-per-task")
		gen := fmt.Sprintf(" gen --unit %s --out ", u.ID)
		if !strings.HasSuffix(mem, "M") || !strings.Contains(j.script, gen) || !strings.HasSuffix(j.script, fmt.Sprintf(" --threads %s --mem %siB\n", cpus, mem)) {
			t.Errorf("%s: unit %s: --mem=%s, --cpus-per-task=%s, script %q: want dtb gen --unit with the same --mem and --threads", run, u.ID, mem, cpus, j.script)
		}
		if m, _ := option(j.args, "time"); m == "" {
			t.Errorf("%s: unit %s: no --time", run, u.ID)
		}
	}
	checkSlurmJob(t, run+": the manifest", jobs["manifest"], all)
}

// checkSlurmJob checks that j is requeued and depends on exactly the jobs
// deps.
func checkSlurmJob(t *testing.T, what string, j slurmJob, deps []string) {
	t.Helper()
	dep, ok := option(j.args, "dependency")
	if want := "afterok:" + strings.Join(deps, ":"); ok != (len(deps) > 0) || ok && dep != want {
		t.Errorf("%s: --dependency=%s, want %s", what, dep, want)
	}
	if !slices.Contains(j.args, "--requeue") {
		t.Errorf("%s: no --requeue in %q", what, j.args)
	}
}

// TestPlanSlurm runs the Slurm script with a stand-in for sbatch, then
// again after some units are undone, then again with all built.
func TestPlanSlurm(t *testing.T) {
	work := t.TempDir()
	tables := writePlan(t, work, 3, "slurm", "submit.sh")
	var doc struct{ Units []planUnit }
	if err := json.Unmarshal([]byte(runTool(t, "", dtbBinary(t), "plan", "--pieces", "3", "--format", "json")), &doc); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range doc.Units {
		ids = append(ids, u.ID)
	}
	checkSlurmJobs(t, "the first run", doc.Units, submitSlurm(t, work), ids...)
	checkSame(t, "the Slurm script", tables, reference(t, 3))

	// As a cancelled run leaves them: KvM and MMvM without a table,
	// KvMM with its work folder.
	for _, f := range []string{"MvK.dtb", "MMvM.dtb", "MANIFEST.json"} {
		if err := os.Remove(filepath.Join(tables, f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(tables, "work", "KvMM"), 0o755); err != nil {
		t.Fatal(err)
	}
	checkSlurmJobs(t, "the rerun", doc.Units, submitSlurm(t, work), "KvM", "KvMM", "MMvM")
	checkSame(t, "the Slurm script rerun", tables, reference(t, 3))

	if jobs := submitSlurm(t, work); len(jobs) != 0 {
		t.Errorf("a run with every unit built: %d jobs, want none", len(jobs))
	}
}

// TestPlanSlurmVerify runs the Slurm script of dtb plan --verify with a
// stand-in for sbatch: a verify job a unit after the manifest's, each
// checking the unit's materials and leaving its mark; then a rerun after
// KvMM.dtb is lost rebuilds unit KvMM and verifies it and the units that
// read it, and none else; a damaged table fails its verify job, which leaves
// no mark.
func TestPlanSlurmVerify(t *testing.T) {
	work := t.TempDir()
	tables := filepath.Join(work, "tables")
	script := runTool(t, "", dtbBinary(t), "plan", "--pieces", "3", "--out", tables, "--format", "slurm", "--verify")
	if err := os.WriteFile(filepath.Join(work, "submit.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Units []struct {
			ID        string
			Deps      []string
			Materials []string
		}
	}
	if err := json.Unmarshal([]byte(runTool(t, "", dtbBinary(t), "plan", "--pieces", "3", "--format", "json")), &doc); err != nil {
		t.Fatal(err)
	}
	// checkVerify checks that jobs holds the verify jobs of exactly the
	// units want, after the manifest's job if there is one, each with the memory of its
	// unit's job, and that every unit has its mark.
	checkVerify := func(run string, jobs map[string]slurmJob, want ...string) {
		t.Helper()
		for _, u := range doc.Units {
			j, ok := jobs["verify-"+u.ID]
			if ok != slices.Contains(want, u.ID) {
				t.Errorf("%s: verify job of unit %s: %v, want %v", run, u.ID, ok, !ok)
				continue
			}
			if ok {
				var after []string // the manifest's job, if there is one
				if m, ok := jobs["manifest"]; ok {
					after = append(after, m.id)
				}
				checkSlurmJob(t, run+": verify "+u.ID, j, after)
				mem, _ := option(j.args, "mem")
				only := fmt.Sprintf(" verify --dir %s --only %s --threads 1 --mem %siB ", tables, strings.Join(u.Materials, ","), mem)
				if !strings.Contains(j.script, only) {
					t.Errorf("%s: verify %s: script %q, want %q", run, u.ID, j.script, only)
				}
			}
			if _, err := os.Stat(filepath.Join(tables, "work", "verified", u.ID)); err != nil {
				t.Errorf("%s: unit %s not marked verified: %v", run, u.ID, err)
			}
		}
	}
	var ids []string
	for _, u := range doc.Units {
		ids = append(ids, u.ID)
	}
	checkVerify("the first run", submitSlurm(t, work), ids...)
	if jobs := submitSlurm(t, work); len(jobs) != 0 {
		t.Errorf("a rerun with every unit built and verified: %d jobs, want none", len(jobs))
	}

	if err := os.Remove(filepath.Join(tables, "KvMM.dtb")); err != nil {
		t.Fatal(err)
	}
	want := []string{"KvMM"}
	for _, u := range doc.Units {
		if slices.Contains(u.Deps, "KvMM") {
			want = append(want, u.ID)
		}
	}
	if len(want) < 2 {
		t.Fatalf("no unit reads KvMM: %v", doc.Units)
	}
	jobs := submitSlurm(t, work)
	checkVerify("the rerun without KvMM.dtb", jobs, want...)
	if _, ok := jobs["KvMM"]; !ok || len(jobs) != 2+len(want) {
		t.Errorf("the rerun without KvMM.dtb: %d jobs, want unit KvMM, the manifest and %d verify jobs", len(jobs), len(want))
	}

	// A flipped bit in KvMM's table: its manifest entry no longer fits,
	// so its verify job fails and leaves no mark.
	b, err := os.ReadFile(filepath.Join(tables, "KvMM.dtb"))
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	if err := os.WriteFile(filepath.Join(tables, "KvMM.dtb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "submit.sh")
	cmd.Dir = work
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fakeSbatch), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "1 damaged") {
		t.Errorf("the run with KvMM.dtb damaged: %v, want its verify job to fail: %s", err, out)
	}
	// Mended, KvMM.dtb is newer than the mark its verify job left
	// before: the next run verifies KvMM again, and MMvM, which reads it.
	b[len(b)-1] ^= 1
	if err := os.WriteFile(filepath.Join(tables, "KvMM.dtb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	checkVerify("the run after KvMM.dtb is mended", submitSlurm(t, work), want...)
}

func TestPlanBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"plan", "--pieces", "1"},
		{"plan", "--pieces", "8"},
		{"plan", "--only", "KXvK"},
		{"plan", "--only", "KKKKvKKKK"},
		{"plan", "--threads", "0"},
		{"plan", "--mem", "lots"},
		{"plan", "--format", "xml"},
		{"plan", "--format", "make", "--out", "my tables"},
		{"plan", "--format", "slurm", "--dtb", "/a b/dtb"},
		{"plan", "--format", "ninja", "--out", "a:b"},
		{"plan", "--format", "make", "--verify"},
		{"plan", "extra"},
		{"gen", "--unit", "KvKK"},
		{"gen", "--unit", "KKKKvKKKK"},
		{"gen", "--unit", "KvK", "--only", "KvK"},
		{"gen", "--unit", "KvK", "--pieces", "3"},
		{"gen", "--unit", "KvK", "--manifest"},
	} {
		if args[0] == "gen" {
			args = append(args, "--out", filepath.Join(t.TempDir(), "x"))
		}
		out, errOut, code := dtb(args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	dir := t.TempDir()
	_, errOut, code := dtb("gen", "--unit", "KKMvK", "--out", dir)
	if want := "dtb gen: unit KKMvK needs KvK.dtb in " + dir + ": build unit KvK first\n"; code != 1 || errOut != want {
		t.Errorf("gen --unit KKMvK into an empty directory: status %d, stderr %q, want %q", code, errOut, want)
	}
}

// TestPlanSevenPieces checks that the plan of the largest build is quick
// to make (no index is built), and that every job keeps to the budget:
// one a unit, each asking Slurm for the memory its dtb gen gets.
func TestPlanSevenPieces(t *testing.T) {
	out, errOut, code := dtb("plan", "--pieces", "7", "--mem", "128GiB", "--format", "slurm", "--dtb", "/opt/dtb")
	if code != 0 || strings.Count(out, "\n  job[") != 2*134 || !strings.Contains(out, "\nif built MMMMvMMM MMMMvMMM.dtb MMMvMMMM.dtb; then\n") {
		t.Errorf("plan --pieces 7: status %d, stderr %q, stdout %.200q", code, errOut, out)
	}
	jobs := regexp.MustCompile(`--mem=(\d+)M .*\n#!/bin/bash\nexec .* --mem (\d+)MiB\n`).FindAllStringSubmatch(out, -1)
	if len(jobs) != 134 {
		t.Errorf("plan --pieces 7: %d unit jobs with a --mem, want 134", len(jobs))
	}
	for _, m := range jobs {
		if mib, _ := strconv.Atoi(m[1]); m[1] != m[2] || mib > 131072 {
			t.Errorf("plan --pieces 7 --mem 128GiB: a job asks Slurm for %s MiB and gives dtb gen --mem %sMiB", m[1], m[2])
		}
	}
}

// TestBudgetTooSmall checks that gen and plan refuse a budget that a
// group of kings only, one unit, does not fit in, and that the estimates
// give what the group needs rather than the budget.
func TestBudgetTooSmall(t *testing.T) {
	const need = "KKKKKvKK needs about 2.5 GiB (one unit: a group of kings only cannot be split)"
	for _, cmd := range []string{"gen", "plan"} {
		dir := filepath.Join(t.TempDir(), "tables")
		out, errOut, code := dtb(cmd, "--only", "KKvKKKKK", "--mem", "2GiB", "--out", dir)
		if want := "dtb " + cmd + ": --mem 2GiB: " + need + "\n"; code != 2 || out != "" || errOut != want {
			t.Errorf("%s --mem 2GiB: status %d, stdout %.100q, stderr %q; want %q", cmd, code, out, errOut, want)
		}
	}
	_, errOut, code := dtb("plan", "--only", "KKKKKvKK", "--mem", "8GiB", "--jobs", "4")
	if want := "dtb plan: --mem 8GiB over --jobs 4 (2.0 GiB a job): " + need + "\n"; code != 2 || errOut != want {
		t.Errorf("plan --jobs 4: status %d, stderr %q; want %q", code, errOut, want)
	}
	// Taken with DTB_MEM_UNCHECKED=1, the unit's memory is still the need.
	for _, mem := range []string{"2GiB", "64GiB"} {
		var out, errOut bytes.Buffer
		code := run([]string{"plan", "--only", "KKKKKvKK", "--mem", mem}, &env{stdout: &out, stderr: &errOut, uncheckedMem: mem == "2GiB"})
		var doc struct{ Units []struct{ Memory int64 } }
		err := json.Unmarshal(out.Bytes(), &doc)
		if last := len(doc.Units) - 1; code != 0 || err != nil || doc.Units[last].Memory < 2<<30 {
			t.Errorf("plan --mem %s: status %d, stderr %q, %v; want KKKKKvKK's 2.5 GiB", mem, code, errOut.String(), err)
		}
	}
	// Within a quarter over the budget, a warning: KKKKvKK's one unit
	// would take the store's share too.
	out, errOut, code := dtb("plan", "--only", "KKKKvKK", "--mem", "256MiB")
	if want := "dtb plan: warning: --mem 256MiB: KKKKvKK needs about 292 MiB (one unit: a group of kings only cannot be split); the build may go over the budget\n"; code != 0 || out == "" || errOut != want {
		t.Errorf("plan --only KKKKvKK --mem 256MiB: status %d, stderr %q; want %q", code, errOut, want)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	_, errOut, code = dtb("gen", "--only", "KKKKvKKK", "--mem", "64GiB", "--threads", "1", "--out", file)
	if code != 1 || !strings.HasPrefix(errOut, "dtb gen: warning: a big build: 15 tables of 7853350050 positions, about 4.2 GiB of memory") {
		t.Errorf("gen --mem 64GiB: status %d, stderr %q; want the warning of a 4.2 GiB build", code, errOut)
	}
}

func TestPlanJobs(t *testing.T) {
	for format, want := range map[string][]string{
		"make":  {"make -f FILE -j 4 ", "GEN := $(DTB) gen --out $(DIR) --threads 1 --mem 2048MiB\n"},
		"ninja": {"ninja -f FILE -j 4 ", "--threads 1 --mem 2048MiB\n"},
	} {
		out, errOut, code := dtb("plan", "--pieces", "3", "--jobs", "4", "--mem", "8GiB", "--format", format, "--dtb", "/opt/dtb", "--out", "/t")
		for _, w := range want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("plan --jobs 4 --mem 8GiB --format %s: status %d, stderr %q, stdout lacks %q", format, code, errOut, w)
			}
		}
	}
}

// TestTwoGensOneDirectory starts two dtb gen on one directory: the second
// exits at once with status 1, naming the first, and the first finishes
// with the tables of a lone build.
func TestTwoGensOneDirectory(t *testing.T) {
	bin := dtbBinary(t)
	n := schedulerPieces()
	dir := filepath.Join(t.TempDir(), "tables")
	first := exec.Command(bin, "gen", "--pieces", fmt.Sprint(n), "--threads", "1", "--out", dir)
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	// The first holds the lock once the directory has its first table.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "KvK.dtb")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatalf("no KvK.dtb after a minute: %s", firstOut.String())
		}
	}
	second := exec.Command(bin, "gen", "--pieces", fmt.Sprint(n), "--out", dir)
	out, err := second.CombinedOutput()
	code := second.ProcessState.ExitCode()
	if err := first.Wait(); err != nil {
		t.Fatalf("the first gen: %v: %s", err, firstOut.String())
	}
	want := fmt.Sprintf("dtb gen: another dtb gen (pid %d) is building %s\n", first.Process.Pid, dir)
	if _, serr := os.Stat("/proc/locks"); serr != nil {
		want = "dtb gen: another dtb gen is building " + dir + "\n"
	}
	if code != 1 || !strings.HasSuffix(string(out), want) {
		t.Errorf("the second gen: status %d (%v), output %q; want 1 and %q", code, err, out, want)
	}
	checkSame(t, "dtb gen beside a second one", dir, reference(t, n))
}

// pieces4Sums is the file of the published sums of the default build.
var pieces4Sums = filepath.Join(filepath.Dir(tabletest.Golden), "checksums", "pieces4.sha256")

// publishedSums returns the sums of pieces4Sums.
func publishedSums(t *testing.T) []sums.Sum {
	t.Helper()
	f, err := os.Open(pieces4Sums)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := sums.Parse(f, pieces4Sums)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestPublishedSums takes the default tables (up to 3 pieces, which are
// testdata/golden; 4, the whole default build, under DTB_LONG=1) and
// checks them with dtb verify
// --sums against testdata/checksums/pieces4.sha256, restricted to the
// tables built; then a table changed is found.
func TestPublishedSums(t *testing.T) {
	n := schedulerPieces()
	dir := tabletest.Copy(t, reference(t, n))
	list := pieces4Sums
	if n < 4 { // the tables built, without the manifest, which lists only them
		var built []sums.Sum
		for _, s := range publishedSums(t) {
			name, _, _ := strings.Cut(s.Name, ".")
			if m, err := index.ParseMaterial(name); err == nil && m.Pieces() <= n {
				built = append(built, s)
			}
		}
		var b bytes.Buffer
		sums.Write(&b, built)
		list = filepath.Join(t.TempDir(), "sums")
		if err := os.WriteFile(list, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := dtb("verify", "--dir", dir, "--sums", list)
	if code != 0 || !strings.Contains(out, " 0 missing, 0 differ\n") {
		t.Fatalf("verify --sums of the default build: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "KvK.dtb"))
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	if err := os.WriteFile(filepath.Join(dir, "KvK.dtb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := dtb("verify", "--dir", dir, "--sums", list); code != 1 || !strings.Contains(errOut, ": 1 differ (KvK.dtb; dtb verify --dir ") {
		t.Errorf("verify --sums of a changed KvK: status %d, stderr %q", code, errOut)
	}
}

// TestPublishedList checks the lists dtb gen names after a build: each
// is a file of the repository, and a build none lists gets none.
func TestPublishedList(t *testing.T) {
	kkmvk := index.Material{WhiteKings: 2, WhiteMen: 1, BlackKings: 1}
	for _, c := range []struct {
		o    retro.Options
		want string
	}{
		{retro.Options{Pieces: 4}, "pieces4.sha256"},
		{retro.Options{Pieces: 4, DTW: true, Threads: 1, Split: 3}, "pieces4.sha256"},
		{retro.Options{Pieces: 4, MTC: true}, ""},
		{retro.Options{Pieces: 5}, "pieces5.sha256"},
		{retro.Options{Pieces: 5, DTW: true}, ""},
		{retro.Options{Pieces: 5, DTW: true, MTC: true}, "pieces5-dtw-mtc.sha256"},
		{retro.Options{Pieces: 3}, ""},
		{retro.Options{Only: &kkmvk}, ""},
	} {
		got := publishedList(c.o)
		if c.want == "" {
			if got != "" {
				t.Errorf("%+v: %q, want none", c.o, got)
			}
			continue
		}
		if got != "testdata/checksums/"+c.want {
			t.Errorf("%+v: %q, want testdata/checksums/%s", c.o, got, c.want)
		}
		if _, err := os.Stat(filepath.Join(testcache.ModuleRoot(), got)); err != nil {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
}

// TestPublishedSumsFive checks the default build up to 5 pieces (as
// dtb gen --pieces 5 writes it) against testdata/checksums/pieces5.sha256
// with dtb verify --sums; under DTB_LONG=1 only (about 850 CPU-seconds,
// shared with the other tests of that set).
func TestPublishedSumsFive(t *testing.T) {
	testenv.SkipUnlessLong(t, "the default 5-piece build")
	list := filepath.Join(testcache.ModuleRoot(), publishedList(retro.Options{Pieces: 5}))
	out, errOut, code := dtb("verify", "--dir", tabletest.Five.Dir(t), "--sums", list)
	if code != 0 || !strings.Contains(out, " 0 missing, 0 differ\n") {
		t.Fatalf("verify --sums of the 5-piece build: status %d, stdout %q, stderr %q", code, out, errOut)
	}
}
