"""Built-in Planes agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent reads only its observation, the mask and the game parameters
(the airport's arrows and gates, the card table). For a move it searches a small
family of plans: every start space, every route along the arrows, every stopping
point (or boarding at a gate), and three orders for dropping cubes (own cubes last,
own cubes first, opponents' cubes first). Each resulting board is valued by: own
cubes boarded (5 VP), cubes of no player boarded (2 cards), opponents' cubes boarded
(their 5 VP), the best goal in hand the board then shows (scored in this turn's goal
phase), own spaces holding exactly as many cubes as a boarding move from there needs,
the same for opponents, and how far own cubes are from the own gate. The agent
replans at every step of the move, so the plan needs no memory. It scores the best
goal it can, plays a card as an action when the better move it allows outweighs the
card's goal, and takes the choose-one card's extra goal when two goals are ready.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.planes.data import (
    ACT_BACKWARDS,
    ACT_CHOOSE_ONE,
    ACT_IGNORE_NEUTRALS,
    ACT_OWN_ONLY,
    ACT_SKIP,
    MAX_ARROWS,
    MAX_GATES,
    MAX_SPACES,
    NUM_COLORS,
)
from transit_gym.envs.planes.encode import (
    O_ACTIVE,
    O_BRANCH,
    O_CUBES,
    O_DECISION,
    O_EFFECTS,
    O_GATES,
    O_GOAL_NOW,
    O_HAND,
    O_MOVE,
    O_PLAYERS,
    O_POS,
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
    PH_DISCARD,
    PH_DRAW,
    PH_EXTRA_GOAL,
    PH_GOAL,
    PH_START,
    PH_STEP,
)

MAX_PATH = 48            # longest route searched (more than the 40 cubes there are)
MAX_ROUTES = 16          # routes through branching spaces tried per move
ORDERS = np.array([[4, 3, 2, 1, 0], [0, 4, 3, 2, 1], [1, 2, 3, 4, 0]], dtype=np.int64)
FAR = 99

# weights of the board valuation
W_OWN_BOARD = 5.0        # an own cube on the own plane: 5 VP
W_FREE_BOARD = 2.0       # a cube of no player boarded: 2 cards
W_OPP_BOARD = 4.0        # an opponent's cube on its plane gives that opponent 5 VP
W_READY = 2.5            # own space with exactly the cubes a boarding move needs
W_OPP_READY = 1.0
W_DISTANCE = 0.08        # per own cube and space away from the own gate
W_LATER_GOAL = 0.25      # share of a further goal's VP that is met now
CARD_COST = 0.8          # share of a card's goal VP given up by playing it as an action


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
def goal_value(p, obs, cnt, n_players):
    """VP of the best goal in hand the board shows, plus a share of the others."""
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
    return best + W_LATER_GOAL * rest


@nb.njit(cache=True)
def board_value(p, obs, cnt, n_players, dist):
    """Readiness of own and opponents' spaces, own cubes' distance, goals on the board."""
    value = goal_value(p, obs, cnt, n_players)
    for sp in range(p[P_NUM_SPACES]):
        total = cnt[sp, 0] + cnt[sp, 1] + cnt[sp, 2] + cnt[sp, 3] + cnt[sp, 4]
        if cnt[sp, 0] > 0:
            if total == dist[0, sp] + 1:
                value += W_READY
            value -= W_DISTANCE * cnt[sp, 0] * min(dist[0, sp], 20)
        for r in range(1, n_players):
            if cnt[sp, r] > 0 and total == dist[r, sp] + 1:
                value -= W_OPP_READY
    return value


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
def _value_stop(p, obs, cnt, dist, n_players, work, sp):
    for c in range(NUM_COLORS):
        cnt[sp, c] += work[c]
    value = board_value(p, obs, cnt, n_players, dist)
    for c in range(NUM_COLORS):
        cnt[sp, c] -= work[c]
    return value


@nb.njit(cache=True)
def _try_board(p, obs, cnt, dist, n_players, gate_col, gate_free, sp, color, first_action,
               legal, best, best_first):
    """Board the last cube (of ``color``) at a gate in front of ``sp``; ``first_action``
    -1 means boarding is the first action."""
    for g in range(p[P_NUM_GATES]):
        if p[P_GATE_ACCESS + g] != sp or gate_col[g] != color or gate_free[g] <= 0:
            continue
        value = board_value(p, obs, cnt, n_players, dist)
        if color == 0:
            value += W_OWN_BOARD
        elif color >= n_players:
            value += W_FREE_BOARD
        else:
            value -= W_OPP_BOARD
        _record(value, A_BOARD + g if first_action < 0 else first_action, legal, best,
                best_first)


@nb.njit(cache=True)
def _walk(p, obs, cnt, dist, n_players, gate_col, gate_free, active, path, pos, dropped, q,
          order, reserve, ignore_blocks, first_kind, legal, best, best_first):
    """Follow ``path`` dropping one cube per space in ``order`` (skipping ``path[q - 1]``
    when ``q`` > 0), and value every place the move could end: a stop (``reserve`` -1)
    or boarding the one ``reserve`` cube kept for last. The board is restored after."""
    work = active.copy()
    left = work.sum()
    if reserve >= 0 and left == 1:
        _try_board(p, obs, cnt, dist, n_players, gate_col, gate_free, pos, reserve, -1,
                   legal, best, best_first)
    if reserve < 0 and dropped != 0 and q == 0:
        _record(_value_stop(p, obs, cnt, dist, n_players, work, pos), -2, legal, best,
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
                _try_board(p, obs, cnt, dist, n_players, gate_col, gate_free, sp, reserve,
                           first_action, legal, best, best_first)
            continue
        if reserve >= 0 and left == 1:
            break
        c = pick_color(work, order, reserve)
        if first_action < 0:
            first_action = A_SPACE + sp if first_kind > 0 else A_DROP + c
        if cone:                             # entering a cone ends the move there
            if reserve < 0 and skip_done:
                _record(_value_stop(p, obs, cnt, dist, n_players, work, sp), first_action,
                        legal, best, best_first)
            break
        work[c] -= 1
        cnt[sp, c] += 1
        colors[i] = c
        left -= 1
        if reserve < 0 and skip_done:
            _record(_value_stop(p, obs, cnt, dist, n_players, work, sp), first_action, legal,
                    best, best_first)
        if reserve >= 0 and left == 1 and skip_done:
            _try_board(p, obs, cnt, dist, n_players, gate_col, gate_free, sp, reserve,
                       first_action, legal, best, best_first)
    for i in range(MAX_PATH):
        if colors[i] >= 0:
            cnt[path[i], colors[i]] -= 1


@nb.njit(cache=True)
def plan_route(p, obs, cnt, dist, n_players, gate_col, gate_free, active, path, pos, dropped,
               skip_owed, ignore_blocks, first_kind, legal, best, best_first):
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
                _walk(p, obs, cnt, dist, n_players, gate_col, gate_free, active, path, pos,
                      dropped, q, order, reserve, ignore_blocks, first_kind, legal, best,
                      best_first)


@nb.njit(cache=True)
def plan_from(p, obs, cnt, dist, n_players, gate_col, gate_free, active, pos, dropped,
              skip_owed, ignore_blocks, backwards, branch, legal, best, best_first):
    """Best plan from the active cubes at ``pos`` over every route (or the chosen branch)."""
    path = np.zeros(MAX_PATH, dtype=np.int64)
    n_arrows = p[P_PREV_N + pos] if backwards else p[P_NEXT_N + pos]
    first_kind = 1 if (n_arrows > 1 and branch < 0) else 0
    code = 0
    while code < MAX_ROUTES:
        used = route(p, pos, code, backwards, branch, path)
        plan_route(p, obs, cnt, dist, n_players, gate_col, gate_free, active, path, pos,
                   dropped, skip_owed, ignore_blocks, first_kind, legal, best, best_first)
        code += 1
        if code >= used:
            break


@nb.njit(cache=True)
def best_start(p, obs, cnt, dist, n_players, gate_col, gate_free, skip_owed, ignore_blocks,
               ignore_neutrals, own_only, backwards, starts):
    """Best space to pick up from among ``starts`` (respecting the card effects);
    returns ``(value, space)``."""
    best = np.full(1, -1e9)
    best_first = np.full(1, -1, dtype=np.int64)
    anything = np.ones(A_DRAW + 1, dtype=np.int8)
    choice = -1
    value = -1e9
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
        best[0] = -1e9
        plan_from(p, obs, cnt, dist, n_players, gate_col, gate_free, active, sp, 0,
                  skip_owed, ignore_blocks, backwards, -1, anything, best, best_first)
        for c in range(NUM_COLORS):
            cnt[sp, c] += active[c]
        if best[0] > value:
            value = best[0]
            choice = sp
    return value, choice


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
def _action_phase(p, obs, mask):
    """Play a card when the move it allows beats the plain move by more than its goal,
    or the choose-one card when two goals can be scored this turn."""
    n_players, cnt, gate_col, gate_free, dist = _setup(p, obs)
    starts = np.ones(MAX_SPACES, dtype=np.bool_)
    base, _ = best_start(p, obs, cnt, dist, n_players, gate_col, gate_free, 0, 0, 0, 0, 0,
                         starts)
    best_gain = 0.0
    best_action = A_PASS
    ready = 0
    for t in range(p[P_NUM_TYPES]):
        if obs[O_GOAL_NOW + t] > 0.0:
            ready += 1
    for t in range(p[P_NUM_TYPES]):
        if not mask[A_CARD + t]:
            continue
        kind = p[P_ACT_KIND + t]
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
                gain = 1.0 - CARD_COST * p[P_VP + t] + 0.5
                if gain > best_gain:
                    best_gain = gain
                    best_action = A_CARD + t
            ignore_blocks = 1
        else:
            continue
        value, _ = best_start(p, obs, cnt, dist, n_players, gate_col, gate_free, skip,
                              ignore_blocks, ignore_neutrals, own_only, backwards, starts)
        gain = value - base - CARD_COST * p[P_VP + t]
        if gain > best_gain:
            best_gain = gain
            best_action = A_CARD + t
    return best_action


@nb.njit(cache=True)
def _move_step(p, obs, mask, phase):
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
    best = np.full(1, -1e9)
    best_first = np.full(1, -1, dtype=np.int64)
    plan_from(p, obs, cnt, dist, n_players, gate_col, gate_free, active, pos, dropped,
              skip_owed, ignore_blocks, backwards, branch if phase == PH_BRANCH else -1,
              mask, best, best_first)
    return best_first[0]


@nb.njit(cache=True)
def rule_based(p, obs, mask, words):
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
        return _action_phase(p, obs, mask)
    if phase == PH_START:
        n_players, cnt, gate_col, gate_free, dist = _setup(p, obs)
        starts = np.zeros(MAX_SPACES, dtype=np.bool_)
        for sp in range(p[P_NUM_SPACES]):
            starts[sp] = mask[A_SPACE + sp] != 0
        _, sp = best_start(p, obs, cnt, dist, n_players, gate_col, gate_free,
                           int(obs[O_EFFECTS] + 0.5), int(obs[O_EFFECTS + 1] + 0.5),
                           int(obs[O_EFFECTS + 2] + 0.5), int(obs[O_EFFECTS + 3] + 0.5),
                           int(obs[O_EFFECTS + 4] + 0.5), starts)
        if sp >= 0:
            return A_SPACE + sp
    if phase in (PH_STEP, PH_BRANCH):
        action = _move_step(p, obs, mask, phase)
        if action >= 0:
            return action
    return uniform_legal(words, mask)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask, words)
    return uniform_legal(words, mask)
