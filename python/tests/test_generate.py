"""`jtb.generate`: progress, resumption, refusals."""

import pytest

import jtb


def test_generate_reports_progress_and_resumes(tmp_path):
    seen = []
    made = jtb.generate(tmp_path, material="LvE", progress=lambda *a: seen.append(a))
    assert made == 1
    assert seen == [(1, 1, "EvL")]  # the orientation that names the table
    assert (tmp_path / "mistboard").is_dir()
    # Run again: the table is present and intact, so nothing is solved.
    assert jtb.generate(tmp_path, material=["LvE"], progress=lambda *a: None) == 0
    with jtb.open_tablebase(tmp_path) as tb:
        assert tb.probe_wdl("7/7/7/7/7/3l3/7/3E3/7 r") == 1


def test_generate_animal_gambit_counts_the_tables_it_needs(tmp_path):
    seen = []
    jtb.generate(tmp_path, rules="animal-gambit", material="RvR", progress=lambda *a: seen.append(a))
    assert seen and seen[-1][0] == seen[-1][1] == len(seen)


def test_a_failing_callback_is_raised_after_the_tables_are_written(tmp_path):
    def fail(*_):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        jtb.generate(tmp_path, material="LvE", progress=fail)
    assert jtb.generate(tmp_path, material="LvE", progress=lambda *a: None) == 0


def test_a_failing_callback_stops_the_generation_at_once(tmp_path):
    """The callback's exception stops the generation before its next table, not at the end."""
    calls = []

    def fail_at_third(done, total, material):
        calls.append(total)
        if done == 3:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        jtb.generate(tmp_path, max_pieces=3, progress=fail_at_third)
    total = calls[-1]
    # Tables solved side by side when it raised may still finish, but not the whole plan.
    assert 3 <= len(calls) < total / 2, (len(calls), total)
    # What was written is whole: the run resumes from it.
    assert jtb.generate(tmp_path, max_pieces=3, progress=lambda *a: None) == total - len(calls)


INTERRUPTED = r"""
import signal, sys, threading, time, jtb
root = sys.argv[1]
seen = []
def progress(done, total, material):
    seen.append(done)
    if done == 5:
        print("started", flush=True)
start = time.monotonic()
try:
    jtb.generate(root, max_pieces=4, progress=progress)
except KeyboardInterrupt:
    print("interrupted", len(seen), round(time.monotonic() - start, 1), flush=True)
else:
    print("finished", len(seen), flush=True)
"""


def test_ctrl_c_stops_a_generation(tmp_path):
    """SIGINT during `generate` raises KeyboardInterrupt within seconds (the 4-piece set takes
    minutes), and the tables written before it are kept."""
    import signal
    import subprocess
    import sys
    import time

    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started"
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        child.kill()
    word, done, _ = out.split()
    assert word == "interrupted", (out, err)
    # Stopped before its next table: far fewer than the 1,114 tables of the whole set.
    assert int(done) < 200 and waited < 30, (out, waited)
    # Every table finished before the interrupt (2-piece ones: they come first) is whole and
    # kept by the next run.
    seen = []
    made = jtb.generate(tmp_path, max_pieces=2, progress=lambda *a: seen.append(a))
    assert len(seen) - made == int(done), (len(seen), made, done)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"rules": "chess"}, "unknown rule set"),
        ({"material": "LvX"}, "X"),
        ({"max_pieces": 9}, "max_pieces"),
    ],
)
def test_bad_arguments_are_value_errors(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        jtb.generate(tmp_path, progress=lambda *a: None, **kwargs)


def test_without_a_callback_a_tqdm_bar_shows(tmp_path, monkeypatch):
    import sys
    import types

    bars = []

    class Bar:
        def __init__(self, **kwargs):
            self.kwargs, self.total, self.n, self.postfix, self.closed = kwargs, None, 0, None, False
            bars.append(self)

        def set_postfix_str(self, s):
            self.postfix = s

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = Bar
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    jtb.generate(tmp_path, material="LvE")
    (bar,) = bars
    assert (bar.n, bar.total, bar.postfix, bar.closed) == (1, 1, "EvL", True)
