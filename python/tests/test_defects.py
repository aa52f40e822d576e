"""Defects of the package, each pinned: closing under load, chance values as fractions, a
`rules` that contradicts a Position, batch arguments, lines of chance positions, Clesto's
positions without a distance to mate, pickling and copying, the version, `default=`."""

import copy
import importlib.metadata
import json
import multiprocessing
import operator
import pickle
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest

import jtb
from conftest import CHANCE_FIELDS, cli_json, random_positions, with_fractions

JUNGLE = "7/7/7/7/7/3l3/7/3E3/7 r"
FACE_DOWN = "?3/4/1?2/3L r 5 ?:Tw"


# 1. close() while other threads run batch probes.

CLOSE_UNDER_LOAD = textwrap.dedent(
    """
    import json, sys, threading, time
    import jtb

    tables, texts = sys.argv[1], json.load(sys.stdin)
    for attempt in range(5):
        tb = jtb.open_tablebase(tables)
        closed = []

        def work():
            while True:
                try:
                    tb.probe_wdl_many(texts)
                except ValueError as e:
                    closed.append(str(e))
                    return

        threads = [threading.Thread(target=work, daemon=True) for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.2)
        tb.close()
        for t in threads:
            t.join(timeout=20)
            assert not t.is_alive(), "a batch thread never returned"
        assert closed == ["the tablebase is closed"] * 4, closed
        try:
            tb.probe_wdl(texts[0])
        except ValueError as e:
            assert str(e) == "the tablebase is closed"
        else:
            raise AssertionError("a probe after close() answered")
    print("ok")
    """
)


def test_close_returns_while_threads_run_batches(tables):
    texts = random_positions("mistboard", 2000, seed=11)
    # In a child process: a deadlock must fail the test, not hang it.
    try:
        run = subprocess.run(
            [sys.executable, "-c", CLOSE_UNDER_LOAD, str(tables)],
            input=json.dumps(texts),
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("close() hung while threads ran batch probes")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


# 4. Chance values are fractions.


def chance_values(answer):
    """Every (field, value) of the chance fields anywhere in `answer`."""
    if isinstance(answer, list):
        return [fv for a in answer for fv in chance_values(a)]
    if isinstance(answer, dict):
        own = [(k, v) for k, v in answer.items() if k in CHANCE_FIELDS]
        return own + [fv for v in answer.values() for fv in chance_values(v)]
    return []


def test_chance_values_are_fractions(jtb_bin, tables, tb):
    texts = [FACE_DOWN, "?3/4/4/3? r ?:Tw", "1?2/4/4/2?1 r 39 ?:Pc"]
    cli = cli_json(jtb_bin, ["probe", "--tables", str(tables)], texts)
    for text, expected in zip(texts, cli):
        got = tb.probe(text)
        assert got == with_fractions(expected), text
        fields = chance_values(got)
        assert {k for k, _ in fields} == set(CHANCE_FIELDS)
        assert all(type(v) is Fraction for _, v in fields), fields
        assert type(got["clock"]) is int
        assert got["score"] == got["win"] + got["draw"] / 2
        flip = next(m for m in got["moves"] if m["move"].startswith("?"))
        assert sum(o["probability"] for o in flip["outcomes"]) == 1
    # A fully revealed flip position keeps its win/draw/loss words.
    assert tb.probe("4/4/4/c2L r")["wdl"] in ("win", "draw", "loss")


# 6. A `rules` that is not the Position's own.

PROBES = [
    lambda tb, p, r: tb.probe_wdl(p, r),
    lambda tb, p, r: tb.probe_dtm(p, r),
    lambda tb, p, r: tb.get_wdl(p, r),
    lambda tb, p, r: tb.get_dtm(p, r),
    lambda tb, p, r: tb.probe(p, r),
    lambda tb, p, r: tb.best_move(p, r),
    lambda tb, p, r: tb.line(p, r),
    lambda tb, p, r: tb.adjudicate(p, r),
    lambda tb, p, r: tb.probe_wdl_many([p], r),
    lambda tb, p, r: tb.probe_dtm_many([JUNGLE, p], r, failures=[]),
]


@pytest.mark.parametrize("probe", PROBES)
def test_a_position_under_another_rule_set_is_refused(tb, probe):
    clesto = jtb.Position(JUNGLE, "clesto")
    with pytest.raises(jtb.PositionError) as err:
        probe(tb, clesto, "flip4x4")
    assert "clesto" in str(err.value) and "flip4x4" in str(err.value)
    # Its own rule set, named or not, is fine.
    probe(tb, clesto, "clesto")
    probe(tb, clesto, None)


# 7. Batch arguments.


def test_a_batch_refuses_a_lone_text(tb):
    for arg in (JUNGLE, JUNGLE.encode()):
        for many in (tb.probe_wdl_many, tb.probe_dtm_many):
            with pytest.raises(TypeError, match="expected a sequence of positions, got a"):
                many(arg)


def test_a_batch_takes_positions_and_texts(tb):
    texts = random_positions("clesto", 60, seed=12)
    positions = [jtb.Position(t, "clesto") for t in texts]
    expected = tb.probe_wdl_many(texts, "clesto")
    assert (tb.probe_wdl_many(positions) == expected).all()
    mixed = [p if i % 2 else str(p) for i, p in enumerate(positions)]
    assert (tb.probe_wdl_many(mixed, "clesto") == expected).all()
    assert (tb.probe_wdl_many(tuple(positions), "clesto", threads=1) == expected).all()
    assert (
        tb.probe_dtm_many(positions, failures=[])
        == tb.probe_dtm_many(texts, "clesto", failures=[])
    ).all()
    failures = []
    out = tb.probe_wdl_many([positions[0], "not a position", positions[1]], failures=failures)
    assert [i for i, _ in failures] == [1]
    assert out[1] == jtb.FAILED_WDL and list(out[[0, 2]]) == list(expected[:2])
    with pytest.raises(TypeError, match="item 1"):
        tb.probe_wdl_many([JUNGLE, 42])


def test_a_batch_checks_failures_before_probing(tb):
    class Texts:
        """A sequence of texts that counts how often it was read."""

        reads = 0

        def __len__(self):
            return 1

        def __getitem__(self, i):
            if i >= 1:
                raise IndexError(i)
            Texts.reads += 1
            return JUNGLE

    for failures in ((), {}, "x"):
        with pytest.raises(TypeError, match="failures"):
            tb.probe_wdl_many(Texts(), failures=failures)
    assert Texts.reads == 0
    assert tb.probe_wdl_many(Texts(), failures=None).tolist() == [1]


# 8. No line for a position with face-down tiles.


def test_a_chance_position_has_no_line(tb):
    with pytest.raises(jtb.PositionError, match="no single best line") as err:
        tb.line(FACE_DOWN)
    assert "flip_outcomes" in str(err.value)
    with pytest.raises(jtb.PositionError, match="no single best line"):
        tb.probe(FACE_DOWN, line=True)
    assert "line" not in tb.probe(FACE_DOWN)


# 9. Clesto positions that only the repetition ban decides.


@pytest.fixture(scope="module")
def ban_position(tb):
    """A Clesto position whose value only the repetition ban decides: it has no DTM."""
    for text in random_positions("clesto", 2000, seed=13):
        answer = tb.probe(text, "clesto")
        if answer["category"].startswith("ban-"):
            assert answer["dtm"] is None
            return jtb.Position(text, "clesto")
    pytest.fail("no Clesto position of the repetition ban among 2000")


def test_no_distance_to_mate_under_the_ban(tb, ban_position):
    assert issubclass(jtb.NoDistanceError, KeyError)
    assert "NoDistanceError" in jtb.__all__
    with pytest.raises(jtb.NoDistanceError) as err:
        tb.probe_dtm(ban_position)
    message = str(err.value)
    assert message.startswith(f"{ban_position}: no distance to mate: the repetition ban decides")
    assert not isinstance(err.value, ValueError)
    assert tb.get_dtm(ban_position) is None
    assert tb.get_dtm(ban_position, default=0) == 0
    assert tb.probe_wdl(ban_position) in (-1, 1)
    failures = []
    out = tb.probe_dtm_many([ban_position], failures=failures)
    assert out[0] == jtb.FAILED_DTM and failures == [(0, message)]


# 10. Pickling and copying.

ROUND_TRIPS = [
    ("7/7/7/7/7/3l3/7/3E3/7 b 12", None),
    ("7/7/7/7/7/3l3/7/3E3/7 r", None),
    ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 3 17", None),
    ("7/7/7/7/7/3l3/7/3E3/7 r", "clesto"),
    ("7/7/R6/7/3L3/7/7/6e/7 r h:a7", "clesto"),
    ("7/7/7/7/7/3l3/7/3E3/7 r 7", "leiden"),
    ("4/4/4/c2L r", None),
    ("4/4/4/c2L b 33", None),
    ("?3/4/1?2/c2L r 12 ?:Tw", None),
    ("?3/4/1?2/c2L b ?:Tw", None),
    ("????/????/????/???? r", None),
    ("?3/4/1?2/c2L r", None),
    ("8/8/8/3E4/8/8/r7/7R g", None),
]


@pytest.mark.parametrize("text, rules", ROUND_TRIPS)
def test_positions_pickle_and_copy(text, rules):
    pos = jtb.Position(text, rules)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(pos, protocol))
        assert back == pos and type(back) is jtb.Position
        assert (str(back), back.rules, back.clock) == (str(pos), pos.rules, pos.clock)
        assert back.moves() == pos.moves()
    assert copy.copy(pos) is pos
    assert copy.deepcopy([pos])[0] is pos


def test_positions_cross_processes():
    positions = [jtb.Position(t, r) for t, r in ROUND_TRIPS]
    # Spawned workers share nothing with this process: each Position goes there and back.
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert pool.map(copy.copy, positions) == positions
        assert pool.map(operator.methodcaller("moves"), positions) == [p.moves() for p in positions]


# The version and `default=`.


def test_version_is_the_package_s():
    assert jtb.__version__ == importlib.metadata.version("jtb")


def test_get_returns_the_default_where_the_table_is_missing(tb):
    four = "7/7/7/7/7/3l3/w6/3ER2/7 r"
    sentinel = object()
    assert tb.get_wdl(four, default=sentinel) is sentinel
    assert tb.get_dtm(four, None, sentinel) is sentinel
    assert tb.get_wdl(JUNGLE, default=sentinel) == 1
    assert tb.get_dtm(JUNGLE, default=sentinel) == 17
    # Other errors still raise.
    with pytest.raises(jtb.PositionError):
        tb.get_wdl("7/7 r", default=0)
