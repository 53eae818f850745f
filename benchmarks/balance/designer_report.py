"""One report a designer reads without the code: what looks degenerate (flags ranked by
severity) and the proposed changes first, then the balance sweep, the per-item power by
restricted play, the verdicts across skill levels and the market search's finalists.

    transit-gym balance report --card-data envs/automobiles/data.toml --players 2 \\
        --games 200 --out reports/designer          # the designer's loop: runs everything
    transit-gym balance report --balance reports/suggested-2p --power reports/power-2p \\
        --skill reports/skill-2p --market reports/market-2p --out reports/designer

**One command** (``--card-data FILE``): plays the analyses on that data file itself, each
in its own resumable sub-folder of ``--out``: a skill run (``skill_levels``, levels
``--levels``, default ``random rule_based tuned:markets``: the cheap ones, seconds to a
minute each) whose last level is the balance sweep (``tuned:markets``: each set by the
vector tuned on its market, matched on the default data; a set without one by the
generalist ``tuned``), and restricted play (``card_power``, agent ``--power-agent``,
default ``tuned``: cards and drivers in ``power/``, sponsors in the season campaign in
``power-sponsors/``, which takes ``--sponsor-data`` but no card data). ``--sets FILE``
(TOML or JSON: market name -> its five card names; default the 13 suggested sets);
``--driver-data`` and ``--option`` are env options of the race. ``--fix`` hands the
flags to ``benchmarks.balance.fixes.propose_fixes``. Rerun with the same settings, the
finished sub-runs are reused; other settings in a sub-folder stop before any game.

**Joining** (``--balance/--power/--skill/--market DIR``, each repeatable): the ``--out``
folders of finished runs; their reports are joined under one title, their PNG plots copied
next to ``report.md``; flags come from the JSON those folders hold.

Both write ``report.md`` and ``summary.json`` (``flags`` ranked, ``fixes``, ``tables``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

from transit_gym.benchmarks.balance import designer_render, designer_tables, flags
from transit_gym.benchmarks.balance.balance_report import reconstructed_markdown
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.backends import check_backend, check_out
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.options import (
    DATA_OPTIONS,
    add_data_arguments,
    add_run_arguments,
    check_counts,
    data_options,
    options_for,
    parse_options,
)
from transit_gym.training.tool_parser import ToolParser

PARTS = (("balance", "report.md", "Card-set balance"),
         ("power", "power.md", "What each card, driver and sponsor is worth (restricted and forced "
                            "play)"),
         ("skill", "skill.md", "Do the verdicts depend on the players' skill?"),
         ("market", "finalists.md", "The most and least balanced markets (market search)"))
GAME = "automobiles"
LEVELS = ("random", "rule_based", "tuned:markets")
#: restricted play in the race (sponsors are played in the season campaign, a run apart)
RACE_KINDS = "cards,drivers"


def _body(text: str) -> list[str]:
    """A report's lines under a part heading: its title dropped, headings one level down,
    and its own reconstructed-data section dropped (the joint report states it once)."""
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    out, skipping = [], False
    for line in lines:
        if line.startswith("## "):
            skipping = line == "## Reconstructed data"
        if skipping:
            continue
        out.append("#" + line if line.startswith("#") else line)
    return out


def _parts(runs: dict[str, list[Path]], out: Path) -> list[str]:
    """The finished runs' reports under their part headings, their plots copied to ``out``."""
    lines: list[str] = []
    for kind, name, title in PARTS:
        for k, folder in enumerate(runs.get(kind, [])):
            path = folder / name
            if not path.is_file():
                raise ConfigError(f"--{kind} {folder}: no {name}; give the --out folder of a "
                                  f"finished run")
            lines += ["", f"## {title}", "", *_body(path.read_text())]
            prefix = kind if k == 0 else f"{kind}{k + 1}"
            for picture in sorted(folder.glob("*.png")):
                target = out / f"{prefix}_{picture.name}"
                shutil.copyfile(picture, target)
                lines += ["", f"![{kind}: {picture.stem}]({target.name})"]
    return lines


def build(folders: dict[str, Path | list[Path]], out: Path, game: str = GAME,
          card_data: str | None = None, setup: dict[str, Any] | None = None,
          fix: bool = False) -> Path:
    """Write ``out/report.md`` and ``out/summary.json`` from the finished runs in
    ``folders`` (kind -> folder, or a list of folders of that kind): the flags their JSON
    raises, with ``fix`` the fixes ``propose_fixes(flags, setup, out)`` proposes."""
    runs = {kind: f if isinstance(f, list) else [f] for kind, f in folders.items() if f}
    if not runs:
        raise ConfigError("give at least one of --balance, --power, --skill, --market")
    check_out(out)
    summary = runs["balance"][0] / "summary.json" if "balance" in runs else None
    if summary is not None and summary.is_file():
        game = json.loads(summary.read_text()).get("game", game)
    tables = designer_tables.tables(runs, card_data)
    found = flags.all_flags(tables)
    fixes = propose(found, setup or {}, out) if fix else []
    lines = ["# Balance report for designers", "",
             "Everything below was measured by self-play of the agents named in each part; "
             "intervals are 95%. A verdict describes the game as reconstructed here, played "
             "by these agents.", *designer_render.made_by(setup),
             *designer_render.opening(found, fixes)]
    for picture in designer_render.market_pictures(tables.get("markets", {}), out):
        lines += ["", f"![{picture.stem}]({picture.name})"]
    lines += [*reconstructed_markdown(game), *_parts(runs, out)]
    report = out / "report.md"
    report.write_text("\n".join(lines) + "\n")
    record = {"game": game, "setup": setup, "inputs": {k: [str(f) for f in v]
                                                        for k, v in runs.items()},
              "flags": found, "fixes": fixes, "tables": tables}
    text = json.dumps(record, indent=2, default=float)
    # paths under the working folder as relative ones: a report made in the repository
    # names envs/... and agents/..., not the folder of the machine that made it
    (out / "summary.json").write_text(text.replace(f"{Path.cwd()}/", ""))
    return report


#: flagged items the report's ``--fix`` searches unless ``--fix-top`` says otherwise
FIX_TOP = 4


def fix_targets(found: list[dict[str, Any]], top: int) -> list[dict[str, Any]]:
    """The ``top`` most severe flagged items, each once (its most severe flag): a card
    flagged by two rules is searched once."""
    targets, seen = [], set()
    for flag in found:
        if (flag["kind"], flag["item"]) not in seen:
            seen.add((flag["kind"], flag["item"]))
            targets.append(flag)
    return targets[:top]


def propose(found: list[dict[str, Any]], setup: dict[str, Any], out: Path) -> list[Any]:
    """The fix search (``benchmarks.balance.fixes.propose_fixes``) on the
    ``setup["fix_top"]`` most severe flagged items, its files in ``out/fixes``."""
    from transit_gym.benchmarks.balance.fixes import propose_fixes

    targets = fix_targets(found, int(setup.get("fix_top", FIX_TOP)))
    return list(propose_fixes(targets, setup, out / "fixes"))


# ----- the designer's loop: run the analyses, then report ------------------------------
def read_sets(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """``--sets FILE``: a TOML or JSON table of market name -> its five card names."""
    if not path.is_file():
        raise ConfigError(f"--sets {str(path)!r}: no such file")
    try:
        table = (json.loads(path.read_text()) if path.suffix == ".json"
                 else tomllib.loads(path.read_text()))
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"--sets {str(path)!r} is not valid "
                          f"{'JSON' if path.suffix == '.json' else 'TOML'}: {exc}") from None
    if not isinstance(table, dict) or len(table) < 2:
        raise ConfigError(f"--sets {str(path)!r} must map 2 or more market names to their "
                          f"five card names")
    for name, cards in table.items():
        if (not isinstance(cards, list) or len(cards) != 5
                or not all(isinstance(c, str) for c in cards)):
            raise ConfigError(f"--sets {str(path)!r}: market {name!r} must list five card "
                              f"names, got {cards!r}")
    return [(name, {"card_set": list(cards)}) for name, cards in table.items()]


def level_vectors(level: str, players: int, sets: list[tuple[str, dict[str, Any]]],
                  options: dict[str, Any]) -> dict[str, str]:
    """A ``tuned:markets`` level's spec per set: the vector tuned on the set's market (its
    cards, board and rules, the data files left out: a designer's changed data keeps the
    vectors of its markets), else the generalist ``tuned``."""
    from transit_gym.benchmarks.balance.skill_levels import market_vector, markets_folder

    folder = markets_folder(level)
    plain = {k: v for k, v in options.items() if k not in DATA_OPTIONS}
    specs = {}
    for name, set_options in sets:
        try:
            vector = market_vector(GAME, players, {**plain, **set_options}, name, folder)
            specs[name] = f"tuned:{vector}"
        except ConfigError:
            specs[name] = "tuned"
    return specs


def set_cards(sets: list[tuple[str, dict[str, Any]]], card_data: str) -> dict[str, list[str]]:
    """Each set's five card names."""
    from transit_gym.envs.automobiles.data import load_cards

    named = load_cards(card_data).sets
    return {name: list(named[o["card_set"]]) if isinstance(o["card_set"], str)
            else list(o["card_set"]) for name, o in sets}


def power_settings(args: argparse.Namespace, kinds: str, options: dict[str, Any]):
    """``card_power.Settings`` of one restricted-play run, checked as its tool checks them."""
    from transit_gym.benchmarks.balance import card_power

    settings = card_power.parse_settings(argparse.Namespace(
        kinds=kinds, players=args.players, games=args.games, markets=args.markets,
        pool="all", agents=args.power_agent, forced_want=10.0, items="", card_set=None,
        seed=args.seed, option=[f"{k}={json.dumps(v)}" for k, v in options.items()]))
    card_power.make_plan(settings)
    return settings


def run_setup(args: argparse.Namespace) -> dict[str, Any]:
    """The checked settings of the designer's loop (what ``--fix`` gets as ``setup``):
    ``options`` are the race's env options (its data files and ``--option``),
    ``season_options`` the season campaign's (every data file: it also takes the sponsors)."""
    from transit_gym.benchmarks.balance import skill_levels
    from transit_gym.envs.registry import game_class

    check_counts(args.seed, games=args.games, fix_top=args.fix_top)
    race_game, season_game = game_class(GAME), game_class("automobiles_season")
    data = {name: str(Path(path).resolve())
            for name, path in data_options(args, race_game, season_game).items()}
    options: dict[str, Any] = {**options_for(data, race_game), **parse_options(args.option)}
    season = options_for(data, season_game)
    sets = (read_sets(args.sets) if args.sets else
            skill_levels.parse_set_specs(GAME, "suggested,expansion", args.seed, options))
    for _, set_options in sets:   # card names, data files and options valid?
        game_class(GAME)(num_players=args.players, **options, **set_options)
    levels = list(args.levels)
    if len(levels) < 3 or len(set(levels)) != len(levels):
        raise ConfigError(f"--levels needs 3 or more different agent specs, got {levels}")
    power = {"power": power_settings(args, RACE_KINDS, options),
             "power-sponsors": power_settings(args, "sponsors", season)}
    check_backend(args.workers, args.ray)
    return {"players": args.players, "games": args.games, "seed": args.seed,
            "options": options, "season_options": season,
            "sets": set_cards(sets, options["card_data"]), "workers": args.workers,
            "ray": args.ray, "levels": levels, "power_agent": args.power_agent,
            "markets": args.markets, "set_options": sets, "power_settings": power,
            "fix_top": args.fix_top}


def run_analyses(setup: dict[str, Any], out: Path, plots: bool = True,
                 progress: bool = True) -> dict[str, list[Path]]:
    """Play (or resume) the skill run (``out/skill``) and restricted play (``out/power``:
    cards and drivers; ``out/power-sponsors``: sponsors in the season campaign); the
    folders to report (the balance part: the skill run's last level)."""
    from transit_gym.benchmarks.balance import card_power, skill_levels

    skill = out / "skill"
    check_out(skill)
    sets, levels = setup["set_options"], setup["levels"]
    vectors = {lv: level_vectors(lv, setup["players"], sets, setup["options"])
               for lv in levels if skill_levels.is_markets_level(lv)}
    setup["vectors"] = vectors
    skill_levels.run_levels(GAME, setup["players"], sets, dict.fromkeys(levels, setup["games"]),
                            setup["seed"], setup["options"], vectors, skill,
                            workers=setup["workers"], ray_address=setup["ray"], plots=plots,
                            progress=progress)
    for name, settings in setup["power_settings"].items():
        if progress:
            print(f"restricted play: {', '.join(settings.kinds)}", file=sys.stderr)
        card_power.run(settings, out / name, workers=setup["workers"],
                       ray_address=setup["ray"], plots=plots, progress=progress)
    return {"balance": [skill_levels.level_folder(skill, levels[-1])],
            "power": [out / name for name in setup["power_settings"]], "skill": [skill]}


def public_setup(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup as JSON (what ``summary.json`` keeps and ``propose_fixes`` gets)."""
    return {k: v for k, v in setup.items() if k not in ("set_options", "power_settings")}


def build_parser() -> argparse.ArgumentParser:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance report --balance reports/caboose --out "
                                "reports/designer")
    for kind, _, _ in PARTS:
        parser.add_argument(f"--{kind}", type=Path, action="append", default=None,
                            help=f"--out folder of a finished {kind} run (repeatable)")
    add_data_arguments(parser)   # --card-data runs the analyses (the designer's loop)
    parser.add_argument("--sets", type=Path, default=None, metavar="FILE",
                        help="TOML or JSON: market name -> five card names (default: the 13 "
                             "suggested sets)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200,
                        help="games per set and level, and per item of restricted play")
    parser.add_argument("--levels", nargs="+", default=list(LEVELS),
                        help="skill levels, weakest first; the last one plays the balance "
                             "sweep (default: random rule_based tuned:markets)")
    parser.add_argument("--power-agent", default="tuned",
                        help="the agent of restricted play (default: the generalist tuned)")
    parser.add_argument("--markets", type=int, default=4,
                        help="random markets per item of restricted play")
    parser.add_argument("--fix", action="store_true",
                        help="propose data-file changes for the most severe flagged items "
                             "(the fix search of 'transit-gym balance fix')")
    parser.add_argument("--fix-top", type=int, default=FIX_TOP, metavar="N",
                        help=f"--fix: how many flagged items to search, most severe first "
                             f"(default {FIX_TOP}; each takes minutes)")
    add_run_arguments(parser, options=True)
    parser.add_argument("--no-plots", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> Path:
    parser = build_parser()
    args = parser.parse_args(argv)
    folders = {kind: getattr(args, kind) for kind, _, _ in PARTS if getattr(args, kind)}
    out = args.out or Path("reports") / "designer"
    with tool_errors(parser):   # bad arguments or files
        if args.card_data is None:
            loop_only = [f"--{k.replace('_', '-')}" for k in ("sets", *DATA_OPTIONS, "fix")
                         if getattr(args, k)]
            if loop_only:
                raise ConfigError(f"{', '.join(loop_only)} need --card-data (the designer's "
                                  f"loop runs the analyses on a card data file)")
            report = build(folders, out)
            setup = None
        else:
            if folders:
                raise ConfigError("give either --card-data (run the analyses) or the folders "
                                  "of finished runs (--balance, --power, --skill, --market)")
            setup = run_setup(args)
            check_out(out)
    if setup is not None:
        # a sub-folder of other settings, a damaged games.csv, Ray not starting, no fixes
        with tool_errors(parser, ConfigError):
            runs = run_analyses(setup, out, plots=not args.no_plots, progress=not args.quiet)
            report = build(runs, out, card_data=setup["options"]["card_data"],
                           setup=public_setup(setup), fix=args.fix)
    print(f"written: {report}, {out / 'summary.json'}")
    return report
