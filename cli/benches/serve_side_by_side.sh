#!/bin/bash
# The serve bench side by side: one bench client against two `jtb` binaries, alternating,
# ROUNDS rounds of each configuration, medians at the end (requests a second, and the server's
# CPU per answer). Usage:
#   BASE=<old jtb> NEW=<this jtb> BENCH=<serve bench binary> TABLES=<dir> serve_side_by_side.sh
# The bench binary is the one `cargo bench -p jtb --bench serve --no-run` names. Options
# (environment): ROUNDS (3), BENCH_SECONDS (5), CONNECTIONS (64), CLIENT_THREADS (8), SERVER_THREADS
# (8; empty for the server's default), and SERVER_CPUS with CLIENT_CPUS (CPU lists, such as 1 and
# 0: the server and the client each on cores of their own, through taskset; unset, both share
# every core).
set -u
: "${BASE:?the older jtb binary}" "${NEW:?the newer jtb binary}" "${BENCH:?the serve bench binary}" "${TABLES:?a table directory}"
ROUNDS=${ROUNDS:-3} SECONDS_EACH=${BENCH_SECONDS:-5} CONNECTIONS=${CONNECTIONS:-64}
CLIENT_THREADS=${CLIENT_THREADS:-8} SERVER_THREADS=${SERVER_THREADS-8}
SERVER_CPUS=${SERVER_CPUS:-} CLIENT_CPUS=${CLIENT_CPUS:-}
log=$(mktemp)
one() { # label, server, server options, browser (0 or 1)
  local out
  out=$(env JTB_TABLES="$TABLES" JTB_BENCH_SECONDS="$SECONDS_EACH" JTB_BENCH_CONNECTIONS="$CONNECTIONS" \
    JTB_BENCH_CLIENT_THREADS="$CLIENT_THREADS" ${SERVER_THREADS:+JTB_BENCH_SERVER_THREADS=$SERVER_THREADS} \
    ${SERVER_CPUS:+JTB_BENCH_SERVER_CPUS=$SERVER_CPUS} JTB_BENCH_SERVER="$2" JTB_BENCH_SERVER_ARGS="$3" \
    JTB_BENCH_BROWSER="$4" ${CLIENT_CPUS:+taskset -c "$CLIENT_CPUS"} "$BENCH" 2>&1 | grep '^warm')
  echo "$1 $(echo "$out" | awk '{print $6}') $(echo "$out" | sed 's/.*server *\([0-9.]*\) us.*/\1/') errors $(echo "$out" | sed 's/.*errors \([0-9]*\).*/\1/')" | tee -a "$log"
}
# UNCACHED_ONLY=1 runs the answers computed afresh alone (the base must have
# --response-cache-mib, as every server since the answers' cache has).
CONFIGS="base-cached new-cached base-uncached new-uncached base-browser new-browser"
[ "${UNCACHED_ONLY:-0}" = 1 ] && CONFIGS="base-uncached new-uncached"
for _ in $(seq "$ROUNDS"); do
  for k in $CONFIGS; do
    bin=$NEW; [ "${k%%-*}" = base ] && bin=$BASE
    case $k in
      *-uncached) one "$k" "$bin" "--response-cache-mib 0" 0 ;;
      *-browser) one "$k" "$bin" "" 1 ;;
      *) one "$k" "$bin" "" 0 ;;
    esac
  done
done
echo "--- medians: configuration, req/s, server CPU us per answer"
for k in $CONFIGS; do
  median() { grep "^$k " "$log" | awk "{print \$$1}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
  echo "$k $(median 2) $(median 3)"
done
rm -f "$log"
