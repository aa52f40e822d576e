#!/usr/bin/env python3
"""Cuts a target's corpus (fuzz/corpus/<target>/) to the inputs that cover the most edges, at
most KEEP of them, greedily: libFuzzer's merge records each input's edges in a control file,
and the input adding the most edges not yet covered is kept first (the smaller on a tie).

    cargo +nightly fuzz build <target>
    python3 trim_corpus.py <target> [KEEP=40]

Run from fuzz/ with the target built (CARGO_TARGET_DIR, if set, is where it looks)."""

import os
import subprocess
import sys
import tempfile

target = sys.argv[1]
keep = int(sys.argv[2]) if len(sys.argv) > 2 else 40
root = os.environ.get("CARGO_TARGET_DIR", "target")
binary = os.path.join(root, "x86_64-unknown-linux-gnu", "release", target)
corpus = os.path.join("corpus", target)

with tempfile.TemporaryDirectory() as scratch:
    control = os.path.join(scratch, "control")
    empty = os.path.join(scratch, "empty")
    os.mkdir(empty)
    subprocess.run(
        [binary, "-merge=1", f"-merge_control_file={control}", "-rss_limit_mb=2048",
         "-timeout=10", empty, corpus],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    lines = open(control).read().split("\n")

# The control file: the number of inputs, the number in the first folder, their paths, then
# per input `STARTED`, `FT` (features) and `COV` (edges) lines, each naming it by its place.
count = int(lines[0])
files = lines[2 : 2 + count]
edges = {}
for line in lines[2 + count :]:
    fields = line.split()
    if fields and fields[0] == "COV":
        edges[int(fields[1])] = set(fields[2:])
every = set().union(*edges.values()) if edges else set()

covered, chosen = set(), []
while len(chosen) < keep and edges:
    best = max(edges, key=lambda i: (len(edges[i] - covered), -os.path.getsize(files[i])))
    if not edges[best] - covered:
        break
    covered |= edges.pop(best)
    chosen.append(os.path.basename(files[best]))

for name in os.listdir(corpus):
    if name not in chosen:
        os.remove(os.path.join(corpus, name))
print(f"{corpus}: {len(chosen)} inputs, {len(covered)} of {len(every)} edges")
