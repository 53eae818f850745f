"""Keep numba's on-disk kernel cache coherent across modules.

numba stamps a cached kernel with the source of its own file only, but our
kernels freeze constants imported from other modules (state offsets, data
tables). This module registers a cache locator whose stamp also covers the
sources a kernel may depend on: ``envs/core`` and the kernel's own game package
(plus, for ``agents/<game>.py``, that file and ``agents/base.py``), so an edit to a
game's ``state.py`` recompiles exactly the kernels that use it. A function carrying
the attribute ``STAMP_ATTR`` (the fused loops of ``envs/core/fused.py``, copies of
templates bound to one game's kernels) is stamped with those sources as well. It must
run before any ``@njit(cache=True)`` function is decorated.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import numba
from numba.core import caching

PACKAGE_DIR = Path(__file__).resolve().parent
AGENTS_DIR = PACKAGE_DIR.parent / "agents"
#: attribute of a Python function naming further sources its cache stamp must cover
STAMP_ATTR = "__transit_stamp_sources__"


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


def stamp_sources(py_file: str) -> tuple[str, ...] | None:
    """What a kernel defined in ``py_file`` may freeze constants from (None: not ours)."""
    path = Path(py_file).resolve()
    core = str(PACKAGE_DIR / "core")
    if path.is_relative_to(AGENTS_DIR):
        game_dir = PACKAGE_DIR / path.stem
        game = str(game_dir) if game_dir.is_dir() else str(PACKAGE_DIR)
        return (core, game, str(path), str(AGENTS_DIR / "base.py"))
    try:
        rel = path.relative_to(PACKAGE_DIR)
    except ValueError:
        return None
    if len(rel.parts) < 2:
        return (core,)
    return (core, str(PACKAGE_DIR / rel.parts[0]))


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
        if stamp_sources(py_file) is None:
            return None
        return super().from_function(py_func, py_file)


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
