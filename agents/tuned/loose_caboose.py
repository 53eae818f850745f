"""The Loose Caboose! decision procedure with every constant read from a parameter vector
(layout in :mod:`transit_gym.agents.tuned.loose_caboose_layout`).

On its first decision of a turn the procedure scores passing against laying the cards of
each value it holds: laying removes those points from the hand (hands count at the end)
and lengthens the track ahead, while the dice (the exact wheel distribution) may derail
the caboose or pass Broken Tracks, each penalty card priced at the known values at the
back of the railway. It then lays the cards of the chosen value, ordinary tracks before
Broken Tracks, straight before curves, and rolls. Only the observation, the mask and the
game parameters are read.

The rule-based agent is this procedure at ``RULE_BASED``; ``policy(code, p, obs, mask,
words)`` is the kernel of the jitted whole-game loops: code 0 plays uniformly at random,
1 is the rule-based agent, ``TUNED_CODE + k`` plays with the ``k``-th vector appended to
the game parameters by :func:`params_with_vectors`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.loose_caboose_layout import (
    V_AHEAD,
    V_BROKEN,
    V_CANCEL,
    V_CARD_BONUS,
    V_DERAIL,
    V_EXACT,
    V_GIFT,
    V_KEEP,
    V_KEEP_UNTIL,
    V_LATE_HORIZON,
    V_LATE_LAY,
    V_LAY,
    V_LAY_BROKEN,
    V_LEAD_PASS,
    V_MEAN_CARD,
    V_PASS_BIAS,
    V_PASS_EMPTY,
    V_SAFE_MARGIN,
    V_SETUP,
    V_UNSEEN_MEAN,
    V_VALUE_BIAS,
    VECTOR_SIZE,
    rule_based_vector,
)
from transit_gym.agents.tuned.packing import TUNED_CODE, append_vectors, read_vector
from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.loose_caboose.data import MAX_VALUE
from transit_gym.envs.loose_caboose.encode import (
    AHEAD_WINDOW,
    B_HAND_SIZE,
    B_POINTS,
    B_TOP,
    BACK_WINDOW,
    O_BACK,
    O_BROKEN_AHEAD,
    O_DECISION,
    O_DRAW,
    O_END,
    O_HAND,
    O_PLAYERS,
    O_RAILWAY,
    O_UNSEEN,
    PLAYER_BLOCK,
)
from transit_gym.envs.loose_caboose.kernels import A_PASS, A_ROLL, play_action
from transit_gym.envs.loose_caboose.state import (
    P_BANK_FIRST,
    P_FACES,
    P_NUM_FACES,
    P_PASS_BANKS,
)

__all__ = ["RULE_BASED", "TUNED_CODE", "VECTOR_SIZE", "decide", "params_with_vectors",
           "policy", "wheel_distribution"]

MAX_WHEELS = 6 * MAX_VALUE + 1
#: the rule-based agent's vector, frozen into the kernels that read it
RULE_BASED = rule_based_vector()


def params_with_vectors(params: np.ndarray, vectors: list[np.ndarray]) -> np.ndarray:
    """The game parameters followed by ``vectors`` (fixed point): what ``policy`` reads
    for codes >= ``TUNED_CODE`` (a 2-D table of parameter rows gives a table)."""
    return append_vectors(params, vectors, VECTOR_SIZE)


@nb.njit(cache=True)
def wheel_distribution(p, dice):
    """Probability of each wheel total when rolling ``dice`` dice."""
    n_faces = p[P_NUM_FACES]
    dist = np.zeros(MAX_WHEELS, dtype=np.float64)
    dist[0] = 1.0
    for _ in range(dice):
        new = np.zeros(MAX_WHEELS, dtype=np.float64)
        for total in range(MAX_WHEELS):
            if dist[total] == 0.0:
                continue
            for f in range(n_faces):
                w = total + p[P_FACES + f]
                if w < MAX_WHEELS:
                    new[w] += dist[total] / n_faces
        dist = new
    return dist


@nb.njit(cache=True)
def _unknown_price(v, obs):
    """Price of a penalty card of unknown value: ``mean_card``, blended towards the mean
    value of the unseen cards by ``unseen_mean_weight``."""
    price = v[V_MEAN_CARD]
    blend = v[V_UNSEEN_MEAN]
    if blend != 0.0:
        total = 0.0
        count = 0.0
        for k in range(MAX_VALUE):
            total += (k + 1) * obs[O_UNSEEN + k]
            count += obs[O_UNSEEN + k]
        if count > 0.0:
            price = (1.0 - blend) * price + blend * total / count
    return price


@nb.njit(cache=True)
def _back_value(obs, k):
    """Value of the ``k``-th card from the back of the railway (0 when unknown)."""
    return obs[O_BACK + k] * 4.0 if k < BACK_WINDOW else 0.0


@nb.njit(cache=True)
def _penalty_price(obs, k, unknown):
    value = _back_value(obs, k)
    return value if value > 0.0 else unknown


@nb.njit(cache=True)
def _pile_top(obs, seat):
    """Value of the top card of the penalty pile of ``seat`` (0 oneself, 1 the next
    player; 0: empty)."""
    block = O_PLAYERS + seat * PLAYER_BLOCK + B_TOP
    for value in range(1, MAX_VALUE + 1):
        if obs[block + value] > 0.5:
            return float(value)
    return 0.0


@nb.njit(cache=True)
def _cancel_gain(obs, k, top):
    """Cancelling Out Penalty Cards: taking the ``k``-th back card onto a pile topped by
    its value removes both (the gain over taking it without a match: twice the value)."""
    return 2.0 * top if top > 0.0 and _back_value(obs, k) == top else 0.0


@nb.njit(cache=True)
def penalty_points(obs, banked, taken, bank_first, top, unknown):
    """Penalty points of banking ``banked`` and taking ``taken`` cards from the back of the
    railway in the configured order (Broken Tracks, Taking Penalty Cards), a taken card
    of a known value cancelling with an equal pile top (Cancelling Out Penalty Cards; the
    card under a cancelled top is unknown, so it cancels nothing), and the pile's top
    afterwards (0: unknown or empty)."""
    points = 0.0
    first_bank = 0 if bank_first else taken
    for k in range(banked):
        points += _penalty_price(obs, first_bank + k, unknown)
    first_take = banked if bank_first else 0
    for k in range(taken):
        value = _back_value(obs, first_take + k)
        if value > 0.0 and value == top:
            points -= top
            top = 0.0
        else:
            points += value if value > 0.0 else unknown
            top = value
    return points, top


@nb.njit(cache=True)
def _late(v, obs):
    """How far into the end of the game: 0 before ``late_horizon`` cards are left in the
    draw pile, rising to 1 when it is empty (1 on the last turn)."""
    if obs[O_END] > 0.0:
        return 1.0
    horizon = v[V_LATE_HORIZON]
    if horizon <= 0.0:
        return 0.0
    return max(0.0, 1.0 - obs[O_DRAW] / horizon)


@nb.njit(cache=True)
def _lead(v, obs, unknown):
    """One's lead in points over the next player: their penalty points and hand (priced
    at ``unknown`` a card) less one's own penalty points and hand."""
    own = O_PLAYERS
    other = O_PLAYERS + PLAYER_BLOCK
    hand = 0.0
    for value in range(1, MAX_VALUE + 1):
        hand += value * _held(obs, value, 0)
    return (10.0 * (obs[other + B_POINTS] - obs[own + B_POINTS])
            + unknown * obs[other + B_HAND_SIZE] - hand)


@nb.njit(cache=True)
def pass_score(v, p, obs, unknown, top, next_top):
    """Expected gain of passing: one penalty card (Pass), plus the vector's terms."""
    exact = v[V_EXACT]
    score = -(1.0 - exact) * _penalty_price(obs, 0, unknown) + v[V_PASS_BIAS]
    ahead = obs[O_RAILWAY + 1]
    if obs[O_RAILWAY + 2] == 0.0:
        score += v[V_PASS_EMPTY]
    if v[V_LEAD_PASS] != 0.0:
        score += v[V_LEAD_PASS] * _lead(v, obs, unknown)
    banked = 1 if ahead > 0.0 and p[P_PASS_BANKS] != 0 and obs[O_BROKEN_AHEAD] > 0.5 else 0
    bank_first = p[P_BANK_FIRST] != 0
    if v[V_CANCEL] != 0.0:
        score += v[V_CANCEL] * _cancel_gain(obs, banked if bank_first else 0, top)
    if exact != 0.0 or v[V_SETUP] != 0.0:
        points, new_top = penalty_points(obs, banked, 1, bank_first, top, unknown)
        score += v[V_SETUP] * _cancel_gain(obs, banked + 1, new_top) - exact * points
    if v[V_GIFT] != 0.0:
        score -= v[V_GIFT] * _cancel_gain(obs, banked + 1, next_top)
    return score + v[V_AHEAD] * max(0.0, ahead - 1.0)


@nb.njit(cache=True)
def play_score(v, p, obs, value, count, unknown, top, next_top):
    """Expected gain of laying ``count`` cards of ``value`` and rolling ``value`` dice."""
    ahead = int(obs[O_RAILWAY + 1]) + count
    dist = wheel_distribution(p, value)
    expected_derail = 0.0
    broken_hits = 0.0
    cancel = 0.0
    left_ahead = 0.0
    exact = 0.0
    blend = v[V_EXACT]
    gift = 0.0
    setup = 0.0
    follow = blend != 0.0 or v[V_SETUP] != 0.0
    bank_first = p[P_BANK_FIRST] != 0
    for w in range(MAX_WHEELS):
        if dist[w] == 0.0:
            continue
        if w > ahead:
            expected_derail += dist[w] * (w - ahead)
        banks = 0
        for k in range(min(w, ahead, AHEAD_WINDOW)):
            broken_hits += dist[w] * obs[O_BROKEN_AHEAD + k]
            banks += int(obs[O_BROKEN_AHEAD + k])
        if w > ahead:
            cancel += dist[w] * _cancel_gain(obs, banks if bank_first else 0, top)
        else:
            left_ahead += dist[w] * (ahead - w)
        derail = max(0, w - ahead)
        gift += dist[w] * _cancel_gain(obs, banks + derail, next_top)
        if follow:
            points, new_top = penalty_points(obs, banks, derail, bank_first, top, unknown)
            exact += dist[w] * points
            setup += dist[w] * _cancel_gain(obs, banks + derail, new_top)
    n_penalties = int(expected_derail + broken_hits + 0.999)
    cost = 0.0
    for k in range(n_penalties):
        cost += _penalty_price(obs, k, unknown)
    per_card = cost / max(1.0, float(n_penalties))
    laid = value * count
    score = (v[V_LAY] * laid - (1.0 - blend) * per_card
             * (v[V_DERAIL] * expected_derail + v[V_BROKEN] * broken_hits))
    return (score - blend * exact + v[V_CARD_BONUS] * count + v[V_VALUE_BIAS + value - 1]
            + v[V_CANCEL] * cancel + v[V_LATE_LAY] * _late(v, obs) * laid
            + v[V_AHEAD] * left_ahead - v[V_GIFT] * gift + v[V_SETUP] * setup)


@nb.njit(cache=True)
def _lay_preference(mask, value):
    """Ordinary before Broken Track, straight before curves; -1 if none is legal."""
    for broken in range(2):
        for turn in range(3):
            a = play_action(value, broken, turn)
            if mask[a]:
                return a
    return -1


@nb.njit(cache=True)
def _held(obs, value, first_kind):
    """Cards of ``value`` in hand (``first_kind`` 0: all, 2: Broken Tracks only)."""
    count = 0
    for kind in range(first_kind, 4):
        count += int(obs[O_HAND + (value - 1) * 4 + kind])
    return count


@nb.njit(cache=True)
def _kept(v, obs, value):
    """Cards of ``value`` kept back in hand: ``keep.<value>`` while the draw pile holds
    more than ``keep_until`` cards, and the Broken Tracks unless ``lay_broken`` (none on
    the last turn)."""
    if obs[O_END] > 0.0:
        return 0
    kept = 0
    if obs[O_DRAW] > v[V_KEEP_UNTIL]:
        kept = max(0, int(np.floor(v[V_KEEP + value - 1] + 0.5)))
    if v[V_LAY_BROKEN] < 0.5:
        kept = max(kept, _held(obs, value, 2))
    return kept


@nb.njit(cache=True)
def _safe(v, obs, value):
    """Whether the track ahead already covers the most wheels of ``value`` dice plus
    ``safe_margin`` cards, the further cards kept (not on the last turn, nor while the
    draw pile holds ``keep_until`` cards or fewer)."""
    if obs[O_END] > 0.0 or obs[O_DRAW] <= v[V_KEEP_UNTIL]:
        return False
    return obs[O_RAILWAY + 1] >= 2 * value + v[V_SAFE_MARGIN]


@nb.njit(cache=True)
def decide(v, p, obs, mask):
    """The procedure's action at vector ``v`` (the rule-based agent at ``RULE_BASED``)."""
    if obs[O_DECISION + 1] > 0.0:          # continuing: lay the cards of the value
        for a in range(mask.shape[0]):
            if a != A_ROLL and mask[a]:
                value = (a - 2) // 6 + 1
                if _held(obs, value, 0) <= _kept(v, obs, value) or _safe(v, obs, value):
                    return A_ROLL
                return _lay_preference(mask, value)
        return A_ROLL
    unknown = _unknown_price(v, obs)
    top = _pile_top(obs, 0)
    next_top = _pile_top(obs, 1)
    best = pass_score(v, p, obs, unknown, top, next_top)
    best_action = A_PASS
    for value in range(1, MAX_VALUE + 1):
        first = _lay_preference(mask, value)
        if first < 0:
            continue
        count = max(1, _held(obs, value, 0) - _kept(v, obs, value))
        score = play_score(v, p, obs, value, count, unknown, top, next_top)
        if score > best:
            best = score
            best_action = first
    return best_action


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Agent ``code``: 0 uniformly random, 1 rule-based, ``TUNED_CODE + k`` the procedure
    at vector ``k`` of ``p`` (see ``params_with_vectors``)."""
    if code >= TUNED_CODE:
        return decide(read_vector(p, code - TUNED_CODE), p, obs, mask)
    if code == 1:
        return decide(RULE_BASED, p, obs, mask)
    return uniform_legal(words, mask)
