"""Speed of the network agents: batched inference, and a search move with the network.

``transit-gym bench network [--games loose_caboose planes] [--seconds 3]``

For each game (its minimum player count, a fresh ``--hidden`` network):
- **batched inference**: B games in a ``BatchEnv``, every seat played by the network
  alone (one numpy forward over the batch, masked argmax, one batched step); decisions/s.
- **search CPU a move**: the network-guided search (``net_mcts:N``) against the game's
  default ``mcts``, CPU seconds per search move from the same positions.
Compilation is done before any clock starts and reported apart.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from transit_gym.agents.learned.network import Network
from transit_gym.agents.registry import make_agent
from transit_gym.agents.search.net_mcts import NetSearchAgent
from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.registry import cached_game
from transit_gym.training.tool_parser import ToolParser

GAMES = ("loose_caboose", "automobiles", "automobile", "planes")
MIN_PLAYERS = {"automobile": 3}


def batched_inference(game, net: Network, batch: int, seconds: float) -> float:
    """Decisions per second of the network alone over ``batch`` games."""
    env = BatchEnv(game, batch, seed=1)
    env.step(_first_legal(env.masks))   # compiles the step before the clock starts
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        logits, _ = net.forward_batch(env.obs)
        actions = np.where(env.masks.astype(bool), logits, -np.inf).argmax(1)
        env.step(actions.astype(np.int64))
        decisions += batch
    return decisions / (time.perf_counter() - start)


def _first_legal(masks: np.ndarray) -> np.ndarray:
    return masks.argmax(1).astype(np.int64)


def positions(game, count: int, seed: int = 3) -> list:
    """Positions along random games where the mover has a real choice."""
    rng = np.random.default_rng(seed)
    out, state = [], game.new_state(seed)
    while len(out) < count:
        if game.current_player(state) < 0:
            state = game.new_state(int(rng.integers(1 << 30)))
        mask = game.legal_mask(state)
        if mask.sum() >= 2:
            out.append(state.copy())
        game.apply(state, int(rng.choice(np.flatnonzero(mask))))
    return out


def cpu_per_move(agent, game, states) -> float:
    """Mean CPU seconds of one search move over ``states``."""
    start = time.process_time()
    for state in states:
        agent.act_state(state, game.current_player(state))
    return (time.process_time() - start) / len(states)


def measure(name: str, hidden: tuple[int, ...], batch: int, seconds: float,
            simulations: int, moves: int) -> dict:
    players = MIN_PLAYERS.get(name, 2)
    game = cached_game(name, players, ())
    net = Network.initial(game, hidden, seed=0)
    states = positions(game, moves)
    mcts = make_agent("mcts", game, seed=1)
    guided = NetSearchAgent(game, net, simulations=simulations, seed=1)
    compile_start = time.perf_counter()
    batched_inference(game, net, batch, 0.0)
    cpu_per_move(mcts, game, states[:1])
    cpu_per_move(guided, game, states[:1])
    compile_seconds = time.perf_counter() - compile_start
    mcts_cpu = cpu_per_move(mcts, game, states)
    guided_cpu = cpu_per_move(guided, game, states)
    return {"game": name, "players": players, "hidden": list(hidden), "batch": batch,
            "compile_seconds": round(compile_seconds, 1),
            "inference_decisions_per_s": round(batched_inference(game, net, batch, seconds)),
            "mcts_cpu_per_move": mcts_cpu, "net_mcts": f"net_mcts:{simulations}",
            "net_mcts_cpu_per_move": guided_cpu, "ratio": guided_cpu / mcts_cpu}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym bench network --games loose_caboose --seconds 1 "
                                "--moves 5")
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES), metavar="GAME",
                        help="games to measure: " + ", ".join(GAMES) + " (default: all)")
    parser.add_argument("--hidden", default="64,64")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--out", type=Path, default=None, help="write the rows as JSON")
    args = parser.parse_args(argv)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    rows = []
    print("| game | compile s | net alone, decisions/s (batch) | mcts CPU ms/move | "
          "net_mcts CPU ms/move | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in args.games:
        row = measure(name, hidden, args.batch, args.seconds, args.simulations, args.moves)
        rows.append(row)
        print(f"| {name} | {row['compile_seconds']} | {row['inference_decisions_per_s']:,} | "
              f"{1000 * row['mcts_cpu_per_move']:.1f} | "
              f"{1000 * row['net_mcts_cpu_per_move']:.1f} | {row['ratio']:.2f}x |", flush=True)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2))
    return rows
