"""Behaviour-cloning warm start: fit a MaskablePPO policy to a built-in teacher's choices.

``collect`` plays the learner's seat of B batched games (``SelfPlayBatch``) with the teacher
(the game's jitted rule-based kernel) and records (observation, mask, teacher action, final
reward of that game from the seat). With an ``actor`` it is one DAgger round: the actor's
choices are played, the teacher's are recorded as labels. ``fit`` then trains the policy's
action net by cross-entropy on the legal logits and its value net on the final rewards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from transit_gym.agents.registry import policy_kernel
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import AGENT_CODES
from transit_gym.training.vec_env import SelfPlayBatch, policy_logits


@dataclass
class Demonstrations:
    """Decisions of the learner's seat labelled with the teacher's action."""

    obs: np.ndarray       # (n, O) float32
    masks: np.ndarray     # (n, A) bool
    actions: np.ndarray   # (n,) int64, the teacher's choice
    returns: np.ndarray   # (n,) float32, final reward of the game from the seat

    def __len__(self) -> int:
        return len(self.actions)


def collect(game: Game, n_samples: int, seed: int, teacher: str = "rule_based",
            opponents: Sequence[str] | Mapping[str, int] = ("random", "rule_based"),
            num_envs: int = 256, actor=None) -> Demonstrations:
    """About ``n_samples`` labelled decisions from finished games (see module)."""
    if teacher not in AGENT_CODES:
        raise ConfigError(f"unknown teacher {teacher!r}; built-in agents: {sorted(AGENT_CODES)}")
    if n_samples < 1:
        raise ConfigError(f"n_samples must be positive, got {n_samples}")
    batch = SelfPlayBatch(game, num_envs, opponents, seed=seed)
    policy, code, params = policy_kernel(game.name), AGENT_CODES[teacher], game.params
    words = seeded_words(seed, 0x7EAC)
    open_rows: list[list[int]] = [[] for _ in range(num_envs)]
    obs, masks, labels, returns = [], [], [], []
    kept = 0
    labels_now = np.zeros(num_envs, dtype=np.int64)
    while kept < n_samples:
        for b in range(num_envs):
            labels_now[b] = policy(code, params, batch.obs[b], batch.masks[b], words)
        played = labels_now
        if actor is not None:
            logits = policy_logits(actor, batch.obs)
            logits[batch.masks == 0] = -np.inf
            played = logits.argmax(axis=1)
        base = len(labels) * num_envs
        obs.append(batch.obs.copy())
        masks.append(batch.masks.astype(bool))
        labels.append(labels_now.copy())
        returns.append(np.full(num_envs, np.nan, dtype=np.float32))
        batch.step(played)
        for b in range(num_envs):
            open_rows[b].append(base + b)
        for b in np.flatnonzero(batch.dones):
            for row in open_rows[b]:
                returns[row // num_envs][row % num_envs] = batch.rewards[b]
            kept += len(open_rows[b])
            open_rows[b] = []
    flat_returns = np.concatenate(returns)
    keep = ~np.isnan(flat_returns)   # decisions of games that have not ended are dropped
    return Demonstrations(np.concatenate(obs)[keep], np.concatenate(masks)[keep],
                          np.concatenate(labels)[keep], flat_returns[keep])


def fit(policy, data: Demonstrations, epochs: int = 4, batch_size: int = 1024,
        learning_rate: float = 1e-3, value_coef: float = 0.5, seed: int = 0) -> dict[str, float]:
    """Cross-entropy of the teacher's action on the masked logits (+ value regression on the
    final rewards); returns the last epoch's mean loss and how often the policy's greedy
    choice is the teacher's."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(data.obs)
    masks = torch.as_tensor(data.masks)
    actions = torch.as_tensor(data.actions)
    returns = torch.as_tensor(data.returns)
    policy.set_training_mode(True)
    stats = {"loss": 0.0, "agreement": 0.0}
    for _ in range(epochs):
        order = torch.as_tensor(rng.permutation(len(data)))
        total = 0.0
        for start in range(0, len(data), batch_size):
            rows = order[start:start + batch_size]
            values, log_prob, _ = policy.evaluate_actions(obs[rows], actions[rows],
                                                          action_masks=masks[rows])
            value_loss = ((values.flatten() - returns[rows]) ** 2).mean()
            loss = -log_prob.mean() + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(rows)
        stats = {"loss": round(total / len(data), 4)}
    policy.set_training_mode(False)
    rows = slice(0, min(len(data), 50_000))
    logits = policy_logits(policy, data.obs[rows])
    logits[~data.masks[rows]] = -np.inf
    stats["agreement"] = round(float((logits.argmax(axis=1) == data.actions[rows]).mean()), 4)
    return stats
