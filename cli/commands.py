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


#: the groups of ``transit-gym --help``, in order
GROUPS = ("play and watch", "agents", "design", "speed", "set-up")
#: families of two-word commands: family word -> (group, what the family is about)
FAMILIES = {
    "balance": ("design", "game-design analysis: balance, card power, markets, drivers"),
    "bench": ("speed", "speed of the environments, agents, training and start-up"),
}

_T = "transit_gym.training."
_B = "transit_gym.benchmarks."

COMMANDS: tuple[Command, ...] = (
    Command("demo", "play and watch", "a few full games of every game with the rule-based agents",
            _T + "demo"),
    Command("play", "play and watch", "play any game in the terminal against built-in agents",
            _T + "play"),
    Command("replay", "play and watch", "record a seeded game as a GIF, an MP4 or one PNG frame",
            _T + "replay"),
    Command("pictures", "play and watch", "redraw (or check) the pictures of docs/img",
            _T + "pictures"),
    Command("train", "agents", "train a MaskablePPO agent, save it and evaluate it",
            _T + "train"),
    Command("exit", "agents", "expert iteration (distillation, DAgger): a policy-value network",
            _T + "exit"),
    Command("generalist", "agents", "held-out evaluation of the generalist Automobiles network",
            _T + "generalist"),
    Command("tune", "agents", "CMA-ES tuning of the Automobiles parameter vectors",
            _T + "tune"),
    Command("tournament", "agents", "round-robin tournament between agents, with Elo ratings",
            _T + "tournament"),
    Command("ladder", "agents", "every pair of agents of one game: score rates, CPU per move",
            _B + "strength.ladder"),
    Command("ladder-table", "agents", "one markdown table from the ladders' JSON reports",
            _B + "strength.ladder_summary"),
    Command("tuned-markets", "agents", "score the shipped tuned vectors against a reference agent",
            _B + "strength.tuned_markets"),
    Command("expansion-strength", "agents", "the rule-based agent against random on Racing Season "
            "content", _B + "strength.expansion_strength"),
    Command("balance sweep", "design", "card-set balance by self-play: seat win rates, races",
            _B + "balance.sweep"),
    Command("balance compare", "design", "compare the set rankings of two finished sweeps",
            _B + "balance.balance_report"),
    Command("balance power", "design", "per-card, driver and sponsor power by restricted play",
            _B + "balance.card_power"),
    Command("balance skills", "design", "balance verdicts across agents of different strength",
            _B + "balance.skill_levels"),
    Command("balance markets", "design", "search the Automobiles market for its most and least "
            "balanced sets", _B + "balance.market_search"),
    Command("balance drivers", "design", "how a driver's win share depends on reconstructed data",
            _B + "balance.driver_sensitivity"),
    Command("balance driver-shares", "design", "each Racing Season driver's win share in mirror "
            "games", _B + "balance.driver_shares"),
    Command("balance driver-games", "design", "Racing Season drivers with the built-in agents",
            _B + "balance.automobiles_drivers"),
    Command("balance sponsors", "design", "does the season agent's sponsor play matter?",
            _B + "balance.season_sponsors"),
    Command("balance report", "design", "one report for a designer from the analyses above",
            _B + "balance.designer_report"),
    Command("bench throughput", "speed", "steps per second of our environments and of peers",
            _B + "speed.throughput"),
    Command("bench startup", "speed", "start-up cost of a fresh process, cold and warm caches",
            _B + "speed.startup"),
    Command("bench training", "speed", "env-steps per second of the whole MaskablePPO loop",
            _B + "speed.training_speed"),
    Command("bench network", "speed", "network agents: batched inference and a search move",
            _B + "speed.net_speed"),
    Command("bench tune", "speed", "tuned-agent games per second and the optimiser's wall time",
            _B + "speed.tune_speed"),
    Command("bench compile", "speed", "compile CPU-s of every kernel, from an empty cache",
            _B + "speed.compile_time"),
    Command("bench scaling", "speed", "speed-up of a sweep and a tournament as workers double",
            _B + "speed.scaling"),
    Command("warmup", "set-up", "compile (or load) every game's kernels ahead of use",
            _T + "warmup"),
)

BY_NAME = {command.name: command for command in COMMANDS}
