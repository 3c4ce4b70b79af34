#!/usr/bin/env bash
# Runs the Slurm script of dtb plan on a one-node Slurm cluster on this
# machine and compares the tables it builds, byte for byte, with those of
# dtb gen; prints PASS or FAIL. For Debian, as root, from the repository:
#
#   scripts/slurm-localhost.sh [PIECES]        (default 3)
#
# It installs slurm-wlm and munge from Debian's packages if missing,
# writes a minimal slurm.conf for the node localhost into a temporary work
# directory (nothing under /etc changes: SLURM_CONF points there), starts
# munged, slurmctld and slurmd, submits the plan (one job a unit) and
# waits for its jobs, then removes one table and checks that a rerun of
# the script submits only that unit and the manifest, and stops the
# daemons it started at the end. The work directory is kept
# after a FAIL, with the daemons' logs and the jobs' slurm-*.out. CI does
# not run it.
set -euo pipefail

pieces=${1:-3}
if [[ $(id -u) != 0 || ! $pieces =~ ^[2-5]$ ]]; then
	echo "usage: scripts/slurm-localhost.sh [PIECES 2..5], as root" >&2
	exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/dtb-slurm.XXXXXX)
export SLURM_CONF=$work/slurm.conf

log() { echo "slurm-localhost: $*"; }

# finish ends the daemons this script started, by the IDs in their pid
# files, and removes the work directory after a PASS.
passed=false
finish() {
	for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munged.pid"; do
		if [[ -s $pidfile ]]; then
			pid=$(cat "$pidfile")
			kill "$pid" 2>/dev/null || continue
			for ((i = 0; i < 20; i++)); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.5
			done
		fi
	done
	if $passed; then
		rm -rf "$work"
	fi
}
trap finish EXIT

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	log "installing slurm-wlm and munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null; }
fi

log "building dtb into $work"
(cd "$repo" && go build -o "$work/dtb" ./cmd/dtb)

cpus=$(nproc)
memory=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024)) # MiB
mkdir -p "$work/spool/slurmd" "$work/spool/slurmctld"
cat >"$SLURM_CONF" <<EOF
ClusterName=dtb
SlurmctldHost=localhost
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/spool/slurmctld
SlurmdSpoolDir=$work/spool/slurmd
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerParameters=kill_invalid_depend
ReturnToService=2
MpiDefault=none
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=dtb Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

log "starting munged, slurmctld and slurmd ($cpus CPUs, $memory MiB)"
if [[ ! -s /etc/munge/munge.key ]]; then
	mungekey --create --keyfile /etc/munge/munge.key
	chown munge:munge /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then # no munged running yet
	mkdir -p /run/munge && chown munge:munge /run/munge
	runuser -u munge -- munged --pid-file=/run/munge/dtb-munged.pid
	cp /run/munge/dtb-munged.pid "$work/munged.pid"
	munge -n | unmunge >/dev/null
fi
slurmctld
slurmd
for ((i = 0; ; i++)); do
	state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
	[[ $state == idle ]] && break
	if ((i == 60)); then
		log "FAIL: the node is not idle after 60 s (state '$state'); see $work/*.log"
		exit 1
	fi
	sleep 1
done

# wait_jobs waits until the queue is empty.
wait_jobs() {
	local start=$SECONDS
	while [[ -n $(squeue -h -o %i) ]]; do
		if ((SECONDS - start > 1800)); then
			log "FAIL: jobs still queued after 30 minutes"
			squeue
			exit 1
		fi
		sleep 2
	done
	log "the jobs are done in $((SECONDS - start)) s"
}

log "submitting dtb plan --pieces $pieces --format slurm"
"$work/dtb" plan --pieces "$pieces" --out "$work/tables" --format slurm --dtb "$work/dtb" >"$work/submit.sh"
(cd "$work" && bash submit.sh)
wait_jobs
log "building the reference with dtb gen"
"$work/dtb" gen --pieces "$pieces" --out "$work/ref" >/dev/null
if ! diff -r "$work/ref" "$work/tables"; then
	log "FAIL: the tables differ from dtb gen's; see $work"
	exit 1
fi

# A rerun after MvM.dtb is lost submits the unit MvM and the manifest.
log "rerunning the script without MvM.dtb"
rm "$work/tables/MvM.dtb"
out=$(cd "$work" && bash submit.sh)
echo "$out"
if [[ $(grep -c ': job ' <<<"$out") != 2 || $out != *"unit MvM: job "* ]]; then
	log "FAIL: the rerun submitted other jobs than unit MvM's and the manifest's"
	exit 1
fi
wait_jobs
if diff -r "$work/ref" "$work/tables"; then
	log "PASS: $(ls "$work/tables" | wc -l) files identical to dtb gen --pieces $pieces, after a rerun too"
	passed=true
else
	log "FAIL: the tables differ from dtb gen's after the rerun; see $work"
	exit 1
fi
