"""Training throughput: env-steps per second of the whole MaskablePPO loop (collection and
updates), the single-agent path against the batched VecEnv path.

    transit-gym bench training [--games loose_caboose planes] [--out F]

Three rows per game, all with one torch thread and the learner against random and
rule-based opponents:

- ``single_old``: ``SingleAgentEnv`` x 8 in a ``DummyVecEnv`` (Python opponents), with the
  PPO settings ``training.train`` used before the batched path (1,024-step rollouts, minibatch 256,
  10 epochs, 128x128 MLP);
- ``single_new_ppo``: the same envs with the new PPO settings (rollouts of 16,384 steps,
  minibatch 4,096, 4 epochs, 64x64 MLP, bounds scaling), to separate the env's share;
- ``vec``: ``SelfPlayVecEnv`` with 256 games per call and the new settings.

Compile time is kept out: each row first runs one untimed rollout and update (numba
compiles or loads its kernels then), reported apart as ``warmup_seconds``. The load
average of the machine is printed with the figures (the CPU may be shared).
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from transit_gym.training.tool_parser import ToolParser

#: the target for the batched path on Loose Caboose (env-steps/s, whole loop)
TARGET = ("loose_caboose", "vec", 20_000.0)
OLD = {"n_steps": 1024, "batch_size": 256, "n_epochs": 10, "net_arch": (128, 128),
       "scaled": False}
NEW = {"n_steps": 16_384, "batch_size": 4096, "n_epochs": 4, "net_arch": (64, 64),
       "scaled": True}


def _model(env, settings: dict[str, Any], n_envs: int, seed: int):
    from transit_gym.training.train import make_model

    return make_model(env, seed, n_steps=settings["n_steps"] // n_envs,
                      batch_size=settings["batch_size"], learning_rate=3e-4,
                      n_epochs=settings["n_epochs"], net_arch=settings["net_arch"],
                      scaled=settings["scaled"])


def measure(game_name: str, path: str, rollouts: int, seed: int = 0) -> dict[str, Any]:
    """Steps per second of ``rollouts`` full PPO iterations (collection + update)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from transit_gym.envs.registry import game_class
    from transit_gym.training.single_agent import SingleAgentEnv, build_pool
    from transit_gym.training.vec_env import SelfPlayVecEnv

    game = game_class(game_name)()
    opponents = ["random", "rule_based"]
    started = time.perf_counter()
    if path == "vec":
        n_envs, settings = 256, NEW
        env = SelfPlayVecEnv(game, n_envs, opponents, seed=seed)
    else:
        n_envs, settings = 8, (OLD if path == "single_old" else NEW)
        pool = build_pool(game, opponents, seed=seed)
        env = DummyVecEnv([(lambda i=i: SingleAgentEnv(game, pool, seed=seed + i))
                           for i in range(n_envs)])
    model = _model(env, settings, n_envs, seed)
    per_rollout = model.n_steps * n_envs
    model.learn(per_rollout)   # untimed: compiles or loads the kernels
    warmup = time.perf_counter() - started
    began = time.perf_counter()
    model.learn(per_rollout * rollouts, reset_num_timesteps=False)
    seconds = time.perf_counter() - began
    steps = per_rollout * rollouts
    return {"game": game_name, "path": path, "envs": n_envs, "steps": steps,
            "seconds": round(seconds, 2), "steps_per_second": round(steps / seconds, 1),
            "warmup_seconds": round(warmup, 1), **{k: str(v) for k, v in settings.items()}}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym bench training --games loose_caboose --old-rollouts "
                                "2 --new-rollouts 1")
    parser.add_argument("--games", nargs="+", default=["loose_caboose", "planes"])
    parser.add_argument("--old-rollouts", type=int, default=16,
                        help="PPO iterations timed on the old settings (1,024 steps each)")
    parser.add_argument("--new-rollouts", type=int, default=2,
                        help="PPO iterations timed on the new settings (16,384 steps each)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    rows = []
    for game in args.games:
        for path, rollouts in (("single_old", args.old_rollouts),
                               ("single_new_ppo", args.new_rollouts), ("vec", args.new_rollouts)):
            row = measure(game, path, rollouts)
            row["load_average"] = round(os.getloadavg()[0], 2)
            rows.append(row)
            print(f"{game:14s} {path:15s} {row['steps_per_second']:>10,.0f} env-steps/s "
                  f"({row['steps']:,} steps in {row['seconds']}s; warm-up "
                  f"{row['warmup_seconds']}s; load {row['load_average']})", flush=True)
    game, path, target = TARGET
    for row in rows:
        if row["game"] == game and row["path"] == path:
            verdict = "met" if row["steps_per_second"] >= target else "NOT met"
            print(f"target {game} {path} >= {target:,.0f} env-steps/s: {verdict}")
    if args.out is not None:
        args.out.write_text(json.dumps({"machine": platform.processor() or platform.machine(),
                                        "cpus": os.cpu_count(), "rows": rows}, indent=2))
    return rows
