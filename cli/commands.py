"""The table of ``transit-gym`` commands: plain data, so ``--help`` imports no tool.

Every command runs ``main(argv)`` of one tool module with the arguments that follow its name
(``transit-gym tournament --game planes`` runs ``transit_gym.training.tournament.main(
["--game", "planes"])``). A command in a family (``balance``, ``bench``) has two words.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One command: its words, its group in the help, a line of help, its tool module."""

    name: str
    group: str
    help: str
    module: str

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.name.split())


#: families of two-word commands: family word -> (group, what the family is about)
FAMILIES = {
    "balance": ("design", "game-design analysis: balance, card power, markets, drivers"),
    "bench": ("speed", "speed of the environments, agents, training and start-up"),
}

#: the commands by group, in the order of the help: (name, tool module below
#: ``transit_gym``, one line of help)
TABLE: dict[str, tuple[tuple[str, str, str], ...]] = {
    "play and watch": (
        ("demo", "training.demo",
         "a few full games of every game with the rule-based agents"),
        ("play", "training.play",
         "play any game in the terminal against built-in agents"),
        ("replay", "training.replay",
         "record a seeded game as a GIF, an MP4 or one PNG frame"),
        ("pictures", "training.pictures",
         "redraw (or check) the pictures of docs/img"),
    ),
    "agents": (
        ("train", "training.train",
         "train a MaskablePPO agent, save it and evaluate it"),
        ("exit", "training.exit",
         "expert iteration (distillation, DAgger): a policy-value network"),
        ("generalist", "training.generalist",
         "held-out evaluation of the generalist Automobiles network"),
        ("tune", "training.tune",
         "CMA-ES tuning of a game's parameter-vector agent (tuned)"),
        ("tournament", "training.tournament",
         "round-robin tournament between agents, with Elo ratings"),
        ("ladder", "benchmarks.strength.ladder",
         "every pair of agents of one game: score rates, CPU per move"),
        ("ladder-table", "benchmarks.strength.ladder_summary",
         "one markdown table from the ladders' JSON reports"),
        ("tuned-markets", "benchmarks.strength.tuned_markets",
         "score the shipped tuned vectors against a reference agent"),
        ("expansion-strength", "benchmarks.strength.expansion_strength",
         "the rule-based agent against random on Racing Season content"),
    ),
    "design": (
        ("balance sweep", "benchmarks.balance.sweep",
         "card-set balance by self-play: seat win rates, races"),
        ("balance compare", "benchmarks.balance.balance_report",
         "compare the set rankings of two finished sweeps"),
        ("balance power", "benchmarks.balance.card_power",
         "per-card, driver and sponsor power by restricted play"),
        ("balance skills", "benchmarks.balance.skill_levels",
         "balance verdicts across agents of different strength"),
        ("balance markets", "benchmarks.balance.market_search",
         "search the Automobiles market for its most and least balanced sets"),
        ("balance drivers", "benchmarks.balance.driver_sensitivity",
         "how a driver's win share depends on reconstructed data"),
        ("balance driver-shares", "benchmarks.balance.driver_shares",
         "each Racing Season driver's win share in mirror games"),
        ("balance driver-games", "benchmarks.balance.automobiles_drivers",
         "Racing Season drivers with the built-in agents"),
        ("balance sponsors", "benchmarks.balance.season_sponsors",
         "does the season agent's sponsor play matter?"),
        ("balance fix", "benchmarks.balance.fixes",
         "the smallest data change that brings a flagged item into its band"),
        ("balance report", "benchmarks.balance.designer_report",
         "the designer's loop: flags (--fix: proposed changes) for a data file"),
    ),
    "speed": (
        ("bench throughput", "benchmarks.speed.throughput",
         "steps per second of our environments and of peers"),
        ("bench startup", "benchmarks.speed.startup",
         "start-up cost of a fresh process, cold and warm caches"),
        ("bench training", "benchmarks.speed.training_speed",
         "env-steps per second of the whole MaskablePPO loop"),
        ("bench network", "benchmarks.speed.net_speed",
         "network agents: batched inference and a search move"),
        ("bench tune", "benchmarks.speed.tune_speed",
         "tuned-agent games per second and the optimiser's wall time"),
        ("bench compile", "benchmarks.speed.compile_time",
         "compile CPU-s of every kernel, from an empty cache"),
        ("bench scaling", "benchmarks.speed.scaling",
         "speed-up of a sweep and a tournament as workers double"),
    ),
    "set-up": (
        ("warmup", "training.warmup",
         "compile (or load) every game's kernels ahead of use"),
    ),
}
#: the groups of ``transit-gym --help``, in order
GROUPS = tuple(TABLE)
COMMANDS: tuple[Command, ...] = tuple(
    Command(name, group, help, f"transit_gym.{module}")
    for group, rows in TABLE.items() for name, module, help in rows)

BY_NAME = {command.name: command for command in COMMANDS}
