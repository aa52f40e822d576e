"""Positions, moves and play through the package, against `jtb moves`."""

import pytest

import jtb
from conftest import GAMES, cli_json, random_positions


def test_the_board_shape_tells_the_rule_set():
    assert jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r").rules == "mistboard"
    assert jtb.Position("4/4/4/c2L r").rules == "flip4x4"
    assert jtb.Position("8/8/8/3E4/8/8/r7/7R g").rules == "animal-gambit"
    assert jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r", rules="clesto").rules == "clesto"


def test_text_side_clock_and_equality():
    pos = jtb.Position("7/7/7/7/7/3l3/7/3E3/7 b 12")
    assert str(pos) == "7/7/7/7/7/3l3/7/3E3/7 b 12"
    assert pos.side_to_move == "blue"
    assert pos.clock == 12
    assert jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r").clock is None
    assert pos == jtb.Position(str(pos))
    assert len({pos, jtb.Position(str(pos))}) == 1
    assert "mistboard" in repr(pos)
    assert jtb.Position("8/8/8/3E4/8/8/r7/7R s").side_to_move == "silver"


def test_play_gives_the_next_position_or_the_end():
    pos = jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r 10")
    nxt = pos.play("d2d3")
    assert isinstance(nxt, jtb.Position)
    assert str(nxt).startswith("7/7/7/7/7/3l3/3E3/7/7 b")
    assert nxt.clock == 11
    # The elephant takes the lion's last animal: the game ends.
    end = jtb.Position("7/7/7/7/7/3l3/3E3/7/7 r").play("d3d4")
    assert isinstance(end, jtb.GameEnd)
    assert (end.result, end.mover) == ("win", "red")
    assert end.reason
    with pytest.raises(jtb.PositionError, match="illegal move d2d5"):
        pos.play("d2d5")


def test_a_flip_lists_its_outcomes():
    from fractions import Fraction

    pos = jtb.Position("?3/4/1?2/c2L r 12 ?:wT")
    assert str(pos) == "?3/4/1?2/c2L r 12 ?:Tw"
    outcomes = pos.flip_outcomes("?a4")
    assert [(a, p, str(q)) for a, p, q in outcomes] == [
        ("T", Fraction(1, 2), "T3/4/1?2/c2L b 0 ?:w"),
        ("w", Fraction(1, 2), "w3/4/1?2/c2L b 0 ?:T"),
    ]
    with pytest.raises(jtb.PositionError, match="hidden set is not known"):
        jtb.Position("?3/4/1?2/c2L r").flip_outcomes("?a4")
    with pytest.raises(jtb.PositionError, match="illegal move d1d2"):
        pos.flip_outcomes("d1d2")
    with pytest.raises(jtb.PositionError, match="names 1 animal, but the board has 2"):
        jtb.Position("?3/4/1?2/c2L r ?:T")


def test_moves_at_the_clock_limit_and_face_down_tiles():
    over = jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r 100")
    assert over.moves() == []
    assert over.is_game_over()
    hidden = jtb.Position("?3/1e2/4/L2R r")
    assert "?a4" in hidden.moves()
    with pytest.raises(jtb.PositionError, match="face-down"):
        hidden.play("a1a2")


@pytest.mark.parametrize(
    "text, rules, message",
    [
        ("7/7 r", None, "board has 2 ranks"),
        ("7/7/7/7/7/3l3/7/3E3/7 x", None, "x"),
        ("7/7/7/7/7/3l3/7/3E3/7 r", "chess", "unknown rule set `chess`"),
        ("7/7/7/7/7/3l3/7/3E3/7 r 101", None, "101"),
        ("8/8/8/8/8/8/8/8 g", None, "no rabbit"),
    ],
)
def test_bad_positions_are_position_errors(text, rules, message):
    with pytest.raises(ValueError, match=message) as err:
        jtb.Position(text, rules=rules)
    if rules != "chess":
        assert isinstance(err.value, jtb.PositionError)


@pytest.mark.parametrize("rules", list(GAMES))
def test_moves_are_jtb_moves(jtb_bin, rules):
    texts = random_positions(rules, 40, seed=7)
    cli = cli_json(jtb_bin, ["moves", "--rules", rules], texts)
    for text, answer in zip(texts, cli):
        pos = jtb.Position(text, rules=rules)
        assert pos.moves() == answer["moves"], text
        assert pos.moves() == sorted(pos.moves())
        for mv in pos.moves()[:3]:
            assert isinstance(pos.play(mv), (jtb.Position, jtb.GameEnd))
