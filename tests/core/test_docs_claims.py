"""What the docs promise about loading saved data and about other RL libraries:
pickle is for trusted data only, JSON ``from_dict`` is the safe path,
and the interop recipes page names the tests that run its recipes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from transit_gym.cli.commands import BY_NAME

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


LADDERS = {   # the agents each game's ladder must hold
    "loose_caboose": {"random", "rule_based", "tuned", "mcts", "mcts:1000", "ppo", "net"},
    "automobiles": {"random", "rule_based", "tuned", "mcts", "ppo", "net", "net_mcts"},
    "automobiles_season": {"random", "rule_based", "tuned", "mcts", "net", "net_mcts"},
    "planes": {"random", "rule_based", "tuned", "mcts"},
    "automobile": {"random", "rule_based", "tuned", "mcts", "ppo", "net"},
}


def test_readme_ladder_rows_are_the_saved_ladders():
    """Every row of the README's ladder table is what ``benchmarks.strength.ladder_summary``
    makes of
    ``docs/ladders/<game>.json`` (regenerate it after a rerun), every game has its ladder
    with the agents it must hold, and the hinted ``ppo`` policies say so."""
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


# ----- every figure with a generated source is that source's ---------------------------------

GAMES_IN_README_ORDER = ("loose_caboose", "automobiles", "automobiles_season", "planes",
                         "automobile")
THROUGHPUT_JSON = ROOT / "docs" / "speed" / "throughput.json"


def _pages() -> list[Path]:
    """README.md and every markdown page under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ")]


def test_every_ladder_page_is_what_its_json_renders():
    """``docs/ladders/<game>.md`` is ``ladder.markdown`` of the JSON beside it, the command
    it shows included, so a page and its JSON cannot drift apart."""
    from transit_gym.benchmarks.strength.ladder import markdown
    from transit_gym.benchmarks.strength.ladder_summary import load

    for game in GAMES_IN_README_ORDER:
        report = load(ROOT / "docs" / "ladders" / f"{game}.json")
        page = (ROOT / "docs" / "ladders" / f"{game}.md").read_text(encoding="utf-8")
        assert report["command"].startswith("transit-gym ladder "), game
        assert markdown(report, report["command"]) == page, f"docs/ladders/{game}.md is stale"


def test_readme_ladder_table_is_the_whole_summary_in_order():
    """The README's strength table is ``ladder-table`` of the five ladders, every row, in
    the README's game order (the row check above tolerates other rows; this one does not)."""
    from transit_gym.benchmarks.strength.ladder_summary import load, summary

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = summary([load(ROOT / "docs" / "ladders" / f"{g}.json")
                     for g in GAMES_IN_README_ORDER])
    assert table in readme


def test_speed_page_holds_the_table_of_its_json_and_readme_quotes_its_rows():
    """docs/speed.md shows exactly what ``throughput.format_table`` makes of
    docs/speed/throughput.json, and every speed row of the README is one of its rows."""
    from transit_gym.benchmarks.speed.throughput import check_targets, format_table

    results = json.loads(THROUGHPUT_JSON.read_text(encoding="utf-8"))
    assert results["targets"] == check_targets(results)
    table = format_table(results)
    assert table in (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    generated = set(table.splitlines())
    readme_rows = [row for row in _table_rows((ROOT / "README.md").read_text(encoding="utf-8"))
                   if re.search(r"\| (AEC loop|batch B=|jitted rollout)", row)]
    assert len(readme_rows) >= 8
    for row in readme_rows:
        assert row in generated, row


def _reported(game: str, *path: str | int) -> float:
    """A value of ``agents/learned/checkpoints/<game>_ppo.json`` by its keys and indices."""
    value = json.loads((ROOT / "agents" / "learned" / "checkpoints" / f"{game}_ppo.json")
                       .read_text(encoding="utf-8"))
    for key in path:
        value = value[key]
    return value


LC, AUTOS, AUTO = "loose_caboose", "automobiles", "automobile"
EVAL, HIST, TOUR = "evaluation", "history", "tournament"
BC = "behaviour_cloning"
NUM, PCT = r"([\d.]+)", r"([\d.]+)%"
#: (page, pattern with one number, the report's value): the Loose Caboose! history holds
#: an evaluation every 500k steps (index 0 at 0.5M, 3 at 2M, 7 at 4M, 9 at 5M)
TRAINING_CLAIMS = [
    ("training.md", rf"final: {PCT} /", (LC, EVAL, "random", "win_rate")),
    ("training.md", rf"final: [\d.]+% / {PCT}", (LC, EVAL, "rule_based", "win_rate")),
    ("training.md", rf"opponent\): {NUM}/", (LC, HIST, 0, "random")),
    ("training.md", rf"opponent\): [\d.]+/{NUM} at 0\.5M", (LC, HIST, 0, "rule_based")),
    ("training.md", rf"{NUM}/[\d.]+ at 2M", (LC, HIST, 3, "random")),
    ("training.md", rf"[\d.]+/{NUM} at 2M", (LC, HIST, 3, "rule_based")),
    ("training.md", rf"{NUM}/[\d.]+ at 4M", (LC, HIST, 7, "random")),
    ("training.md", rf"[\d.]+/{NUM} at 4M", (LC, HIST, 7, "rule_based")),
    ("training.md", rf"{NUM}/[\d.]+\nat 5M", (LC, HIST, 9, "random")),
    ("training.md", rf"[\d.]+/{NUM}\nat 5M", (LC, HIST, 9, "rule_based")),
    ("training.md", rf"parity there\): {PCT} vs random", (AUTO, EVAL, "random", "win_rate")),
    ("training.md", rf"vs random, {PCT} vs rule_based\.\n", (AUTO, EVAL, "rule_based", "win_rate")),
    ("training.md", rf"teacher {NUM} before the", (AUTO, BC, "rounds", 0, "agreement_before")),
    ("training.md", rf"fit and {NUM} after", (AUTO, BC, "rounds", 0, "agreement")),
    ("training.md", rf"only {PCT} seated", (AUTO, BC, "rounds", 0, "seated_vs_rule_based")),
    ("training.md", rf"seating\) {NUM}/", (AUTO, BC, "rounds", 1, "agreement_before")),
    ("training.md", rf"seating\) [\d.]+/{NUM}", (AUTO, BC, "rounds", 1, "agreement")),
    ("training.md", rf"{PCT} batched, [\d.]+% seated; round 2",
     (AUTO, BC, "rounds", 1, "vs_rule_based")),
    ("training.md", rf"{PCT} seated; round 2", (AUTO, BC, "rounds", 1, "seated_vs_rule_based")),
    ("training.md", rf"round 2 {NUM}/", (AUTO, BC, "rounds", 2, "agreement_before")),
    ("training.md", rf"round 2 [\d.]+/{NUM}", (AUTO, BC, "rounds", 2, "agreement")),
    ("training.md", rf"round 2 [\d.]+/[\d.]+, {PCT} batched",
     (AUTO, BC, "rounds", 2, "vs_rule_based")),
    ("training.md", rf"round 2 .*?batched, {PCT} seated",
     (AUTO, BC, "rounds", 2, "seated_vs_rule_based")),
    ("training.md", rf"stopped: {PCT} vs rule_based", (AUTOS, BC, "rounds", 0, "vs_rule_based")),
    ("training.md", r"\(([\d,]+) for `--bc-steps 12000`", (AUTOS, BC, "samples")),
    ("training.md", r"([\d,]+) for 25,000\)", (AUTO, BC, "rounds", 0, "new_samples")),
    ("loose_caboose.md", rf"\| random \| {PCT} \|", (LC, EVAL, "random", "win_rate")),
    ("loose_caboose.md", rf"\| rule-based \| {PCT} \|", (LC, EVAL, "rule_based", "win_rate")),
    ("loose_caboose.md", rf"\| random \| [\d.]+% \| \+[\d.]+ \| {PCT} \|",
     (LC, TOUR, "score_rate", "random")),
    ("loose_caboose.md", rf"\| rule-based \| [\d.]+% \| \+[\d.]+ \| {PCT} \|",
     (LC, TOUR, "score_rate", "rule_based")),
]


def test_training_figures_are_the_checkpoint_reports():
    """The figures the docs quote from the shipped checkpoints' training reports
    (``agents/learned/checkpoints/*_ppo.json``) are those reports' numbers, to the digits
    shown (a percentage is the fraction times 100, a count is exact)."""
    for page, pattern, (game, *path) in TRAINING_CLAIMS:
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        match = re.search(pattern, text, re.DOTALL)
        assert match, (page, pattern)
        shown, expected = match.group(1).replace(",", ""), _reported(game, *path)
        percent = text[match.end(1)] == "%"
        if "." not in shown and not percent:
            assert int(shown) == expected, (page, pattern, shown, expected)
            continue
        decimals = len(shown.split(".")[1]) if "." in shown else 0
        scale = 100 if percent else 1
        assert abs(float(shown) - scale * expected) <= 0.5 * 10 ** -decimals + 1e-9, (
            page, pattern, shown, expected)


# ----- one home per figure, one index, plain words, the front door ---------------------------

STALE = {   # figures that had drifted from their generated source; their home is linked now
    "README.md": ("73.2%", "4-30 ms", "99% against `mcts`"),
    "docs/search.md": ("73.2%", "68.3%", "well under\n50 ms"),
    "docs/learning.md": ("| `net_mcts:64` | 92.0%", "99.0% | 86.0%"),
}


def test_the_stale_copies_are_gone_and_their_pages_link_the_source():
    for page, figures in STALE.items():
        text = (ROOT / page).read_text(encoding="utf-8")
        for figure in figures:
            assert figure not in text, (page, figure)
        assert "ladders/" in text, page
    source = (ROOT / "agents" / "search" / "mcts.py").read_text(encoding="utf-8")
    assert "50 ms" not in source and "docs/ladders/" in source


def test_docs_index_links_every_page_and_readme_links_the_index():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    links = set(re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", index))
    for page in sorted((ROOT / "docs").rglob("*.md")):
        name = page.relative_to(ROOT / "docs").as_posix()
        if name != "README.md":
            assert name in links, f"docs/README.md does not link {name}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in ("docs/README.md", "docs/DEVELOPING.md", "docs/DESIGN.md"):
        assert f"]({target})" in readme, target


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of a markdown page's headings."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_relative_links_in_readme_and_docs_resolve():
    """Every relative link of README.md and docs/ names a file that exists, and an anchor
    into a markdown page names one of its headings."""
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        for target, anchor in re.findall(r"\]\(([^)#:\s]+[./][^)#:\s]*)(?:#([^)]*))?\)",
                                         text):
            where = (page.relative_to(ROOT).as_posix(), target, anchor)
            assert (page.parent / target).exists(), where
            if anchor and target.endswith(".md"):
                assert anchor in _anchors(page.parent / target), where


def test_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


ISSUE_NUMBER = re.compile(r"\bissues?\s+\d|\bissue\s+\d+'s", re.IGNORECASE)
#: the folders and files of code, data and build whose text a reader meets
CODE_PARTS = ("envs", "agents", "training", "benchmarks", "cli", "tests", "Makefile",
              "pyproject.toml")


def test_readme_and_docs_name_no_issue_numbers():
    """A reader has no issue tracker: README and docs say what a feature is, not which issue
    asked for it."""
    for page in _pages():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            assert not ISSUE_NUMBER.search(line), f"{page.relative_to(ROOT)}:{number}: {line}"


def test_code_names_no_issue_numbers():
    """Nor do the code, its comments, tests, data files and build files."""
    found = []
    for part in CODE_PARTS:
        root = ROOT / part
        paths = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in paths:
            if path.suffix not in (".py", ".toml", ".json", "") or not path.is_file():
                continue
            if "__pycache__" in path.parts:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{path.relative_to(ROOT)}:{n}" for n, line in
                      enumerate(text.splitlines(), 1) if ISSUE_NUMBER.search(line)]
    assert not found, found


COMMANDS = set(BY_NAME)   # the command tree of `transit-gym`


def test_commands_in_readme_and_docs_are_the_front_door():
    """No page runs a tool by its module path; every ``transit-gym X`` names a command."""
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(ROOT).as_posix()
        assert not re.search(r"python -m\s+transit_gym\.(?!cli\b)", text), name
        for group, word in re.findall(r"(?:`|^ *|^# = )transit-gym (?:(balance|bench) )?"
                                      r"([a-z][a-z-]*)", text, re.MULTILINE):
            command = f"{group} {word}" if group else word
            assert command in COMMANDS, (name, command)


def test_readme_says_the_gymnasium_views_default_to_random_opponents():
    import inspect

    from transit_gym.training.single_agent import make_single_agent_env

    default = inspect.signature(make_single_agent_env).parameters["opponents"].default
    assert tuple(default) == ("random",)
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "default opponents are **random** agents" in readme


def test_readme_command_table_lists_every_command():
    """The README's front-door table names every ``transit-gym`` command, so a newcomer sees
    the whole tool set on one page."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in BY_NAME if f"`transit-gym {name}`" not in text]
    assert not missing, missing
