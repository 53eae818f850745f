"""Loops written once over any game's kernels: the AEC step, the batch step, rollouts.

``fused_kernels(kernels)`` compiles (once per process and game) closures that call
the game's jitted kernels, so the batch API and the whole-game rollouts run
entirely inside numba.
"""

from __future__ import annotations

from types import SimpleNamespace

import numba as nb
import numpy as np

from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.core.rng import RNG_WORDS, seed_into

_CACHE: dict[int, SimpleNamespace] = {}

#: streams of auto-reset games in the batch API: episode * SLOT_STRIDE + slot
SLOT_STRIDE = 1 << 24


def fused_kernels(kernels) -> SimpleNamespace:
    """The fused loops for one game's ``Kernels`` (compiled lazily, cached per process)."""
    key = id(kernels)
    if key not in _CACHE:
        _CACHE[key] = _build(kernels)
    return _CACHE[key]


def _build(kernels) -> SimpleNamespace:
    init = kernels.init
    legal_mask = kernels.legal_mask
    apply = kernels.apply
    current_player = kernels.current_player
    rewards = kernels.rewards
    observe = kernels.observe

    @nb.njit
    def step(s, p, action, mask):
        """Apply ``action``, refresh ``mask``; return the next player (-1 when over)."""
        apply(s, p, action)
        mask[:] = 0
        player = current_player(s, p)
        if player >= 0:
            legal_mask(s, p, mask)
        return player

    @nb.njit
    def new_game(s, p, seed_lo, seed_hi, stream):
        s[:] = 0
        seed_into(s[:RNG_WORDS], seed_lo, seed_hi, stream)
        init(s, p)

    @nb.njit
    def _refresh(s, p, b, obs, masks, players):
        player = current_player(s, p)
        players[b] = player
        masks[b, :] = 0
        obs[b, :] = 0.0
        if player >= 0:
            legal_mask(s, p, masks[b])
            observe(s, p, player, obs[b])

    @nb.njit
    def batch_reset(states, p, seed_lo, seed_hi, episodes, obs, masks, rewards, players, dones):
        for b in range(states.shape[0]):
            new_game(states[b], p, seed_lo, seed_hi, episodes[b] * SLOT_STRIDE + b)
            rewards[b, :] = 0.0
            dones[b] = False
            _refresh(states[b], p, b, obs, masks, players)

    @nb.njit
    def batch_step(states, p, actions, seed_lo, seed_hi, episodes,
                   obs, masks, rewards, players, dones):
        """Step every game; finished games auto-reset. Returns the first bad slot or -1."""
        n_actions = masks.shape[1]
        for b in range(states.shape[0]):
            a = actions[b]
            if a < 0 or a >= n_actions or masks[b, a] == 0:
                return b
        for b in range(states.shape[0]):
            s = states[b]
            apply(s, p, actions[b])
            rewards[b, :] = 0.0
            dones[b] = False
            if current_player(s, p) < 0:
                rewards_b = rewards[b]
                _final_rewards(s, p, rewards_b)
                dones[b] = True
                episodes[b] += 1
                new_game(s, p, seed_lo, seed_hi, episodes[b] * SLOT_STRIDE + b)
            _refresh(s, p, b, obs, masks, players)
        return -1

    @nb.njit
    def _final_rewards(s, p, out):
        tmp = np.zeros(out.shape[0], dtype=np.float32)
        rewards(s, p, tmp)
        out[:] = tmp

    @nb.njit
    def random_rollouts(p, seed_lo, seed_hi, first_game, n_games, state_size, n_actions):
        """Play ``n_games`` uniformly random games; return the number of decisions."""
        s = np.zeros(state_size, dtype=np.int64)
        mask = np.zeros(n_actions, dtype=np.int8)
        words = np.zeros(RNG_WORDS, dtype=np.int64)
        seed_into(words, seed_lo ^ 0x5BD1E995, seed_hi, first_game)
        decisions = 0
        for g in range(first_game, first_game + n_games):
            new_game(s, p, seed_lo, seed_hi, g)
            while current_player(s, p) >= 0:
                mask[:] = 0
                legal_mask(s, p, mask)
                apply(s, p, uniform_legal(words, mask))
                decisions += 1
        return decisions

    namespace = SimpleNamespace(
        step=step,
        new_game=new_game,
        batch_reset=batch_reset,
        batch_step=batch_step,
        refresh=_refresh,
        random_rollouts=random_rollouts,
    )
    return namespace


_PLAY_CACHE: dict[tuple[int, int], object] = {}


def fused_play_games(kernels, policy):
    """The jitted game loop between built-in agents, for one game's kernels and policy.

    ``policy(code, p, obs, mask, words) -> action`` picks for agent ``code``
    (0 random, 1 rule-based) from the observation and mask only, like any agent.
    """
    key = (id(kernels), id(policy))
    if key not in _PLAY_CACHE:
        _PLAY_CACHE[key] = _build_play_games(kernels, policy)
    return _PLAY_CACHE[key]


def _build_play_games(kernels, policy):
    new_game = fused_kernels(kernels).new_game
    legal_mask = kernels.legal_mask
    apply = kernels.apply
    current_player = kernels.current_player
    rewards = kernels.rewards
    observe = kernels.observe

    @nb.njit
    def play_games(p, seed_lo, seed_hi, first_game, n_games, codes, state_size, n_actions,
                   obs_size, out_rewards, out_decisions, final_states):
        """Play games with built-in agents (``codes[seat]``); record rewards and end states.

        Returns -1, or the index of the game in which an agent chose an illegal action.

        Game ``g`` uses stream ``g`` for chance and an independent stream for the agents,
        so results depend only on the seed and the game index.
        """
        n_players = codes.shape[0]
        s = np.zeros(state_size, dtype=np.int64)
        mask = np.zeros(n_actions, dtype=np.int8)
        obs = np.zeros(obs_size, dtype=np.float32)
        words = np.zeros(RNG_WORDS, dtype=np.int64)
        reward = np.zeros(n_players, dtype=np.float32)
        for i in range(n_games):
            g = first_game + i
            new_game(s, p, seed_lo, seed_hi, g)
            seed_into(words, seed_lo ^ 0x5BD1E995, seed_hi ^ 0x1B873593, g)
            decisions = 0
            while True:
                player = current_player(s, p)
                if player < 0:
                    break
                mask[:] = 0
                legal_mask(s, p, mask)
                obs[:] = 0.0
                observe(s, p, player, obs)
                action = policy(codes[player], p, obs, mask, words)
                if action < 0 or action >= n_actions or mask[action] == 0:
                    out_decisions[i] = decisions
                    final_states[i, :] = s
                    return i
                apply(s, p, action)
                decisions += 1
            rewards(s, p, reward)
            out_rewards[i, :] = reward
            out_decisions[i] = decisions
            final_states[i, :] = s
        return -1

    return play_games


def split64(seed: int) -> tuple[int, int]:
    """Two 32-bit halves of a 64-bit seed (for the fused loops)."""
    seed &= (1 << 64) - 1
    return seed & 0xFFFFFFFF, seed >> 32
