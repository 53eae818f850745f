"""Templates of the loops written once over any game's kernels (plain Python, not jitted).

:mod:`transit_gym.envs.core.fused` copies each function here with a globals dictionary
holding one game's kernels (``init``, ``legal_mask``, ``apply``, ``current_player``,
``rewards``, ``observe``, and for ``play_games`` the agents' ``policy``) and the other
loops of that game, then jits the copy with ``cache=True``.

Loops over whole games take the game's parameter table and variant slot
(``table, vslot``: see :mod:`transit_gym.envs.core.variants`) and call the kernels of
each game with that game's row, so one batch can mix boards drawn per reset. The kernels are thus
globals of a function named after its game, not cells of a closure, which is what lets
numba keep the compiled loops on disk between processes.
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.core.restrict import apply_forbidden
from transit_gym.envs.core.rng import RNG_WORDS, seed_into
from transit_gym.envs.core.variants import row_of, start_variant

#: streams of auto-reset games in the batch API: episode * SLOT_STRIDE + slot
SLOT_STRIDE = 1 << 24

# The kernels a template calls: bound per game by ``fused`` (here only placeholders, so
# calling a template directly raises TypeError). The loops calling each other
# (``new_game``, ``refresh``, ``final_rewards``) are rebound to that game's copies too.
init = legal_mask = apply = current_player = rewards = observe = policy = None


def step(s, p, action, mask):
    """Apply ``action``, refresh ``mask``; return the next player (-1 when over)."""
    apply(s, p, action)
    mask[:] = 0
    player = current_player(s, p)
    if player >= 0:
        legal_mask(s, p, mask)
    return player


def new_game(s, table, vslot, seed_lo, seed_hi, stream):
    """Clear ``s``, seed its generator with (seed, stream), draw its parameter row and set
    up a new game; return the row."""
    s[:] = 0
    seed_into(s[:RNG_WORDS], seed_lo, seed_hi, stream)
    p = start_variant(s, table, vslot)
    init(s, p)
    return p


def refresh(s, p, b, obs, masks, players):
    """Write row ``b`` of the batch outputs (player, mask, observation) from ``s``."""
    player = current_player(s, p)
    players[b] = player
    masks[b, :] = 0
    obs[b, :] = 0.0
    if player >= 0:
        legal_mask(s, p, masks[b])
        observe(s, p, player, obs[b])


def final_rewards(s, p, out):
    """Terminal rewards of ``s`` into the row ``out``."""
    tmp = np.zeros(out.shape[0], dtype=np.float32)
    rewards(s, p, tmp)
    out[:] = tmp


def batch_reset(states, table, vslot, seed_lo, seed_hi, episodes, obs, masks, rewards_out,
                players, dones):
    """Start a new game in every slot and write the outputs."""
    for b in range(states.shape[0]):
        p = new_game(states[b], table, vslot, seed_lo, seed_hi, episodes[b] * SLOT_STRIDE + b)
        rewards_out[b, :] = 0.0
        dones[b] = False
        refresh(states[b], p, b, obs, masks, players)


def batch_step(states, table, vslot, actions, seed_lo, seed_hi, episodes, obs, masks,
               rewards_out, players, dones):
    """Step every game; finished games auto-reset. Returns the first bad slot or -1."""
    n_actions = masks.shape[1]
    for b in range(states.shape[0]):
        a = actions[b]
        if a < 0 or a >= n_actions or masks[b, a] == 0:
            return b
    for b in range(states.shape[0]):
        s = states[b]
        p = row_of(s, table, vslot)
        apply(s, p, actions[b])
        rewards_out[b, :] = 0.0
        dones[b] = False
        if current_player(s, p) < 0:
            final_rewards(s, p, rewards_out[b])
            dones[b] = True
            episodes[b] += 1
            p = new_game(s, table, vslot, seed_lo, seed_hi, episodes[b] * SLOT_STRIDE + b)
        refresh(s, p, b, obs, masks, players)
    return -1


def random_rollouts(table, vslot, seed_lo, seed_hi, first_game, n_games, state_size, n_actions):
    """Play ``n_games`` uniformly random games; return the number of decisions."""
    s = np.zeros(state_size, dtype=np.int64)
    mask = np.zeros(n_actions, dtype=np.int8)
    words = np.zeros(RNG_WORDS, dtype=np.int64)
    seed_into(words, seed_lo ^ 0x5BD1E995, seed_hi, first_game)
    decisions = 0
    for g in range(first_game, first_game + n_games):
        p = new_game(s, table, vslot, seed_lo, seed_hi, g)
        while current_player(s, p) >= 0:
            mask[:] = 0
            legal_mask(s, p, mask)
            apply(s, p, uniform_legal(words, mask))
            decisions += 1
    return decisions


def play_games(table, vslot, seed_lo, seed_hi, first_game, n_games, codes, state_size, n_actions,
               obs_size, out_rewards, out_decisions, final_states, forbidden):
    """Play games with built-in agents (``codes[seat]``); record rewards and end states.
    ``forbidden[seat]`` are the actions a seat may not take (restricted play; zero rows:
    none), cleared from its mask before its agent chooses.

    Returns -1, or the index of the game in which an agent chose an illegal action (or a
    restriction left the seat to move no legal action).

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
        p = new_game(s, table, vslot, seed_lo, seed_hi, g)
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
            if apply_forbidden(mask, forbidden, player) == 0:
                action = -1   # reported as illegal; the caller names the restriction
            else:
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
