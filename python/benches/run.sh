#!/usr/bin/env bash
# The Python package's batch targets, side by side in one run: the Rust loops (criterion: parsing
# and probing the texts, probing the positions parsed beforehand) and `probe_wdl_many` over texts,
# `Position`s and packed positions at 1 and 2 threads, against a Python loop of `probe_wdl`, over
# the same million positions of LRvET; criterion's cached WDL probe.
# Needs `jtb` installed in the Python on PATH (`pip install ./python`).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo run --release -q -p jtb -- gen --material LRvET --out "$work/tables" --quiet
JTB_TABLES="$work/tables" JTB_BENCH_TEXTS="$work/texts" \
  cargo bench -q -p jtb-tests --bench probe -- 'batch|probe/wdl cached'
python3 python/benches/batch.py "$work/tables" "$work/texts"
