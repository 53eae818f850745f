"""The ``transit-gym`` command: one front door to every tool.

What the command promises: ``--help`` lists every command with one line by group and
imports no tool (nor numba or torch); each command's ``--help`` ends with a worked example
and is named after the command; unknown commands and misspelt flags are named with the
closest real one; a tool's error is one line on stderr with exit status 2, Ctrl-C is 130.
"""

from __future__ import annotations

import ast
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from transit_gym.cli import main as cli
from transit_gym.cli.commands import BY_NAME, COMMANDS, FAMILIES, GROUPS
from transit_gym.training.tool_parser import ToolParser

ROOT = Path(__file__).resolve().parents[2]
NAMES = [command.name for command in COMMANDS]


def _run_cli(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``python -m transit_gym.cli ARGV`` in a fresh process."""
    paths = [str(Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
             if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def _section(text: str, title: str) -> list[str]:
    """The indented lines under ``title:`` up to the next blank line."""
    lines = text.splitlines()
    start = lines.index(f"{title}:") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return [line.strip() for line in lines[start:end]]


def test_help_lists_every_command_once_under_its_group(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for group in GROUPS:
        rows = _section(out, group)
        expected = [c for c in COMMANDS if c.group == group]
        assert [row[:len(c.name)] for row, c in zip(rows, expected, strict=True)] == \
            [c.name for c in expected]
        assert all(c.help in row for row, c in zip(rows, expected, strict=True))
    assert sum(len(_section(out, group)) for group in GROUPS) == len(COMMANDS)


@pytest.mark.parametrize(("family", "group"), [("balance", "design"), ("bench", "speed")])
def test_a_family_help_lists_its_commands(family, group, capsys):
    assert cli.main([family, "--help"]) == 0
    rows = _section(capsys.readouterr().out, "commands")
    expected = [c for c in COMMANDS if c.words[0] == family]
    assert all(c.group == group for c in expected) and len(rows) == len(expected)
    assert [row.split()[0] for row in rows] == [c.words[1] for c in expected]


def test_help_imports_no_tool_and_neither_numba_nor_torch():
    """The table is data: ``--help`` must answer without loading a tool or a compiler."""
    run = _run_cli("-X", "importtime", "-m", "transit_gym.cli", "--help")
    assert run.returncode == 0, run.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()
                if line.startswith("import time:")}
    assert "transit_gym.cli.commands" in imported   # the walk sees our own modules
    heavy = sorted(m for m in imported if m.split(".")[0] in ("numba", "torch", "ray", "numpy")
                   or m.startswith(("transit_gym.envs", "transit_gym.agents",
                                    "transit_gym.training", "transit_gym.benchmarks")))
    assert heavy == []
    assert "balance sweep" in run.stdout


def test_version_is_the_package_version(capsys):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"transit-gym {version}"


def test_the_table_holds_every_tool_and_every_tool_is_in_the_table():
    """A tool is a module building a ``ToolParser``; each is reachable by one command."""
    tools = set()
    for top in ("training", "benchmarks"):
        for path in (ROOT / top).rglob("*.py"):
            tree = ast.parse(path.read_text())
            if any(isinstance(n, ast.Call) and ast.unparse(n.func) == "ToolParser"
                   for n in ast.walk(tree)):
                tools.add("transit_gym." + ".".join(path.relative_to(ROOT).with_suffix("").parts))
    assert sorted(c.module for c in COMMANDS) == sorted(tools)
    assert len(BY_NAME) == len(COMMANDS)
    assert {c.words[0] for c in COMMANDS if len(c.words) == 2} == set(FAMILIES)


def test_no_tool_module_runs_as_a_script_or_names_its_own_program():
    """The old ``python -m`` paths are gone and the dispatcher names the program."""
    found = []
    for top in ("training", "benchmarks"):
        for path in (ROOT / top).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} __main__ block")
                if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
                        ("ToolParser", "ArgumentParser")) and any(
                        k.arg == "prog" for k in node.keywords):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} prog=")
    assert found == []


class Parsed(Exception):
    """Raised instead of running a tool once its command line parsed."""


@pytest.mark.parametrize("name", NAMES)
def test_every_command_help_ends_with_an_example_that_parses(name, capsys, monkeypatch):
    """The help is named after the command and ends with a worked example whose flags the
    command accepts (the example is parsed, not run)."""
    with pytest.raises(SystemExit) as stop:
        cli.main([*name.split(), "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: transit-gym {name} ")
    example = out.rstrip().split("\nExample:\n")[-1].splitlines()
    assert len(example) == 1 and example[0].startswith(f"  transit-gym {name} "), out[-400:]
    parse_args = ToolParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        parse_args(self, args, namespace)
        raise Parsed

    monkeypatch.setattr(ToolParser, "parse_args", parse_then_stop)
    with pytest.raises(Parsed):
        cli.main(shlex.split(example[0])[1:])


@pytest.mark.parametrize(("typed", "guess"), [
    (["tournamnet"], "tournament"), (["balance", "swep"], "balance sweep"),
    (["sweep"], "balance sweep"), (["bench", "startp"], "bench startup")])
def test_an_unknown_command_names_the_closest(typed, guess, capsys):
    assert cli.main([*typed, "--game", "planes"]) == 2
    err = capsys.readouterr().err
    assert f"unknown command '{' '.join(typed)}' (did you mean '{guess}'?)" in err


def test_an_unknown_command_far_from_any_gets_no_guess(capsys):
    assert cli.main(["xyzzy"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'xyzzy'" in err and "did you mean" not in err


def test_a_misspelt_flag_is_named_before_a_missing_required_one(capsys):
    """argparse alone reports ``--game`` as missing; the misspelling is the real error."""
    with pytest.raises(SystemExit) as stop:
        cli.main(["tournament", "--gmae", "planes", "--games", "2"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "transit-gym tournament: error: unrecognized argument --gmae (did you mean --game?)" \
        in err
    assert "required" not in err


def test_an_abbreviated_flag_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["balance", "sweep", "loose_caboose", "--gam", "3"])
    assert stop.value.code == 2
    assert "unrecognized argument --gam (did you mean --games?)" in capsys.readouterr().err


def _fake_tool(monkeypatch, raised: BaseException) -> list[list[str]]:
    """Make ``transit-gym demo`` call a stand-in that records its program name and raises."""
    from transit_gym.training import demo

    seen = []

    def fake_main(argv):
        seen.append([sys.argv[0], *argv])
        raise raised

    monkeypatch.setattr(demo, "main", fake_main)
    return seen


def test_a_tool_error_is_one_line_with_status_2(monkeypatch, capsys):
    from transit_gym.envs.core.errors import ConfigError

    seen = _fake_tool(monkeypatch, ConfigError("--only: unknown game 'chess'\nknown: planes"))
    argv0 = sys.argv[0]
    assert cli.main(["demo", "--only", "chess"]) == 2
    assert seen == [["transit-gym demo", "--only", "chess"]]
    assert sys.argv[0] == argv0   # restored after the command
    err = capsys.readouterr().err
    assert err == "transit-gym demo: error: --only: unknown game 'chess' known: planes\n"


def test_ctrl_c_exits_130_without_a_traceback(monkeypatch, capsys):
    _fake_tool(monkeypatch, KeyboardInterrupt())
    assert cli.main(["demo"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_a_missing_extra_names_its_install(monkeypatch, capsys):
    _fake_tool(monkeypatch, ModuleNotFoundError("No module named 'torch'", name="torch"))
    assert cli.main(["demo"]) == 2
    assert "pip install 'transit-gym[train]'" in capsys.readouterr().err


def test_a_bug_keeps_its_traceback(monkeypatch):
    """Only the user's errors become one line; a defect in a tool is not hidden."""
    _fake_tool(monkeypatch, RuntimeError("a bug"))
    with pytest.raises(RuntimeError, match="a bug"):
        cli.main(["demo"])


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["tournament", "--game", "loose_caboose", "--agents", "random", "rule_based", "--games", "4",
     "--workers", "1", "--quiet", "--out", "{tmp}/tournament"],
    ["balance", "sweep", "loose_caboose", "--games", "3", "--workers", "1", "--quiet",
     "--no-plots", "--out", "{tmp}/sweep"],
    ["balance", "drivers", "--list"],
    ["ladder-table", *sorted(str(p) for p in (ROOT / "docs" / "ladders").glob("*.json"))],
], ids=["tournament", "balance-sweep", "balance-drivers", "ladder-table"])
def test_cheap_commands_run_end_to_end(argv, tmp_path):
    run = _run_cli("-m", "transit_gym.cli", *(a.format(tmp=tmp_path) for a in argv),
                   cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    if "--out" in argv:
        assert any((tmp_path / argv[-1].rsplit("/", 1)[-1]).iterdir())
