"""Packaging: one import name (``transit_gym``), nothing installed at the top level, the
wheel carries the data files, ``py.typed`` and the licence (Packaging)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOP_FOLDERS = ("envs", "agents", "training", "benchmarks", "cli")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_source_or_data_folder_is_a_listed_package():
    """A folder holding Python or TOML files that is missing from ``packages`` would be
    left out of the wheel."""
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = set()
    for top in TOP_FOLDERS:
        for path in (ROOT / top).rglob("*"):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                rel = path.parent.relative_to(ROOT)
                found.add("transit_gym." + ".".join(rel.parts))
    assert found == listed, f"missing {sorted(found - listed)}, stale {sorted(listed - found)}"


def test_package_dir_maps_each_top_folder_under_transit_gym():
    mapping = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert mapping == {f"transit_gym.{top}": top for top in TOP_FOLDERS}


def test_the_transit_gym_command_is_the_cli_main():
    assert _pyproject()["project"]["scripts"] == {"transit-gym": "transit_gym.cli.main:main"}


def test_license_field_is_spdx_and_matches_the_license_file():
    project = _pyproject()["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_exact_torch_pin_only_in_the_makefile():
    """pyproject asks for a range; the Makefile installs the CPU wheel by its exact pin."""
    train = _pyproject()["project"]["optional-dependencies"]["train"]
    torch = [r for r in train if r.startswith("torch")]
    assert torch and "==" not in torch[0]
    assert "TORCH_PIN := torch==" in (ROOT / "Makefile").read_text()


def test_users_own_envs_and_agents_packages_are_not_shadowed(tmp_path):
    """A user's project with its own ``envs/`` and ``agents/`` (and ``cli/``...) packages
    imports both its own and ours; importing every module of ours loads no top-level
    ``envs``/``agents``/``training``/``benchmarks``/``cli`` module."""
    for name in TOP_FOLDERS:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"MINE = {name!r}\n")
    script = textwrap.dedent(
        """
        import importlib, pkgutil, sys
        import transit_gym.envs, transit_gym.agents, transit_gym.training, transit_gym.benchmarks
        import transit_gym.cli.main
        from transit_gym.envs import loose_caboose_v0, automobiles_v0, automobile_v0, planes_v0
        from transit_gym.agents.registry import make_agent
        for pkg in (transit_gym.envs, transit_gym.agents):
            for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
                if not info.name.endswith((".render",)):
                    importlib.import_module(info.name)
        leaked = sorted(m for m in sys.modules
                        if m.split(".")[0] in ("envs", "agents", "training", "benchmarks",
                                               "cli"))
        assert not leaked, leaked
        import envs, agents
        assert envs.MINE == "envs" and agents.MINE == "agents"
        print("ok")
        """
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().endswith("ok")


@pytest.mark.slow
def test_wheel_holds_one_import_name_with_data_and_typing(tmp_path):
    """Build the wheel: every file lives under ``transit_gym/``; the data files (tracks,
    airports), ``py.typed`` of each sub-package and the licence are in it."""
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    (wheel,) = tmp_path.glob("transit_gym-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops <= {"transit_gym", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1]
                    + ".dist-info"}, tops
    for top in TOP_FOLDERS:
        assert f"transit_gym/{top}/py.typed" in names
    assert "transit_gym/envs/planes/airports/flying_cloud.toml" in names
    assert "transit_gym/envs/automobiles/track_daytona.toml" in names
    assert any(n.endswith("dist-info/licenses/LICENSE") for n in names)
    entry_points = next(n for n in names if n.endswith("dist-info/entry_points.txt"))
    assert "transit-gym = transit_gym.cli.main:main" in zipfile.ZipFile(wheel).read(
        entry_points).decode()
    metadata = next(n for n in names if n.endswith("dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text
