"""Every game's values through the package against `jtb probe --json` and `jtb adjudicate
--json`; batch probes against single ones; errors and their types; threads."""

import re
import shutil
import threading
from fractions import Fraction

import numpy as np
import pytest

import jtb
from conftest import GAMES, cli_json, random_positions, with_fractions


@pytest.mark.parametrize("rules", list(GAMES))
def test_probe_is_jtb_probe(jtb_bin, tables, tb, rules):
    texts = random_positions(rules, 150, seed=1)
    cli = cli_json(jtb_bin, ["probe", "--tables", str(tables), "--rules", rules], texts)
    dtm_sign = {"win": 1, "draw": 0, "loss": -1}
    for text, expected in zip(texts, cli):
        got = tb.probe(text, rules)
        # A revealed flip position's certain result is exact fractions, as Fractions.
        assert got == with_fractions(expected), text
        assert list(got) == list(expected), "the same fields in the same order"
        assert tb.probe_wdl(text, rules) == dtm_sign[got["wdl"]]
        assert tb.best_move(text, rules) == got["best"]
        if got["wdl"] == "draw":
            assert tb.probe_dtm(text, rules) == 0
        elif got["dtm"] is None:
            # Clesto: only the repetition ban decides it.
            assert rules == "clesto" and got["category"].startswith("ban-")
            with pytest.raises(jtb.NoDistanceError, match="repetition ban"):
                tb.probe_dtm(text, rules)
        else:
            assert tb.probe_dtm(text, rules) == dtm_sign[got["wdl"]] * got["dtm"]


@pytest.mark.parametrize("rules", list(GAMES))
def test_lines_and_adjudication_are_the_cli_s(jtb_bin, tables, tb, rules):
    texts = random_positions(rules, 40, seed=2)
    args = ["--tables", str(tables), "--rules", rules]
    lines = cli_json(jtb_bin, ["probe", "--line", *args], texts)
    verdicts = cli_json(jtb_bin, ["adjudicate", *args], texts)
    for text, line, verdict in zip(texts, lines, verdicts):
        assert tb.line(text, rules) == line["line"], text
        assert tb.probe(text, rules, line=True) == with_fractions(line)
        if "error" in verdict:
            with pytest.raises((jtb.PositionError, jtb.MissingTableError)):
                tb.adjudicate(text, rules)
        else:
            assert tb.adjudicate(text, rules) == verdict, text


def test_a_position_object_is_probed_at_its_clock(tb):
    pos = jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r 90")
    assert tb.probe(pos)["clock"] == 90
    assert tb.probe(pos)["rule_wdl"] == "draw"
    assert tb.probe_wdl(pos) == 1
    assert tb.probe(str(pos)) == tb.probe(pos)


@pytest.mark.parametrize("rules", list(GAMES))
def test_batches_equal_single_probes(tb, rules):
    texts = random_positions(rules, 300, seed=3)
    texts.insert(17, "not a position")
    failures = []
    wdl = tb.probe_wdl_many(texts, rules, failures=failures)
    dtm_failures = []
    dtm = tb.probe_dtm_many(texts, rules, threads=1, failures=dtm_failures)
    assert wdl.dtype == np.int8 and wdl.shape == (len(texts),)
    assert dtm.dtype == np.int32 and dtm.shape == (len(texts),)
    assert [i for i, _ in failures] == [17]
    assert "not a position" not in failures[0][1] and failures[0][1]
    assert wdl[17] == jtb.FAILED_WDL and dtm[17] == jtb.FAILED_DTM
    for i, text in enumerate(texts):
        if i == 17:
            continue
        assert wdl[i] == tb.probe_wdl(text, rules)
        single = tb.get_dtm(text, rules)
        # None: Clesto's positions that only the repetition ban decides, which fail.
        assert dtm[i] == (jtb.FAILED_DTM if single is None else single)
    assert (tb.probe_wdl_many(texts, rules, threads=2) == wdl).all()


def test_missing_tables_are_key_errors_naming_the_table(tb):
    four = "7/7/7/7/7/3l3/w6/3ER2/7 r"
    assert tb.get_wdl(four) is None
    assert tb.get_dtm(four) is None
    with pytest.raises(KeyError) as err:
        tb.probe_wdl(four)
    assert isinstance(err.value, jtb.MissingTableError)
    assert "4 pieces" in str(err.value) or "jtb gen" in str(err.value)
    # A rule set without tables at all is a missing table too.
    with pytest.raises(jtb.MissingTableError):
        tb.probe_wdl("7/7/7/7/7/3l3/7/3E3/7 r", "leiden")
    failures = []
    out = tb.probe_wdl_many([four], failures=failures)
    assert out[0] == jtb.FAILED_WDL and failures[0][0] == 0


def test_errors_say_what_the_cli_says(jtb_bin, tables, tmp_path):
    root = tmp_path / "some"
    shutil.copytree(tables / "mistboard", root / "mistboard")
    for f in (root / "mistboard").glob("EvL.*"):
        f.unlink()
    texts = [
        "7/7/7/7/7/3l3/7/3E3/7 r",  # EvL, removed
        "7/7/7/7/7/3l3/w6/3ER2/7 r",  # 4 pieces
        "7/7/7/7/7/3l3/7/3E3/7 q",  # no side to move
        "8/8/8/3E4/8/8/r7/7R g",  # Animal Gambit under mistboard
    ]
    cli = cli_json(jtb_bin, ["probe", "--tables", str(root), "--rules", "mistboard"], texts)
    kinds = [jtb.MissingTableError, jtb.MissingTableError, jtb.PositionError, jtb.PositionError]
    with jtb.open_tablebase(root) as tb:
        for text, answer, kind in zip(texts, cli, kinds):
            with pytest.raises(kind) as err:
                tb.probe(text, "mistboard")
            assert str(err.value) == answer["error"], text
    assert "jtb gen --rules mistboard --material EvL" in cli[0]["error"]


def test_a_truncated_table_is_a_table_error(tables, tmp_path):
    root = tmp_path / "truncated"
    shutil.copytree(tables / "mistboard", root / "mistboard")
    dtm = root / "mistboard" / "EvL.dtm"
    dtm.write_bytes(dtm.read_bytes()[:100])
    with jtb.open_tablebase(root) as tb:
        with pytest.raises(jtb.TableError, match="EvL"):
            tb.probe_dtm("7/7/7/7/7/3l3/7/3E3/7 r")
        failures = []
        assert tb.probe_dtm_many(["7/7/7/7/7/3l3/7/3E3/7 r"], failures=failures)[0] == jtb.FAILED_DTM
        assert "EvL" in failures[0][1]


def test_damaged_tables_are_os_errors(tables, tmp_path):
    root = tmp_path / "damaged"
    shutil.copytree(tables / "mistboard", root / "mistboard")
    for f in (root / "mistboard").iterdir():
        if f.name.startswith("EvL") or f.name.startswith("LvE"):
            data = bytearray(f.read_bytes())
            data[0] ^= 0xFF
            f.write_bytes(bytes(data))
    with jtb.open_tablebase(root) as tb:
        with pytest.raises(OSError) as err:
            tb.probe_dtm("7/7/7/7/7/3l3/7/3E3/7 r")
        assert isinstance(err.value, jtb.TableError)
        assert "magic" in str(err.value) or "damaged" in str(err.value) or "not a" in str(err.value)
        # Other tables still answer.
        assert tb.probe_wdl("7/7/7/7/7/3t3/7/3E3/7 r") in (-1, 0, 1)


def test_open_and_close(tables, tmp_path):
    with pytest.raises(FileNotFoundError):
        jtb.open_tablebase(tmp_path / "nowhere")
    tb = jtb.open_tablebase(tables, cache_mib=1)
    assert tb.directory == tables
    tb.close()
    with pytest.raises(ValueError, match="closed"):
        tb.probe_wdl("7/7/7/7/7/3l3/7/3E3/7 r")
    with pytest.raises(TypeError):
        jtb.open_tablebase(tables).probe_wdl(42)


def test_threads_share_one_tablebase(tables):
    texts = random_positions("mistboard", 200, seed=4)
    with jtb.open_tablebase(tables) as tb:
        expected = [tb.probe(t) for t in texts]
    with jtb.open_tablebase(tables) as tb:
        results = {}

        def work(k):
            results[k] = [tb.probe(t) for t in texts]

        threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert all(results[k] == expected for k in range(6))


def test_face_down_positions_are_jtb_probe(jtb_bin, tables, tb):
    """The flip game with face-down tiles (RULES.md 8): `jtb.generate` made the chance tables
    beside the revealed ones, and `probe()` gives `jtb probe --json`'s exact fractions (as
    Fractions)."""
    texts = [
        "?3/4/1?2/3L r 5 ?:Tw",
        "?3/4/1?2/3L b 17 ?:Tw",
        "?3/4/4/3? r ?:Tw",
        "1?2/4/4/2?1 r 39 ?:Pc",
        "?3/4/1w2/3L r 3 ?:T",
    ]
    cli = cli_json(jtb_bin, ["probe", "--tables", str(tables)], texts)
    for text, expected in zip(texts, cli):
        got = tb.probe(text)
        assert got == with_fractions(expected), text
        assert list(got) == list(expected)
        assert got["best"] == tb.best_move(text)
        for field in ("score", "win", "draw", "loss"):
            assert isinstance(got[field], Fraction)
        with pytest.raises(jtb.PositionError, match="chance tables"):
            tb.probe_wdl(text)
    with pytest.raises(jtb.PositionError, match="`\\?:` field"):
        tb.probe("?3/4/4/3L r")


def test_a_revealed_flip_position_has_its_certain_result(jtb_bin, tables, tb):
    """A fully revealed flip position (RULES.md 8) answers its rule value's score, win, draw
    and loss as Fractions, and its DTE, as `jtb probe --json` does."""
    texts = ["4/1LRe/4/4 r 30", "4/1c2/4/E3 b 5", "4/2cE/4/1L2 r 3"]
    cli = cli_json(jtb_bin, ["probe", "--tables", str(tables), "--rules", "flip4x4"], texts)
    for text, expected in zip(texts, cli):
        got = tb.probe(text, "flip4x4")
        assert got == with_fractions(expected), text
        for field in ("score", "win", "draw", "loss"):
            assert isinstance(got[field], Fraction)
    assert tb.probe(texts[0], "flip4x4")["dte"] == 1
    assert tb.probe(texts[1], "flip4x4")["score"] == Fraction(1, 2)
    assert tb.probe(texts[1], "flip4x4")["dte"] is None


WDL_NUMBER = {"win": 1, "draw": 0, "loss": -1}


@pytest.mark.parametrize("rules", list(GAMES))
def test_a_set_of_wdl_files_alone_answers_wdl(tables, tmp_path, tb, rules):
    """An engine's set: the `.wdl` files alone answer `probe_wdl`, `get_wdl` and the batch as
    the whole set's DTM file does (`probe()`'s `wdl`, read from the other file); a distance is
    a MissingTableError naming the DTM file it needs."""
    (tmp_path / rules).mkdir()
    for f in (tables / rules).glob("*.wdl"):
        shutil.copy(f, tmp_path / rules / f.name)
    texts = random_positions(rules, 300, 7)
    with jtb.open_tablebase(tmp_path) as wdl_only:
        answered = 0
        for text in texts:
            try:
                expected = WDL_NUMBER[tb.probe(text, rules)["wdl"]]
            except (jtb.PositionError, jtb.MissingTableError, KeyError):
                continue  # no single value (face-down tiles), or no table
            assert wdl_only.probe_wdl(text, rules) == expected, text
            assert wdl_only.get_wdl(text, rules) == expected
            answered += 1
        assert answered > 50, answered
        whole = tb.probe_wdl_many(texts, rules)
        assert list(wdl_only.probe_wdl_many(texts, rules)) == list(whole)
        some = next(t for t, v in zip(texts, whole) if v != jtb.FAILED_WDL)
        with pytest.raises(jtb.MissingTableError, match=r"no DTM file for table \S+: .*\.dtm"):
            wdl_only.probe_dtm(some, rules)
        assert wdl_only.get_dtm(some, rules) is None
        # `probe()` answers what the WDL file holds: the rest is None, and `missing` names
        # the file; a best move or a line is a MissingTableError.
        whole_answer = tb.probe(some, rules, line=True)
        answer = wdl_only.probe(some, rules, line=True)
        assert answer["wdl"] == whole_answer["wdl"]
        assert answer["dtm"] is None and answer["line"] is None
        assert "missing" not in whole_answer
        assert re.search(r"no DTM file for table \S+: .*\.dtm", answer["missing"])
        for ask in (wdl_only.best_move, wdl_only.line):
            with pytest.raises(jtb.MissingTableError, match="no DTM file"):
                ask(some, rules)


def test_a_rule_set_without_tables_names_the_command_that_makes_them(tmp_path):
    with jtb.open_tablebase(tmp_path) as empty:
        with pytest.raises(jtb.MissingTableError, match=r"no tables for rule set clesto: .*jtb gen --rules clesto"):
            empty.probe_wdl("7/7/7/7/7/3l3/7/3E3/7 r", "clesto")


@pytest.mark.parametrize("rules", list(GAMES))
def test_packed_positions_come_back_and_probe_as_their_texts(tb, rules):
    """`Position.pack` and `jtb.unpack` are inverses, and a batch over packed positions gives
    what the batch over the same positions' texts gives, failures included."""
    texts = random_positions(rules, 300, 11)
    positions = [jtb.Position(t, rules=rules) for t in texts]
    for pos in positions:
        record = pos.pack()
        assert len(record) == jtb.PACKED_LEN
        assert jtb.unpack(record) == pos
    packed = np.array([np.frombuffer(p.pack(), dtype=np.uint8) for p in positions])
    assert all(jtb.unpack(row) == pos for row, pos in zip(packed, positions))
    for many, failed in ((tb.probe_wdl_many, jtb.FAILED_WDL), (tb.probe_dtm_many, jtb.FAILED_DTM)):
        by_text, by_record = [], []
        expected = many(texts, rules, failures=by_text)
        got = many(packed, rules, failures=by_record)
        assert got.dtype == expected.dtype
        assert got.tolist() == expected.tolist()
        assert [i for i, _ in by_record] == [i for i, _ in by_text]
        assert all(got[i] == failed for i, _ in by_record)


def test_bad_packed_positions_are_refused(tb):
    record = bytearray(jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r").pack())
    with pytest.raises(jtb.PositionError, match="48 bytes, not 47"):
        jtb.unpack(bytes(record[:-1]))
    record[0] = 9
    with pytest.raises(jtb.PositionError, match="unknown rule set code 9"):
        jtb.unpack(record)
    arr = np.zeros((2, jtb.PACKED_LEN), dtype=np.uint8)
    failures = []
    values = tb.probe_wdl_many(arr, failures=failures)
    assert values.tolist() == [jtb.FAILED_WDL] * 2
    assert [i for i, _ in failures] == [0, 1] and "unknown rule set code 0" in failures[0][1]
    with pytest.raises(TypeError, match="uint8"):
        tb.probe_wdl_many(arr.astype(np.int32))
    with pytest.raises(ValueError, match="rows of 48 bytes"):
        tb.probe_wdl_many(np.zeros((2, 40), dtype=np.uint8))
    # A record of another rule set than the one asked fails, as a Position would.
    clesto = np.frombuffer(jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r", "clesto").pack(), np.uint8)
    failures = []
    tb.probe_wdl_many(clesto.reshape(1, -1), "mistboard", failures=failures)
    assert "a position of rule set clesto, not mistboard" in failures[0][1]


def test_positions_of_a_table_are_its_positions(tb):
    """`jtb.positions` lists a table whole (each position once, every one probed as the table
    says) or samples it, the same for the same seed."""
    every = jtb.positions("EvL")
    assert every.dtype == np.uint8 and every.shape[1] == jtb.PACKED_LEN
    texts = [str(jtb.unpack(r)) for r in every]
    assert len(set(texts)) == len(texts) > 1000
    assert all(jtb.unpack(r).rules == "mistboard" for r in every[:50])
    # Each is in the table: none fails.
    failures = []
    tb.probe_wdl_many(every, failures=failures)
    assert failures == []
    drawn = jtb.positions("LvE", sample=200, seed=3)
    assert drawn.shape == (200, jtb.PACKED_LEN)
    assert set(str(jtb.unpack(r)) for r in drawn) <= set(texts)
    assert (jtb.positions("LvE", sample=200, seed=3) == drawn).all()
    gambit = jtb.positions("RvR", "animal-gambit", sample=50)
    assert all(jtb.unpack(r).rules == "animal-gambit" for r in gambit)
    with pytest.raises(ValueError, match="chance table"):
        jtb.positions("LvE-Tw", "flip4x4")
    with pytest.raises(ValueError):
        jtb.positions("LvX")


def test_a_certain_result_has_its_distance(jtb_bin, tables, tb):
    """RULES.md 8: a score of 1 or 0 comes with its DTE (an int), every move with its DTE worth,
    and the best move is the shortest certain win; other scores have `None`."""
    text = "4/2cE/2?1/4 r 34 ?:P"
    got = tb.probe(text)
    [expected] = cli_json(jtb_bin, ["probe", "--tables", str(tables)], [text])
    assert got == with_fractions(expected)
    assert got["score"] == 1 and got["dte"] == 1 and type(got["dte"]) is int
    assert got["best"] == "d3c3"
    flip = next(m for m in got["moves"] if m["move"] == "?c2")
    assert flip["score"] == 1 and flip["dte"] > 1
    uncertain = tb.probe("4/?e1?/4/4 r 0 ?:EC")
    assert 0 < uncertain["score"] < 1 and uncertain["dte"] is None
    assert all(m["dte"] is None for m in uncertain["moves"] if 0 < m["score"] < 1)
