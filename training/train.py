"""Train a MaskablePPO agent on any transit-gym game, save it, and evaluate it.

    python -m transit_gym.training.train --game loose_caboose --players 2 --steps 200000 \\
        --opponents random rule_based --self-play 20000 --out checkpoints/lc_ppo

The learner plays one seat of a single-agent view (``transit_gym.training.single_agent``); the
other seats are drawn from a pool of built-in agents, to which a frozen snapshot of
the learner is added every ``--self-play`` steps. After training the model is saved
(``<out>.zip``) and evaluated against random and rule-based opponents, seats rotated;
the report is printed and written to ``<out>.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import game_class
from transit_gym.training.evaluate import rotate_match
from transit_gym.training.single_agent import OpponentPool, SingleAgentEnv, build_pool


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` pairs; values parsed as JSON when they can be (numbers, booleans)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise ConfigError(f"--option takes key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def make_model(env, seed: int, n_steps: int, batch_size: int, learning_rate: float):
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy", env, seed=seed, n_steps=n_steps, batch_size=batch_size,
        learning_rate=learning_rate, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]}, device="cpu", verbose=0,
    )


class SnapshotCallback:
    """Every ``every`` steps, freeze the learner and add it to the opponent pool."""

    def __init__(self, pool: OpponentPool, every: int):
        from stable_baselines3.common.callbacks import BaseCallback

        from transit_gym.agents.ppo import PolicyAgent

        pool_ref, every_ref = pool, every

        class _Callback(BaseCallback):
            def __init__(self):
                super().__init__()
                self.snapshots = 0
                self._next = every_ref

            def _on_step(self) -> bool:
                if every_ref > 0 and self.num_timesteps >= self._next:
                    self.snapshots += 1
                    pool_ref.add(PolicyAgent(self.model, deterministic=False,
                                             name=f"snapshot{self.snapshots}"))
                    self._next += every_ref
                return True

        self.callback = _Callback()


def evaluate(game, learner, n_games: int, seed: int) -> dict[str, dict[str, float]]:
    """Win rate and mean reward of ``learner`` against random and rule-based seats."""
    report = {}
    for kind in ("random", "rule_based"):
        others = [make_agent(kind, game, seed=seed + i) for i in range(game.num_players - 1)]
        result = rotate_match(game, [learner, *others], n_games, seed)
        report[kind] = {"win_rate": result.win_rate(0), "mean_reward": result.mean_reward(0),
                        "games": n_games}
    return report


def train(game_name: str, players: int | None, steps: int, opponents: list[str], self_play: int,
          out: Path, seed: int, n_envs: int, eval_games: int, options: dict[str, Any],
          n_steps: int = 1024, batch_size: int = 256, learning_rate: float = 3e-4
          ) -> dict[str, Any]:
    """Train, save ``out.zip``, evaluate; return (and save ``out.json``) the report."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    from transit_gym.agents.ppo import PolicyAgent

    torch.set_num_threads(1)  # small MLPs: one thread is fastest and leaves cores free
    game = game_class(game_name)(num_players=players, **options)
    pool = build_pool(game, opponents, seed=seed)
    envs = DummyVecEnv([
        (lambda i=i: SingleAgentEnv(game, pool, seed=seed * 7919 + i)) for i in range(n_envs)
    ])
    model = make_model(envs, seed, n_steps=max(8, n_steps // n_envs), batch_size=batch_size,
                       learning_rate=learning_rate)
    snapshots = SnapshotCallback(pool, self_play)
    started = time.perf_counter()
    model.learn(total_timesteps=steps, callback=snapshots.callback)
    elapsed = time.perf_counter() - started
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    learner = PolicyAgent(model, deterministic=True, name="learner")
    report = {
        "game": game_name, "players": players, "options": options, "steps": steps,
        "opponents": opponents, "self_play_every": self_play,
        "snapshots": snapshots.callback.snapshots, "seed": seed,
        "train_seconds": round(elapsed, 1), "steps_per_second": round(steps / elapsed, 1),
        "evaluation": evaluate(game, learner, eval_games, seed=seed + 10_000),
        "checkpoint": str(out.with_suffix(".zip")),
    }
    out.with_suffix(".json").write_text(json.dumps(report, indent=2))
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=None,
                        help="default: the game's smallest player count")
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--opponents", nargs="+", default=["random", "rule_based"],
                        choices=["random", "rule_based"])
    parser.add_argument("--self-play", type=int, default=0,
                        help="add a frozen snapshot of the learner every N steps (0: never)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--n-steps", type=int, default=1024)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--option", action="append", default=[],
                        help="game option key=value (repeatable)")
    args = parser.parse_args(argv)
    if args.steps <= 0:
        parser.error("--steps must be positive")
    players = args.players or game_class(args.game).min_players
    out = args.out or Path("checkpoints") / f"{args.game}_{players}p_ppo"
    report = train(args.game, players, args.steps, args.opponents, args.self_play, out,
                   args.seed, args.envs, args.eval_games, parse_options(args.option),
                   n_steps=args.n_steps, batch_size=args.batch_size, learning_rate=args.lr)
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
