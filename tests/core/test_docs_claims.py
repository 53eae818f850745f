"""What the docs promise about loading saved data and about other RL libraries (issue 24,
findings 5 and 7): pickle is for trusted data only, JSON ``from_dict`` is the safe path,
and the interop recipes page names the tests that run its recipes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bullets(markdown: str) -> list[str]:
    """The top-level ``- `` bullets of a markdown text, continuation lines joined."""
    bullets: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("- "):
            bullets.append(line[2:])
        elif bullets and line.startswith("  ") and line.strip():
            bullets[-1] += " " + line.strip()
        elif not line.strip() and bullets:
            bullets.append("")
    return [b for b in bullets if b]


def test_readme_keeps_pickle_apart_from_the_untrusted_data_claim():
    bullets = _bullets((ROOT / "README.md").read_text(encoding="utf-8"))
    pickle_bullets = [b for b in bullets if "pickle" in b.lower()]
    assert pickle_bullets
    for bullet in pickle_bullets:
        assert not re.search(r"safe to load from an untrusted", bullet), bullet
        assert "trusted data only" in bullet and "run arbitrary code" in bullet, bullet
    json_bullets = [b for b in bullets if "from_dict" in b]
    assert json_bullets and all("untrusted" in b and "pickle" not in b.lower()
                                for b in json_bullets)


def test_developer_guide_names_json_as_the_only_untrusted_path():
    text = " ".join((ROOT / "docs" / "DEVELOPING.md").read_text(encoding="utf-8").split())
    assert "only path for untrusted saved states" in text
    assert "Pickle is for trusted data" in text


def test_interop_page_is_linked_and_its_tests_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    page = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    assert "(docs/interop.md)" in readme
    for name in ("SelfPlayVecEnv", "SelfPlayVectorEnv", "MaskablePPO", "RLlib", "Tianshou",
                 "runtime_env", "transit-gym warmup"):
        assert name in page, name
    tests = re.findall(r"(?:tests/training/)?(test_[a-z_]+\.py)", page)
    assert {"test_interop_rllib.py", "test_interop_tianshou.py"} <= set(tests)
    for test in tests:
        assert (ROOT / "tests" / "training" / test).is_file(), test


LADDERS = {   # issue 23 item 7: the agents each game's ladder must hold
    "loose_caboose": {"random", "rule_based", "mcts", "mcts:1000", "ppo"},
    "automobiles": {"random", "rule_based", "tuned", "mcts", "mcts:1000", "ppo", "net",
                    "net_mcts"},
    "automobiles_season": {"random", "rule_based", "tuned", "mcts", "net", "net_mcts"},
    "planes": {"random", "rule_based", "mcts", "mcts:1000"},
    "automobile": {"random", "rule_based", "mcts", "mcts:1000", "ppo"},
}


def test_readme_ladder_rows_are_the_saved_ladders():
    """Every row of the README's ladder table is what ``benchmarks.strength.ladder_summary``
    makes of
    ``docs/ladders/<game>.json`` (regenerate it after a rerun), every game has its ladder
    with the agents issue 23 names, and the hinted ``ppo`` policies say so."""
    from transit_gym.benchmarks.strength.ladder_summary import load, summary

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/ladders/)" in readme
    for game, agents in LADDERS.items():
        report = load(ROOT / "docs" / "ladders" / f"{game}.json")
        assert (ROOT / "docs" / "ladders" / f"{game}.md").is_file()
        assert agents <= set(report["agents"]), game
        for row in summary([report]).splitlines()[2:]:
            assert row.split("|", 2)[2] in readme, (game, row)   # all but the game cell
        if game in ("automobiles", "automobile"):
            assert "rule-based choice" in report["agent_info"]["ppo"]["hints"]
