"""The Planes decision procedure with every constant read from a parameter vector (layout
in :mod:`transit_gym.agents.tuned.planes_layout`).

The procedure reads only its observation, the mask and the game parameters (the
airport's arrows and gates, the card table). For a move it searches a small family of
plans: every start space, every route along the arrows, every stopping point (or
boarding at a gate), and three orders for dropping cubes (own cubes last, own cubes
first, opponents' cubes first). Each resulting board is valued by: own cubes boarded,
cubes of no player boarded (2 cards), opponents' cubes boarded, the goals in hand the
board then shows, own spaces holding exactly as many cubes as a boarding move from there
needs, the same for opponents, and how far own cubes are from the own gate (plus the
vector's further features, off at the rule-based values). It replans at every step of the
move, so the plan needs no memory. It scores the best goal it can, plays a card as an
action when the better move it allows outweighs the card's goal, and takes the choose-one
card's extra goal when two goals are ready.

The rule-based agent is this procedure at ``RULE_BASED`` (a constant of the kernels); a
tuned agent is it at its own vector. ``decide`` returns -1 where the procedure has no
choice of its own (the caller then plays uniformly at random, as the rule-based agent
always did). ``policy(code, p, obs, mask, words)`` is the kernel for the jitted
whole-game loops: code 0 random, 1 rule-based, ``TUNED_CODE + k`` the ``k``-th vector
appended to ``p`` by :func:`params_with_vectors`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.packing import TUNED_CODE, append_vectors, read_vector
from transit_gym.agents.tuned.planes_layout import (
    ACT_BASE,
    ACTION_THRESHOLD,
    BOARD_LEAD,
    CARD_COST,
    DISTANCE,
    DISTANCE_CAP,
    DRAW_CARD,
    EXTRA_GOAL_BONUS,
    EXTRA_GOAL_VALUE,
    FREE_BOARD,
    GOAL_BEST,
    GOAL_LATE,
    LATER_GOAL,
    NEAR_READY,
    OPP_ANY_READY,
    OPP_BOARD,
    OPP_DISTANCE,
    OPP_READY,
    OWN_BOARD,
    OWN_SPACES,
    OWN_UNDER_CONE,
    READY,
    READY_LATE,
    READY_SHARED,
    SECOND_MOVE,
    VECTOR_SIZE,
    rule_based_vector,
)
from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.planes.data import (
    ACT_BACKWARDS,
    ACT_CHOOSE_ONE,
    ACT_DRAW,
    ACT_DRAW_DISCARD,
    ACT_IGNORE_NEUTRALS,
    ACT_MOVE_TWICE,
    ACT_OWN_ONLY,
    ACT_REGROUP,
    ACT_SEND,
    ACT_SKIP,
    MAX_ARROWS,
    MAX_GATES,
    MAX_SPACES,
    NUM_COLORS,
)
from transit_gym.envs.planes.encode import (
    B_VP,
    O_ACTIVE,
    O_BRANCH,
    O_CUBES,
    O_DECISION,
    O_EFFECTS,
    O_GATES,
    O_GOAL_NOW,
    O_HAND,
    O_IN_PLAY,
    O_MOVE,
    O_PLAYERS,
    O_POS,
    O_SEATS,
    O_SELECTED,
    O_TRACK,
    PLAYER_BLOCK,
)
from transit_gym.envs.planes.kernels import (
    A_BOARD,
    A_CARD,
    A_DRAW,
    A_DROP,
    A_EXTRA_GOAL,
    A_IGNORE_BLOCKAGES,
    A_PASS,
    A_SKIP,
    A_SPACE,
    A_STOP,
    pattern_ok,
)
from transit_gym.envs.planes.state import (
    P_ACT_KIND,
    P_ACT_N,
    P_ACT_POI,
    P_BLOCKAGE_ALL,
    P_GATE_ACCESS,
    P_NEXT,
    P_NEXT_N,
    P_NUM_GATES,
    P_NUM_SPACES,
    P_NUM_TYPES,
    P_POI,
    P_PREV,
    P_PREV_N,
    P_THRESHOLD,
    P_VP,
    PH_ACTION,
    PH_BRANCH,
    PH_CHOOSE,
    PH_DEST,
    PH_DISCARD,
    PH_DRAW,
    PH_EXTRA_GOAL,
    PH_GOAL,
    PH_SOURCE,
    PH_START,
    PH_STEP,
)

MAX_PATH = 48            # longest route searched (more than the 40 cubes there are)
MAX_ROUTES = 16          # routes through branching spaces tried per move
ORDERS = np.array([[4, 3, 2, 1, 0], [0, 4, 3, 2, 1], [1, 2, 3, 4, 0]], dtype=np.int64)
FAR = 99
NO_PLAN = -1e9

#: the rule-based agent's vector, frozen into the kernels that read it
RULE_BASED = rule_based_vector()

__all__ = ["RULE_BASED", "TUNED_CODE", "decide", "params_with_vectors", "policy"]


def params_with_vectors(params: np.ndarray, vectors: list[np.ndarray]) -> np.ndarray:
    """The game parameters (a row or a table of rows) followed by ``vectors``: what
    ``policy`` reads for codes >= ``TUNED_CODE``."""
    return append_vectors(params, vectors, VECTOR_SIZE)


# ----- reading the observation ---------------------------------------------------------------
@nb.njit(cache=True)
def num_players(obs):
    for k in range(3):
        if obs[O_PLAYERS + k] > 0.0:
            return k + 2
    return 2


@nb.njit(cache=True)
def read_cubes(p, obs, cnt):
    """Cubes per space and relative colour (0 own, then the next seats, neutrals, grey)."""
    for sp in range(p[P_NUM_SPACES]):
        for c in range(NUM_COLORS):
            cnt[sp, c] = int(obs[O_CUBES + sp * NUM_COLORS + c] + 0.5)


@nb.njit(cache=True)
def read_gates(p, obs, gate_col, gate_free):
    for g in range(p[P_NUM_GATES]):
        block = O_GATES + g * (NUM_COLORS + 1)
        gate_col[g] = -1
        for c in range(NUM_COLORS):
            if obs[block + c] > 0.0:
                gate_col[g] = c
        gate_free[g] = int(obs[block + NUM_COLORS] + 0.5)


@nb.njit(cache=True)
def distances_to(p, access):
    """Spaces to cross (forwards) from each space to ``access`` (0 there, FAR if none)."""
    n = p[P_NUM_SPACES]
    dist = np.full(MAX_SPACES, FAR, dtype=np.int64)
    queue = np.zeros(MAX_SPACES, dtype=np.int64)
    dist[access] = 0
    queue[0] = access
    head, tail = 0, 1
    while head < tail:
        b = queue[head]
        head += 1
        for i in range(p[P_PREV_N + b]):
            a = p[P_PREV + b * MAX_ARROWS + i]
            if dist[a] == FAR:
                dist[a] = dist[b] + 1
                queue[tail] = a
                tail += 1
    for sp in range(n, MAX_SPACES):
        dist[sp] = FAR
    return dist


@nb.njit(cache=True)
def gate_distances(p, gate_col, n_players):
    """``dist[r, sp]``: spaces from ``sp`` to the gate of relative seat ``r``."""
    dist = np.full((n_players, MAX_SPACES), FAR, dtype=np.int64)
    for g in range(p[P_NUM_GATES]):
        r = gate_col[g]
        if 0 <= r < n_players:
            dist[r, :] = distances_to(p, p[P_GATE_ACCESS + g])
    return dist


# ----- valuing a board -----------------------------------------------------------------------
@nb.njit(cache=True)
def blocked_at(p, cnt, sp):
    count = cnt[sp, 0] + cnt[sp, 1] + cnt[sp, 2] + cnt[sp, 3]
    if p[P_BLOCKAGE_ALL] != 0:
        count += cnt[sp, 4]
    return count >= p[P_THRESHOLD]


@nb.njit(cache=True)
def goal_value(v, p, obs, cnt, n_players):
    """The best goal in hand the board shows and a share of the others (VP)."""
    best = 0.0
    rest = 0.0
    n_spaces = p[P_NUM_SPACES]
    for t in range(p[P_NUM_TYPES]):
        if obs[O_HAND + t] < 0.5:
            continue
        met = False
        for sp in range(n_spaces):
            total = 0
            colors = 0
            neutral = 0
            for c in range(NUM_COLORS):
                k = cnt[sp, c]
                total += k
                if k > 0:
                    colors += 1
                    if c >= n_players:
                        neutral += k
            if pattern_ok(p, t, p[P_POI + sp], total, colors, neutral, cnt[sp, 0]):
                met = True
                break
        if met:
            vp = float(p[P_VP + t])
            if vp > best:
                rest += best
                best = vp
            else:
                rest += vp
    return (v[GOAL_BEST] + v[GOAL_LATE] * obs[O_TRACK]) * best + v[LATER_GOAL] * rest


@nb.njit(cache=True)
def board_value(v, p, obs, cnt, n_players, dist):
    """Readiness of own and opponents' spaces, own cubes' distance, goals on the board
    (and the vector's further features)."""
    value = goal_value(v, p, obs, cnt, n_players)
    cap = v[DISTANCE_CAP]
    late = v[READY_LATE] * obs[O_TRACK]
    opp_ready = False
    for sp in range(p[P_NUM_SPACES]):
        total = cnt[sp, 0] + cnt[sp, 1] + cnt[sp, 2] + cnt[sp, 3] + cnt[sp, 4]
        if cnt[sp, 0] > 0:
            if total == dist[0, sp] + 1:
                value += v[READY]
                value += late
                if v[READY_SHARED] != 0.0 and _holds_opponent(cnt, sp, n_players):
                    value -= v[READY_SHARED]
            elif total == dist[0, sp]:
                value += v[NEAR_READY]
            value -= v[DISTANCE] * cnt[sp, 0] * min(dist[0, sp], cap)
            value -= v[OWN_SPACES]
            if v[OWN_UNDER_CONE] != 0.0 and blocked_at(p, cnt, sp):
                value -= v[OWN_UNDER_CONE] * cnt[sp, 0]
        for r in range(1, n_players):
            if cnt[sp, r] > 0:
                if total == dist[r, sp] + 1:
                    value -= v[OPP_READY]
                    opp_ready = True
                value += v[OPP_DISTANCE] * cnt[sp, r] * min(dist[r, sp], cap)
    if opp_ready:
        value -= v[OPP_ANY_READY]
    return value


@nb.njit(cache=True)
def _holds_opponent(cnt, sp, n_players):
    """Whether space ``sp`` holds a cube of an opponent (who may pick the space up)."""
    return cnt[sp, 1:n_players].sum() > 0


# ----- planning a move -----------------------------------------------------------------------
@nb.njit(cache=True)
def route(p, pos, code, backwards, first, path):
    """Fill ``path`` with a route from ``pos``: branch ``i`` of a space is taken from the
    digits of ``code``; ``first`` (>= 0) fixes the first space. Returns
    ``used``: how many codes give distinct routes (capped at ``MAX_ROUTES``)."""
    used = 1
    here = pos
    for i in range(MAX_PATH):
        if backwards:
            base, n = P_PREV + here * MAX_ARROWS, p[P_PREV_N + here]
        else:
            base, n = P_NEXT + here * MAX_ARROWS, p[P_NEXT_N + here]
        if i == 0 and first >= 0:
            nxt = first
        else:
            nxt = p[base + code % n]
            code //= n
            if used < MAX_ROUTES:
                used *= n
        path[i] = nxt
        here = nxt
    return used


@nb.njit(cache=True)
def pick_color(active, order, reserve):
    """First colour of ``order`` still active (keeping one ``reserve`` cube back)."""
    for i in range(NUM_COLORS):
        c = order[i]
        if active[c] - (1 if c == reserve else 0) > 0:
            return c
    return -1


@nb.njit(cache=True)
def _record(value, first_action, legal, best, best_first):
    """Keep the plan if it beats the best so far and its first action is legal now."""
    action = A_STOP if first_action == -2 else first_action
    if value > best[0] and 0 <= action < legal.shape[0] and legal[action]:
        best[0] = value
        best_first[0] = action


@nb.njit(cache=True)
def _value_stop(v, p, obs, cnt, dist, n_players, work, sp):
    for c in range(NUM_COLORS):
        cnt[sp, c] += work[c]
    value = board_value(v, p, obs, cnt, n_players, dist)
    for c in range(NUM_COLORS):
        cnt[sp, c] -= work[c]
    return value


@nb.njit(cache=True)
def vp_lead(obs, n_players):
    """Own VP minus the best opponent's (the seats block of the observation)."""
    best = obs[O_SEATS + PLAYER_BLOCK + B_VP]
    for k in range(2, n_players):
        best = max(best, obs[O_SEATS + k * PLAYER_BLOCK + B_VP])
    return obs[O_SEATS + B_VP] - best


@nb.njit(cache=True)
def _try_board(v, p, obs, cnt, dist, n_players, gate_col, gate_free, sp, color, first_action,
               legal, best, best_first):
    """Board the last cube (of ``color``) at a gate in front of ``sp``; ``first_action``
    -1 means boarding is the first action."""
    for g in range(p[P_NUM_GATES]):
        if p[P_GATE_ACCESS + g] != sp or gate_col[g] != color or gate_free[g] <= 0:
            continue
        value = board_value(v, p, obs, cnt, n_players, dist)
        if color == 0:
            value += v[OWN_BOARD]
        elif color >= n_players:
            value += v[FREE_BOARD]
        else:
            value -= v[OPP_BOARD]
        value += v[BOARD_LEAD] * vp_lead(obs, n_players)
        _record(value, A_BOARD + g if first_action < 0 else first_action, legal, best,
                best_first)


@nb.njit(cache=True)
def _walk(v, p, obs, cnt, dist, n_players, gate_col, gate_free, active, path, pos, dropped, q,
          order, reserve, ignore_blocks, first_kind, legal, best, best_first):
    """Follow ``path`` dropping one cube per space in ``order`` (skipping ``path[q - 1]``
    when ``q`` > 0), and value every place the move could end: a stop (``reserve`` -1)
    or boarding the one ``reserve`` cube kept for last. The board is restored after."""
    work = active.copy()
    left = work.sum()
    if reserve >= 0 and left == 1:
        _try_board(v, p, obs, cnt, dist, n_players, gate_col, gate_free, pos, reserve, -1,
                   legal, best, best_first)
    if reserve < 0 and dropped != 0 and q == 0:
        _record(_value_stop(v, p, obs, cnt, dist, n_players, work, pos), -2, legal, best,
                best_first)
    colors = np.full(MAX_PATH, -1, dtype=np.int64)
    first_action = -1
    for i in range(MAX_PATH):
        if left == 0:
            break
        sp = path[i]
        cone = blocked_at(p, cnt, sp) and ignore_blocks == 0
        skip_done = q == 0 or q <= i
        if q == i + 1:                       # skip this space
            if cone:
                break
            if first_action < 0:
                first_action = A_SPACE + sp if first_kind > 0 else A_SKIP
            if reserve >= 0 and left == 1:
                _try_board(v, p, obs, cnt, dist, n_players, gate_col, gate_free, sp, reserve,
                           first_action, legal, best, best_first)
            continue
        if reserve >= 0 and left == 1:
            break
        c = pick_color(work, order, reserve)
        if first_action < 0:
            first_action = A_SPACE + sp if first_kind > 0 else A_DROP + c
        if cone:                             # entering a cone ends the move there
            if reserve < 0 and skip_done:
                _record(_value_stop(v, p, obs, cnt, dist, n_players, work, sp), first_action,
                        legal, best, best_first)
            break
        work[c] -= 1
        cnt[sp, c] += 1
        colors[i] = c
        left -= 1
        if reserve < 0 and skip_done:
            _record(_value_stop(v, p, obs, cnt, dist, n_players, work, sp), first_action,
                    legal, best, best_first)
        if reserve >= 0 and left == 1 and skip_done:
            _try_board(v, p, obs, cnt, dist, n_players, gate_col, gate_free, sp, reserve,
                       first_action, legal, best, best_first)
    for i in range(MAX_PATH):
        if colors[i] >= 0:
            cnt[path[i], colors[i]] -= 1


@nb.njit(cache=True)
def plan_route(v, p, obs, cnt, dist, n_players, gate_col, gate_free, active, path, pos,
               dropped, skip_owed, ignore_blocks, first_kind, legal, best, best_first):
    """Every drop order, skip position and ending (stop, or boarding each colour held)
    along one route; ``first_kind`` 1 makes a route's first step a branch choice."""
    k = active.sum()
    skip_choices = k + 1 if skip_owed != 0 else 1
    for order_i in range(ORDERS.shape[0]):
        order = ORDERS[order_i]
        for q in range(skip_choices):        # q == 0: no skip; else skip path[q - 1]
            for reserve in range(-1, NUM_COLORS):
                if reserve >= 0 and active[reserve] == 0:
                    continue
                _walk(v, p, obs, cnt, dist, n_players, gate_col, gate_free, active, path,
                      pos, dropped, q, order, reserve, ignore_blocks, first_kind, legal, best,
                      best_first)


@nb.njit(cache=True)
def plan_from(v, p, obs, cnt, dist, n_players, gate_col, gate_free, active, pos, dropped,
              skip_owed, ignore_blocks, backwards, branch, legal, best, best_first):
    """Best plan from the active cubes at ``pos`` over every route (or the chosen branch)."""
    path = np.zeros(MAX_PATH, dtype=np.int64)
    n_arrows = p[P_PREV_N + pos] if backwards else p[P_NEXT_N + pos]
    first_kind = 1 if (n_arrows > 1 and branch < 0) else 0
    code = 0
    while code < MAX_ROUTES:
        used = route(p, pos, code, backwards, branch, path)
        plan_route(v, p, obs, cnt, dist, n_players, gate_col, gate_free, active, path, pos,
                   dropped, skip_owed, ignore_blocks, first_kind, legal, best, best_first)
        code += 1
        if code >= used:
            break


@nb.njit(cache=True)
def best_start(v, p, obs, cnt, dist, n_players, gate_col, gate_free, skip_owed, ignore_blocks,
               ignore_neutrals, own_only, backwards, starts):
    """Best space to pick up from among ``starts`` (respecting the card effects);
    returns ``(value, space)``."""
    best = np.full(1, NO_PLAN)
    best_first = np.full(1, -1, dtype=np.int64)
    anything = np.ones(A_DRAW + 1, dtype=np.int8)
    choice = -1
    value = NO_PLAN
    active = np.zeros(NUM_COLORS, dtype=np.int64)
    for sp in range(p[P_NUM_SPACES]):
        if cnt[sp, 0] == 0 or not starts[sp]:
            continue
        for c in range(NUM_COLORS):
            take = cnt[sp, c]
            if (own_only and c != 0) or (ignore_neutrals and c >= n_players):
                take = 0
            active[c] = take
            cnt[sp, c] -= take
        best[0] = NO_PLAN
        plan_from(v, p, obs, cnt, dist, n_players, gate_col, gate_free, active, sp, 0,
                  skip_owed, ignore_blocks, backwards, -1, anything, best, best_first)
        for c in range(NUM_COLORS):
            cnt[sp, c] += active[c]
        if best[0] > value:
            value = best[0]
            choice = sp
    return value, choice


@nb.njit(cache=True)
def plain_move_value(v, p, obs, cnt, dist, n_players, gate_col, gate_free):
    """Value of the best move without any card effect."""
    starts = np.ones(MAX_SPACES, dtype=np.bool_)
    value, _ = best_start(v, p, obs, cnt, dist, n_players, gate_col, gate_free, 0, 0, 0, 0, 0,
                          starts)
    return value


# ----- the cards that place cubes before the move (Gather, Regroup, Send) ---------------------
@nb.njit(cache=True)
def _farthest_own(p, cnt, dist, dest, taken):
    """The own space farthest from the own gate (not ``dest``) still holding a cube after
    ``taken``; -1 if none."""
    far = -1
    for sp in range(p[P_NUM_SPACES]):
        if sp != dest and cnt[sp, 0] - taken[sp] > 0 and (far < 0 or dist[0, sp] > dist[0, far]):
            far = sp
    return far


@nb.njit(cache=True)
def placed_value(v, p, obs, cnt, dist, n_players, gate_col, gate_free, kind, n, dest, taken):
    """Best plain move's value after the card of ``kind`` puts own cubes on ``dest``
    (Gather and Regroup: every own cube; Send: ``n`` cubes, ``taken`` already chosen,
    the rest from the spaces farthest from the own gate)."""
    moved = np.zeros(MAX_SPACES, dtype=np.int64)
    if kind == ACT_SEND:
        moved[:] = taken
        for _ in range(n - taken.sum()):
            sp = _farthest_own(p, cnt, dist, dest, moved)
            if sp >= 0:
                moved[sp] += 1
    else:
        for sp in range(p[P_NUM_SPACES]):
            if sp != dest:
                moved[sp] = cnt[sp, 0]
    for sp in range(MAX_SPACES):
        cnt[sp, 0] -= moved[sp]
        cnt[dest, 0] += moved[sp]
    value = plain_move_value(v, p, obs, cnt, dist, n_players, gate_col, gate_free)
    for sp in range(MAX_SPACES):
        cnt[sp, 0] += moved[sp]
        cnt[dest, 0] -= moved[sp]
    return value


@nb.njit(cache=True)
def best_placement(v, p, obs, cnt, dist, n_players, gate_col, gate_free, t, legal_dest):
    """``(value, space)``: the best destination of card ``t`` (Gather: its point of
    interest; Regroup: a space with own cubes; Send: its point of interest) among those
    ``legal_dest`` allows (None: all)."""
    kind = p[P_ACT_KIND + t]
    taken = np.zeros(MAX_SPACES, dtype=np.int64)
    best, choice = NO_PLAN, -1
    for sp in range(p[P_NUM_SPACES]):
        fits = cnt[sp, 0] > 0 if kind == ACT_REGROUP else p[P_POI + sp] == p[P_ACT_POI + t]
        if not fits or (legal_dest is not None and not legal_dest[A_SPACE + sp]):
            continue
        value = placed_value(v, p, obs, cnt, dist, n_players, gate_col, gate_free, kind,
                             p[P_ACT_N + t], sp, taken)
        if value > best:
            best, choice = value, sp
    return best, choice


@nb.njit(cache=True)
def _in_play(p, obs):
    for t in range(p[P_NUM_TYPES]):
        if obs[O_IN_PLAY + t] > 0.0:
            return t
    return -1


@nb.njit(cache=True)
def _placement_step(v, p, obs, mask, phase):
    """Destination (or Send's source) of a Gather, Regroup or Send card; -1 (random) when
    the vector does not play its kind."""
    t = _in_play(p, obs)
    if t < 0 or v[ACT_BASE + p[P_ACT_KIND + t]] < 0.0:
        return -1
    n_players, cnt, gate_col, gate_free, dist = _setup(p, obs)
    kind = p[P_ACT_KIND + t]
    if phase == PH_DEST or kind == ACT_REGROUP:
        _, sp = best_placement(v, p, obs, cnt, dist, n_players, gate_col, gate_free, t, mask)
        return A_SPACE + sp if sp >= 0 else -1
    dest = -1
    taken = np.zeros(MAX_SPACES, dtype=np.int64)
    for sp in range(p[P_NUM_SPACES]):
        if obs[O_SELECTED + sp] > 0.0:
            dest = sp
        if obs[O_SELECTED + MAX_SPACES + sp] > 0.0:
            taken[sp] = 1
    sp = _farthest_own(p, cnt, dist, dest, taken)
    return A_SPACE + sp if sp >= 0 and mask[A_SPACE + sp] else -1


# ----- decisions -----------------------------------------------------------------------------
@nb.njit(cache=True)
def _decision(obs):
    for k in range(12):
        if obs[O_DECISION + k] > 0.0:
            return k
    return -1


@nb.njit(cache=True)
def _best_card(p, mask):
    """Legal card with the highest goal VP (-1 if none)."""
    best = -1
    best_vp = -1
    for t in range(p[P_NUM_TYPES]):
        if mask[A_CARD + t] and p[P_VP + t] > best_vp:
            best = t
            best_vp = p[P_VP + t]
    return best


@nb.njit(cache=True)
def _cheapest_card(p, mask):
    best = -1
    best_vp = 1 << 30
    for t in range(p[P_NUM_TYPES]):
        if mask[A_CARD + t] and p[P_VP + t] < best_vp:
            best = t
            best_vp = p[P_VP + t]
    return best


@nb.njit(cache=True)
def _setup(p, obs):
    n_players = num_players(obs)
    cnt = np.zeros((MAX_SPACES, NUM_COLORS), dtype=np.int64)
    read_cubes(p, obs, cnt)
    gate_col = np.full(MAX_GATES, -1, dtype=np.int64)
    gate_free = np.zeros(MAX_GATES, dtype=np.int64)
    read_gates(p, obs, gate_col, gate_free)
    dist = gate_distances(p, gate_col, n_players)
    return n_players, cnt, gate_col, gate_free, dist


@nb.njit(cache=True)
def _card_gain(v, p, obs, cnt, dist, n_players, gate_col, gate_free, t, base, now):
    """Gain of playing card ``t``'s action when its kind has no effect on the move itself
    (draws, the second move, Gather, Regroup, Send), before its goal's cost."""
    kind = p[P_ACT_KIND + t]
    if kind == ACT_DRAW:
        return v[DRAW_CARD] * p[P_ACT_N + t]
    if kind == ACT_DRAW_DISCARD:
        return v[DRAW_CARD] * (p[P_ACT_N + t] - 1)
    if kind == ACT_MOVE_TWICE:
        return v[SECOND_MOVE] * (base - now)
    value, _ = best_placement(v, p, obs, cnt, dist, n_players, gate_col, gate_free, t, None)
    return value - base


@nb.njit(cache=True)
def _action_phase(v, p, obs, mask):
    """Play a card when the move it allows beats the plain move by more than its goal,
    or the choose-one card when two goals can be scored this turn."""
    n_players, cnt, gate_col, gate_free, dist = _setup(p, obs)
    starts = np.ones(MAX_SPACES, dtype=np.bool_)
    base = plain_move_value(v, p, obs, cnt, dist, n_players, gate_col, gate_free)
    best_gain = v[ACTION_THRESHOLD]
    best_action = A_PASS
    ready = 0
    now = NO_PLAN
    for t in range(p[P_NUM_TYPES]):
        if obs[O_GOAL_NOW + t] > 0.0:
            ready += 1
    for t in range(p[P_NUM_TYPES]):
        if not mask[A_CARD + t]:
            continue
        kind = p[P_ACT_KIND + t]
        bonus = v[ACT_BASE + kind]
        if bonus < 0.0:
            continue
        cost = v[CARD_COST] * p[P_VP + t]
        skip = ignore_blocks = ignore_neutrals = own_only = backwards = 0
        if kind == ACT_SKIP:
            skip = 1
        elif kind == ACT_BACKWARDS:
            backwards = 1
        elif kind == ACT_OWN_ONLY:
            own_only = 1
        elif kind == ACT_IGNORE_NEUTRALS:
            ignore_neutrals = 1
        elif kind == ACT_CHOOSE_ONE:
            others = ready - (1 if obs[O_GOAL_NOW + t] > 0.0 and obs[O_HAND + t] < 1.5 else 0)
            if others >= 2:
                gain = v[EXTRA_GOAL_VALUE] - cost + v[EXTRA_GOAL_BONUS] + bonus
                if gain > best_gain:
                    best_gain = gain
                    best_action = A_CARD + t
            ignore_blocks = 1
        else:
            if kind == ACT_MOVE_TWICE and now == NO_PLAN:
                now = board_value(v, p, obs, cnt, n_players, dist)
            gain = _card_gain(v, p, obs, cnt, dist, n_players, gate_col, gate_free, t, base,
                              now) - cost + bonus
            if gain > best_gain:
                best_gain = gain
                best_action = A_CARD + t
            continue
        value, _ = best_start(v, p, obs, cnt, dist, n_players, gate_col, gate_free, skip,
                              ignore_blocks, ignore_neutrals, own_only, backwards, starts)
        gain = value - base - cost + bonus
        if gain > best_gain:
            best_gain = gain
            best_action = A_CARD + t
    return best_action


@nb.njit(cache=True)
def _move_step(v, p, obs, mask, phase):
    n_players, cnt, gate_col, gate_free, dist = _setup(p, obs)
    active = np.zeros(NUM_COLORS, dtype=np.int64)
    for c in range(NUM_COLORS):
        active[c] = int(obs[O_ACTIVE + c] + 0.5)
    pos = -1
    branch = -1
    for sp in range(p[P_NUM_SPACES]):
        if obs[O_POS + sp] > 0.0:
            pos = sp
        if obs[O_BRANCH + sp] > 0.0:
            branch = sp
    dropped = int(obs[O_MOVE + 1] + 0.5)
    skip_owed = int(obs[O_EFFECTS] + 0.5)
    ignore_blocks = int(obs[O_EFFECTS + 1] + 0.5)
    backwards = int(obs[O_EFFECTS + 4] + 0.5)
    best = np.full(1, NO_PLAN)
    best_first = np.full(1, -1, dtype=np.int64)
    plan_from(v, p, obs, cnt, dist, n_players, gate_col, gate_free, active, pos, dropped,
              skip_owed, ignore_blocks, backwards, branch if phase == PH_BRANCH else -1,
              mask, best, best_first)
    return best_first[0]


@nb.njit(cache=True)
def _start(v, p, obs, mask):
    n_players, cnt, gate_col, gate_free, dist = _setup(p, obs)
    starts = np.zeros(MAX_SPACES, dtype=np.bool_)
    for sp in range(p[P_NUM_SPACES]):
        starts[sp] = mask[A_SPACE + sp] != 0
    _, sp = best_start(v, p, obs, cnt, dist, n_players, gate_col, gate_free,
                       int(obs[O_EFFECTS] + 0.5), int(obs[O_EFFECTS + 1] + 0.5),
                       int(obs[O_EFFECTS + 2] + 0.5), int(obs[O_EFFECTS + 3] + 0.5),
                       int(obs[O_EFFECTS + 4] + 0.5), starts)
    return A_SPACE + sp if sp >= 0 else -1


@nb.njit(cache=True)
def decide(v, p, obs, mask):
    """The procedure's action at vector ``v``, or -1 where it has no choice of its own."""
    phase = _decision(obs)
    if phase in (PH_GOAL, PH_EXTRA_GOAL):
        t = _best_card(p, mask)
        return A_CARD + t if t >= 0 else A_PASS
    if phase == PH_DRAW:
        return A_DRAW
    if phase == PH_DISCARD:
        return A_CARD + _cheapest_card(p, mask)
    if phase == PH_CHOOSE:
        return A_EXTRA_GOAL if mask[A_EXTRA_GOAL] else A_IGNORE_BLOCKAGES
    if phase == PH_ACTION:
        return _action_phase(v, p, obs, mask)
    if phase in (PH_DEST, PH_SOURCE):
        return _placement_step(v, p, obs, mask, phase)
    if phase == PH_START:
        action = _start(v, p, obs, mask)
        if action >= 0:
            return action
    if phase in (PH_STEP, PH_BRANCH):
        return _move_step(v, p, obs, mask, phase)
    return -1


@nb.njit(cache=True)
def play(v, p, obs, mask, words):
    """``decide``'s action, or a uniformly random legal one where it has none."""
    action = decide(v, p, obs, mask)
    return action if action >= 0 else uniform_legal(words, mask)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Agent ``code``: 0 uniformly random, 1 rule-based, ``TUNED_CODE + k`` tuned with
    vector ``k`` of ``p`` (see ``params_with_vectors``)."""
    if code >= TUNED_CODE:
        return play(read_vector(p, code - TUNED_CODE), p, obs, mask, words)
    if code == 1:
        return play(RULE_BASED, p, obs, mask, words)
    return uniform_legal(words, mask)
