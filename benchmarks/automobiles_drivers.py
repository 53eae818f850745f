"""Racing Season drivers with the built-in agents: the rule-based agent's win share
against random with drivers on, each driver's win share in rule-based mirror games, and
decisions per game with and without drivers.

    python -m benchmarks.automobiles_drivers --games 200 --players 4
"""

from __future__ import annotations

import argparse

import numpy as np

from transit_gym.agents.automobiles import policy
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.rollout import play_games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    duel = AutomobilesGame(num_players=2, drivers=True)
    wins = 0
    for seats in (["rule_based", "random"], ["random", "rule_based"]):
        result = play_games(duel, policy, seats, args.games, seed=args.seed)
        wins += int((result.rewards[:, seats.index("rule_based")] > 0).sum())
    print(f"2p drivers=True: rule_based beats random in {wins}/{2 * args.games} games")

    n = args.players
    base = AutomobilesGame(num_players=n)
    game = AutomobilesGame(num_players=n, drivers=True)
    plain = play_games(base, policy, ["rule_based"] * n, args.games, seed=args.seed)
    result = play_games(game, policy, ["rule_based"] * n, args.games, seed=args.seed)
    print(f"{n}p rule_based mirror: decisions per game {plain.decisions.mean():.0f} without "
          f"drivers, {result.decisions.mean():.0f} with")
    held = np.zeros(NUM_DRIVERS + 1)
    won = np.zeros(NUM_DRIVERS + 1)
    for i in range(args.games):
        s = result.final_states[i]
        for seat in range(n):
            d = int(s[st.DRIVER_OF + seat])
            held[d] += 1
            won[d] += float(result.rewards[i, seat] > 0)
    print(f"driver: seats holding it, win share (fair share {1 / n:.2f})")
    for d in range(1, NUM_DRIVERS + 1):
        share = won[d] / held[d] if held[d] else float("nan")
        print(f"  Driver {d:02d}: {int(held[d]):4d} {share:.2f}")


if __name__ == "__main__":
    main()
