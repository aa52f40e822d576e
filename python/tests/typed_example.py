"""Every public name of `jtb`, used with its types: CI checks this program with `mypy --strict`
against the package's stubs, and test_typing.py runs it over the test tables and checks that
it leaves no public name out.

Run: `python typed_example.py TABLE_DIR` (a table root with mistboard's, flip4x4's and Clesto's
tables of up to three pieces).
"""

import copy
import pathlib
import pickle
import sys
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

import jtb


def positions() -> None:
    """Positions, moves and play, without tables."""
    version: str = jtb.__version__
    assert version
    ids: List[str] = jtb.rule_sets()
    assert "mistboard" in ids
    pos = jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r 10")
    rules: str = pos.rules
    side: str = pos.side_to_move
    clock: Optional[int] = pos.clock
    assert (rules, side, clock) == ("mistboard", "red", 10)
    moves: List[str] = pos.moves()
    over: bool = pos.is_game_over()
    assert moves and not over
    after: Union[jtb.Position, jtb.GameEnd] = pos.play("d2d3")
    assert isinstance(after, jtb.Position)
    end = jtb.Position("7/7/7/7/7/3l3/3E3/7/7 r").play("d3d4")
    if isinstance(end, jtb.GameEnd):
        outcome: Tuple[str, str, str] = (end.result, end.mover, end.reason)
        assert outcome[:2] == ("win", "red")
    flips: List[Tuple[str, Fraction, jtb.Position]] = jtb.Position(
        "?3/4/1?2/c2L r 12 ?:Tw"
    ).flip_outcomes("?a4")
    assert sum(p for _, p, _ in flips) == 1
    same: jtb.Position = pickle.loads(pickle.dumps(pos))
    assert same == pos and copy.copy(pos) is pos and copy.deepcopy(pos) is pos
    assert len({pos, same}) == 1
    try:
        jtb.Position("7/7 r")
    except jtb.PositionError as e:
        assert isinstance(e, ValueError)


def probes(directory: pathlib.Path) -> None:
    """Every probe of a tablebase, inside `with`."""
    text = "7/7/7/7/7/3l3/7/3E3/7 r"
    either: jtb.PositionLike = jtb.Position(text)
    four = "7/7/7/7/7/3l3/w6/3ER2/7 r"
    with jtb.open_tablebase(directory, cache_mib=8) as tb:
        root: pathlib.Path = tb.directory
        assert root == directory
        wdl: int = tb.probe_wdl(either)
        dtm: int = tb.probe_dtm(jtb.Position(text), "mistboard")
        assert (wdl, dtm) == (1, 17)
        maybe: Optional[int] = tb.get_wdl(four)
        sure: Union[int, str] = tb.get_dtm(four, None, "missing")
        assert maybe is None and sure == "missing"
        also: Union[int, float] = tb.get_wdl(four, default=0.5)
        none: Optional[int] = tb.get_dtm(four)
        assert also == 0.5 and none is None
        answer: Dict[str, Any] = tb.probe(text, line=True)
        chance: Fraction = tb.probe("?3/4/1?2/3L r 5 ?:Tw")["score"]
        assert answer["line"] and 0 <= chance <= 1
        best: Optional[str] = tb.best_move(text)
        line: List[str] = tb.line(text)
        verdict: Dict[str, Any] = tb.adjudicate("7/7/7/7/7/3l3/7/3E3/7 r 90")
        assert best == line[0] and verdict["dead_draw"]
        failures: List[Tuple[int, str]] = []
        wdls: npt.NDArray[np.int8] = tb.probe_wdl_many([text, "x"], failures=failures)
        dtms: npt.NDArray[np.int32] = tb.probe_dtm_many(
            [jtb.Position(text), text], "mistboard", threads=1
        )
        assert wdls[1] == jtb.FAILED_WDL and failures[0][0] == 1
        assert dtms.tolist() == [17, 17] and jtb.FAILED_DTM < 0
        scanned: npt.NDArray[np.uint8] = jtb.positions("LvE", "mistboard", sample=100, seed=1)
        assert scanned.shape == (100, jtb.PACKED_LEN)
        packed: npt.NDArray[np.uint8] = np.frombuffer(jtb.Position(text).pack(), dtype=np.uint8)
        back: jtb.Position = jtb.unpack(packed)
        assert back == jtb.unpack(jtb.Position(text).pack()) == jtb.Position(text)
        fast: npt.NDArray[np.int8] = tb.probe_wdl_many(scanned)
        assert (fast != jtb.FAILED_WDL).all()
        try:
            tb.probe_wdl(four)
        except jtb.MissingTableError as e:
            assert isinstance(e, KeyError) and "jtb gen" in str(e)
        try:
            assert tb.probe_dtm(jtb.Position(text, "clesto")) > 0
        except jtb.NoDistanceError as e:
            assert isinstance(e, KeyError)
        except jtb.TableError as e:
            assert isinstance(e, OSError)
    plain: jtb.Tablebase = jtb.Tablebase(str(directory))
    plain.close()


def generation(directory: pathlib.Path) -> None:
    """Generation: the tables are there already, so none is made."""
    seen: List[Tuple[int, int, str]] = []

    def progress(done: int, total: int, material: str) -> None:
        seen.append((done, total, material))

    made: int = jtb.generate(
        directory, rules="mistboard", max_pieces=3, material="LvE", progress=progress
    )
    assert made == 0 and seen == [(1, 1, "EvL")]


def main(directory: pathlib.Path) -> None:
    positions()
    probes(directory)
    generation(directory)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
