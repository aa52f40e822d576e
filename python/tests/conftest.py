"""Fixtures: every game's tables up to three pieces, made once by `jtb.generate`, and the `jtb`
command the package's answers are checked against."""

import os
import pathlib
import random
import shutil
import subprocess

import pytest

import jtb

REPO = pathlib.Path(__file__).resolve().parents[2]

#: The rule sets whose tables the tests generate, and the letters of their pieces.
GAMES = {
    "mistboard": "RCDWPTLE",
    "flip4x4": "RCDWPTLE",
    "clesto": "RCDWPTLE",
    "animal-gambit": "EMHDCR",
}


@pytest.fixture(scope="session")
def jtb_bin():
    """The `jtb` command: $JTB_BIN, else the workspace's build (debug, then release)."""
    candidates = [os.environ.get("JTB_BIN")] + [
        str(REPO / "target" / profile / "jtb") for profile in ("debug", "release")
    ]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    found = shutil.which("jtb")
    if found:
        return found
    pytest.fail("no jtb binary: run `cargo build -p jtb` or set JTB_BIN")


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """A table root with every table up to 3 pieces of mistboard, flip4x4, clesto and
    animal-gambit."""
    root = tmp_path_factory.mktemp("tables")
    for rules in GAMES:
        jtb.generate(root, rules=rules, max_pieces=3, progress=lambda *_: None)
    return root


@pytest.fixture(scope="session")
def tb(tables):
    with jtb.open_tablebase(tables) as tb:
        yield tb


def board_text(rules, rng, pieces):
    """A random board of `pieces` (letters, upper case the first side) as position text, side to
    move chosen at random. Not every such text is a legal position."""
    if rules == "animal-gambit":
        files, ranks, sides = 8, 8, "gs"
    elif rules == "flip4x4":
        files, ranks, sides = 4, 4, "rb"
    else:
        files, ranks, sides = 7, 9, "rb"
    squares = rng.sample(range(files * ranks), len(pieces))
    grid = [[None] * files for _ in range(ranks)]
    for letter, sq in zip(pieces, squares):
        grid[sq // files][sq % files] = letter
    rows = []
    for row in grid:
        text, empty = "", 0
        for cell in row:
            if cell is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += cell
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows) + " " + rng.choice(sides)


def random_positions(rules, count, seed, max_pieces=3):
    """`count` random legal positions of `rules` with 2 to `max_pieces` pieces, as texts."""
    rng = random.Random(seed)
    letters = GAMES[rules]
    out = []
    while len(out) < count:
        n = rng.randint(2, max_pieces)
        first = rng.randint(1, n - 1)
        pieces = [rng.choice(letters).upper() for _ in range(first)]
        pieces += [rng.choice(letters).lower() for _ in range(n - first)]
        text = board_text(rules, rng, pieces)
        try:
            pos = jtb.Position(text, rules=rules)
        except jtb.PositionError:
            continue
        if pos.is_game_over():
            continue
        out.append(text)
    return out


#: The fields of `probe()`'s chance values (RULES.md 8), at every depth of its answer.
CHANCE_FIELDS = ("score", "win", "draw", "loss", "probability")


def with_fractions(answer):
    """`jtb probe --json`'s answer of a position with face-down tiles as `probe()` gives it:
    its chance values, JSON strings, as Fractions."""
    from fractions import Fraction

    if isinstance(answer, list):
        return [with_fractions(a) for a in answer]
    if isinstance(answer, dict):
        return {
            k: Fraction(v) if k in CHANCE_FIELDS else with_fractions(v) for k, v in answer.items()
        }
    return answer


def cli_json(jtb_bin, args, texts):
    """`jtb <args> --json -` over `texts`: one parsed JSON object per text."""
    import json

    run = subprocess.run(
        [jtb_bin, *args, "--json", "-"],
        input="\n".join(texts) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    lines = run.stdout.splitlines()
    assert len(lines) == len(texts), run.stderr
    return [json.loads(line) for line in lines]
