"""The kernel cache archive (``training/kernel_cache.py``, ``warmup --pack/--unpack``): a
cache built once is unpacked into another cache folder and loaded there without a
compile; an archive built for another platform is refused, naming what differs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile

import numba
import pytest

from tests.core.compile_probe import COUNT_OUR_COMPILES
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training import kernel_cache

#: calls one of our kernels, packs or unpacks the cache, prints what it compiled
SCRIPT = """
import json, sys
from pathlib import Path
from transit_gym.training import kernel_cache
from transit_gym.envs.core.rng import hash32

compiled = []
""" + COUNT_OUR_COMPILES + """
if sys.argv[1] == "unpack":
    kernel_cache.unpack(Path(sys.argv[2]))
hash32(7)
if sys.argv[1] == "pack":
    kernel_cache.pack(Path(sys.argv[2]))
print(json.dumps(compiled))
"""


def _run(mode: str, archive, cache) -> list[str]:
    run = subprocess.run([sys.executable, "-c", SCRIPT, mode, str(archive)],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_packed_cache_unpacked_into_an_empty_folder_loads_without_compiling(tmp_path):
    """Built once, used elsewhere: the archive names each file by its source folder inside
    the package (not by the absolute path numba's folder names hash), and a process whose
    empty cache got the archive unpacked loads the kernel instead of compiling it."""
    archive = tmp_path / "kernels.tar.gz"
    assert _run("pack", archive, tmp_path / "built") == ["hash32"]
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert kernel_cache.MANIFEST in names
    assert any(n.startswith("envs/core/") and "hash32" in n and n.endswith(".nbi")
               for n in names), names
    assert _run("unpack", archive, tmp_path / "elsewhere") == []


def test_an_archive_of_another_platform_is_refused_naming_the_difference(tmp_path,
                                                                         monkeypatch):
    """numba does not check the numpy version or the CPU a cache was generated for by
    itself: unpacking an archive built for another numba, or another CPU, is a
    ConfigError naming it, and nothing is written."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    key = kernel_cache.platform_key()
    archive = tmp_path / "other.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        data = json.dumps({**key, "numba": "0.1.0", "cpu": "elsewhere"}).encode()
        info = tarfile.TarInfo(kernel_cache.MANIFEST)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(ConfigError, match="numba 0.1.0") as error:
        kernel_cache.unpack(archive)
    assert "cpu elsewhere" in str(error.value)
    assert not (tmp_path / "cache").exists()
