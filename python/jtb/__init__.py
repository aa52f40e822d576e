"""Endgame tablebases of Jungle, the Mistboard flip game, Clesto and Animal Gambit.

A python-chess style binding of jungle-tablebase::

    >>> import jtb
    >>> pos = jtb.Position("7/7/7/7/7/3l3/7/3E3/7 r")
    >>> pos.rules, pos.side_to_move
    ('mistboard', 'red')
    >>> with jtb.open_tablebase("tables") as tb:   # doctest: +SKIP
    ...     tb.probe_wdl(pos)
    1

Positions are texts as the ``jtb`` command takes them (see the README); wherever a position is
taken, a :class:`Position` or its text is accepted. A :class:`Position` given with ``rules=``
must be of that rule set (:class:`PositionError` otherwise).
"""

from __future__ import annotations

import importlib
import os
from typing import (
    Any,
    Callable,
    Iterable,
    List,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
    overload,
)

import numpy as np
import numpy.typing as npt

from ._jtb import (
    PACKED_LEN,
    GameEnd,
    MissingTableError,
    NoDistanceError,
    Position,
    PositionError,
    TableError,
    rule_sets,
)
from ._jtb import __version__ as __version__
from ._jtb import Tablebase as _Tablebase
from ._jtb import _table_records
from ._jtb import generate as _generate
from ._jtb import unpack as _unpack

__all__ = [
    "FAILED_DTM",
    "FAILED_WDL",
    "GameEnd",
    "MissingTableError",
    "NoDistanceError",
    "PACKED_LEN",
    "Position",
    "PositionError",
    "TableError",
    "Tablebase",
    "generate",
    "open_tablebase",
    "positions",
    "rule_sets",
    "unpack",
]


def _message(self: KeyError) -> str:
    """The message as the CLI says it, where a KeyError's str() would quote it."""
    return str(self.args[0]) if self.args else ""


MissingTableError.__str__ = _message  # type: ignore[assignment]
NoDistanceError.__str__ = _message  # type: ignore[assignment]

#: The value :meth:`Tablebase.probe_wdl_many` gives a text that got no WDL.
FAILED_WDL: int = -128
#: The value :meth:`Tablebase.probe_dtm_many` gives a text that got no DTM.
FAILED_DTM: int = -(2**31)

#: A position argument: a :class:`Position`, or its text.
PositionLike = Union[Position, str]

_Default = TypeVar("_Default")


class Tablebase(_Tablebase):
    """The tables of every rule set under one directory (``jtb gen``'s layout: a rule set's
    tables in ``DIR/<rules>/``), each rule set's opened on first use. Thread-safe: probes release
    the GIL and may run from many threads at once. A context manager: leaving it closes the
    tablebase.

    ``probe_wdl`` and ``probe_dtm`` raise :class:`MissingTableError` where the tables do not
    cover the position (and ``probe_dtm`` :class:`NoDistanceError` for a Clesto position that
    only the repetition ban decides); ``get_wdl`` and ``get_dtm`` return ``default`` there
    instead, as python-chess's do.
    """

    @overload
    def get_wdl(self, pos: PositionLike, rules: Optional[str] = None) -> Optional[int]: ...
    @overload
    def get_wdl(
        self, pos: PositionLike, rules: Optional[str], default: _Default
    ) -> Union[int, _Default]: ...
    @overload
    def get_wdl(
        self, pos: PositionLike, rules: Optional[str] = None, *, default: _Default
    ) -> Union[int, _Default]: ...
    def get_wdl(self, pos: PositionLike, rules: Optional[str] = None, default: Any = None) -> Any:
        """As :meth:`probe_wdl`, but ``default`` where the table is missing."""
        try:
            return self.probe_wdl(pos, rules)
        except MissingTableError:
            return default

    @overload
    def get_dtm(self, pos: PositionLike, rules: Optional[str] = None) -> Optional[int]: ...
    @overload
    def get_dtm(
        self, pos: PositionLike, rules: Optional[str], default: _Default
    ) -> Union[int, _Default]: ...
    @overload
    def get_dtm(
        self, pos: PositionLike, rules: Optional[str] = None, *, default: _Default
    ) -> Union[int, _Default]: ...
    def get_dtm(self, pos: PositionLike, rules: Optional[str] = None, default: Any = None) -> Any:
        """As :meth:`probe_dtm`, but ``default`` where the table is missing or the position has
        no distance to mate (:class:`NoDistanceError`)."""
        try:
            return self.probe_dtm(pos, rules)
        except (MissingTableError, NoDistanceError):
            return default

    def probe_wdl_many(
        self,
        positions: Union[Iterable[PositionLike], npt.NDArray[np.uint8]],
        rules: Optional[str] = None,
        *,
        threads: Optional[int] = None,
        failures: Optional[List[Tuple[int, str]]] = None,
    ) -> npt.NDArray[np.int8]:
        """WDL (1, 0, -1 for the side to move) of each position, as an ``int8`` array.

        ``positions`` is a sequence (or any iterable, but not one text) of :class:`Position`
        objects, texts parsed under ``rules`` (else by their shape), or both mixed; or, the fast
        path with nothing to parse, a ``uint8`` array of packed positions, one per row of
        :data:`PACKED_LEN` bytes (:meth:`Position.pack`, :func:`positions`). The GIL is
        released and every core is used (``threads`` to choose how many). A position that gets
        no value (a malformed text, a missing table, ...) gets :data:`FAILED_WDL`, and when
        ``failures`` is a list, ``(index, message)`` of each such position is appended to it:
        one bad text never loses the batch. Raises :class:`TypeError` for an item that is
        neither a Position nor a text, and :class:`PositionError` for a Position of another
        rule set than ``rules``.
        """
        return self._many(positions, rules, False, threads, failures, FAILED_WDL)

    def probe_dtm_many(
        self,
        positions: Union[Iterable[PositionLike], npt.NDArray[np.uint8]],
        rules: Optional[str] = None,
        *,
        threads: Optional[int] = None,
        failures: Optional[List[Tuple[int, str]]] = None,
    ) -> npt.NDArray[np.int32]:
        """Signed distance to mate of each position, as an ``int32`` array; a position that
        gets none gets :data:`FAILED_DTM` (see :meth:`probe_wdl_many`), a Clesto position that
        only the repetition ban decides among them (:class:`NoDistanceError`'s message)."""
        return self._many(positions, rules, True, threads, failures, FAILED_DTM)

    def _many(
        self,
        positions: Union[Iterable[PositionLike], npt.NDArray[np.uint8]],
        rules: Optional[str],
        dtm: bool,
        threads: Optional[int],
        failures: Optional[List[Tuple[int, str]]],
        failed: int,
    ) -> npt.NDArray[Any]:
        """The batch probe, as an ``int8`` array of WDLs or an ``int32`` array of distances;
        failures appended to ``failures``."""
        # Checked before probing: a batch may take minutes, and its failures would be lost.
        if failures is not None and not isinstance(failures, list):
            raise TypeError(f"failures must be None or a list, got a {type(failures).__name__}")
        if isinstance(positions, np.ndarray):
            data, failed_at = self._probe_packed(
                _packed_bytes(positions), rules, dtm=dtm, threads=threads, failed=failed
            )
        else:
            # A text is a sequence too: of one-character texts, none of them a position.
            if isinstance(positions, (str, bytes, bytearray)):
                raise TypeError(
                    f"expected a sequence of positions, got a {type(positions).__name__}"
                )
            items = positions if isinstance(positions, (list, tuple)) else list(positions)
            data, failed_at = self._probe_many(
                items, rules, dtm=dtm, threads=threads, failed=failed
            )
        if failures is not None:
            failures.extend(failed_at)
        # (A copy: an array over `bytes` would be read-only.)
        return np.frombuffer(data, dtype="<i4" if dtm else np.int8).astype(
            np.int32 if dtm else np.int8
        )


def _packed_bytes(array: npt.NDArray[Any]) -> npt.NDArray[np.uint8]:
    """An array of packed positions as the batch reads it: ``uint8``, one position a row of
    :data:`PACKED_LEN` bytes (or one position alone, a row of its own), C-contiguous (a copy
    only where it is not)."""
    if array.dtype != np.uint8:
        raise TypeError(f"packed positions are a uint8 array, not {array.dtype}")
    if array.ndim not in (1, 2) or array.shape[-1] != PACKED_LEN:
        raise ValueError(
            f"packed positions are rows of {PACKED_LEN} bytes: an array of shape {array.shape} "
            "is not"
        )
    return np.ascontiguousarray(array)


def unpack(record: Union[bytes, bytearray, memoryview, npt.NDArray[np.uint8]]) -> Position:
    """The :class:`Position` of a packed record (:meth:`Position.pack`: :data:`PACKED_LEN`
    bytes, or a row of an array of them). Raises :class:`PositionError` for bytes that are no
    position (every placement rule of the text is checked)."""
    if isinstance(record, np.ndarray):
        return _unpack(_packed_bytes(record).tobytes())
    return _unpack(bytes(record))


def positions(
    material: str,
    rules: str = "mistboard",
    *,
    sample: Optional[int] = None,
    seed: int = 0,
) -> npt.NDArray[np.uint8]:
    """The positions of a table, packed: a ``uint8`` array of one position per row of
    :data:`PACKED_LEN` bytes, for :meth:`Tablebase.probe_wdl_many` and
    :func:`unpack`.

    Every legal position the table of ``material`` stores (either orientation names it), both
    sides to move, in its index order, one of each pair that a symmetry of the table folds
    together; or, with ``sample``, that many drawn uniformly among them with replacement, the
    same for the same ``seed``. A flip-game chance table's positions are not listed. Needs no
    table file. Raises :class:`ValueError` for a material or rule set that names no table.
    """
    if sample is not None and sample < 0:
        raise ValueError("sample must be at least 0")
    data = _table_records(material, rules, sample, seed)
    return np.frombuffer(data, dtype=np.uint8).reshape(-1, PACKED_LEN).copy()


def open_tablebase(directory: Union[str, "os.PathLike[str]"], *, cache_mib: int = 64) -> Tablebase:
    """Opens the tables under ``directory``, with a cache of decoded blocks of up to
    ``cache_mib`` MiB per rule set. Nothing is read until the first probe.

    Raises :class:`FileNotFoundError` when ``directory`` is not a directory.
    """
    return Tablebase(os.fspath(directory), cache_mib=cache_mib)


def generate(
    directory: Union[str, "os.PathLike[str]"],
    *,
    rules: str = "mistboard",
    max_pieces: int = 4,
    material: Union[str, Sequence[str], None] = None,
    memory_limit_mib: Optional[int] = None,
    progress: Optional[Callable[[int, int, str], Any]] = None,
) -> int:
    """Generates tables into ``directory/<rules>/`` as ``jtb gen`` does: every material of 2 up
    to ``max_pieces`` pieces, or the ``material`` named (one, or a list) and every table it
    needs. Under ``flip4x4`` also the chance tables of positions with face-down tiles (RULES.md
    8): every one of up to ``max_pieces`` tiles, or those named like ``"LvE-Tw"``. Present and
    intact tables are kept, so an interrupted generation resumes.

    ``progress(done, total, material)`` is called as each table is done; without it, a tqdm
    bar is shown where tqdm is installed. Returns how many tables were generated (not kept).
    Raises :class:`ValueError` for an unknown rule set or material, :class:`OSError` when
    writing fails or the memory limit is too small.
    """
    materials = [material] if isinstance(material, str) else list(material or [])
    bar: Any = None
    if progress is None:
        try:
            # tqdm is optional and has no types: imported by name, for type checkers to skip.
            tqdm = importlib.import_module("tqdm.auto").tqdm
        except ImportError:
            pass
        else:
            bar = tqdm(unit="table", desc=f"jtb gen {rules}")

            def progress(done: int, total: int, material: str) -> None:
                if bar.total != total:
                    bar.total = total
                bar.set_postfix_str(material)
                bar.update(done - bar.n)

    try:
        return _generate(
            os.fspath(directory),
            rules=rules,
            max_pieces=max_pieces,
            materials=materials,
            memory_limit_mib=memory_limit_mib,
            progress=progress,
        )
    finally:
        if bar is not None:
            bar.close()
