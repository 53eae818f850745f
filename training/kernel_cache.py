"""A compiled kernel cache as one archive: built once, unpacked on another install.

    transit-gym warmup --demo --pack kernels.tar.gz   # build, then pack
    transit-gym warmup --unpack kernels.tar.gz        # elsewhere

numba files each kernel's cache under a folder named after the absolute path of its
source folder, so a cache built in one checkout is not found by another. The archive
stores every file under its source folder's path inside the package (``envs/core/...``)
and unpacking puts it back under this install's folder names. numba's own checks still
apply to every kernel (the stamp of its sources, by content; numba's version), and the
archive records what numba does not check by itself: Python, numba and numpy versions and
the CPU the code was generated for (numba's ``magic_tuple``). An archive built with
``NUMBA_CPU_NAME=generic`` runs on any CPU of the same architecture, in processes that set
``NUMBA_CPU_NAME=generic`` too; unpacking refuses an archive that does not match this
process, naming what differs.
"""

from __future__ import annotations

import io
import json
import platform
import tarfile
from pathlib import Path

import numba
import numpy as np
from numba.core.caching import UserProvidedCacheLocator

from transit_gym.envs import _numba_cache
from transit_gym.envs.core.errors import ConfigError

PACKAGE_ROOT = _numba_cache.PACKAGE_DIR.parent
MANIFEST = "manifest.json"
#: the package's folders that hold jitted code
SOURCE_FOLDERS = ("envs", "agents", "training", "benchmarks")


def platform_key() -> dict[str, str]:
    """What a cached kernel needs of the process that loads it."""
    from numba.core.registry import cpu_target

    return {"python": platform.python_version(), "numba": numba.__version__,
            "numpy": np.__version__,
            "cpu": json.dumps(cpu_target.target_context.codegen().magic_tuple())}


def cache_folders() -> dict[str, str]:
    """numba's cache folder name of every source folder of the package -> its path inside
    the package."""
    folders = {}
    tops = [PACKAGE_ROOT / top for top in SOURCE_FOLDERS]
    for folder in [*tops, *(p for top in tops for p in top.rglob("*") if p.is_dir())]:
        name = UserProvidedCacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))
        folders[name] = folder.relative_to(PACKAGE_ROOT).as_posix()
    return folders


def cache_dir() -> Path:
    """The cache folder of this process (``configure`` has set it)."""
    return Path(numba.config.CACHE_DIR or PACKAGE_ROOT / ".numba_cache")


def pack(archive: Path) -> int:
    """Write this install's kernel cache to ``archive`` (a .tar.gz); returns its bytes."""
    folders = cache_folders()
    root = cache_dir()
    with tarfile.open(archive, "w:gz") as tar:
        data = json.dumps(platform_key(), indent=1).encode()
        info = tarfile.TarInfo(MANIFEST)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if (path.is_file() and rel.parts[0] in folders and len(rel.parts) == 2
                    and path.suffix in (".nbi", ".nbc")):
                tar.add(path, arcname=f"{folders[rel.parts[0]]}/{rel.parts[1]}")
    return archive.stat().st_size


def unpack(archive: Path) -> int:
    """Put the kernels of ``archive`` into this install's cache; returns how many files.
    ``ConfigError`` when the archive was built for another Python, numba, numpy or CPU."""
    if not archive.is_file():
        raise ConfigError(f"no kernel archive {str(archive)!r}")
    by_path = {rel: name for name, rel in cache_folders().items()}
    root = cache_dir()
    with tarfile.open(archive, "r:gz") as tar:
        try:
            built = json.loads(tar.extractfile(MANIFEST).read())
        except (KeyError, AttributeError, ValueError) as exc:
            raise ConfigError(f"{archive}: not a kernel archive (no {MANIFEST})") from exc
        here = platform_key()
        differ = [f"{key} {built.get(key)} (here {value})" for key, value in here.items()
                  if built.get(key) != value]
        if differ:
            raise ConfigError(f"{archive} was built for another platform: "
                              + "; ".join(differ))
        count = 0
        for member in tar.getmembers():
            folder, _, name = member.name.rpartition("/")
            if not member.isfile() or folder not in by_path or "/" in name or not name:
                continue
            target = root / by_path[folder] / name
            target.parent.mkdir(parents=True, exist_ok=True)
            part = target.with_name(target.name + ".part")
            part.write_bytes(tar.extractfile(member).read())
            part.replace(target)   # atomic: a process loading meanwhile sees whole files
            count += 1
    return count
