"""Type stubs of the native module `jtb._jtb` (the Rust binding); use it through `jtb`."""

import os
import pathlib
from fractions import Fraction
import numpy as np
import numpy.typing as npt
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Type, TypeVar, Union, final

# Native classes: `Position` and `GameEnd` cannot be subclassed (`@final`), and `Tablebase`,
# which can, cannot share a subclass with another native base (`@disjoint_base`, PEP 800).
from typing_extensions import disjoint_base

__all__ = [
    "__version__",
    "Position",
    "GameEnd",
    "Tablebase",
    "generate",
    "rule_sets",
    "PositionError",
    "MissingTableError",
    "NoDistanceError",
    "TableError",
    "PACKED_LEN",
    "unpack",
    "_table_records",
]

__version__: str
PACKED_LEN: int

class PositionError(ValueError):
    """A text that is no position of its rule set, a move that is not legal, or a position no
    table can hold (a finished game, face-down tiles)."""

class MissingTableError(KeyError):
    """The tables do not cover the position (the message names the table and how to make it)."""

class NoDistanceError(KeyError):
    """A Clesto position that only the repetition ban decides: a value, but no distance to mate."""

class TableError(OSError):
    """A table file is unreadable, damaged or of another table."""

@final
class GameEnd:
    """How a game ended, for the side that made the last move."""

    @property
    def result(self) -> str:
        """`win`, `draw` or `loss` for the side that moved."""
    @property
    def mover(self) -> str:
        """The side that moved (`red`, `blue`, `gold`, `silver`)."""
    @property
    def reason(self) -> str:
        """Why the game ended, in words."""

@final
class Position:
    """A position of any of the four games: `Position(text, rules=None)`."""

    def __new__(cls, text: str, rules: Optional[str] = None) -> "Position": ...
    @property
    def rules(self) -> str:
        """The rule set's id."""
    @property
    def side_to_move(self) -> str:
        """`red` or `blue` (Animal Gambit: `gold` or `silver`)."""
    @property
    def clock(self) -> Optional[int]:
        """The half-move clock of the text, if it gave one."""
    def moves(self) -> List[str]:
        """The legal moves (turns) in canonical text, ASCII order."""
    def play(self, mv: str) -> Union["Position", GameEnd]:
        """The position after `mv`, or how the game ended."""
    def flip_outcomes(self, mv: str) -> List[Tuple[str, "Fraction", "Position"]]:
        """What the flip `mv` (`?a4`) may reveal: animal, probability, position."""
    def is_game_over(self) -> bool:
        """Whether no move can be played."""
    def pack(self) -> bytes:
        """The position as a record of `PACKED_LEN` bytes (`unpack` gives it back)."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> Tuple[Type["Position"], Tuple[str, str]]:
        """Pickled as its text and rule set."""
    def __copy__(self) -> "Position":
        """Itself: a Position is immutable."""
    def __deepcopy__(self, _memo: Any) -> "Position":
        """Itself: a Position is immutable."""

_PositionLike = Union[Position, str]
_Tablebase = TypeVar("_Tablebase", bound="Tablebase")

@disjoint_base
class Tablebase:
    """The tables of every rule set under one directory."""

    def __new__(
        cls: Type[_Tablebase], directory: Union[str, "os.PathLike[str]"], *, cache_mib: int = 64
    ) -> _Tablebase: ...
    @property
    def directory(self) -> pathlib.Path: ...
    def probe_wdl(self, pos: _PositionLike, rules: Optional[str] = None) -> int:
        """1, 0 or -1 for the side to move."""
    def probe_dtm(self, pos: _PositionLike, rules: Optional[str] = None) -> int:
        """The signed distance to mate for the side to move: 0 for a draw, and for a side
        with no move, which has lost at once (``probe_wdl`` tells the two apart);
        `NoDistanceError` for a Clesto position that only the repetition ban decides."""
    def probe(
        self, pos: _PositionLike, rules: Optional[str] = None, *, line: bool = False
    ) -> Dict[str, Any]:
        """Every field `jtb probe --json` gives; the chance values of a position with face-down
        tiles (`score`, `win`, `draw`, `loss`, `probability`, at every depth) as `Fraction`s, and
        `dte` (the plies of a certain result, an `int`, else `None`) for it and each move; a
        fully revealed flip position's certain result the same way (its rule value's `score`,
        `win`, `draw` and `loss`, and its `dte`)."""
    def best_move(self, pos: _PositionLike, rules: Optional[str] = None) -> Optional[str]: ...
    def line(self, pos: _PositionLike, rules: Optional[str] = None) -> List[str]:
        """The best line; `PositionError` for a position with face-down tiles."""
    def adjudicate(self, pos: _PositionLike, rules: Optional[str] = None) -> Dict[str, Any]: ...
    def _probe_many(
        self,
        positions: Sequence[_PositionLike],
        rules: Optional[str] = None,
        *,
        dtm: bool = False,
        threads: Optional[int] = None,
        failed: int = -(2**31),
    ) -> Tuple[bytes, List[Tuple[int, str]]]: ...
    def _probe_packed(
        self,
        data: Union[bytes, npt.NDArray[np.uint8]],
        rules: Optional[str] = None,
        *,
        dtm: bool = False,
        threads: Optional[int] = None,
        failed: int = -(2**31),
    ) -> Tuple[bytes, List[Tuple[int, str]]]: ...
    def close(self) -> None: ...
    def __enter__(self: _Tablebase) -> _Tablebase: ...
    def __exit__(self, *args: object) -> None: ...

def generate(
    directory: Union[str, "os.PathLike[str]"],
    *,
    rules: str = "mistboard",
    max_pieces: int = 4,
    materials: Optional[List[str]] = None,
    memory_limit_mib: Optional[int] = None,
    progress: Optional[Callable[[int, int, str], Any]] = None,
) -> int: ...
def rule_sets() -> List[str]:
    """Every rule set's id."""
def unpack(data: bytes) -> Position:
    """The position of a record that `Position.pack` made."""
def _table_records(
    material: str, rules: str, sample: Optional[int] = None, seed: int = 0
) -> bytes: ...
