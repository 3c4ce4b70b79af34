#!/usr/bin/env bash
# Builds the tables with the Slurm script of dtb plan --verify on a Slurm
# cluster of three nodes on this machine, checks them against the
# published sums, then builds them again through a cancelled job and a
# dead node; prints PASS or FAIL. For Debian, as root, from the
# repository:
#
#   scripts/slurm-localhost.sh [PIECES]   (4 or 5; default 4, 5 under DTB_LONG=1)
#
# It installs slurm-wlm and munge from Debian's packages if missing,
# writes a slurm.conf for the nodes n1, n2 and n3 into a temporary work
# directory (SLURM_CONF points there; nothing under /etc changes but the
# munge key, created if missing), and starts munged (unless one runs),
# slurmctld and one slurmd -N per node, all on 127.0.0.1 and on free
# ports. Each node has one CPU, so jobs run on all three at once.
#
# The clean run submits the plan, waits for its jobs, and checks the table
# directory with sha256sum -c against testdata/checksums (pieces4.sha256,
# or pieces5-dtw-mtc.sha256 for 5 pieces, built with --dtw --mtc), no
# other file beside them, and every unit's verify job passed.
#
# The fault run submits the plan into a new directory; once the job of
# KKvKM runs it cancels it (its dependents, the manifest's job and the
# verify jobs then die of kill_invalid_depend); once one of KKMvK, KMMvK,
# KKMvM or KMMvM runs it kills that job's node (kill -9 of its slurmd, its
# slurmstepd and the job's processes), waits until slurmctld marks the
# node down and requeues the job, and starts the slurmd again. When the
# queue is empty it checks that the killed job was requeued and completed,
# reruns the script and checks that it submits the units whose jobs did
# not complete and only those (KKvKM and KKvMM among them), waits, and
# checks the directory as above.
#
# The parts run submits the plan of KKvKM and its deps with --nodes 2,
# which cuts the levels of KKvKM into parts, jobs of their own, and
# checks the tables against the sums.
#
# It stops every daemon it started, and the jobs left, on any exit; the
# work directory is kept after a FAIL, with the daemons' logs and the
# jobs' slurm-*.out.
set -euo pipefail
export LC_ALL=C

pieces=${1:-4}
if [[ $# == 0 && ${DTB_LONG:-} == 1 ]]; then
	pieces=5
fi
if [[ $(id -u) != 0 || ! $pieces =~ ^[45]$ ]]; then
	echo "usage: scripts/slurm-localhost.sh [PIECES 4 or 5], as root" >&2
	exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/dtb-slurm.XXXXXX)
export SLURM_CONF=$work/slurm.conf
nodes=(n1 n2 n3)
start=$SECONDS

log() { echo "slurm-localhost: $*"; }
fail() {
	log "FAIL: $*; see $work"
	exit 1
}

# stop ends the process of the pid file $1, if there is one, and waits up
# to 10 s for it.
stop() {
	local pid i
	[[ -s $1 ]] || return 0
	pid=$(cat "$1")
	kill "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 20; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.5
	done
}

# finish cancels the jobs left, ends the daemons this script started, by
# the IDs in their pid files, and removes the work directory after a
# PASS.
passed=false
finish() {
	local i n
	if [[ -s $work/slurmctld.pid ]] && [[ -n $(squeue -h -o %i 2>/dev/null) ]]; then
		scancel --user=root 2>/dev/null || true
		for ((i = 0; i < 20 && $(squeue -h -o %i 2>/dev/null | wc -l) > 0; i++)); do
			sleep 0.5
		done
	fi
	for n in "${nodes[@]}"; do
		stop "$work/slurmd-$n.pid"
	done
	stop "$work/slurmctld.pid"
	stop "$work/munged.pid"
	if $passed; then
		rm -rf "$work"
	fi
}
trap finish EXIT
trap 'exit 1' INT TERM

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
	log "installing slurm-wlm and munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null; }
fi

log "building dtb into $work"
(cd "$repo" && go build -o "$work/dtb" ./cmd/dtb)

# The flags of the build and the published sums it must match.
flags=()
sums=$repo/testdata/checksums/pieces4.sha256
if ((pieces == 5)); then
	flags=(--dtw --mtc)
	sums=$repo/testdata/checksums/pieces5-dtw-mtc.sha256
fi

# free prints the first TCP port after $1 that nothing listens on.
free() {
	local p=$(($1 + 1))
	while [[ -n $(ss -Hltn "sport = :$p") ]]; do
		((++p))
	done
	echo "$p"
}

ctldport=$(free $((20000 + RANDOM % 20000)))
port=$ctldport
memory=2048 # MiB a node; every job gets at most dtb plan --mem 1GiB
mkdir -p "$work/spool/slurmctld" "${nodes[@]/#/$work/spool/}"
cat >"$SLURM_CONF" <<EOF
ClusterName=dtb
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctldport
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/spool/slurmctld
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DependencyParameters=kill_invalid_depend
SlurmdTimeout=10
AuthInfo=cred_expire=10
MinJobAge=3600
ReturnToService=2
MpiDefault=none
EOF
for n in "${nodes[@]}"; do
	port=$(free "$port")
	echo "NodeName=$n NodeHostname=localhost NodeAddr=127.0.0.1 Port=$port CPUs=1 RealMemory=$memory State=UNKNOWN" >>"$SLURM_CONF"
done
echo "PartitionName=dtb Nodes=$(
	IFS=,
	echo "${nodes[*]}"
) Default=YES MaxTime=INFINITE State=UP" >>"$SLURM_CONF"

log "starting munged, slurmctld and ${#nodes[@]} slurmd (1 CPU, $memory MiB each)"
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
for n in "${nodes[@]}"; do
	slurmd -N "$n"
done

# wait_up waits until the nodes given are up (idle, or running jobs).
wait_up() {
	local i n state
	for ((i = 0; ; i++)); do
		state=$(sinfo -h -N -n "$(
			IFS=,
			echo "$*"
		)" -o %T 2>/dev/null | sort -u | tr '\n' ' ')
		[[ -n $state && ! $state =~ (down|unk|drain|fail|not_resp|\*) ]] && break
		if ((i == 120)); then
			fail "the nodes $* are not up after 60 s (state '$state')"
		fi
		sleep 0.5
	done
}
wait_up "${nodes[@]}"

# wait_jobs waits until the queue is empty. It fails after 10 minutes (an
# hour at 5 pieces), or once a job has waited 20 s on a dependency that
# failed: kill_invalid_depend should have cancelled it.
wait_jobs() {
	local t=$SECONDS stuck=0
	while [[ -n $(squeue -h -o %i) ]]; do
		if ((SECONDS - t > (pieces == 4 ? 600 : 3600))); then
			squeue
			fail "jobs still queued after $((SECONDS - t)) s"
		fi
		if [[ -n $(squeue -h -t PD -o %r | grep -x DependencyNeverSatisfied) ]]; then
			((++stuck < 20)) || fail "jobs wait on a failed dependency, not cancelled: $(squeue -h -t PD -o '%j %r' | grep -w DependencyNeverSatisfied | tr '\n' ' ')"
		else
			stuck=0
		fi
		sleep 1
	done
	log "the jobs are done in $((SECONDS - t)) s"
}

# check DIR checks the tables in DIR against the sums, that nothing else
# is there but the work folder with the mark of every unit's verify job.
check() {
	local dir=$1 names missing=()
	(cd "$dir" && sha256sum --quiet --strict -c "$sums") || fail "$dir differs from the sums"
	names=$(cd "$dir" && ls | grep -vx work || true)
	[[ $names == "$(awk '{ print $2 }' "$sums" | sort)" ]] ||
		fail "$dir holds other files than the sums list: $(echo $names)"
	for u in "${units[@]}"; do
		[[ -e $dir/work/verified/$u ]] || missing+=("$u")
	done
	((${#missing[@]} == 0)) || fail "no passed verify job for ${missing[*]} (slurm-*.out in $work)"
}

# state JOB prints the state of the job.
state() { scontrol show job "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }

# running NAME... waits until a job named dtb-NAME runs, for one of the
# names given, and prints its job ID, node and name.
running() {
	local i names out
	names=$(printf 'dtb-%s,' "$@")
	for ((i = 0; i < 3000; i++)); do
		out=$(squeue -h -t R -n "${names%,}" -o '%i %N %j' | head -1)
		if [[ -n $out ]]; then
			echo "$out"
			return
		fi
		sleep 0.2
	done
	fail "none of $* ran within 10 minutes"
}

"$work/dtb" plan --pieces "$pieces" "${flags[@]}" --format json >"$work/plan.json"
mapfile -t units < <(grep -o '"id": "[^"]*"' "$work/plan.json" | cut -d'"' -f4)

log "the clean run: dtb plan --pieces $pieces ${flags[*]} --mem 1GiB --format slurm --verify, ${#units[@]} units"
"$work/dtb" plan --pieces "$pieces" "${flags[@]}" --mem 1GiB --out "$work/clean" --format slurm --verify --dtb "$work/dtb" >"$work/clean.sh"
t=$SECONDS
(cd "$work" && bash clean.sh >clean.out)
wait_jobs
check "$work/clean"
log "the clean run matches $(wc -l <"$sums") sums, every unit verified, in $((SECONDS - t)) s"

log "the fault run"
"$work/dtb" plan --pieces "$pieces" "${flags[@]}" --mem 1GiB --out "$work/fault" --format slurm --verify --dtb "$work/dtb" >"$work/fault.sh"
t=$SECONDS
(cd "$work" && bash fault.sh >fault.out)
read -r cancelled node name < <(running KKvKM)
scancel "$cancelled"
log "cancelled job $cancelled ($name, running on $node)"
read -r killed node name < <(running KKMvK KMMvK KKMvM KMMvM)
# The processes of the node's slurmd and of the job's steps, then those
# they started, by their parent IDs; squeue may say the job runs before
# its slurmstepd has started the job's script, so this waits up to 5 s
# for a step with a child.
for ((try = 0; try < 50; try++)); do
	pids=($(cat "$work/slurmd-$node.pid"))
	for p in /proc/[0-9]*; do
		if [[ $({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) == "slurmstepd: [$killed."* ]]; then
			pids+=("${p#/proc/}")
		fi
	done
	for ((i = 1; i < ${#pids[@]}; i++)); do
		pids+=($(ps -o pid= --ppid "${pids[$i]}" || true))
	done
	((${#pids[@]} < 3)) || break
	sleep 0.1
done
((${#pids[@]} >= 3)) || fail "no slurmstepd running a script for job $killed"
kill -9 "${pids[@]}" 2>/dev/null || true
log "killed node $node running job $killed ($name): slurmd and ${#pids[@]} processes in all"
for ((i = 0; ; i++)); do
	[[ $(sinfo -h -n "$node" -o %T) == down* ]] && break
	((i < 120)) || fail "node $node not down 60 s after its slurmd died"
	sleep 0.5
done
log "node $node is down; job $killed is $(state "$killed"); starting its slurmd again"
slurmd -N "$node"
wait_up "$node"
wait_jobs
[[ $(state "$cancelled") == CANCELLED ]] || fail "the cancelled job $cancelled is $(state "$cancelled")"
restarts=$(scontrol show job "$killed" | grep -o 'Restarts=[0-9]*' | cut -d= -f2)
[[ $(state "$killed") == COMPLETED && $restarts -ge 1 ]] ||
	fail "job $killed, on the node killed: $(state "$killed") after $restarts restarts, want COMPLETED after a requeue"
log "job $killed was requeued and completed"

# The rerun submits the units whose job did not complete, and only those.
want=()
while read -r _ u _ id; do
	[[ $(state "$id") == COMPLETED ]] || want+=("${u%:}")
done < <(grep '^unit .*: job ' "$work/fault.out")
(cd "$work" && bash fault.sh >fault-rerun.out)
got=($(grep '^unit .*: job ' "$work/fault-rerun.out" | cut -d' ' -f2 | tr -d :))
[[ ${got[*]} == "${want[*]}" ]] || fail "the rerun submitted the units ${got[*]}, want ${want[*]}"
[[ " ${got[*]} " == *" KKvKM "* && " ${got[*]} " == *" KKvMM "* ]] ||
	fail "the rerun submitted ${got[*]}, without KKvKM, cancelled, or KKvMM, which reads it"
log "the rerun submits the ${#got[@]} units not built: ${got[*]}"
wait_jobs
check "$work/fault"
log "the fault run matches the sums, every unit verified, in $((SECONDS - t)) s"
log "the parts run: dtb plan --only KKvKM ${flags[*]} --nodes 2 --mem 1GiB --format slurm"
"$work/dtb" plan --only KKvKM "${flags[@]}" --nodes 2 --mem 1GiB --out "$work/parts" --format slurm --dtb "$work/dtb" >"$work/parts.sh"
t=$SECONDS
(cd "$work" && bash parts.sh >parts.out)
parts=$(grep -c '^unit KKvKM\.l[0-9]*\.[0-9]*of2: job ' "$work/parts.out" || true)
((parts >= 2)) || fail "the plan of KKvKM on 2 nodes submits $parts parts of two"
wait_jobs
grep -v ' MANIFEST.json$' "$sums" >"$work/parts.sha256" # the manifest lists the tables built
(cd "$work/parts" && sha256sum --quiet --strict --ignore-missing -c "$work/parts.sha256") ||
	fail "$work/parts differs from the sums"
[[ -e $work/parts/KKvKM.dtb && -e $work/parts/KMvKK.dtb && ! -e $work/parts/work/KKvKM ]] ||
	fail "the parts of KKvKM left no tables, or their work folder"
log "the parts run: KKvKM in $parts parts, halves of its levels; its tables and its deps' match the sums, in $((SECONDS - t)) s"
log "PASS: ${#units[@]} units of $pieces pieces on ${#nodes[@]} slurmd, clean, through a fault and in parts, in $((SECONDS - start)) s"
passed=true
