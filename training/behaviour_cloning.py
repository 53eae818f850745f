"""Behaviour cloning and DAgger: fit a MaskablePPO policy to a teacher's choices.

``collect`` plays the learner's seat of B batched games (``SelfPlayBatch``) with the teacher
and records (observation, mask, teacher action, final reward of that game from the seat).
The teacher is a built-in agent (the game's jitted policy kernel, e.g. ``rule_based``) or
the search agent (``mcts`` / ``mcts:N``, ``agents/search/mcts.py``) searching from the learner's
state, reseeded for every decision so a label depends only on the seed and the decision's
row. With an ``actor`` it is one DAgger round: the actor's greedy choices are played, the
teacher's are recorded as labels. ``fit`` then trains the policy's action net by
cross-entropy on the legal logits and its value net on the final rewards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from transit_gym.agents.registry import policy_kernel
from transit_gym.agents.search.mcts import MCTSAgent, is_search_spec, parse_spec
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game, State
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
    states: np.ndarray | None = None   # (n, S) int64 game states, when asked for
    seats: np.ndarray | None = None    # (n,) int64 learner seat, with the states
    rows: np.ndarray | None = None     # (n,) int64 decision row (step x B + slot), with them

    def __len__(self) -> int:
        return len(self.actions)

    def trimmed(self, n: int, seed: int) -> Demonstrations:
        """Exactly ``n`` of the decisions (all when there are fewer), chosen at random from
        ``seed`` across every game collected, kept in their order: whole games end at
        different lengths, so the last games finished hold more than their share of late
        decisions and cutting the tail would bias the data to the openings."""
        if len(self) <= n:
            return self
        rng = np.random.default_rng([seed, TRIM_STREAM])
        keep = np.sort(rng.choice(len(self), size=n, replace=False))

        def pick(a):
            return None if a is None else a[keep]

        return Demonstrations(self.obs[keep], self.masks[keep], self.actions[keep],
                              self.returns[keep], pick(self.states), pick(self.seats),
                              pick(self.rows))

    def __add__(self, other: Demonstrations) -> Demonstrations:
        """Both data sets in one (DAgger aggregates its rounds); states only if both kept
        them."""
        def join(a, b):
            return None if a is None or b is None else np.concatenate([a, b])

        return Demonstrations(np.concatenate([self.obs, other.obs]),
                              np.concatenate([self.masks, other.masks]),
                              np.concatenate([self.actions, other.actions]),
                              np.concatenate([self.returns, other.returns]),
                              join(self.states, other.states), join(self.seats, other.seats),
                              join(self.rows, other.rows))


def check_teacher(teacher: str) -> None:
    """ConfigError unless ``teacher`` is a built-in agent or a search spec (``mcts``,
    ``mcts:N``, ``mcts:N:ROLLOUT``)."""
    if teacher in AGENT_CODES:
        return
    if is_search_spec(teacher):
        parse_spec(teacher)   # raises on a bad budget or rollout
        return
    raise ConfigError(f"unknown teacher {teacher!r}; expected one of {sorted(AGENT_CODES)}, "
                      f"'mcts' or 'mcts:N' (N simulations per move)")


#: stream of the search teacher's per-decision seeds
SEARCH_STREAM = 0x5EA2C4
#: stream of the choice of decisions kept when a collection overshoots ``n_samples``
TRIM_STREAM = 0x7E1A


def decision_seed(seed: int, row: int) -> int:
    """The seed the search teacher is reset to before labelling decision ``row`` of a
    ``collect(seed=seed)`` call (row = step x num_envs + slot)."""
    return int(np.random.SeedSequence([seed, SEARCH_STREAM, row]).generate_state(2, np.uint64)
               .view(np.int64)[0] & 0x7FFF_FFFF_FFFF_FFFF)


def collect(game: Game, n_samples: int, seed: int, teacher: str = "rule_based",
            opponents: Sequence[str] | Mapping[str, int] = ("random", "rule_based"),
            num_envs: int = 256, actor=None, keep_states: bool = False) -> Demonstrations:
    """Exactly ``n_samples`` labelled decisions from finished games (see module): games are
    played until that many decisions of finished games are in, then
    :meth:`Demonstrations.trimmed` keeps ``n_samples`` of them;
    ``keep_states`` (search teacher) also returns every decision's game state, seat and
    row."""
    check_teacher(teacher)
    if n_samples < 1:
        raise ConfigError(f"n_samples must be positive, got {n_samples}")
    if keep_states and not is_search_spec(teacher):
        raise ConfigError(f"keep_states is for the search teacher, not {teacher!r}")
    if is_search_spec(teacher):
        return _collect_search(game, n_samples, seed, teacher, opponents, num_envs, actor,
                               keep_states)
    batch = SelfPlayBatch(game, num_envs, opponents, seed=seed)
    policy, code = policy_kernel(game.name), AGENT_CODES[teacher]
    words = seeded_words(seed, 0x7EAC)
    open_rows: list[list[int]] = [[] for _ in range(num_envs)]
    obs, masks, labels, returns = [], [], [], []
    kept = 0
    labels_now = np.zeros(num_envs, dtype=np.int64)
    while kept < n_samples:
        for b in range(num_envs):
            labels_now[b] = policy(code, game.params_of(batch.states[b]), batch.obs[b],
                                   batch.masks[b], words)
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
                          np.concatenate(labels)[keep], flat_returns[keep]
                          ).trimmed(n_samples, seed)


def masked_logits(policy, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Action logits of an SB3 policy for a batch, illegal actions at -inf (a hinted policy,
    ``training.hinted_policy``, adds its hint)."""
    if hasattr(policy, "action_logits"):
        logits = policy.action_logits(obs, masks)
    else:
        logits = policy_logits(policy, obs)
    logits[np.asarray(masks) == 0] = -np.inf
    return logits


def greedy_actions(actor, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The actor policy's most likely legal action in every row."""
    return masked_logits(actor, obs, masks).argmax(axis=1)


def _collect_search(game: Game, n_samples: int, seed: int, teacher: str,
                    opponents: Sequence[str] | Mapping[str, int], num_envs: int, actor,
                    keep_states: bool) -> Demonstrations:
    """``collect`` with the search teacher. A slot whose game ends once the finished and
    open decisions reach ``n_samples`` is retired (its next games are played by the first
    legal action, unsearched and dropped), so little search goes to games cut off."""
    agent = MCTSAgent(game, **parse_spec(teacher), seed=0)
    batch = SelfPlayBatch(game, num_envs, opponents, seed=seed)
    retired = np.zeros(num_envs, dtype=bool)
    open_rows: list[list[int]] = [[] for _ in range(num_envs)]
    obs, masks, labels, returns, states, seats = [], [], [], [], [], []
    kept = 0
    while not retired.all():
        base = len(labels) * num_envs
        labels_now = np.full(num_envs, -1, dtype=np.int64)
        for b in np.flatnonzero(~retired):
            agent.reset(decision_seed(seed, base + b))
            state = State(game, batch.states[b].copy())
            labels_now[b] = agent.act_state(state, int(batch.seats[b]))
        played = labels_now if actor is None else greedy_actions(actor, batch.obs, batch.masks)
        played = np.where(retired, batch.masks.argmax(axis=1), played)
        obs.append(batch.obs.copy())
        masks.append(batch.masks.astype(bool))
        labels.append(labels_now)
        returns.append(np.full(num_envs, np.nan, dtype=np.float32))
        if keep_states:
            states.append(batch.states.copy())
            seats.append(batch.seats.copy())
        batch.step(played)
        for b in np.flatnonzero(~retired):
            open_rows[b].append(base + b)
        for b in np.flatnonzero(batch.dones & ~retired):
            for row in open_rows[b]:
                returns[row // num_envs][row % num_envs] = batch.rewards[b]
            kept += len(open_rows[b])
            open_rows[b] = []
            if kept + sum(len(rows) for rows in open_rows) >= n_samples:
                retired[b] = True
    flat_returns = np.concatenate(returns)
    keep = ~np.isnan(flat_returns)
    data = Demonstrations(np.concatenate(obs)[keep], np.concatenate(masks)[keep],
                          np.concatenate(labels)[keep], flat_returns[keep])
    if keep_states:
        data.states, data.seats = np.concatenate(states)[keep], np.concatenate(seats)[keep]
        data.rows = np.flatnonzero(keep)
    return data.trimmed(n_samples, seed)


def fit(policy, data: Demonstrations, epochs: int = 4, batch_size: int = 1024,
        learning_rate: float = 1e-3, value_coef: float = 0.5, seed: int = 0) -> dict[str, float]:
    """Cross-entropy of the teacher's action on the masked logits (+ value regression on the
    final rewards); returns the last epoch's mean loss and how often the policy's greedy
    choice is the teacher's."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    device = policy.device
    obs = torch.as_tensor(data.obs, device=device)
    masks = torch.as_tensor(data.masks, device=device)
    actions = torch.as_tensor(data.actions, device=device)
    returns = torch.as_tensor(data.returns, device=device)
    hints = policy.hints(data.obs, data.masks) if hasattr(policy, "hints") else None
    policy.set_training_mode(True)
    stats = {"loss": 0.0, "agreement": 0.0}
    for _ in range(epochs):
        order = torch.as_tensor(rng.permutation(len(data)), device=device)
        total = 0.0
        for start in range(0, len(data), batch_size):
            rows = order[start:start + batch_size]
            extra = {} if hints is None else {"hints": hints[rows]}
            values, log_prob, _ = policy.evaluate_actions(obs[rows], actions[rows],
                                                          action_masks=masks[rows], **extra)
            value_loss = ((values.flatten() - returns[rows]) ** 2).mean()
            loss = -log_prob.mean() + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(rows)
        stats = {"loss": round(total / len(data), 4)}
    policy.set_training_mode(False)
    rows = slice(0, min(len(data), 50_000))
    logits = masked_logits(policy, data.obs[rows], data.masks[rows])
    stats["agreement"] = round(float((logits.argmax(axis=1) == data.actions[rows]).mean()), 4)
    return stats
