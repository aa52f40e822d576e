"""The stubs: typed_example.py uses every public name, runs, and passes `mypy --strict`."""

import ast
import pathlib
import subprocess
import sys

import pytest

import jtb

EXAMPLE = pathlib.Path(__file__).with_name("typed_example.py")


def public_names():
    """Every public name of the package: `__all__`, `__version__`, and the public attributes of
    its classes."""
    names = set(jtb.__all__) | {"__version__"}
    for cls in (jtb.Position, jtb.GameEnd, jtb.Tablebase):
        names |= {n for n in dir(cls) if not n.startswith("_")}
    return names


def test_the_typed_example_uses_every_public_name():
    tree = ast.parse(EXAMPLE.read_text())
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert public_names() - used == set()


def test_the_typed_example_runs(tables):
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), str(tables)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr


def test_the_typed_example_passes_mypy_strict():
    pytest.importorskip("mypy")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout
