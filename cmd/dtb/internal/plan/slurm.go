package plan

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/table"
)

// The figures of a unit's Slurm job (see Job).
const (
	// MemExtra is added to a unit's memory estimate beside a quarter
	// of it: for the estimate's error and the Go runtime.
	MemExtra = 128 << 20
	// TimeFactor multiplies a unit's estimated wall time (WallSeconds)
	// for its job's time: 6 times the time at a unit's rate
	// (retro.Rate), which gives 3 times the time at rates twice as
	// slow as those measured.
	TimeFactor = 6
	// TimeFloor is the least time of a job, in minutes.
	TimeFloor = 10
	// VerifyMinMiB is the least memory of a verify job, dtb verify's
	// floor.
	VerifyMinMiB = 64
)

// Job returns the memory in MiB and the time in minutes of the Slurm job
// of u. The memory is u's estimate plus a quarter and MemExtra, rounded
// up, but not above b.Mem (the budget the units were planned in) unless
// the estimate is; the job asks Slurm for it (--mem) and gives it to dtb
// gen (--mem) alike. The time is TimeFactor times u's estimated wall time
// on b.Threads, at least TimeFloor.
func (b *Build) Job(u retro.Unit) (mib int64, minutes int64) {
	bytes := u.Memory + u.Memory/4 + MemExtra
	if b.Mem > 0 {
		bytes = min(bytes, max(b.Mem, u.Memory))
	}
	mib = (bytes + 1<<20 - 1) >> 20
	secs := TimeFactor * WallSeconds(u, b.Threads)
	return mib, max(TimeFloor, int64(math.Ceil(secs/60)))
}

// slurmHeader is the opening of the Slurm script, with %[1]d the units,
// %[2]s the table directory, %[3]d the threads of a job.
const slurmHeader = `#!/usr/bin/env bash
# Written by dtb plan: submits %[1]d units of tables into %[2]s as Slurm jobs.
# %[2]s and the dtb binary must be on a file system that every
# node shares. Run it where sbatch works: bash FILE. Each unit is one job
# (dtb gen --unit) that starts once the jobs of the units it reads have
# succeeded (--dependency=afterok); a last job writes the manifest (dtb
# gen --manifest) after every unit.
#
# Memory: a job asks Slurm for the unit's estimate plus a quarter and
# %[4]d MiB, at most the budget the units were planned in (dtb plan
# --mem) unless the estimate is above it: --mem=NM, N MiB, and its dtb
# gen gets the same figure, --mem NMiB. --cpus-per-task and dtb gen's
# --threads are both %[3]d.
# Time: --time is %[5]d times the unit's estimated time, its positions at
# its group's rate (%.1[6]f M positions a CPU-second over all the units)
# on its threads, in minutes, at least %[7]d.
#
# Every job has --requeue: one whose node fails starts again and resumes
# from the unit's finished parts. Run the script again after a cancelled
# or failed run: it submits only the units not built. A unit is built
# when its tables are all in the directory and its work folder
# (work/UNIT) is gone; it gets no job and its dependents do not wait for
# it. The jobs' logs go to slurm-*.out here; the script prints the job
# IDs.
set -euo pipefail

dir=%[2]s
declare -A job # the job ID of each unit, empty for a unit built
jobs=()        # the job IDs submitted, in order

# submit runs sbatch with the options given and the job script on stdin,
# and prints the job ID; it fails if sbatch does.
submit() {
  local id
  id=$(sbatch --parsable --requeue "$@") || return
  echo "${id%%%%;*}"
}

# after prints the dependency option on the job IDs given, skipping empty
# ones; nothing if none is left.
after() {
  local deps='' j
  for j in "$@"; do
    if [[ -n $j ]]; then deps+=${deps:+:}$j; fi
  done
  if [[ -n $deps ]]; then echo "--dependency=afterok:$deps"; fi
}

# built UNIT FILE... succeeds if UNIT is built: its files are in $dir and
# its work folder is gone.
built() {
  local f
  [[ ! -e $dir/%[8]s/$1 ]] || return 1
  shift
  for f; do
    [[ -e $dir/$f ]] || return 1
  done
}
`

// slurm writes a bash script that submits the build as Slurm jobs, one
// a unit.
func (b *Build) slurm(s *strings.Builder) {
	fmt.Fprintf(s, slurmHeader, len(b.Units), b.Dir, b.Threads, MemExtra>>20, TimeFactor, Rate(b.Units)/1e6, TimeFloor, retro.WorkDir)
	for _, u := range b.Units {
		b.slurmUnit(s, u)
	}
	fmt.Fprintf(s, "\n# The manifest, after every unit's job; none if no unit had one and\n# the manifest is there.\n")
	fmt.Fprintf(s, "manifest= # its job ID\ndeps=$(after ${jobs[@]+\"${jobs[@]}\"})\nif [[ -z $deps && -e $dir/%s ]]; then\n  echo \"manifest: written\"\nelse\n", codec.ManifestName)
	fmt.Fprintf(s, "  manifest=$(submit --job-name=dtb-manifest $deps <<'EOF'\n#!/bin/bash\nexec %s gen --manifest --out %s\nEOF\n)\n", b.Dtb, b.Dir)
	fmt.Fprintf(s, "  echo \"manifest: job $manifest\"\nfi\n")
	if b.Verify {
		fmt.Fprintf(s, slurmVerifyHeader, b.Dir, VerifiedDir)
		for _, u := range b.Units {
			if u.Group == "" { // a part writes no table
				b.slurmVerify(s, u)
			}
		}
	}
}

// VerifiedDir is the folder of the table directory where the verify job
// of a unit (Build.Verify) leaves an empty file named after the unit once
// its tables pass dtb verify.
const VerifiedDir = retro.WorkDir + "/verified"

// slurmVerifyHeader opens the verify jobs of the Slurm script, with %[1]s
// the table directory and %[2]s VerifiedDir.
const slurmVerifyHeader = `
# The verify jobs (dtb plan --verify): one a unit, dtb verify --only its
# materials, after the manifest's job (dtb verify checks each table
# against its manifest entry). A job that passes leaves the file
# %[1]s/%[2]s/UNIT. A unit is verified, and gets no job, when
# that file is newer than the unit's tables and those of its deps, none
# of which gets a job in this run.

# verified UNIT FILE... succeeds if UNIT passed dtb verify since FILE...
# were written.
verified() {
  local mark=$dir/%[2]s/$1 f
  [[ -e $mark ]] || return 1
  shift
  for f; do
    [[ $mark -nt $dir/$f ]] || return 1
  done
}
`

// slurmVerify writes the lines of the script that submit the verify job
// of u unless u is verified. The job asks for the memory, threads and
// time of u's own job.
func (b *Build) slurmVerify(s *strings.Builder, u retro.Unit) {
	mib, minutes := b.Job(u)
	mib = max(mib, VerifyMinMiB)
	var mats, names []string
	rebuilt := "${job[" + u.ID + "]}"
	for _, m := range u.Materials {
		mats = append(mats, m.String())
		names = append(names, table.FileName(m))
	}
	for _, v := range b.Units {
		if slices.Contains(u.Deps, v.ID) {
			rebuilt += "${job[" + v.ID + "]}"
			for _, m := range v.Materials {
				names = append(names, table.FileName(m))
			}
		}
	}
	mark := b.Dir + "/" + VerifiedDir
	fmt.Fprintf(s, "\nif [[ -z %s ]] && verified %s %s; then\n  echo \"verify %s: passed\"\nelse\n", rebuilt, u.ID, strings.Join(names, " "), u.ID)
	fmt.Fprintf(s, "  id=$(submit --job-name=dtb-verify-%s --mem=%dM --cpus-per-task=%d --time=%d $(after \"$manifest\") <<'EOF'\n", u.ID, mib, b.Threads, minutes)
	fmt.Fprintf(s, "#!/bin/bash\nset -e\n%s verify --dir %s --only %s --threads %d --mem %dMiB --work %s/%s/verify/%s\n",
		b.Dtb, b.Dir, strings.Join(mats, ","), b.Threads, mib, b.Dir, retro.WorkDir, u.ID)
	fmt.Fprintf(s, "mkdir -p %s\ntouch %s/%s\nEOF\n)\n  echo \"verify %s: job $id\"\nfi\n", mark, mark, u.ID, u.ID)
}

// slurmUnit writes the lines of the script that submit the job of u
// unless u is built.
func (b *Build) slurmUnit(s *strings.Builder, u retro.Unit) {
	mib, minutes := b.Job(u)
	var names []string
	group := u // a part is built once its group is
	if i := slices.IndexFunc(b.Units, func(v retro.Unit) bool { return v.ID == u.Group }); i >= 0 {
		group = b.Units[i]
	}
	for _, m := range group.Materials {
		names = append(names, table.FileName(m))
	}
	dep := ""
	if len(u.Deps) > 0 {
		dep = " $(after"
		for _, d := range u.Deps {
			dep += fmt.Sprintf(" \"${job[%s]}\"", d)
		}
		dep += ")"
	}
	fmt.Fprintf(s, "\n# %s: %d positions, an estimate of %d MiB.\n", u.ID, u.Positions, (u.Memory+1<<20-1)>>20)
	fmt.Fprintf(s, "if built %s %s; then\n  job[%s]=\n  echo \"unit %s: built\"\nelse\n", group.ID, strings.Join(names, " "), u.ID, u.ID)
	fmt.Fprintf(s, "  job[%s]=$(submit --job-name=dtb-%s --mem=%dM --cpus-per-task=%d --time=%d%s <<'EOF'\n", u.ID, u.ID, mib, b.Threads, minutes, dep)
	fmt.Fprintf(s, "#!/bin/bash\nexec %s gen --unit %s --out %s %s%s\nEOF\n)\n", b.Dtb, u.ID, b.Dir, b.genFlags(mib<<20), splitFlag(u))
	fmt.Fprintf(s, "  jobs+=(\"${job[%s]}\")\n  echo \"unit %s: job ${job[%s]}\"\nfi\n", u.ID, u.ID, u.ID)
}
