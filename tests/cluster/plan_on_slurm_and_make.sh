#!/usr/bin/env bash
# `jtb plan` on real schedulers. A one-node Slurm cluster (munged, slurmctld and slurmd on
# this host, as root) runs the `slurm` plan of the mistboard tables up to 3 pieces, then runs
# it again (a resubmitted plan must redo nothing); GNU make runs the `make` plan with -j2.
# Every table file must be byte-identical to what one `jtb gen` writes. Then the slurm plan of
# one 5-piece table and the tables it needs runs with the memory the README tells users to
# ask for, and its verify task checks the 5-piece table one ply deep. Last, the slurm plan of
# one five-tile chance table of the flip game with the tables it needs.
#
# Needs root. Installs Debian's slurm-wlm and munge when they are missing. Run by .ci/run;
# by hand: bash tests/cluster/plan_on_slurm_and_make.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

log() { echo "[cluster test $(date +%T)] $*"; }
die() { echo "[cluster test] FAILED: $*" >&2; exit 1; }

[[ $(id -u) == 0 ]] || die "needs root (the cluster's daemons run as root)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    log "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

cargo build --release --locked -q -p jtb
JTB=${CARGO_TARGET_DIR:-$PWD/target}/release/jtb
# What the README tells users to ask for a task of the 5-piece level.
FIVE_MEM=2500M
WORK=$(mktemp -d /tmp/jtb-cluster.XXXXXX)
export SLURM_CONF=$WORK/slurm.conf
MUNGE_SOCKET=$WORK/munge.socket

cleanup() {
    local pid
    for pid in "$WORK"/*.pid; do
        [[ -f $pid ]] && kill "$(cat "$pid")" 2>/dev/null || true
    done
    sleep 1
    rm -rf "$WORK"
}
trap cleanup EXIT

# --- munge: the key the package made, a socket of our own -------------------------------
if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    chmod 600 /etc/munge/munge.key
fi
chown root:root /etc/munge/munge.key
munged --force --socket="$MUNGE_SOCKET" --pid-file="$WORK/munged.pid" \
    --key-file=/etc/munge/munge.key --log-file="$WORK/munged.log" --seed-file="$WORK/munge.seed"

# --- Slurm: one node, this host ------------------------------------------------------------
HOST=$(hostname -s)
# Tasks of 2- and 3-piece tables take milliseconds: the node offers more CPUs than it has
# (config_overrides), so that Slurm's start-up time per task overlaps.
CPUS=$(( $(nproc) * 4 ))
MEM_MB=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
mkdir -p "$WORK/state" "$WORK/spool"
cat >"$SLURM_CONF" <<EOF
ClusterName=jtbtest
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_interval=2
SlurmdParameters=config_overrides
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MinJobAge=3600
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=jtb Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c
slurmd
for _ in $(seq 60); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 1
done
[[ ${state:-} == idle ]] || { cat "$WORK"/slurm*.log; die "the node did not come up (state: ${state:-none})"; }
log "one-node Slurm cluster up on $HOST ($CPUS CPUs)"

# --- the reference: one jtb gen ------------------------------------------------------------
"$JTB" gen --max-pieces 3 --out "$WORK/reference" --quiet
count=$(ls "$WORK/reference/mistboard" | wc -l)
log "reference: $count files from jtb gen"

same_as_reference() {
    diff -r "$WORK/reference/mistboard" "$1/mistboard" >/dev/null \
        || die "$2: the files differ from jtb gen's"
    log "$2: all $count files byte-identical to jtb gen's"
}

# Runs the slurm plan script $1 (tables into $2, $3 of them, of the rule set $4, mistboard by
# default) and waits for its last job; fails on any failed job, and unless each table was
# checked one ply deep and the last job found the whole set intact.
run_slurm_plan() {
    local out verify state tables=$3 rules=${4:-mistboard}
    out=$(bash "$1")
    echo "$out" | sed 's/^/    /'
    verify=$(echo "$out" | sed -n 's/^verify: job \([0-9]*\)$/\1/p')
    [[ -n $verify ]] || die "the plan printed no verify job"
    for _ in $(seq 900); do
        state=$(scontrol show job "$verify" -o | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
        case $state in
            COMPLETED) break ;;
            PENDING | RUNNING | CONFIGURING | COMPLETING) sleep 1 ;;
            *)
                tail -n 5 "$2"/slurm-logs/* 2>/dev/null || true
                die "verify job $verify ended $state (a level failed, or verify did)" ;;
        esac
    done
    [[ $state == COMPLETED ]] || die "the plan did not finish in 15 minutes"
    # Jobs of this rule set only: a test before this one leaves refused jobs of its own.
    if squeue -h -t FAILED,TIMEOUT,CANCELLED,NODE_FAIL,OUT_OF_MEMORY -o %j | grep -q "^jtb-$rules-"; then
        die "some job failed"
    fi
    # This run's last job (a resubmitted plan's logs are beside the first's); the flip game's
    # counts its revealed and its chance tables on a line each.
    local intact
    intact=$(sed -n 's/^checksums: \([0-9]*\) of [0-9]* tables intact$/\1/p' \
        "$2"/slurm-logs/jtb-"$rules"-verify-"$verify"_* | awk '{ n += $1 } END { print n }')
    [[ $intact == "$tables" ]] || die "the last job found ${intact:-no} of $tables tables intact"
    local checked
    checked=$(cat "$2"/slurm-logs/jtb-"$rules"-[0-9]-verify-* | grep -c '^ok ')
    [[ $checked -ge $tables ]] || die "$checked tables checked one ply deep, not $tables"
}

# --- Slurm ---------------------------------------------------------------------------------
"$JTB" plan --max-pieces 3 --format slurm --out "$WORK/slurm" --throttle "$CPUS" \
    --sbatch-args "--partition=jtb --time=10" >"$WORK/plan.sh"
log "submitting the slurm plan"
run_slurm_plan "$WORK/plan.sh" "$WORK/slurm" 260
same_as_reference "$WORK/slurm" "slurm"
stamps() { find "$WORK/slurm/mistboard" -type f -printf '%P %T@\n' | sort; }
before=$(stamps)
log "resubmitting the same plan"
run_slurm_plan "$WORK/plan.sh" "$WORK/slurm" 260
[[ $(stamps) == "$before" ]] || die "the resubmitted plan rewrote finished tables"
log "resubmitted plan redid nothing"

# --- make -j2 ------------------------------------------------------------------------------
"$JTB" plan --max-pieces 3 --format make --out "$WORK/make" >"$WORK/Makefile"
make -s -j2 -f "$WORK/Makefile" all
same_as_reference "$WORK/make" "make -j2"
[[ -z $(make -j2 -f "$WORK/Makefile" all | grep -v "Nothing to be done") ]] \
    || die "a second make ran tasks"
# --- Slurm: one 5-piece table and the tables it needs, at the README's --mem ------------------
# Each task's jtb reads the job's memory (SLURM_MEM_PER_NODE) and refuses a table whose
# estimate exceeds it, so a task that fits passes here and one that would not fails by name.
five=EDCvTP
five_tables=$("$JTB" plan --material "$five" --format list | wc -l)
"$JTB" plan --material "$five" --format slurm --out "$WORK/five" --throttle "$CPUS" \
    --sbatch-args "--partition=jtb --time=30 --mem=$FIVE_MEM --cpus-per-task=2" >"$WORK/five.sh"
log "submitting the slurm plan of $five ($five_tables tables, --mem=$FIVE_MEM)"
run_slurm_plan "$WORK/five.sh" "$WORK/five" "$five_tables"
grep -q "^ok   $five: 322828856 entries agree" "$WORK"/five/slurm-logs/jtb-mistboard-5-verify-* \
    || die "the verify task did not check $five one ply deep"
log "slurm: $five and its $((five_tables - 1)) smaller tables generated and checked one ply deep"
# A task given less memory than its table needs is refused by the estimate, naming it.
"$JTB" plan --material "$five" --format slurm --out "$WORK/five" \
    --sbatch-args "--partition=jtb --time=30 --mem=500M" >"$WORK/five-small.sh"
rm "$WORK/five/mistboard/$five".*
out=$(bash "$WORK/five-small.sh")
verify=$(echo "$out" | sed -n 's/^verify: job \([0-9]*\)$/\1/p')
for _ in $(seq 300); do
    state=$(scontrol show job "$verify" -o | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    [[ $state == PENDING || $state == RUNNING || $state == CONFIGURING ]] || break
    grep -qs "needs about" "$WORK"/five/slurm-logs/jtb-mistboard-5-gen-* && break
    sleep 1
done
grep -q "table $five needs about .* MiB of memory, more than the 500 MiB allowed" \
    "$WORK"/five/slurm-logs/jtb-mistboard-5-gen-* \
    || die "a 5-piece task at --mem=500M was not refused by the memory estimate"
scancel "$verify" 2>/dev/null || true
scancel --name=jtb-mistboard-5-verify 2>/dev/null || true
log "a 5-piece task at --mem=500M is refused by the memory estimate, naming the table"

# --- Slurm: a five-tile chance table of the flip game and the tables it needs ---------------
# The revealed tables level by level, then the chance tables (each making the DTE files of the
# revealed tables its last flips lead into), each checked one ply deep; the same files as one
# jtb gen of the table.
chance=CvL-EWt
chance_tables=$("$JTB" plan --rules flip4x4 --material "$chance" --format list | wc -l)
"$JTB" plan --rules flip4x4 --material "$chance" --format slurm --out "$WORK/chance" \
    --throttle "$CPUS" --sbatch-args "--partition=jtb --time=30 --mem=$FIVE_MEM --cpus-per-task=2" \
    >"$WORK/chance.sh"
log "submitting the slurm plan of the chance table $chance ($chance_tables tables)"
run_slurm_plan "$WORK/chance.sh" "$WORK/chance" "$chance_tables" flip4x4
grep -q "^ok   $chance: [0-9]* entries agree" "$WORK"/chance/slurm-logs/jtb-flip4x4-5-verify-* \
    || die "the verify task did not check $chance one ply deep"
"$JTB" gen --rules flip4x4 --material "$chance" --out "$WORK/chance-reference" --quiet
diff -r "$WORK/chance-reference/flip4x4" "$WORK/chance/flip4x4" >/dev/null \
    || die "the flip plan's files differ from jtb gen's"
log "slurm: $chance and its $((chance_tables - 1)) smaller tables generated, checked one ply deep, byte-identical to jtb gen's"

log "passed"
