"""Keep numba's on-disk kernel cache coherent across modules.

numba stamps a cached kernel with the source of its own file only, but our
kernels freeze constants imported from other modules (state offsets, data
tables). This module registers a cache locator whose stamp also covers every
source file of ``envs/core`` and of the kernel's own game package, so an edit to
``state.py`` or ``data.py`` recompiles the kernels that depend on it.
It must run before any ``@njit(cache=True)`` function is decorated.
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


@functools.cache
def package_digest(game_dir: str) -> str:
    """Hash of the sources of ``envs/core`` and of one game package (or of everything)."""
    digest = hashlib.sha256()
    folders = {PACKAGE_DIR / "core", Path(game_dir)}
    if Path(game_dir) == PACKAGE_DIR:
        folders = {PACKAGE_DIR, AGENTS_DIR}
    for folder in sorted(folders):
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(PACKAGE_DIR.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _owning_package(py_file: str) -> str | None:
    """The folder whose sources stamp a kernel of ``py_file`` (None: not ours)."""
    path = Path(py_file).resolve()
    if path.is_relative_to(AGENTS_DIR):
        return str(PACKAGE_DIR)  # agents read layouts of every game: stamp all of envs
    try:
        rel = path.relative_to(PACKAGE_DIR)
    except ValueError:
        return None
    if len(rel.parts) < 2:
        return str(PACKAGE_DIR / "core")
    return str(PACKAGE_DIR / rel.parts[0])


class PackageStampLocator(caching.UserProvidedCacheLocator):
    """Cache in ``CACHE_DIR``, stamped with the whole owning package's source."""

    def get_source_stamp(self):
        own = super().get_source_stamp()
        return (own, package_digest(_owning_package(self._py_file)))

    @classmethod
    def from_function(cls, py_func, py_file):
        if _owning_package(py_file) is None:
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
