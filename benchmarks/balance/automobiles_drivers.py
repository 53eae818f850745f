"""Racing Season drivers with the built-in agents: the rule-based agent's win share
against random with drivers on, against itself with its driver abilities switched off
(the same agent that declines every ability), each driver's win share in rule-based
mirror games, and decisions per game with and without drivers.

    transit-gym balance driver-games --games 200 --players 4

``--card-data``, ``--driver-data``, ``--track-data`` play every game on patched data.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.agents.rule_based.automobiles import policy, rule_based
from transit_gym.envs.automobiles import kernels
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.encode import O_DECISION
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.rollout import play_games
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.options import add_data_arguments, data_options
from transit_gym.training.tool_parser import ToolParser


class Tally:
    """Seats holding each driver and their wins."""

    def __init__(self) -> None:
        self.held = np.zeros(NUM_DRIVERS + 1)
        self.won = np.zeros(NUM_DRIVERS + 1)

    def add(self, result, seats: list[int]) -> None:
        for i in range(result.final_states.shape[0]):
            for seat in seats:
                d = int(result.final_states[i][st.DRIVER_OF + seat])
                self.held[d] += 1
                self.won[d] += float(result.rewards[i, seat] > 0)

    def share(self, d: int) -> float:
        return self.won[d] / self.held[d] if self.held[d] else float("nan")


@nb.njit
def ablation_policy(code, p, obs, mask, words):
    """Code 1: the rule-based agent. Code 0 (seated as "random"): the same agent with its
    driver abilities off: it drafts normally but never uses the ability it drafted."""
    if code == 1:
        return rule_based(p, obs, mask)
    own = mask.copy()
    own[kernels.A_USE_DRIVER] = 0
    phase = -1
    for k in range(st.NUM_PHASES):
        if obs[O_DECISION + k] > 0.5:
            phase = k
    if st.PH_DRIVER_DRAFT < phase < st.PH_OVER and own[kernels.A_STOP]:
        return kernels.A_STOP
    return rule_based(p, obs, own)


def main(argv: list[str] | None = None) -> None:
    ap = ToolParser(description=__doc__.splitlines()[0],
                    example="transit-gym balance driver-games --games 40 --players 4")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    add_data_arguments(ap)
    args = ap.parse_args(argv)
    with tool_errors(ap):   # a bad data file or flag
        data = data_options(args, AutomobilesGame)
        duel = AutomobilesGame(num_players=2, drivers=True, **data)
    wins = 0
    for seats in (["rule_based", "random"], ["random", "rule_based"]):
        result = play_games(duel, policy, seats, args.games, seed=args.seed)
        wins += int((result.rewards[:, seats.index("rule_based")] > 0).sum())
    print(f"2p drivers=True: rule_based beats random in {wins}/{2 * args.games} games")
    wins = 0
    off = Tally()
    for seats in (["rule_based", "random"], ["random", "rule_based"]):
        result = play_games(duel, ablation_policy, seats, args.games, seed=args.seed)
        wins += int((result.rewards[:, seats.index("rule_based")] > 0).sum())
        off.add(result, [seats.index("random")])
    print(f"2p drivers=True: rule_based using its driver beats itself not using it in "
          f"{wins}/{2 * args.games} games")
    on = Tally()
    on.add(play_games(duel, policy, ["rule_based"] * 2, 2 * args.games, seed=args.seed), [0, 1])
    print("2p, per driver: win share of its holder using it (rule-based mirror) / not using "
          "it (against a rule-based opponent using its own): seats")
    for d in range(1, NUM_DRIVERS + 1):
        print(f"  Driver {d:02d}: {on.share(d):.2f} ({int(on.held[d])}) / "
              f"{off.share(d):.2f} ({int(off.held[d])})")

    n = args.players
    base = AutomobilesGame(num_players=n, **data)
    game = AutomobilesGame(num_players=n, drivers=True, **data)
    plain = play_games(base, policy, ["rule_based"] * n, args.games, seed=args.seed)
    result = play_games(game, policy, ["rule_based"] * n, args.games, seed=args.seed)
    print(f"{n}p rule_based mirror: decisions per game {plain.decisions.mean():.0f} without "
          f"drivers, {result.decisions.mean():.0f} with")
    tally = Tally()
    tally.add(result, list(range(n)))
    print(f"driver: seats holding it, win share (fair share {1 / n:.2f})")
    for d in range(1, NUM_DRIVERS + 1):
        print(f"  Driver {d:02d}: {int(tally.held[d]):4d} {tally.share(d):.2f}")
