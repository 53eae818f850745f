"""Templates of the network-guided IS-MCTS loop (plain Python, not jitted).

Like :mod:`transit_gym.agents.search.loops`, these are copied per game by
:func:`transit_gym.envs.core.fused.jit_templates` with that game's kernels as globals
(``legal_mask``, ``apply``, ``current_player``, ``rewards``, ``observe``, ``determinize``)
and jitted with ``cache=True``.

The search is single-observer ISMCTS with AlphaZero's PUCT selection: every simulation
starts from a fresh determinization of the root, descends by
``Q + c_puct * P(a) * sqrt(avail) / (1 + visits)`` (``P`` the network's softmax over the
actions legal in this determinization, ``avail`` how often the child was available), and
stops at the first node not yet evaluated: the network evaluates it once, storing its
logits for later visits and giving the value of the seat to move there (the other seats
share its negation). No rollouts. A terminal node backs up the game's rewards.
Restricted play: ``forbidden[seat]`` (zero rows: none) is cleared from every mask of
that seat in the tree; a hypothetical position where it leaves nothing keeps its moves.
"""

from __future__ import annotations

import math

import numpy as np

from transit_gym.agents.learned.network import forward
from transit_gym.agents.search.loops import child  # a template of this module too
from transit_gym.envs.core.restrict import apply_forbidden

# tree arrays: the columns of ``loops`` (``child`` reads FIRST, ACTION, NEXT), EXPANDED
# where ``loops`` has HINT
PARENT, ACTION, MOVER, FIRST, NEXT, EXPANDED = 0, 1, 2, 3, 4, 5
INT_FIELDS = 6
VISITS, AVAIL, VALUE = 0, 1, 2
FLOAT_FIELDS = 3

# bound per game by ``jit_templates`` (placeholders here: calling a template raises)
legal_mask = apply = current_player = rewards = observe = determinize = None
#: the templates, in the order they are bound
TEMPLATES = ("child", "evaluate_node", "select", "net_simulate")


def evaluate_node(s, p, player, n_players, obs, w, sizes, logits, scratch, reward):
    """The network's logits (into ``logits``) at ``s`` for ``player``; ``reward`` gets the
    value for ``player`` and its negation shared by the other seats."""
    obs[:] = 0.0
    observe(s, p, player, obs)
    value = forward(w, sizes, obs, logits, scratch)
    share = -value / (n_players - 1) if n_players > 1 else 0.0
    for seat in range(n_players):
        reward[seat] = share
    reward[player] = value


def select(ints, floats, logits, node, mask, n_actions, c_puct):
    """The action PUCT picks at ``node`` among the legal actions in ``mask`` (counting
    each existing legal child as available once more)."""
    top = -np.inf
    for a in range(n_actions):
        if mask[a] and logits[node, a] > top:
            top = logits[node, a]
    total = 0.0
    for a in range(n_actions):
        if mask[a]:
            total += math.exp(logits[node, a] - top)
    parent_visits = floats[node, VISITS]
    best, best_score = -1, -np.inf
    for a in range(n_actions):
        if not mask[a]:
            continue
        prior = math.exp(logits[node, a] - top) / total
        c = child(ints, node, a)
        if c >= 0:
            floats[c, AVAIL] += 1.0
            v = floats[c, VISITS]
            q = floats[c, VALUE] / v if v > 0.0 else 0.0
            score = q + c_puct * prior * math.sqrt(floats[c, AVAIL]) / (1.0 + v)
        else:
            score = c_puct * prior * math.sqrt(parent_visits + 1.0)
        if score > best_score:
            best_score = score
            best = a
    return best


def net_simulate(root, p, seat, ints, floats, logits, n_nodes, n_sims, c_puct, rng,
                 n_players, n_actions, obs_size, w, sizes, scratch_size, forbidden):
    """Run ``n_sims`` simulations into the tree; return the new node count."""
    s = np.empty_like(root)
    mask = np.zeros(n_actions, dtype=np.int8)
    capacity = ints.shape[0]
    reward = np.zeros(n_players, dtype=np.float64)
    obs = np.zeros(obs_size, dtype=np.float32)
    out = np.zeros(n_actions, dtype=np.float32)
    scratch = np.zeros(scratch_size, dtype=np.float32)
    for _ in range(n_sims):
        s[:] = root
        determinize(s, p, seat, rng)
        node = 0
        while True:
            player = current_player(s, p)
            if player < 0:
                reward[:] = 0.0
                out32 = np.zeros(n_players, dtype=np.float32)
                rewards(s, p, out32)
                for k in range(n_players):
                    reward[k] = out32[k]
                break
            if ints[node, EXPANDED] == 0:
                evaluate_node(s, p, player, n_players, obs, w, sizes, out, scratch, reward)
                logits[node, :] = out
                ints[node, EXPANDED] = 1
                break
            mask[:] = 0
            legal_mask(s, p, mask)
            apply_forbidden(mask, forbidden, player)
            a = select(ints, floats, logits, node, mask, n_actions, c_puct)
            c = child(ints, node, a)
            if c < 0:
                if n_nodes >= capacity:   # tree full: value of this position, no new node
                    apply(s, p, a)
                    nxt = current_player(s, p)
                    if nxt < 0:
                        out32 = np.zeros(n_players, dtype=np.float32)
                        rewards(s, p, out32)
                        for k in range(n_players):
                            reward[k] = out32[k]
                    else:
                        evaluate_node(s, p, nxt, n_players, obs, w, sizes, out, scratch,
                                      reward)
                    break
                c = n_nodes
                n_nodes += 1
                ints[c, PARENT] = node
                ints[c, ACTION] = a
                ints[c, MOVER] = player
                ints[c, FIRST] = -1
                ints[c, NEXT] = ints[node, FIRST]
                ints[c, EXPANDED] = 0
                ints[node, FIRST] = c
                floats[c, VISITS] = 0.0
                floats[c, AVAIL] = 1.0
                floats[c, VALUE] = 0.0
            apply(s, p, a)
            node = c
        while node != 0:
            floats[node, VISITS] += 1.0
            floats[node, VALUE] += reward[ints[node, MOVER]]
            node = ints[node, PARENT]
        floats[0, VISITS] += 1.0
        floats[0, VALUE] += reward[seat]
    return n_nodes
