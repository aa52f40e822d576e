"""The batch probes of the package over a million positions of a 4-piece table, blocks cached:
over texts, over `Position` objects and over packed positions (a NumPy array), at 1 and 2
threads, against a Python loop of `probe_wdl` over the same parsed `Position`s.

Run by `python/benches/run.sh`, which first runs, over the same texts, the Rust loops they are
measured against (`cargo bench -p jtb-tests --bench probe -- batch`: parsing and probing the
texts, probing the positions parsed beforehand one by one and in bulk).
Usage: python batch.py TABLES TEXTS
"""

import os
import sys
import time

# NumPy's BLAS threads (unused here) would otherwise spin beside the batch's own threads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import jtb


def best_of(runs, f):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times), sorted(times)[len(times) // 2]


def main():
    root, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        texts = f.read().split("\n")[:-1]
    n = len(texts)
    positions = [jtb.Position(t) for t in texts]
    packed = np.array([np.frombuffer(p.pack(), dtype=np.uint8) for p in positions])
    with jtb.open_tablebase(root) as tb:
        failures = []
        values = tb.probe_wdl_many(texts, "mistboard", failures=failures)  # warms the cache
        assert not failures, failures[:3]
        assert (tb.probe_wdl_many(packed) == values).all()
        print(f"{n} positions: wins {int((values == 1).sum())}, draws "
              f"{int((values == 0).sum())}, losses {int((values == -1).sum())}")

        def report(what, runs, f):
            best, median = best_of(runs, f)
            print(f"{what}: best {best:.3f} s, median {median:.3f} s "
                  f"({n / best / 1e6:.2f} M/s, {best / n * 1e9:.0f} ns a position)")
            return best

        probe = tb.probe_wdl

        def loop():
            for p in positions:
                probe(p)

        looped = report("Python loop of probe_wdl(Position)", 3, loop)
        for threads in (1, 2):
            report(f"probe_wdl_many(texts), {threads} thread(s)", 5,
                   lambda: tb.probe_wdl_many(texts, "mistboard", threads=threads))
            over = report(f"probe_wdl_many(Positions), {threads} thread(s)", 5,
                          lambda: tb.probe_wdl_many(positions, threads=threads))
            fast = report(f"probe_wdl_many(packed array), {threads} thread(s)", 7,
                          lambda: tb.probe_wdl_many(packed, threads=threads))
            print(f"  {threads} thread(s): packed {looped / fast:.1f}x the loop, "
                  f"Positions {looped / over:.1f}x the loop")


if __name__ == "__main__":
    main()
