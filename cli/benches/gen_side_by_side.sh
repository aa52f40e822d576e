#!/bin/bash
# Generation side by side: two `jtb` binaries, alternating (base, new), ROUNDS rounds of each
# rule set, each run into a fresh directory; the median and the fastest run at the end, with
# the peak memory. Usage:
#   BASE=<old jtb> NEW=<this jtb> gen_side_by_side.sh
# Options (environment): RULES ("clesto animal-gambit"), MAX_PIECES (3), ROUNDS (7).
set -eu
: "${BASE:?the older jtb binary}" "${NEW:?the newer jtb binary}"
RULES=${RULES:-clesto animal-gambit} MAX_PIECES=${MAX_PIECES:-3} ROUNDS=${ROUNDS:-7}
log=$(mktemp)
for rules in $RULES; do
  for round in $(seq "$ROUNDS"); do
    for which in base new; do
      bin=$BASE; [ "$which" = new ] && bin=$NEW
      dir=$(mktemp -d)
      timed=$({ /usr/bin/time -f "%e %M" "$bin" gen --rules "$rules" --max-pieces "$MAX_PIECES" \
        --out "$dir" --quiet >/dev/null; } 2>&1 | tail -1)
      rm -rf "$dir"
      echo "$rules $which $round $timed" | tee -a "$log"
    done
  done
done
echo "--- rule set, build: median s, fastest s, peak MiB"
for rules in $RULES; do
  for which in base new; do
    times=$(grep "^$rules $which " "$log" | awk '{print $4}' | sort -n)
    median=$(echo "$times" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    peak=$(grep "^$rules $which " "$log" | awk '$5 > p {p = $5} END {print int(p / 1024)}')
    echo "$rules $which: $median $(echo "$times" | head -1) $peak"
  done
done
rm -f "$log"
