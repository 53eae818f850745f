"""Keep numba's on-disk kernel cache coherent across modules.

numba stamps a cached kernel with the source of its own file only, but our
kernels freeze constants imported from other modules (state offsets, data
tables). This module registers a cache locator whose stamp also covers the
sources a kernel may depend on: ``envs/core`` and the kernel's own game package (the
Automobiles race, with its ``racing_season`` subpackage, and the season campaign of
``envs/automobiles_season`` stamp as one group: each freezes constants of the other),
plus, for an agent kernel (``agents/rule_based/<game>.py``,
``agents/search/leaf_<game>.py``), the game's agent and leaf files, the shared leaf
template ``agents/search/leaf.py`` and ``agents/base.py``, so an edit to a game's
``state.py`` recompiles exactly the kernels that use it. A function carrying
the attribute ``STAMP_ATTR`` (the fused loops of ``envs/core/fused.py``, copies of
templates bound to one game's kernels) is stamped with those sources as well. It must
run before any ``@njit(cache=True)`` function is decorated.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import math
import os
import sys
import time
from pathlib import Path
from typing import TextIO

import numba
from numba.core import caching, event, sigutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher

PACKAGE_DIR = Path(__file__).resolve().parent
AGENTS_DIR = PACKAGE_DIR.parent / "agents"
#: attribute of a Python function naming further sources its cache stamp must cover
STAMP_ATTR = "__transit_stamp_sources__"
_OUR_MODULES = ("transit_gym.",)
#: game packages whose kernels freeze one another's constants, stamped as one group: the
#: season kernels call the race's, the Racing Season sponsors (``envs/automobiles/
#: racing_season/sponsors.py``) read the season state
GAME_GROUPS = {"automobiles": ("automobiles", "automobiles_season"),
               "automobiles_season": ("automobiles", "automobiles_season")}
#: agent kernels that call another game's agent kernels (their caches are stamped with
#: those sources too). Racing Season: the season agent plays races with the Automobiles
#: agent, its leaf evaluation uses the race's
AGENT_CALLS = {"automobiles_season": ("agents/rule_based/automobiles.py",
                                      "agents/search/leaf_automobiles.py")}
#: cache folders found writable in this process
_WRITABLE: set[str] = set()


@functools.cache
def package_digest(sources: tuple[str, ...]) -> str:
    """Hash of the Python sources under the given folders or files."""
    digest = hashlib.sha256()
    for source in sorted(sources):
        root = Path(source)
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for path in files:
            if path.exists():
                digest.update(str(path.relative_to(PACKAGE_DIR.parent)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def stamp_sources(py_file: str) -> tuple[str, ...] | None:
    """What a kernel defined in ``py_file`` may freeze constants from (None: not ours)."""
    path = Path(py_file).resolve()
    core = str(PACKAGE_DIR / "core")
    if path.is_relative_to(AGENTS_DIR):
        # agents/rule_based/<game>.py, agents/search/leaf_<game>.py and
        # agents/tuned/<game>.py: the game's package (and the vector packing of
        # agents/tuned/packing.py);
        # anything else (the search loops) may be bound to any game's kernels
        name = path.stem.removeprefix("leaf_")
        game = game_sources(name) if (PACKAGE_DIR / name).is_dir() else (str(PACKAGE_DIR),)
        # the rule-based agent and the leaf evaluation of a game (and of its family:
        # automobile*, ...) are compiled into one another's kernels, so an edit to one of
        # them must invalidate the other's cache too
        prefix = name.split("_")[0]
        helpers = tuple(str(f) for f in (*sorted(AGENTS_DIR.glob(f"rule_based/{prefix}*.py")),
                                         *sorted(AGENTS_DIR.glob(f"search/leaf_{prefix}*.py")),
                                         *sorted(AGENTS_DIR.glob(f"tuned/{prefix}*.py")),
                                         AGENTS_DIR / "search" / "leaf.py",
                                         AGENTS_DIR / "tuned" / "packing.py"))
        extra = tuple(str(PACKAGE_DIR.parent / rel) for rel in AGENT_CALLS.get(name, ()))
        return (core, *game, str(path), str(AGENTS_DIR / "base.py"), *helpers, *extra)
    try:
        rel = path.relative_to(PACKAGE_DIR)
    except ValueError:
        return None
    if len(rel.parts) < 2:
        return (core,)
    return (core, *game_sources(rel.parts[0]))


def game_sources(name: str) -> tuple[str, ...]:
    """The folders of game package ``name`` and of the packages grouped with it."""
    return tuple(str(PACKAGE_DIR / part) for part in GAME_GROUPS.get(name, (name,)))


class PackageStampLocator(caching.UserProvidedCacheLocator):
    """Cache in ``CACHE_DIR``, stamped with every source the kernel may depend on."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        extra = getattr(py_func, STAMP_ATTR, ())
        self._sources = tuple(sorted(set(stamp_sources(py_file) or ()) | set(extra)))

    def get_source_stamp(self):
        own = super().get_source_stamp()
        return (own, package_digest(self._sources))

    @classmethod
    def from_function(cls, py_func, py_file):
        """The locator of one of our functions; numba's own check that the cache folder is
        writable (a test file created and deleted) runs once per folder, not per kernel."""
        if stamp_sources(py_file) is None or not os.path.exists(py_file):
            return None
        locator = cls(py_func, py_file)
        path = locator.get_cache_path()
        if path not in _WRITABLE:
            try:
                locator.ensure_cache_path()
            except OSError:
                return None
            _WRITABLE.add(path)
        return locator


def _drop_literal_arguments() -> None:
    """Compile our kernels for the plain types of their arguments only.

    Called from jitted code with a constant argument (``below(words, 2)``), numba compiles
    the callee once more for that literal value (``Literal[int](2)``): one copy per
    constant, a fifth of a game's compile work, for code that optimises the same once
    inlined. Our dispatchers (functions of ``transit_gym``) are typed with the literal
    types widened (``int64``, ``bool``), so each kernel gets one specialisation.
    Dispatchers of other packages are untouched.
    """
    original = Dispatcher.get_call_template
    if getattr(original, "_transit_gym_plain", False):
        return

    @functools.wraps(original)
    def get_call_template(self, args, kws):
        if getattr(self.py_func, "__module__", "").startswith(_OUR_MODULES):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return original(self, args, kws)

    get_call_template._transit_gym_plain = True
    Dispatcher.get_call_template = get_call_template


def _defer_blas_check() -> None:
    """Keep numba's start-up from importing ``scipy.linalg`` before anything needs BLAS.

    On its first compile or cache load numba imports ``numba.np.arraymath``, which imports
    ``scipy.linalg.cython_blas`` (0.2 CPU-s, a quarter of a warm start) only to record
    whether BLAS exists. Our kernels use no BLAS. This check answers that question from
    whether scipy is installed, without importing it, and then puts numba's own
    ``ensure_blas`` back, so anything that does use BLAS (``np.dot`` in a user's kernel)
    imports scipy and checks it exactly as before. Nothing is done when numba's array
    functions are already loaded.
    """
    if "numba.np.arraymath" in sys.modules:
        return
    from numba.np import linalg

    original = linalg.ensure_blas
    if getattr(original, "_transit_gym_deferred", False):
        return

    def ensure_blas_deferred():
        linalg.ensure_blas = original  # later callers run numba's full check
        if importlib.util.find_spec("scipy") is None:
            raise ImportError("scipy 0.16+ is required for linear algebra")

    ensure_blas_deferred._transit_gym_deferred = True
    linalg.ensure_blas = ensure_blas_deferred


class CompileNotice(event.Listener):
    """Write one line on stderr before each wait for our kernels to compile (a cache miss;
    loading from the cache is silent).

    A wait is a run of compiles with less than ``GAP`` seconds between them: the first reset
    of an env, a later first use (the first undo in ``play``, the first move of another
    game) after a pause starts a new wait and gets its own line. Set ``silent`` to write
    nothing (the warm-up draws a progress bar instead).
    """

    GAP = 1.0

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream
        self.silent = False
        self.depth = 0
        self.last_end = -math.inf

    def on_start(self, ev) -> None:
        function = getattr(ev.data.get("dispatcher"), "py_func", None)
        if not getattr(function, "__module__", "").startswith(_OUR_MODULES):
            return
        self.depth += 1
        if self.depth == 1 and time.monotonic() - self.last_end > self.GAP:
            self.write(NOTICE)

    def on_end(self, ev) -> None:
        function = getattr(ev.data.get("dispatcher"), "py_func", None)
        if self.depth and getattr(function, "__module__", "").startswith(_OUR_MODULES):
            self.depth -= 1
            self.last_end = time.monotonic()

    def write(self, template: str) -> None:
        """One line (``template`` with the cache folder filled in), unless silenced."""
        if self.silent:
            return
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(template.format(cache=numba.config.CACHE_DIR or "numba's default cache")
                     + "\n")
        stream.flush()
        self.last_end = time.monotonic()


#: the line written before a wait for compiles
NOTICE = ("transit-gym: compiling numba kernels on first use (up to a minute or two a game); "
          "later runs load them from {cache}. "
          "`transit-gym warmup` compiles every game ahead.")
#: the line written when another process is compiling a kernel this one needs
WAIT_NOTICE = ("transit-gym: waiting for another process to compile numba kernels into "
               "{cache}; they are loaded from there once it is done.")
#: the listener registered by ``configure`` (set ``notice.silent = True`` to silence it)
notice = CompileNotice()
#: the index files of the kernels this process is compiling under the compile lock
_HELD: set[str] = set()


def _locked_compiles() -> None:
    """One process compiles a kernel, the others wait for the cache and load it.

    Workers started together (a process pool, Ray, the warm-up's jobs) would otherwise all
    compile the same kernels at once. Before compiling one of our cached kernels for a new
    signature, a process takes an exclusive lock on ``<index>.compile.lock`` beside the
    kernel's cache index (POSIX ``flock``); numba's ``compile`` then looks in the disk cache
    first, so a process that waited loads what the other one saved. The lock is taken
    inside numba's own compiler lock (one thread of a process compiles at a time) and not
    again for a kernel this process is already compiling; callees are locked after their
    callers, and calls never go round in a circle, so processes cannot deadlock.
    """
    try:
        import fcntl
    except ImportError:   # not POSIX: nothing changes
        return
    original = Dispatcher.compile
    if getattr(original, "_transit_gym_locked", False):
        return

    @functools.wraps(original)
    def compile(self, sig):
        cache_file = getattr(getattr(self, "_cache", None), "_cache_file", None)
        index = getattr(cache_file, "_index_path", None)
        if (index is None or index in _HELD
                or not getattr(self.py_func, "__module__", "").startswith(_OUR_MODULES)):
            return original(self, sig)
        with global_compiler_lock:
            if tuple(sigutils.normalize_signature(sig)[0]) in self.overloads:
                return original(self, sig)
            try:
                handle = open(index + ".compile.lock", "a")   # noqa: SIM115 - held below
            except OSError:
                return original(self, sig)
            with handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if time.monotonic() - notice.last_end > notice.GAP:
                        notice.write(WAIT_NOTICE)
                    fcntl.flock(handle, fcntl.LOCK_EX)
                _HELD.add(index)
                try:
                    return original(self, sig)
                finally:
                    _HELD.discard(index)
                    fcntl.flock(handle, fcntl.LOCK_UN)

    compile._transit_gym_locked = True
    Dispatcher.compile = compile


def _locked_saves() -> None:
    """Make numba's cache index update atomic across processes.

    ``IndexDataCacheFile.save`` reads the index, adds the new overload, writes the index
    and the data (each file atomically, by a rename); two processes saving overloads of one
    function at once could otherwise drop an index entry or pick the same data file name.
    The warm-up fills one cache from several worker processes, so every save holds an
    exclusive lock on ``<index>.lock`` (POSIX ``flock``; without ``fcntl`` nothing changes).
    """
    try:
        import fcntl
    except ImportError:   # not POSIX
        return
    cls = caching.IndexDataCacheFile
    if getattr(cls.save, "_transit_gym_locked", False):
        return
    unlocked = cls.save

    def save(self, key, data):
        try:
            handle = open(self._index_path + ".lock", "a")   # noqa: SIM115 - held below
        except OSError:
            return unlocked(self, key, data)
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                return unlocked(self, key, data)
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    save._transit_gym_locked = True
    cls.save = save


def configure() -> None:
    """Use ``.numba_cache`` beside the package and the package-stamped locator."""
    if not (os.environ.get("NUMBA_CACHE_DIR") or numba.config.CACHE_DIR):
        root = PACKAGE_DIR.parent / ".numba_cache"
        try:
            root.mkdir(exist_ok=True)
            numba.config.CACHE_DIR = str(root)
        except OSError:
            pass  # numba falls back to __pycache__ or the user-wide cache
    classes = getattr(caching.CacheImpl, "_locator_classes", None)
    if isinstance(classes, list) and PackageStampLocator not in classes:
        classes.insert(0, PackageStampLocator)
    _drop_literal_arguments()
    _defer_blas_check()
    _locked_saves()
    _locked_compiles()
    if not getattr(event, "_transit_gym_notice", False):
        event.register("numba:compile", notice)
        event._transit_gym_notice = True
