"""Probe dtb endgame tables of international draughts from Python.

A module over libdtb, the C library of dtb (capi/dtb.h), through ctypes:
the standard library alone, Python 3.9 or later. Modelled on
python-chess's ``chess.syzygy``::

    import dtb

    with dtb.open_tablebase("tables") as tb:
        r = tb.probe("W:WK10:BK5")          # Probe(value=Value.WIN, ..., wdl=Category.WIN, distance=3, dtw=3)
        tb.probe_wdl("W:WK2,6:BK50", class_played=2)   # Category.CURSED_WIN, 1
        tb.best_move("W:WK2,6:BK50").notation           # '2-11'

Install it with the library inside, from the repository root (Go and a
C compiler; nothing is fetched from a package index)::

    python3 -m venv env && env/bin/pip install ./python

or build the library into the source folder and put that on the path::

    go build -buildmode=c-shared -o python/dtb/libdtb.so ./capi

``open_tablebase`` loads the library from, in this order: its
``library`` argument, the environment variable ``DTB_LIBRARY``, the
directory of this package (libdtb.so, libdtb.dylib, dtb.dll or
libdtb.dll), and the system's loader (``ctypes.util.find_library("dtb")``,
then ``libdtb.so`` on the loader's path).

Positions are FEN strings as dtb reads them ("W:WK10:BK5"); the clocks
are those of docs/engines.md, both plies already played: ``class_played``
on the class clock of class A or B, ``rule2_played`` since the last man
move or capture. Values are for the side to move, distances in plies,
None where the tables hold none. Value and Category have the numbers of
the C library's DTB_LOSS... and DTB_CATEGORY_... and of Go's rules.Value
and probe.Category: python-chess's (docs/engines.md).

The clocks are ints (TypeError otherwise) and any int is valid: a count
at or above the clock's budget (32 plies of class A, 10 of class B, 50
of rule 2), however large, is a clock run out; a negative one is 0, as
in the C library. cache_mb and max_pieces must fit a C int (ValueError
otherwise).

A Tablebase is safe to probe from many threads at once; the calls into
the library run without the GIL. Failures raise DtbError subclasses
carrying the library's one-line message.
"""

import ctypes
import ctypes.util
import enum
import operator
import os
import threading
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

__all__ = [
    "ABI_VERSION", "Value", "Category", "Probe", "RootMove", "Tablebase", "open_tablebase",
    "DtbError", "IllegalPositionError", "MissingTableError", "NotCachedError", "TableError",
    "library_path",
]

#: The ABI version of dtb.h this module speaks (DTB_ABI_VERSION).
ABI_VERSION = 4

# Statuses of dtb.h.
_OK, _NO_TABLE, _DAMAGED, _ILLEGAL = 0, -1, -2, -3
_NOT_CACHED, _BAD_ARGUMENT, _IO_ERROR, _NOT_STORED = -4, -5, -6, -7
# Flags of dtb.h.
_CACHED_ONLY, _VALUES_ONLY = 1, 2
_MAX_MOVES = 128
_MSG_SIZE = 1024


class Value(enum.IntEnum):
    """A value for the side to move: DTB_LOSS, DTB_DRAW, DTB_WIN of dtb.h
    (python-chess's sign convention)."""

    LOSS = -1
    DRAW = 0
    WIN = 1


class Category(enum.IntEnum):
    """A value under the rules beside the theoretical one: DTB_CATEGORY_...
    of dtb.h, numbered as chess.syzygy's WDL. A cursed win is won in theory
    and drawn by a move limit or rule 2, a blessed loss the other way
    round. The sign is the theoretical value. str() gives the word of dtb
    probe --json: "loss", "blessed-loss", "draw", "cursed-win", "win"."""

    LOSS = -2
    BLESSED_LOSS = -1
    DRAW = 0
    CURSED_WIN = 1
    WIN = 2

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")


class DtbError(Exception):
    """A failure of libdtb: ``status`` is dtb.h's status (None where there
    is none, as for dtb_open), the message the library's."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.status = status

    def __str__(self) -> str:
        return self.message


class IllegalPositionError(DtbError, ValueError):
    """A bad FEN, an illegal position or one whose game is over."""


class MissingTableError(DtbError, KeyError):
    """A table the position needs is not in the directory, or the position
    has more than max_pieces (a KeyError, as python-chess raises for a
    missing table)."""


class NotCachedError(DtbError, KeyError):
    """A cache-only probe (cache_only=True) would read the disk: a table
    block it needs is not in the cache, or its table not yet open. A
    KeyError, as a missing table; get_wdl returns its default."""


class TableError(DtbError, OSError):
    """The directory cannot be opened, or a table is damaged or unreadable."""


def _error(status: int, message: str) -> DtbError:
    cls = {
        _ILLEGAL: IllegalPositionError,
        _BAD_ARGUMENT: IllegalPositionError,
        _NO_TABLE: MissingTableError,
        _NOT_CACHED: NotCachedError,
    }.get(status, TableError)
    return cls(message or "dtb: status %d" % status, status)


class _Clocks(ctypes.Structure):
    _fields_ = [("class_played", ctypes.c_int), ("rule2_played", ctypes.c_int)]


class _Result(ctypes.Structure):
    _fields_ = [("rules", ctypes.c_int), ("theory", ctypes.c_int), ("category", ctypes.c_int),
                ("distance", ctypes.c_int), ("dtw", ctypes.c_int), ("mtc", ctypes.c_int)]


class _RootMove(ctypes.Structure):
    _fields_ = [("from_", ctypes.c_int), ("to", ctypes.c_int), ("captured", ctypes.c_uint64),
                ("result", _Result), ("notation", ctypes.c_char * 64)]


@dataclass(frozen=True)
class Probe:
    """What the tables say of a position (of a root move: for its mover).

    value is under the rules with the clocks passed, theory with repetition
    the only draw; wdl is the Category, 2, 1, 0, -1, -2 (chess.syzygy's
    WDL), and category its word, "win", "cursed-win" (a theoretical win
    the rules draw), "draw", "blessed-loss" or "loss", as dtb probe --json
    writes it.
    distance is in plies on the position's clock (class A or B, or the
    rule-2 count), dtw the plies until the loser has no move, mtc those
    until the next man move or capture; None where the tables hold none.
    """

    value: Value
    theory: Value
    category: str
    wdl: Category
    distance: Optional[int]
    dtw: Optional[int]
    mtc: Optional[int]


@dataclass(frozen=True)
class RootMove:
    """A legal move, e.g. "2-11" or "28x19", and its Probe for the mover.

    captured holds the squares of the pieces it takes; result.distance is
    the distance through the move on the position's own clock, dtw and mtc
    those after the move, one ply longer (docs/engines.md).
    """

    notation: str
    from_square: int
    to_square: int
    captured: Tuple[int, ...]
    result: Probe


def _optional(n: int) -> Optional[int]:
    return None if n < 0 else n


def _probe(r: _Result) -> Probe:
    wdl = Category(r.category)
    return Probe(Value(r.rules), Value(r.theory), str(wdl), wdl,
                 _optional(r.distance), _optional(r.dtw), _optional(r.mtc))


def _squares(bits: int) -> Tuple[int, ...]:
    return tuple(i + 1 for i in range(50) if bits >> i & 1)


# The range of a C int.
_INT_MAX = (1 << 8 * ctypes.sizeof(ctypes.c_int) - 1) - 1
_INT_MIN = -_INT_MAX - 1


def _integer(name: str, n) -> int:
    """Returns n, an int (or an object with __index__), or raises TypeError."""
    try:
        return operator.index(n)
    except TypeError:
        raise TypeError("dtb: %s must be an int, not %s" % (name, type(n).__name__)) from None


def _c_int(name: str, n) -> int:
    """Returns n, or raises ValueError where it is out of a C int's range."""
    n = _integer(name, n)
    if not _INT_MIN <= n <= _INT_MAX:
        raise ValueError("dtb: %s %d is out of range (a C int, %d to %d)" % (name, n, _INT_MIN, _INT_MAX))
    return n


def _count(name: str, n) -> int:
    """Returns the clock count n for C: one beyond a C int is the largest
    (a clock run out, as any count at or above the budget), a negative
    one 0, as the library reads it."""
    return min(max(_integer(name, n), 0), _INT_MAX)


def _clocks(class_played: int, rule2_played: int) -> _Clocks:
    return _Clocks(_count("class_played", class_played), _count("rule2_played", rule2_played))


def _fen(fen: str) -> bytes:
    if not isinstance(fen, str):
        raise TypeError("FEN must be a str, not %s" % type(fen).__name__)
    if "\0" in fen:
        raise IllegalPositionError("dtb: FEN %r holds a NUL byte" % fen, _ILLEGAL)
    return fen.encode("utf-8")


_NAMES = {"posix": ["libdtb.so", "libdtb.dylib"], "nt": ["dtb.dll", "libdtb.dll"]}


def library_path(library: Optional[Union[str, "os.PathLike[str]"]] = None) -> str:
    """Returns the path or name of the libdtb that open_tablebase loads:
    library, else $DTB_LIBRARY, else one in this package, else the one
    the system's loader finds."""
    if library is not None:
        return os.fspath(library)
    if os.environ.get("DTB_LIBRARY"):
        return os.environ["DTB_LIBRARY"]
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _NAMES.get(os.name, ["libdtb.so"]):
        if os.path.isfile(os.path.join(here, name)):
            return os.path.join(here, name)
    return ctypes.util.find_library("dtb") or _NAMES.get(os.name, ["libdtb.so"])[0]


def _load(library: Optional[Union[str, "os.PathLike[str]"]]) -> ctypes.CDLL:
    path = library_path(library)
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise TableError("dtb: cannot load libdtb (%s): %s; install the package with "
                         "`pip install ./python`, or build the library with "
                         "`go build -buildmode=c-shared -o libdtb.so ./capi` and pass "
                         "library= or set DTB_LIBRARY" % (path, e)) from None
    try:
        lib.dtb_abi_version.restype = ctypes.c_int
        lib.dtb_abi_version.argtypes = []
        if lib.dtb_abi_version() != ABI_VERSION:
            raise TableError("dtb: %s is of ABI version %d, this module of version %d: "
                             "rebuild one of them from the same sources"
                             % (path, lib.dtb_abi_version(), ABI_VERSION))
        C, R = ctypes.POINTER(_Clocks), ctypes.POINTER(_Result)
        for name, restype, argtypes in [
            ("dtb_open_version", ctypes.c_void_p,
             [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]),
            ("dtb_close", None, [ctypes.c_void_p]),
            ("dtb_probe_fen", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, C, ctypes.c_int, R]),
            ("dtb_root_moves_fen", ctypes.c_int,
             [ctypes.c_void_p, ctypes.c_char_p, C, ctypes.POINTER(_RootMove), ctypes.c_int]),
            ("dtb_max_pieces", ctypes.c_int, [ctypes.c_void_p]),
            ("dtb_set_max_pieces", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
            ("dtb_last_error", ctypes.c_size_t, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]),
        ]:
            f = getattr(lib, name)
            f.restype, f.argtypes = restype, argtypes
    except AttributeError as e:
        raise TableError("dtb: %s lacks a function of this module (%s): rebuild it from the "
                         "same sources" % (path, e)) from None
    return lib


def _directory_list(paths: Sequence[str]) -> str:
    """Returns the directory argument of dtb_open for paths: joined by
    os.pathsep, as dtb_open reads a list (the first that lists a table
    serves it)."""
    if not [p for p in paths if p]:
        raise ValueError("open_tablebase: no table directory given")
    for p in paths:
        if "\0" in p:  # C would read the path up to it
            raise ValueError("dtb: path %r: embedded null byte" % p)
    return os.pathsep.join(paths)


class Tablebase:
    """An open table directory, or several; open one with open_tablebase.

    Safe for use from many threads at once: probes share a lock that
    close() takes alone, and a failure runs its call again alone so that
    the library's message (kept per directory) is its own.
    """

    def __init__(self, path_or_paths, cache_mb: int = 64, library=None,
                 max_pieces: Optional[int] = None):
        if isinstance(path_or_paths, (str, bytes, os.PathLike)):
            path_or_paths = [path_or_paths]
        paths = [os.fsdecode(p) for p in path_or_paths]
        dirs = _directory_list(paths)
        cache_mb = _c_int("cache_mb", cache_mb)
        if max_pieces is not None:
            max_pieces = _c_int("max_pieces", max_pieces)
        self._lib = _load(library)
        self._cond = threading.Condition(threading.Lock())
        self._sharers = 0   # calls running
        self._alone = False  # a call or close runs alone
        self._waiting = 0    # callers waiting to run alone
        msg = ctypes.create_string_buffer(_MSG_SIZE)
        self._handle = self._lib.dtb_open_version(ABI_VERSION, os.fsencode(dirs), cache_mb,
                                                  msg, _MSG_SIZE)
        if not self._handle:
            raise TableError(msg.value.decode("utf-8", "replace"))
        self.paths = paths
        if max_pieces is not None:
            self._lib.dtb_set_max_pieces(self._handle, max_pieces)

    # The lock: calls share it, close and a failed call's rerun hold it
    # alone; a caller waiting to hold it alone goes before new sharers.

    def _share(self):
        with self._cond:
            while self._alone or self._waiting:
                self._cond.wait()
            if not self._handle:
                raise ValueError("dtb: the tablebase is closed")
            self._sharers += 1
            return self._handle

    def _unshare(self):
        with self._cond:
            self._sharers -= 1
            if not self._sharers:
                self._cond.notify_all()

    def _take(self):
        with self._cond:
            self._waiting += 1
            while self._alone or self._sharers:
                self._cond.wait()
            self._waiting -= 1
            self._alone = True

    def _release(self):
        with self._cond:
            self._alone = False
            self._cond.notify_all()

    def _run(self, call) -> int:
        """Returns call(handle), a status >= 0, or raises its failure
        with the library's message."""
        handle = self._share()
        try:
            status = call(handle)
        finally:
            self._unshare()
        if status >= 0:
            return status
        if status == _NOT_CACHED:  # no message kept, and a search meets it at every node: no rerun
            raise _error(status, "dtb: not in the cache (cache_only): the probe would read the disk")
        self._take()
        try:
            if not self._handle:
                raise ValueError("dtb: the tablebase is closed")
            status = call(self._handle)
            if status >= 0:
                return status
            msg = ctypes.create_string_buffer(_MSG_SIZE)
            self._lib.dtb_last_error(self._handle, msg, _MSG_SIZE)
        finally:
            self._release()
        raise _error(status, msg.value.decode("utf-8", "replace"))

    def _probe(self, fen: str, clocks: _Clocks, flags: int) -> Probe:
        f, r = _fen(fen), _Result()
        self._run(lambda h: self._lib.dtb_probe_fen(h, f, ctypes.byref(clocks), flags,
                                                    ctypes.byref(r)))
        return _probe(r)

    def probe(self, fen: str, *, class_played: int = 0, rule2_played: int = 0,
              cache_only: bool = False) -> Probe:
        """Returns what the tables say of the position of fen under the
        clocks (plies played; 0: fresh), or raises DtbError. With
        cache_only, it never reads the disk (for a probe at every node of
        a search): NotCachedError where it would."""
        return self._probe(fen, _clocks(class_played, rule2_played), _CACHED_ONLY if cache_only else 0)

    def probe_wdl(self, fen: str, *, class_played: int = 0, rule2_played: int = 0,
                  cache_only: bool = False) -> Category:
        """Returns the WDL of the position of fen for its side to move, a
        Category: 2 a win, 1 a cursed win, 0 a draw, -1 a blessed loss, -2
        a loss, under the clocks. Reads the value files alone where the clocks are fresh;
        cache_only as for probe."""
        flags = _VALUES_ONLY | (_CACHED_ONLY if cache_only else 0)
        return self._probe(fen, _clocks(class_played, rule2_played), flags).wdl

    def get_wdl(self, fen: str, default=None, *, class_played: int = 0, rule2_played: int = 0,
                cache_only: bool = False):
        """probe_wdl, or default where a table the position needs is
        missing or, with cache_only, not in the cache."""
        try:
            return self.probe_wdl(fen, class_played=class_played, rule2_played=rule2_played,
                                  cache_only=cache_only)
        except (MissingTableError, NotCachedError):
            return default

    def root_moves(self, fen: str, *, class_played: int = 0, rule2_played: int = 0) -> List[RootMove]:
        """Returns every legal move of the position of fen, best first, each
        valued for its mover under the clocks carried over it; [] where the
        side to move has no move (it has lost)."""
        f, c = _fen(fen), _clocks(class_played, rule2_played)
        moves = (_RootMove * _MAX_MOVES)()
        n = self._run(lambda h: self._lib.dtb_root_moves_fen(h, f, ctypes.byref(c), moves,
                                                             _MAX_MOVES))
        return [RootMove(m.notation.decode("ascii"), m.from_, m.to, _squares(m.captured),
                         _probe(m.result)) for m in moves[:min(n, _MAX_MOVES)]]

    def best_move(self, fen: str, *, class_played: int = 0, rule2_played: int = 0) -> Optional[RootMove]:
        """Returns the first of root_moves, or None where there is no move."""
        moves = self.root_moves(fen, class_played=class_played, rule2_played=rule2_played)
        return moves[0] if moves else None

    @property
    def max_pieces(self) -> int:
        """The most pieces of a table in the directory within max_pieces
        (0: none)."""
        return self._run(self._lib.dtb_max_pieces)

    @property
    def closed(self) -> bool:
        return not getattr(self, "_handle", None)

    def close(self) -> None:
        """Closes the tables, once every probe running has returned."""
        if not getattr(self, "_handle", None):
            return
        self._take()
        try:
            if self._handle:
                self._lib.dtb_close(self._handle)
                self._handle = None
        finally:
            self._release()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return "<dtb.Tablebase %s%s>" % (os.pathsep.join(getattr(self, "paths", [])),
                                        " closed" if self.closed else "")


def open_tablebase(path_or_paths, cache_mb: int = 64, library=None,
                   max_pieces: Optional[int] = None) -> Tablebase:
    """Opens a table directory (a path, or a list of paths, read in order: a
    table in two is read from the first; a path string may itself be a
    list joined by os.pathsep, as SyzygyPath) with a cache
    of cache_mb megabytes of blocks (64 if <= 0), through the libdtb that
    library names (see the module's docstring for where it is looked for).
    max_pieces (None or <= 0: no limit) limits the probes to positions of
    at most that many pieces, as SyzygyProbeLimit: one of more raises
    MissingTableError, as for a missing table, and get_wdl returns its
    default. Raises TableError, with the library's message, where it
    cannot open."""
    return Tablebase(path_or_paths, cache_mb=cache_mb, library=library, max_pieces=max_pieces)
