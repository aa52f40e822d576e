"""`probe_wdl_many` on a million texts of a 4-piece table, blocks cached, at 1 and 2 threads,
and single `probe_wdl` calls.

Run by `python/benches/run.sh`, which first runs the Rust loop it is measured against
(`cargo bench -p jtb-tests --bench probe -- batch`) over the same texts.
Usage: python batch.py TABLES TEXTS
"""

import sys
import time

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
    with jtb.open_tablebase(root) as tb:
        failures = []
        values = tb.probe_wdl_many(texts, "mistboard", failures=failures)  # warms the cache
        assert not failures, failures[:3]
        print(f"{len(texts)} texts: wins {int((values == 1).sum())}, draws "
              f"{int((values == 0).sum())}, losses {int((values == -1).sum())}")
        for threads in (1, 2):
            best, median = best_of(7, lambda: tb.probe_wdl_many(texts, "mistboard", threads=threads))
            print(f"probe_wdl_many, {threads} thread(s): best {best:.3f} s, median {median:.3f} s "
                  f"({len(texts) / best / 1e6:.2f} M texts/s)")
        best, median = best_of(7, lambda: list(texts))
        print(f"(copying the list alone: {best * 1e3:.1f} ms)")
        # Single calls, on the first 16,384 positions as `Position` objects (as criterion's
        # `probe/wdl cached` cycles over 16,384 parsed positions).
        positions = [jtb.Position(t) for t in texts[: 1 << 14]]
        probe = tb.probe_wdl

        def singles():
            for p in positions:
                probe(p)

        def empty():
            for _ in positions:
                pass

        best, median = best_of(15, singles)
        loop, _ = best_of(15, empty)
        n = len(positions)
        print(f"probe_wdl(Position), single calls: best {best / n * 1e9:.0f} ns, median "
              f"{median / n * 1e9:.0f} ns a call (the bare Python loop: {loop / n * 1e9:.0f} ns)")


if __name__ == "__main__":
    main()
