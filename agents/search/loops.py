"""Templates of the information-set MCTS loops (plain Python, not jitted).

:func:`transit_gym.envs.core.fused.jit_templates` copies each function here with a
globals dictionary holding one game's kernels (``legal_mask``, ``apply``,
``current_player``, ``rewards``, ``observe``, ``determinize``), its agent ``policy``
kernel and its leaf ``evaluate`` kernel, and jits the copies with ``cache=True``, so the
search compiles once per game and machine, not once per process (see
:mod:`transit_gym.agents.search.mcts`).
"""

from __future__ import annotations

import math

import numpy as np

from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.core.restrict import apply_forbidden
from transit_gym.envs.core.rng import below

# tree arrays: one row per node; HINT is the guiding policy's action at the node's first visit
# (UNKNOWN before it), the action the progressive-bias prior favours
PARENT, ACTION, MOVER, FIRST, NEXT, HINT = 0, 1, 2, 3, 4, 5
INT_FIELDS = 6
UNKNOWN = -2
VISITS, AVAIL, VALUE = 0, 1, 2
FLOAT_FIELDS = 3
#: the built-in agent code of the rule-based policy (the prior's guide under random rollouts)
RULE_BASED = 1

# bound per game by ``jit_templates`` (placeholders here: calling a template raises)
legal_mask = apply = current_player = rewards = observe = determinize = policy = None
evaluate = None
#: the templates, in the order they are bound
TEMPLATES = ("child", "guide", "descend", "rollout", "leaf_value", "simulate")


def child(ints, node, action):
    c = ints[node, FIRST]
    while c >= 0:
        if ints[c, ACTION] == action:
            return c
        c = ints[c, NEXT]
    return -1


def simulate(root, p, seat, ints, floats, n_nodes, n_sims, exploration, prior,
             rollout_code, epsilon, horizon, rng, words, n_players, n_actions, obs_size,
             forbidden):
    """Run ``n_sims`` simulations into the tree; return the new node count.
    ``forbidden[seat]`` (restricted play; zero rows: none) is cleared from every mask of
    that seat, in the tree and in the rollouts; where a determinization leaves the seat
    nothing but forbidden actions, it plays them (the position is hypothetical)."""
    s = np.empty_like(root)
    mask = np.zeros(n_actions, dtype=np.int8)
    capacity = ints.shape[0]
    reward = np.zeros(n_players, dtype=np.float32)
    obs = np.zeros(obs_size, dtype=np.float32)
    for _ in range(n_sims):
        s[:] = root
        determinize(s, p, seat, rng)
        node = descend(s, p, ints, floats, mask, obs, n_actions, exploration, prior, rng,
                       words, n_nodes, capacity, forbidden, rollout_code)
        if node >= n_nodes:
            n_nodes = node + 1
        rollout(s, p, mask, obs, rollout_code, epsilon, horizon, words, forbidden)
        leaf_value(s, p, reward)
        while node != 0:
            floats[node, VISITS] += 1.0
            floats[node, VALUE] += reward[ints[node, MOVER]]
            node = ints[node, PARENT]
        floats[0, VISITS] += 1.0
    return n_nodes


def leaf_value(s, p, reward):
    """Each seat's reward at the end of a rollout: the game's rewards once it is over,
    else the game's leaf evaluation (an expected reward per seat)."""
    reward[:] = 0.0
    if current_player(s, p) < 0:
        rewards(s, p, reward)
    else:
        evaluate(s, p, reward)


def guide(s, p, player, mask, obs, words, guide_code):
    """The guiding policy's action for ``player`` in ``s`` (``mask`` holds its legal
    actions): the prior's choice. ``guide_code`` is the rollout policy's code, or the
    rule-based agent's where the rollouts are uniformly random."""
    obs[:] = 0.0
    observe(s, p, player, obs)
    return policy(max(guide_code, RULE_BASED), p, obs, mask, words)


def descend(s, p, ints, floats, mask, obs, n_actions, exploration, prior, rng, words,
            n_nodes, capacity, forbidden, guide_code):
    """Selection and expansion on one determinization; return the node reached (a new
    node gets index ``n_nodes``).

    With ``prior > 0`` the guiding policy's action at a node's first visit (its hint) is
    expanded first and keeps a bonus ``prior / (visits + 1)`` in the selection score
    whenever it is legal (progressive bias); the guiding policy (see :func:`guide`) runs
    once per node."""
    node = 0
    while True:
        player = current_player(s, p)
        if player < 0:
            return node
        mask[:] = 0
        legal_mask(s, p, mask)
        apply_forbidden(mask, forbidden, player)
        hint = -1
        if prior > 0.0:
            if ints[node, HINT] == UNKNOWN:
                ints[node, HINT] = guide(s, p, player, mask, obs, words, guide_code)
            hint = ints[node, HINT]
            if not mask[hint]:   # another determinization: the hint is not legal here
                hint = -1
        untried = 0
        for a in range(n_actions):
            if mask[a]:
                c = child(ints, node, a)
                if c >= 0:
                    floats[c, AVAIL] += 1.0
                else:
                    untried += 1
        if untried > 0:
            if n_nodes >= capacity:   # tree full: play on from here without growing
                return node
            a = -1
            if hint >= 0 and child(ints, node, hint) < 0:
                a = hint
            else:
                k = below(rng, untried)
                for b in range(n_actions):
                    if mask[b] and child(ints, node, b) < 0:
                        if k == 0:
                            a = b
                            break
                        k -= 1
            c = n_nodes
            ints[c, PARENT] = node
            ints[c, ACTION] = a
            ints[c, MOVER] = player
            ints[c, FIRST] = -1
            ints[c, NEXT] = ints[node, FIRST]
            ints[node, FIRST] = c
            ints[c, HINT] = UNKNOWN
            floats[c, VISITS] = 0.0
            floats[c, AVAIL] = 1.0
            floats[c, VALUE] = 0.0
            apply(s, p, a)
            return c
        best = -1
        best_score = -np.inf
        c = ints[node, FIRST]
        while c >= 0:
            if mask[ints[c, ACTION]]:
                v = floats[c, VISITS]
                score = floats[c, VALUE] / v + exploration * math.sqrt(
                    math.log(floats[c, AVAIL]) / v)
                if ints[c, ACTION] == hint:
                    score += prior / (v + 1.0)
                if score > best_score:
                    best_score = score
                    best = c
            c = ints[c, NEXT]
        apply(s, p, ints[best, ACTION])
        node = best


def rollout(s, p, mask, obs, rollout_code, epsilon, horizon, words, forbidden):
    """Play on with the rollout policy (``rollout_code`` 0 uniformly random, else that
    built-in agent; with ``epsilon > 0`` each move is uniformly random with probability
    ``epsilon``) until the game ends or, with ``horizon >= 0``, until ``horizon``
    decisions are made and the seat to move changes (a turn boundary)."""
    made = 0
    last = -2
    while True:
        player = current_player(s, p)
        if player < 0:
            return
        if horizon >= 0 and made >= horizon and player != last:
            return
        last = player
        mask[:] = 0
        legal_mask(s, p, mask)
        apply_forbidden(mask, forbidden, player)
        if rollout_code == 0 or (epsilon > 0.0 and below(words, 1 << 30) < epsilon * (1 << 30)):
            a = uniform_legal(words, mask)
        else:
            obs[:] = 0.0
            observe(s, p, player, obs)
            a = policy(rollout_code, p, obs, mask, words)
        apply(s, p, a)
        made += 1
