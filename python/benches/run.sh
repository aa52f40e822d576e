#!/usr/bin/env bash
# The Python package's batch target, side by side in one run: the Rust parse-and-probe loop
# (criterion) and `probe_wdl_many` at 1 and 2 threads, over the same million texts of LRvET;
# criterion's cached WDL probe and single `probe_wdl` calls from Python.
# Needs `jtb` installed in the Python on PATH (`pip install ./python`).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo run --release -q -p jtb -- gen --material LRvET --out "$work/tables" --quiet
JTB_TABLES="$work/tables" JTB_BENCH_TEXTS="$work/texts" \
  cargo bench -q -p jtb-tests --bench probe -- 'batch|probe/wdl cached'
python3 python/benches/batch.py "$work/tables" "$work/texts"
