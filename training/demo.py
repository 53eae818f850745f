"""``make demo``: a few full games of every installed environment with the rule-based
agents, played through the PettingZoo AEC API, with results and the last table as text.

    transit-gym demo [--games 3] [--seed 0] [--only loose_caboose]
"""

from __future__ import annotations

import time

from transit_gym.agents.registry import make_agent
from transit_gym.envs.registry import available_games, env_module
from transit_gym.training.tool_parser import ToolParser


def play_demo_game(name: str, players: int, seed: int) -> tuple[dict, str, int]:
    """One game through the wrapped AEC env; returns infos, the final table and steps."""
    env = env_module(name).env(num_players=players, render_mode="ansi")
    env.reset(seed=seed)
    game = env.unwrapped.game
    agents = {agent: make_agent("rule_based", game, seed=seed + i)
              for i, agent in enumerate(env.possible_agents)}
    steps = 0
    final_infos: dict = {}
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            final_infos[agent] = info
            env.step(None)
            continue
        env.step(agents[agent].act(obs["observation"], obs["action_mask"]))
        steps += 1
    table = game.render_text(env.unwrapped.game_state)
    env.close()
    return final_infos, table, steps


def _summary(info: dict) -> str:
    keys = [k for k in ("rank", "points", "score", "cash", "progress", "cards") if k in info]
    return ", ".join(f"{k} {info[k]}" for k in keys)


def main(argv: list[str] | None = None) -> None:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym demo --games 1 --only loose_caboose planes")
    parser.add_argument("--games", type=int, default=3, help="games per environment")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=None, help="environments to show")
    args = parser.parse_args(argv)
    names = args.only or available_games()
    for name in names:
        module = env_module(name)
        players = module.Game.min_players
        print(f"=== {module.env.__doc__.split(' AEC')[0].replace('The wrapped ', '')}"
              f" ({players} players, rule-based agents) ===")
        table = ""
        for g in range(args.games):
            started = time.perf_counter()
            infos, table, steps = play_demo_game(name, players, args.seed + g)
            elapsed = time.perf_counter() - started
            ranking = sorted(infos.items(), key=lambda item: item[1].get("rank", 0))
            winners = [a for a, i in infos.items() if i.get("winner")]
            print(f"game {g + 1}: {steps} decisions in {elapsed:.2f} s; winner(s): "
                  f"{', '.join(winners) or 'none'}")
            for agent, info in ranking:
                print(f"    {agent}: {_summary(info)}")
        print("last table:")
        print(table)
        print()
