"""Does the Racing Season agent's sponsor play matter? Full rule-based agent against the
same agent answering every sponsor decision uniformly at random (races still played by
the rule-based race agent), seats alternating, on ``automobiles_season`` defaults.

    transit-gym balance sponsors --players 2 --seasons 300

``--card-data``, ``--driver-data``, ``--sponsor-data``, ``--track-data`` play every season
on patched data.
"""

from __future__ import annotations

import numpy as np

from transit_gym.agents.rule_based.automobiles_season import policy
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season_v0 import Game
from transit_gym.envs.core.rng import seeded_words
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.options import add_data_arguments, data_options
from transit_gym.training.tool_parser import ToolParser


def win_rate(players: int, seasons: int, seed: int = 0,
             data: dict[str, str] | None = None) -> float:
    """Share of seasons won by the full agent (seat ``i % players`` in season ``i``);
    ``data``: the data-file options (``sponsor_data``...)."""
    game = Game(num_players=players, **(data or {}))
    rng = np.random.default_rng(seed)
    wins = 0
    for i in range(seasons):
        state = game.new_state(seed * 1_000_003 + i)
        words = seeded_words(seed, i)
        smart = i % players
        while not game.is_over(state):
            player = game.current_player(state)
            mask = game.legal_mask(state)
            if player != smart and int(state.data[ss.SEASON_PHASE]) != ss.S_RACE:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(policy(1, game.params_of(state), game.observe(state, player), mask,
                                    words))
            game.apply(state, action)
        wins += int(game.rewards(state)[smart] > 0)
    return wins / seasons


def main(argv: list[str] | None = None) -> float:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance sponsors --seasons 20")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seasons", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    add_data_arguments(parser)
    args = parser.parse_args(argv)
    with tool_errors(parser):   # a bad data file or flag
        data = data_options(args, Game)
        Game(num_players=args.players, **data)   # the files valid?
    rate = win_rate(args.players, args.seasons, args.seed, data)
    print(f"{args.players} players, {args.seasons} seasons: the full agent wins {rate:.3f} "
          f"(fair share {1 / args.players:.3f})")
    return rate
