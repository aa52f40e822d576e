#!/usr/bin/env bash
# A long fuzzing campaign: each target (or those named) until 10 million executions or 30
# minutes, one worker, from its committed corpus into a scratch folder (the committed corpus is
# only read), with libFuzzer's hang and memory limits. Prints one summary line a target:
# executions, seconds, coverage (edges and features) and peak RSS. A crash stops the script
# with libFuzzer's status and leaves its input in artifacts/<target>/.
#
#   fuzz/campaign.sh                    # every target
#   fuzz/campaign.sh table_probe http_api
#   RUNS=1000000 SECONDS_EACH=300 fuzz/campaign.sh
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-10000000}
seconds=${SECONDS_EACH:-1800}
logs=${LOGS:-$(mktemp -d)}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list)
cargo +nightly fuzz build >&2
echo "logs in $logs" >&2
for target in "${targets[@]}"; do
  scratch=$(mktemp -d)
  start=$(date +%s)
  cargo +nightly fuzz run "$target" "$scratch" "corpus/$target" -- \
    -runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 >"$logs/$target.log" 2>&1
  took=$(( $(date +%s) - start ))
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$logs/$target.log" | grep -o '[0-9]*$')
  rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$logs/$target.log" | grep -o '[0-9]*$')
  last=$(grep -E '^#[0-9]+' "$logs/$target.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*')
  echo "$target: $execs executions in ${took} s, cov $cov, ft $ft, peak RSS ${rss} MB, no crash"
  rm -rf "$scratch"
done
