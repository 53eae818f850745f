"""Each Racing Season driver's win share in mirror games of one agent spec (every seat
the same agent: ``rule_based``, ``tuned`` or ``tuned:FILE``), with 95% Wilson intervals.

    transit-gym balance driver-shares --agent tuned --players 4 --games 400

``--drivers all`` drafts from all ten (every driver is held often enough to measure);
``--drivers on`` from players + 1; ``--drivers dealt`` deals every seat a different
driver at random from all ten (no preference: Driver 05 too is held a tenth of the time;
the deal of ``benchmarks.balance.driver_sensitivity``). Games are jitted; the market is drawn
per game from all 35 cards (``card_pool="all"``) unless ``--card-set`` names one;
``--card-data``, ``--driver-data``, ``--track-data`` play patched data.
"""

from __future__ import annotations

import numpy as np

from transit_gym.agents.registry import play_specs
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.registry import cached_game, game_class, options_key
from transit_gym.training.runs.options import add_data_arguments, data_options
from transit_gym.training.stats import wilson_interval
from transit_gym.training.tool_parser import ToolParser


def driver_shares(agent: str, players: int, games: int, seed: int, drivers: str | bool,
                  card_set: str, track: str, data: dict[str, str] | None = None
                  ) -> list[tuple[int, int, float, float, float]]:
    """(driver, seats holding it, win share, low, high) per driver; ``drivers``: True
    (draft from players + 1), ``"all"`` (draft from ten) or ``"dealt"`` (random deal);
    ``data``: the data-file options (``card_data``...)."""
    options = {"drivers": "all" if drivers == "dealt" else drivers, "card_set": card_set,
               "track": track, **(data or {})}
    if card_set == "random":
        options["card_pool"] = "all"
    held = np.zeros(NUM_DRIVERS + 1)
    won = np.zeros(NUM_DRIVERS + 1)
    if drivers == "dealt":
        from transit_gym.benchmarks.balance.driver_sensitivity import Chunk, run_chunk

        for row in run_chunk(Chunk("shares", options_key(options), agent, players, "random",
                                   seed, 0, games)):
            for d, share in zip(row["drivers"].split("-"), row["shares"].split("-"),
                                strict=True):
                held[int(d)] += 1
                won[int(d)] += float(float(share) > 0)
    else:
        game = cached_game("automobiles", players, options_key(options))
        result = play_specs(game, [agent] * players, games, seed=seed)
        for i in range(games):
            for seat in range(players):
                d = int(result.final_states[i][st.DRIVER_OF + seat])
                held[d] += 1
                won[d] += float(result.rewards[i, seat] > 0)
    rows = []
    for d in range(1, NUM_DRIVERS + 1):
        low, high = wilson_interval(won[d], int(held[d]))
        rows.append((d, int(held[d]), won[d] / held[d] if held[d] else float("nan"), low, high))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance driver-shares --agent rule_based --games 40")
    parser.add_argument("--agent", default="tuned")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--drivers", default="on", choices=["on", "all", "dealt"])
    parser.add_argument("--card-set", default="random")
    parser.add_argument("--track", default="daytona")
    add_data_arguments(parser)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be positive, got {args.games}")
    try:
        rows = driver_shares(args.agent, args.players, args.games, args.seed,
                             {"on": True}.get(args.drivers, args.drivers), args.card_set,
                             args.track, data_options(args, game_class("automobiles")))
    except ValueError as exc:   # ConfigError: unknown agent, bad options
        parser.error(str(exc))
    print(f"{args.agent} mirror, {args.players} players, {args.games} games, drivers "
          f"{args.drivers} (fair share {1 / args.players:.2f})")
    print("| driver | seats | win share | 95% interval |\n|---|---|---|---|")
    for d, held, share, low, high in rows:
        print(f"| {d:02d} | {held} | {share:.2f} | {low:.2f}-{high:.2f} |")
    return 0
