"""Train a MaskablePPO agent on any transit-gym game, save it, and evaluate it.

    transit-gym train --game loose_caboose --steps 2000000 --bc-steps 200000 \\
        --opponents random rule_based rule_based --self-play 200000 --eval-every 200000 --seed 1

By default the learner plays one seat of B batched games (``training.vec_env``, ``--envs``
games per call), the other seats played inside numba by built-in agents drawn with the
``--opponents`` weights (a name repeated weighs more) and, every ``--self-play`` steps,
by a frozen snapshot of the learner (one batched forward per step). Observations are
scaled from the games' bounds inside the policy (``training.features``). ``--bc-steps``
warm-starts the policy by behaviour cloning of the rule-based agent
(``training.behaviour_cloning``); ``--teacher mcts[:N]`` clones the search agent instead and
``--dagger-rounds K`` adds K DAgger rounds (the policy plays, the teacher labels, the data
sets are aggregated), each followed by a quick evaluation line; ``--steps 0`` stops there.
``--no-vec`` uses the older one-game-per-env path
(``training.single_agent``). A progress bar, evaluation lines every ``--eval-every``
steps, a checkpoint at each evaluation (``<out>_last.zip``, ``--resume`` continues from
it), and TensorBoard logs (``<out folder>/tensorboard``; tensorboard is in the ``train``
extra, a notice says when it is missing). ``--device`` picks where the network trains.
Every checkpoint records its game, options and observation layout, checked before a
tournament, ``play`` or ``replay`` uses it. The model is saved
(``<out>.zip``), evaluated against random and rule-based opponents with the seats
rotated, and the report printed and written to ``<out>.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.registry import game_class
from transit_gym.training.behaviour_cloning import check_teacher
from transit_gym.training.evaluate import rotate_match
from transit_gym.training.runs.options import parse_options
from transit_gym.training.single_agent import OpponentPool, SingleAgentEnv, build_pool
from transit_gym.training.tool_parser import ToolParser

#: per-run state left out of saved checkpoints (the last batch of observations is most of a
#: checkpoint's size; ``--resume`` starts the envs afresh instead)
NOT_SAVED = ["_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer",
             "ep_success_buffer"]


def make_model(env, seed: int, n_steps: int, batch_size: int, learning_rate: float,
               n_epochs: int = 10, net_arch: tuple[int, ...] = (128, 128), scaled: bool = False,
               tensorboard_log: str | None = None, hint: Game | None = None,
               device: str = "cpu", ent_coef: float = 0.01):
    """MaskablePPO with gamma 1 (terminal rewards); ``scaled`` puts the bounds scaler in;
    ``hint`` (a game) makes the policy a ``HintedPolicy`` told that game's rule-based
    choice; ``device`` is a torch device name (``resolve_device``); ``ent_coef`` the
    entropy bonus."""
    from sb3_contrib import MaskablePPO

    policy_kwargs: dict[str, Any] = {"net_arch": list(net_arch)}
    policy: Any = "MlpPolicy"
    if hint is not None:
        from transit_gym.training.hinted_policy import HintedPolicy

        policy = HintedPolicy
        policy_kwargs.update(game=hint.name, players=hint.num_players,
                             options={k: v for k, v in hint.options.items()
                                      if k != "num_players"})
    if scaled:
        from transit_gym.training.features import BoundsScaler

        policy_kwargs["features_extractor_class"] = BoundsScaler
    model = MaskablePPO(
        policy, env, seed=seed, n_steps=n_steps, batch_size=batch_size, n_epochs=n_epochs,
        learning_rate=learning_rate, gamma=1.0, gae_lambda=0.95, ent_coef=ent_coef,
        policy_kwargs=policy_kwargs, device=device, verbose=0, tensorboard_log=tensorboard_log,
    )
    return quiet_logger(model, tensorboard_log)


def quiet_logger(model, tensorboard_log: str | None):
    """Without TensorBoard, give ``model`` a logger that writes nothing (SB3 otherwise makes
    an empty ``SB3-<date>`` folder in the temp directory at every ``learn``)."""
    if tensorboard_log is None:
        from stable_baselines3.common.logger import Logger

        model.set_logger(Logger(folder=None, output_formats=[]))
    return model


class SnapshotCallback:
    """Every ``every`` steps, freeze the learner and add it to the opponent pool."""

    def __init__(self, pool: OpponentPool, every: int):
        from stable_baselines3.common.callbacks import BaseCallback

        from transit_gym.agents.learned.ppo import PolicyAgent

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
    """Win rate and mean reward of ``learner`` against random and rule-based seats (the
    Python path: any ``Agent``)."""
    report = {}
    for kind in ("random", "rule_based"):
        others = [make_agent(kind, game, seed=seed + i) for i in range(game.num_players - 1)]
        result = rotate_match(game, [learner, *others], n_games, seed)
        report[kind] = {"win_rate": result.win_rate(0), "mean_reward": result.mean_reward(0),
                        "games": n_games}
    return report


def evaluate_batched(game: Game, policy, n_games: int, seed: int,
                     kinds: tuple[str, ...] = ("random", "rule_based")
                     ) -> dict[str, dict[str, float]]:
    """Like ``evaluate`` for an SB3 policy (greedy), on the batched env: game ``i`` has the
    learner at seat ``i % players``, one game per batch slot; a shared win is a win."""
    from transit_gym.training.behaviour_cloning import greedy_actions
    from transit_gym.training.vec_env import SelfPlayBatch

    report = {}
    for kind in kinds:
        rewards = []
        for seat in range(game.num_players):
            count = n_games // game.num_players + (seat < n_games % game.num_players)
            if count == 0:
                continue
            batch = SelfPlayBatch(game, count, [kind], learner_seat=seat, seed=seed + seat)
            result = np.full(count, np.nan, dtype=np.float32)
            while np.isnan(result).any():
                batch.step(greedy_actions(policy, batch.obs, batch.masks))
                first = batch.dones & np.isnan(result)
                result[first] = batch.rewards[first]
            rewards.append(result)
        flat = np.concatenate(rewards)
        report[kind] = {"win_rate": float((flat > 0).mean()), "mean_reward": float(flat.mean()),
                        "games": n_games}
    return report


def dagger(game: Game, policy, teacher: str, rounds: int, samples: int, epochs: int,
           opponents: list[str], num_envs: int, seed: int, eval_games: int,
           printer: Progress, seating: str = "batch", on_round=None) -> dict[str, Any]:
    """Behaviour cloning then ``rounds`` DAgger rounds: round 0 plays ``teacher`` and fits
    its choices; round k >= 1 plays the current policy greedily, labels its decisions with
    the teacher, adds them to the data of the earlier rounds and fits again. Prints a line
    per round (samples, agreement, seconds, quick win rates) and returns the rounds.
    ``seating`` ``tournament`` collects rounds k >= 1 from games in tournament seating
    (``training.seated_collect``: with 3+ players the policy also meets itself).
    ``on_round(k, rows)`` is called after each round (train() saves a checkpoint)."""
    from transit_gym.training.behaviour_cloning import collect, fit, greedy_actions

    data = None
    history = []
    for k in range(rounds + 1):
        began = time.perf_counter()
        printer.line(f"round {k} of {rounds}: collecting {samples} decisions labelled by "
                     f"{teacher} (a search teacher takes minutes)...")
        if k > 0 and seating == "tournament":
            from transit_gym.training.seated_collect import collect_seated

            new = collect_seated(game, policy, samples, seed=seed + 1 + k, teacher=teacher,
                                 opponents=opponents)
        else:
            new = collect(game, samples, seed=seed + 1 + k, teacher=teacher,
                          opponents=opponents, num_envs=num_envs,
                          actor=None if k == 0 else policy)
        collected = time.perf_counter() - began
        data = new if data is None else data + new
        # how often the policy (before this round's fit) already chose like the teacher on
        # the new decisions; ``agreement`` is after the fit, over all the data
        before = float((greedy_actions(policy, new.obs, new.masks) == new.actions).mean())
        stats = fit(policy, data, epochs=epochs, seed=seed + k)
        row: dict[str, Any] = {"round": k, "new_samples": len(new), "samples": len(data),
                               "agreement_before": round(before, 4), **stats,
                               "collect_seconds": round(collected, 1),
                               "seconds": round(time.perf_counter() - began, 1)}
        if eval_games > 0:
            quick = evaluate_batched(game, policy, eval_games, seed=seed + 30_000 + k)
            row.update({f"vs_{kind}": round(r["win_rate"], 3) for kind, r in quick.items()})
            if seating == "tournament":
                from transit_gym.training.seated_collect import seated_score

                row["seated_vs_rule_based"] = round(seated_score(
                    game, policy, max(2, eval_games // 5), seed + 40_000 + k), 3)
        history.append(row)
        printer.line("dagger " + " ".join(f"{key}={value}" for key, value in row.items()))
        if on_round is not None:
            on_round(k, history)
    return {"teacher": teacher, "rounds": history, "samples": len(data),
            "seconds": round(sum(r["seconds"] for r in history), 1)}


class Progress:
    """The training bar on stderr (``tqdm``): counts steps up to ``total``, never past it
    (PPO collects whole rollouts, so the last one usually ends beyond the target)."""

    def __init__(self, total: int, start: int = 0, enabled: bool = True):
        self.total, self.start, self.enabled = total, start, enabled
        self.began = time.perf_counter()
        self.bar = None
        if enabled and total > 0:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=min(start, total), unit="step",
                            unit_scale=True, file=sys.stderr, mininterval=1.0,
                            dynamic_ncols=True, desc="training")

    def update(self, done: int, force: bool = False) -> None:
        """Move the bar to ``done`` steps (at most ``total``)."""
        if self.bar is None:
            return
        shown = min(done, self.total)
        if shown > self.bar.n:
            self.bar.update(shown - self.bar.n)
        if force:
            self.bar.refresh()

    def line(self, text: str) -> None:
        """Print ``text`` on its own line (above the bar)."""
        if self.bar is not None:
            self.bar.clear()
        print(text, flush=True)
        if self.bar is not None:
            self.bar.refresh()

    def close(self) -> None:
        """End the bar (its line stays)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


#: what usually keeps a policy from ever beating random seats, printed when it does not
ZERO_WIN_HINT = (
    "hint: 0% against random opponents usually means the learner never learned: too few "
    "steps (try --bc-steps to start from the rule-based agent, or more --steps), the reward "
    "read from the wrong seat or with the wrong sign (a custom env or wrapper), the action "
    "masks not used (a plain PPO instead of MaskablePPO), or a learning rate so high the "
    "policy collapsed (try --lr 1e-4)")


def zero_win_hint(result: dict[str, dict[str, float]]) -> str | None:
    """The hint to print when an evaluation has 0% wins against random seats."""
    row = result.get("random")
    if row is not None and row.get("games", 0) > 0 and row["win_rate"] == 0.0:
        return ZERO_WIN_HINT
    return None


def resolve_device(device: str) -> str:
    """``cpu``, ``cuda`` or ``auto`` (cuda when available) as a torch device name;
    ``ConfigError`` for cuda without a CUDA device."""
    if device not in ("cpu", "cuda", "auto"):
        raise ConfigError(f"--device must be cpu, cuda or auto, got {device!r}")
    import torch

    available = torch.cuda.is_available()
    if device == "cuda" and not available:
        raise ConfigError("--device cuda: torch sees no CUDA device (torch "
                          f"{torch.__version__}, a CPU build?); use --device cpu or auto")
    if device == "auto":
        return "cuda" if available else "cpu"
    return device


def vec_callback(env, progress: Progress, self_play: int, snapshot_weight: int, eval_every: int,
                 eval_games: int, seed: int, out: Path):
    """Progress bar, snapshots into the env's opponents, evaluation lines and checkpoints."""
    from stable_baselines3.common.callbacks import BaseCallback

    from transit_gym.agents.learned.ppo import frozen_copy, write_metadata

    class _Callback(BaseCallback):
        def __init__(self):
            super().__init__()
            self.snapshots = 0
            self.history: list[dict[str, Any]] = []

        def _on_training_start(self) -> None:
            now = self.num_timesteps
            self._next_snap = (now // self_play + 1) * self_play if self_play > 0 else None
            self._next_eval = (now // eval_every + 1) * eval_every if eval_every > 0 else None

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            progress.update(steps)
            if self._next_snap is not None and steps >= self._next_snap:
                self.snapshots += 1
                env.batch.add_policy(frozen_copy(self.model.policy), snapshot_weight)
                self._next_snap += self_play
            if self._next_eval is not None and steps >= self._next_eval:
                self._next_eval += eval_every
                self.evaluate_now()
            return True

        def evaluate_now(self) -> None:
            steps = self.num_timesteps
            result = evaluate_batched(env.game, self.model.policy, eval_games, seed + 10_000)
            self.model.policy.set_training_mode(False)
            for kind, row in result.items():
                self.logger.record(f"eval/win_rate_vs_{kind}", row["win_rate"])
            self.history.append({"steps": steps, **{k: r["win_rate"] for k, r in result.items()}})
            self.model.save(str(out.parent / f"{out.name}_last"), exclude=NOT_SAVED)
            write_metadata(out.parent / f"{out.name}_last", env.game)
            progress.line(f"eval steps={steps:,} " + " ".join(
                f"vs_{kind}={row['win_rate']:.3f}" for kind, row in result.items())
                + f" ({progress.total and round(time.perf_counter() - progress.began)}s)")
            hint_text = zero_win_hint(result)
            if hint_text:
                progress.line(hint_text)

    return _Callback()


def train(game_name: str, players: int | None, steps: int, opponents: list[str], self_play: int,
          out: Path, seed: int, n_envs: int, eval_games: int, options: dict[str, Any],
          n_steps: int = 1024, batch_size: int = 256, learning_rate: float = 3e-4,
          vec: bool = True, bc_steps: int = 0, bc_epochs: int = 4, eval_every: int = 0,
          n_epochs: int = 4, net_arch: tuple[int, ...] = (64, 64), snapshot_weight: int = 1,
          resume: Path | None = None, progress: bool = True, teacher: str = "rule_based",
          dagger_rounds: int = 0, collect_envs: int | None = None,
          round_eval_games: int = 300, hint: str | None = None,
          dagger_seating: str = "batch", device: str = "cpu") -> dict[str, Any]:
    """Train, save ``out.zip``, evaluate; return (and save ``out.json``) the report.

    ``n_steps`` is the rollout length summed over the envs (each env gets its share). With
    ``bc_steps`` the policy first imitates ``teacher`` (the rule-based path as before when
    ``teacher`` is ``rule_based`` and ``dagger_rounds`` is 0; else :func:`dagger`).
    ``device`` is ``cpu``, ``cuda`` or ``auto``. Every checkpoint written records the
    game, its options and the observation layout (``agents.learned.ppo.write_metadata``)."""
    import torch

    from transit_gym.agents.learned.ppo import checkpoint_metadata, write_metadata

    torch.set_num_threads(1)  # small MLPs: one thread is fastest and leaves cores free
    game_options, shaping = split_shaping(options)
    game = game_class(game_name)(num_players=players, **game_options)
    device = resolve_device(device)
    out.parent.mkdir(parents=True, exist_ok=True)
    tensorboard = (str(out.parent / "tensorboard")
                   if importlib.util.find_spec("tensorboard") is not None else None)
    if tensorboard is None and progress:
        print("TensorBoard logs are off: tensorboard is not installed (pip install "
              "'transit-gym[train]')", file=sys.stderr)
    if resume is not None:
        from transit_gym.agents.learned.ppo import check_checkpoint

        check_checkpoint(resume, game)
    if not vec:
        return _train_single_agent(game, game_name, players, steps, opponents, self_play, out,
                                   seed, n_envs, eval_games, options, n_steps, batch_size,
                                   learning_rate, device, shaping)
    from sb3_contrib import MaskablePPO

    from transit_gym.training.behaviour_cloning import collect, fit
    from transit_gym.training.vec_env import SelfPlayVecEnv

    env = SelfPlayVecEnv(game, n_envs, opponents, seed=seed, reward_shaping=shaping)
    started = time.perf_counter()
    bc_report: dict[str, Any] = {}
    if resume is not None:
        model = quiet_logger(MaskablePPO.load(str(resume), env=env, device=device,
                                              tensorboard_log=tensorboard), tensorboard)
    else:
        model = make_model(env, seed, n_steps=max(8, n_steps // n_envs), batch_size=batch_size,
                           learning_rate=learning_rate, n_epochs=n_epochs, net_arch=net_arch,
                           scaled=True, tensorboard_log=tensorboard,
                           hint=game if hint == "rule_based" else None, device=device)
        if bc_steps > 0 and teacher == "rule_based" and dagger_rounds == 0:
            data = collect(game, bc_steps, seed=seed + 1, opponents=opponents,
                           num_envs=min(n_envs, 256))
            bc_report = {"samples": len(data), **fit(model.policy, data, epochs=bc_epochs,
                                                      seed=seed)}
            bc_report["seconds"] = round(time.perf_counter() - started, 1)
        elif bc_steps > 0:
            def save_round(k: int, rows: list[dict[str, Any]]) -> None:
                """``<out>_round<k>.zip`` and its report: what ``--dagger-rounds k`` (and
                ``--steps 0``) would save."""
                name = out.parent / f"{out.name}_round{k}"
                model.save(str(name), exclude=NOT_SAVED)
                write_metadata(name, game)
                name.with_suffix(".json").write_text(json.dumps({
                    "game": game_name, "players": game.num_players, "options": options,
                    "seed": seed, "teacher": teacher, "dagger_rounds": k, "rounds": rows,
                    "net": list(net_arch), "hint": hint, "dagger_seating": dagger_seating,
                    "seconds": round(time.perf_counter() - started, 1),
                    **_metadata_keys(checkpoint_metadata(game))}, indent=2))

            bc_report = dagger(game, model.policy, teacher, dagger_rounds, bc_steps, bc_epochs,
                               opponents, collect_envs or min(n_envs, 256), seed,
                               round_eval_games, Progress(0, enabled=False),
                               seating=dagger_seating, on_round=save_round)
    bar = Progress(steps, start=model.num_timesteps, enabled=progress)
    callback = vec_callback(env, bar, self_play, snapshot_weight, eval_every, eval_games, seed,
                            out)
    if bc_report:
        bar.line(f"behaviour cloning: {bc_report}")
    remaining = steps - model.num_timesteps
    learn_started = time.perf_counter()
    if steps > 0 and remaining > 0:
        model.learn(total_timesteps=remaining, callback=callback,
                    reset_num_timesteps=resume is None)
    bar.update(model.num_timesteps, force=True)
    bar.close()
    learn_seconds = time.perf_counter() - learn_started
    elapsed = time.perf_counter() - started
    model.save(str(out), exclude=NOT_SAVED)
    write_metadata(out, game)
    report = {
        "game": game_name, "players": game.num_players, "options": options, "steps": steps,
        "opponents": opponents, "self_play_every": self_play, "vec": True, "envs": n_envs,
        "snapshots": callback.snapshots, "seed": seed, "behaviour_cloning": bc_report,
        "net": list(net_arch), "hint": hint, "dagger_seating": dagger_seating,
        "train_seconds": round(elapsed, 1),
        "steps_per_second": round(max(remaining, 0) / max(learn_seconds, 1e-9), 1),
        "history": callback.history,
        "evaluation": evaluate_batched(game, model.policy, eval_games, seed=seed + 20_000),
        "checkpoint": str(out.with_suffix(".zip")), "device": device,
        **_metadata_keys(checkpoint_metadata(game)),
    }
    hint_text = zero_win_hint(report["evaluation"])
    if hint_text:
        print(hint_text, file=sys.stderr, flush=True)
    out.with_suffix(".json").write_text(json.dumps(report, indent=2))
    return report


def split_shaping(options: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """``options`` without ``reward_shaping`` (the game's options) and that option's value
    (an option of the training env, not of the game; None when absent)."""
    game_options = {k: v for k, v in options.items() if k != "reward_shaping"}
    return game_options, options.get("reward_shaping")


def _metadata_keys(meta: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint metadata keys a training report adds (``observation``: the layout;
    game, players and options are the report's own)."""
    return {"observation": meta["observation"], "metadata_format": meta["format"]}


def _train_single_agent(game, game_name, players, steps, opponents, self_play, out, seed,
                        n_envs, eval_games, options, n_steps, batch_size, learning_rate,
                        device: str = "cpu", shaping: Any = None):
    """The one-game-per-env path (``--no-vec``): Python opponents, DummyVecEnv."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from transit_gym.agents.learned.ppo import PolicyAgent

    pool = build_pool(game, opponents, seed=seed)
    envs = DummyVecEnv([
        (lambda i=i: SingleAgentEnv(game, pool, seed=seed * 7919 + i, reward_shaping=shaping))
        for i in range(n_envs)
    ])
    model = make_model(envs, seed, n_steps=max(8, n_steps // n_envs), batch_size=batch_size,
                       learning_rate=learning_rate, device=device)
    snapshots = SnapshotCallback(pool, self_play)
    started = time.perf_counter()
    model.learn(total_timesteps=steps, callback=snapshots.callback)
    elapsed = time.perf_counter() - started
    model.save(str(out))
    from transit_gym.agents.learned.ppo import checkpoint_metadata, write_metadata

    write_metadata(out, game)
    learner = PolicyAgent(model, deterministic=True, name="learner")
    report = {
        "game": game_name, "players": players, "options": options, "steps": steps,
        "opponents": opponents, "self_play_every": self_play, "vec": False,
        "snapshots": snapshots.callback.snapshots, "seed": seed,
        "train_seconds": round(elapsed, 1), "steps_per_second": round(steps / elapsed, 1),
        "evaluation": evaluate(game, learner, eval_games, seed=seed + 10_000),
        "checkpoint": str(out.with_suffix(".zip")), "device": device,
        **_metadata_keys(checkpoint_metadata(game)),
    }
    out.with_suffix(".json").write_text(json.dumps(report, indent=2))
    return report


def add_game_arguments(parser: ToolParser) -> None:
    """``--game`` (required) and ``--players`` of a training tool."""
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=None,
                        help="default: the game's smallest player count")


def parse_net(parser: ToolParser, text: str) -> tuple[int, ...]:
    """``--net``'s hidden layer widths (``64,64``); a usage error otherwise."""
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        parser.error(f"--net takes comma-separated integers, got {text!r}")
        raise  # parser.error exits


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym train --game loose_caboose --steps 20000 "
                                "--eval-games 100 --out checkpoints/lc_ppo")
    add_game_arguments(parser)
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--opponents", nargs="+", default=["random", "rule_based"],
                        choices=["random", "rule_based"],
                        help="built-in opponents; a name repeated is drawn more often")
    parser.add_argument("--self-play", type=int, default=0,
                        help="add a frozen snapshot of the learner every N steps (0: never)")
    parser.add_argument("--snapshot-weight", type=int, default=1,
                        help="draw weight of each snapshot among the opponents (vec path)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vec", action=argparse.BooleanOptionalAction, default=True,
                        help="batched games (default) or one Python game per env (--no-vec)")
    parser.add_argument("--envs", type=int, default=None,
                        help="games per batch (vec, default 256) or envs (no-vec, default 8)")
    parser.add_argument("--n-steps", type=int, default=None,
                        help="rollout length summed over envs (default: 64 per env)")
    parser.add_argument("--batch-size", type=int, default=None,
                        help="minibatch (default 4096 vec, 256 no-vec)")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout")
    parser.add_argument("--net", type=str, default="64,64", help="hidden layers, e.g. 64,64")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--bc-steps", type=int, default=0,
                        help="behaviour-cloning decisions of the teacher, exactly this many "
                             "per round (0: none)")
    parser.add_argument("--bc-epochs", type=int, default=4,
                        help="cross-entropy epochs over the (aggregated) data per round")
    parser.add_argument("--teacher", default="rule_based",
                        help="who labels the --bc-steps decisions: rule_based, mcts or mcts:N")
    parser.add_argument("--dagger-rounds", type=int, default=0,
                        help="DAgger rounds after the first cloning round (each --bc-steps "
                             "decisions of the current policy labelled by the teacher)")
    parser.add_argument("--collect-envs", type=int, default=None,
                        help="games per batch while collecting (default: --envs, at most 256)")
    parser.add_argument("--hint", default=None,
                        help="tell the policy the rule-based agent's choice (a learned "
                             "bonus on its logit; training.hinted_policy)")
    parser.add_argument("--dagger-seating", choices=["batch", "tournament"], default="batch",
                        help="DAgger rounds 1+ from the batched env (one learner seat) or from "
                             "games in tournament seating (alternate seats, mcts teacher)")
    parser.add_argument("--round-eval-games", type=int, default=300,
                        help="games of the quick evaluation after each DAgger round")
    parser.add_argument("--eval-every", type=int, default=0,
                        help="evaluate, print and checkpoint every N steps (0: at the end only)")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--resume", type=Path, default=None, help="checkpoint to continue")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda", "auto"],
                        help="where the network trains (auto: cuda when available); "
                             "the games always run on the CPU")
    parser.add_argument("--option", action="append", default=[],
                        help="game option key=value (repeatable); reward_shaping=score (or a "
                             "coefficient) shapes the learner's rewards")
    args = parser.parse_args(argv)
    check_teacher(args.teacher)
    if args.hint is not None:
        from transit_gym.training.hinted_policy import check_hint

        check_hint(args.hint)
    if args.dagger_rounds < 0:
        raise ConfigError(f"--dagger-rounds must be >= 0, got {args.dagger_rounds}")
    if (args.teacher != "rule_based" or args.dagger_rounds > 0) and args.bc_steps <= 0:
        raise ConfigError("--teacher and --dagger-rounds need --bc-steps > 0 (decisions "
                          "collected per round)")
    if args.collect_envs is not None and args.collect_envs < 1:
        raise ConfigError(f"--collect-envs must be positive, got {args.collect_envs}")
    if args.steps < 0 or (args.steps == 0 and args.bc_steps <= 0):
        parser.error("--steps must be positive (or 0 with --bc-steps: cloning only)")
    net_arch = parse_net(parser, args.net)
    if args.resume is not None and not args.resume.exists():
        parser.error(f"--resume: no checkpoint at {str(args.resume)!r}")
    try:
        resolve_device(args.device)
    except ConfigError as exc:
        parser.error(str(exc))
    envs = args.envs or (256 if args.vec else 8)
    n_steps = args.n_steps or 64 * envs
    batch_size = args.batch_size or (4096 if args.vec else 256)
    players = args.players or game_class(args.game).min_players
    out = args.out or Path("checkpoints") / f"{args.game}_{players}p_ppo"
    report = train(args.game, players, args.steps, args.opponents, args.self_play, out,
                   args.seed, envs, args.eval_games, parse_options(args.option),
                   n_steps=n_steps, batch_size=batch_size, learning_rate=args.lr, vec=args.vec,
                   bc_steps=args.bc_steps, bc_epochs=args.bc_epochs, eval_every=args.eval_every,
                   n_epochs=args.epochs, net_arch=net_arch, snapshot_weight=args.snapshot_weight,
                   resume=args.resume, progress=not args.no_progress, teacher=args.teacher,
                   dagger_rounds=args.dagger_rounds, collect_envs=args.collect_envs,
                   round_eval_games=args.round_eval_games, hint=args.hint,
                   dagger_seating=args.dagger_seating, device=args.device)
    print(json.dumps(report, indent=2))
    return report
