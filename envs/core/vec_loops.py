"""Templates of the training loop's inner step: the learner's seat of B games, with the other
seats played inside numba by built-in agents (plain Python, jitted per game by
:func:`transit_gym.envs.core.fused.jit_templates`, so numba keeps them on disk).

Per slot ``b``: ``codes[b, seat]`` says who plays each seat this episode (``LEARNER``, a
built-in agent code ``0`` random / ``1`` rule-based, or ``POLICY + k`` for the k-th policy
opponent, which Python plays with one batched forward). ``status[b]`` is ``READY`` when the
learner is to move (its observation and mask are in ``obs[b]``, ``masks[b]``) or
``WAITING + k`` when policy opponent k is (its observation and mask are there instead).
Each game calls the kernels with its own parameter row (``table, vslot``: see
:mod:`transit_gym.envs.core.variants`).
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.core.rng import below, seed_into
from transit_gym.envs.core.variants import row_of, start_variant

LEARNER = -1
POLICY = 2
READY = 0
WAITING = 1
#: chance streams of the games: episode * SLOT_STRIDE + slot (as the batch API)
SLOT_STRIDE = 1 << 24

init = legal_mask = apply = current_player = rewards = observe = policy = None


def vec_new_episode(s, table, vslot, b, seed_lo, seed_hi, episodes, words, seat_mode, pool_codes,
                    pool_weights, seats, codes):
    """New game in slot ``b``; draw the learner's seat and the opponents of the others."""
    s[:] = 0
    seed_into(s[:4], seed_lo, seed_hi, episodes[b] * SLOT_STRIDE + b)
    init(s, start_variant(s, table, vslot))
    n_players = codes.shape[1]
    seat = seat_mode
    if seat < 0:
        seat = below(words[b], n_players)
    seats[b] = seat
    total = 0
    for k in range(pool_weights.shape[0]):
        total += pool_weights[k]
    for other in range(n_players):
        if other == seat:
            codes[b, other] = LEARNER
            continue
        r = below(words[b], total)
        k = 0
        while r >= pool_weights[k]:
            r -= pool_weights[k]
            k += 1
        codes[b, other] = pool_codes[k]


def vec_reset(states, table, vslot, seed_lo, seed_hi, episodes, words, seat_mode, pool_codes,
              pool_weights, seats, codes, obs, masks, status, rewards_out, dones, finals,
              final_obs, moved):
    """Start every slot (episode counters and opponents' words already set)."""
    for b in range(states.shape[0]):
        vec_new_episode(states[b], table, vslot, b, seed_lo, seed_hi, episodes, words,
                        seat_mode, pool_codes, pool_weights, seats, codes)
        moved[b] = 0
    pending = np.ones(states.shape[0], dtype=np.int8)
    return vec_run(states, table, vslot, pending, seed_lo, seed_hi, episodes, words, seat_mode,
                   pool_codes, pool_weights, seats, codes, obs, masks, status, rewards_out,
                   dones, finals, final_obs, moved)


def vec_advance(states, table, vslot, actions, pending, seed_lo, seed_hi, episodes, words,
                seat_mode, pool_codes, pool_weights, seats, codes, obs, masks, status,
                rewards_out, dones, finals, final_obs, moved):
    """Apply ``actions[b]`` in every slot with ``pending[b]`` (a learner's or a policy
    opponent's move), then play on until each is READY or WAITING. Returns -1; the first
    slot whose given action is illegal (nothing applied then); or ``-2 - b`` when a built-in
    agent chose an illegal action in slot ``b``."""
    n_actions = masks.shape[1]
    for b in range(states.shape[0]):
        if pending[b] != 0:
            a = actions[b]
            if a < 0 or a >= n_actions or masks[b, a] == 0:
                return b
    for b in range(states.shape[0]):
        if pending[b] != 0:
            if status[b] == READY:
                moved[b] = 1
            apply(states[b], row_of(states[b], table, vslot), actions[b])
    bad = vec_run(states, table, vslot, pending, seed_lo, seed_hi, episodes, words, seat_mode,
                  pool_codes, pool_weights, seats, codes, obs, masks, status, rewards_out, dones,
                  finals, final_obs, moved)
    return -1 if bad < 0 else -2 - bad


def vec_run(states, table, vslot, pending, seed_lo, seed_hi, episodes, words, seat_mode, pool_codes,
            pool_weights, seats, codes, obs, masks, status, rewards_out, dones, finals,
            final_obs, moved):
    """Play built-in seats of the ``pending`` slots until the learner or a policy opponent
    must move. A game that ends is scored from the learner's seat (``rewards_out``,
    ``dones``, every seat's reward in ``finals``, the learner's last view in ``final_obs``)
    and replaced by a new one; a game in which the learner never moved is not reported.
    Returns -1, or the slot where a built-in agent chose an illegal action."""
    n_players = codes.shape[1]
    tmp = np.zeros(n_players, dtype=np.float32)
    for b in range(states.shape[0]):
        if pending[b] == 0:
            continue
        s = states[b]
        p = row_of(s, table, vslot)
        while True:
            player = current_player(s, p)
            if player < 0:
                if moved[b] != 0:
                    rewards(s, p, tmp)
                    finals[b, :] = tmp
                    rewards_out[b] = tmp[seats[b]]
                    dones[b] = True
                    final_obs[b, :] = 0.0
                    observe(s, p, seats[b], final_obs[b])
                episodes[b] += 1
                vec_new_episode(s, table, vslot, b, seed_lo, seed_hi, episodes, words,
                                seat_mode, pool_codes, pool_weights, seats, codes)
                p = row_of(s, table, vslot)
                moved[b] = 0
                continue
            masks[b, :] = 0
            legal_mask(s, p, masks[b])
            obs[b, :] = 0.0
            observe(s, p, player, obs[b])
            code = codes[b, player]
            if code == LEARNER:
                status[b] = READY
                break
            if code >= POLICY:
                status[b] = WAITING + code - POLICY
                break
            a = policy(code, p, obs[b], masks[b], words[b])
            if a < 0 or a >= masks.shape[1] or masks[b, a] == 0:
                return b
            apply(s, p, a)
    return -1
