"""Planes in words and pictures: actions described in context, the airport as text
(``ansi``) and as an image (``rgb_array``)."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import BLACK, WHITE, Canvas, fit
from transit_gym.envs.core.text import decision_help, fold
from transit_gym.envs.planes import kernels as k
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.data import (
    ACTION_KINDS,
    COLOR_NAMES,
    MAX_TYPES,
    NO_LIMIT,
    NUM_COLORS,
    POI_NAMES,
    SOLE_MINE,
    Cards,
)
from transit_gym.envs.planes.encode import ACTION_NAMES, action_kind

CUBE_RGB = ((210, 50, 50), (50, 100, 220), (40, 160, 70), (230, 200, 40), (150, 150, 150))
POI_RGB = ((70, 70, 70), (90, 150, 200), (220, 140, 60), (190, 90, 190), (60, 170, 170),
           (200, 170, 90))
POI_SHORT = ("", "WC", "FOOD", "GIFT", "HELP", "DINE")
CONE_RGB = (255, 130, 0)
TILE_W, TILE_H, GAP = 120, 84, 40


#: what each decision is, in our own words (rulebook: Taking a Turn, Action Phase, Move
#: Phase, Boarding a Plane, Blockages, Goal Phase, Card Clarifications)
PHASE_HELP = {
    st.PH_ACTION: "Action Phase (optional): play one card of your hand for its action (h CARD "
                  "tells what it does), or play none. A card played as an action scores no "
                  "points. Then you must move, then you may score one goal.",
    st.PH_CHOOSE: "Your card lets you choose one: ignore blockages during this turn's move, or "
                  "score a goal right away (besides the Goal Phase).",
    st.PH_EXTRA_GOAL: "Score one card of your hand as a goal now: its picture must be on the "
                      "board at this moment.",
    st.PH_DISCARD: "Your card drew cards for you: now discard one card of your hand.",
    st.PH_DEST: "Your card moves cubes: choose the point of interest (a kind of space) that "
                "receives them.",
    st.PH_SOURCE: "Your card moves your party: choose the space your cubes come from (or "
                  "where the party regroups).",
    st.PH_START: "Move Phase (you must move): choose a space holding at least one of your "
                 "party's cubes. Every cube there (yours, other players', neutral) becomes "
                 "active and travels with you along the arrows.",
    st.PH_STEP: "Move Phase, moving: leave one active cube in the space ahead and go on, skip "
                "past it where a card allows, stop here with every active cube, or board the "
                "last cube at a gate of its colour. Seven or more party cubes on a space block "
                "it: nobody moves past.",
    st.PH_BRANCH: "Move Phase, after choosing one of several arrows: leave a cube in the space "
                  "ahead or skip it.",
    st.PH_GOAL: "Goal Phase (optional): score one card of your hand as a goal if its picture "
                "is on the board now; it stays in front of you for its points. Or score none.",
    st.PH_DRAW: "End of your turn with an empty hand: you may draw one card.",
}
#: what each kind of action does
KIND_HELP = {
    "pass": "Pass: do nothing in this optional step.",
    "play a card": "Play this card as your action: its effect happens now or changes this "
                   "turn's move; it is discarded at the end of the turn.",
    "score a goal": "Score this card as a goal (its picture is on the board now): it stays in "
                    "front of you and counts its points at the end.",
    "discard a card": "Discard this card from your hand.",
    "space": "Choose this space (the menu says what for).",
    "drop": "Leave one active cube of this colour in the space ahead and continue.",
    "skip": "Pass over the space ahead without leaving a cube there.",
    "stop": "Stop here: every active cube left is placed in this space and the move ends.",
    "board": "Board the last active cube onto the plane at this gate (its colour must match): "
             "your own colour scores points, a neutral plane draws you 2 cards.",
    "ignore_blockages": "This turn's move may pass blocked spaces.",
    "extra_goal": "Score one goal right now, besides the Goal Phase.",
    "draw": "Draw one card.",
}
CARD_KINDS = {st.PH_ACTION: "play a card", st.PH_GOAL: "score a goal",
              st.PH_EXTRA_GOAL: "score a goal", st.PH_DISCARD: "discard a card"}


def phase_kind(phase: int, action: int) -> str:
    """The kind of ``action`` in decision ``phase`` (a key of :data:`KIND_HELP`)."""
    kind = action_kind(action)[0]
    return CARD_KINDS.get(phase, "play a card") if kind == "card" else kind


def phase_help(game: Game, state: State) -> list[tuple[str, str]]:
    """What the pending decision is and what each kind of its legal actions does."""
    phase = int(state.data[st.PHASE])
    kinds = (phase_kind(phase, int(a)) for a in game.legal_actions(state))
    return decision_help(PHASE_HELP[phase], kinds, KIND_HELP)


def _color(seat: int, rel: int, n_players: int) -> str:
    return COLOR_NAMES[int(k.absolute_color(seat, rel, n_players))]


def describe_action(game: Game, state: State, action: int) -> str:
    """The action in words for the pending decision of ``state``."""
    s = state.data
    phase = int(s[st.PHASE])
    seat = int(s[st.CURRENT])
    kind, arg = action_kind(action)
    if kind == "unknown" or phase == st.PH_OVER:
        return ACTION_NAMES[action] if kind != "unknown" else f"unknown action {action}"
    names = game.cards.names
    if kind == "card":
        name = names[arg] if arg < len(names) else f"card {arg}"
        verb = {st.PH_ACTION: "play {} as an action", st.PH_GOAL: "score {} as a goal",
                st.PH_EXTRA_GOAL: "score {} as a goal now", st.PH_DISCARD: "discard {}"}
        return verb.get(phase, "card {}").format(repr(name))
    if kind == "pass":
        return {st.PH_ACTION: "play no action card", st.PH_GOAL: "score no goal",
                st.PH_DRAW: "do not draw"}.get(phase, "pass")
    if kind == "space":
        where = game.space_name(arg) if arg < game.airport.num_spaces else f"space {arg}"
        if phase == st.PH_START:
            return f"pick up the cubes at {where}"
        if phase == st.PH_DEST:
            return f"place the cube(s) at {where}"
        if phase == st.PH_SOURCE:
            if game.cards.action[s[st.IN_PLAY]] == k.ACT_REGROUP:
                return f"regroup your party at {where}"
            return f"take one of your cubes from {where}"
        return f"follow the arrow to {where}"
    ahead = int(k._ahead(s, game.params)) if s[st.POS] >= 0 else -1
    ahead_name = game.space_name(ahead) if ahead >= 0 else "the next space"
    if kind == "drop":
        return f"drop a {_color(seat, arg, game.num_players)} cube at {ahead_name}"
    if kind == "skip":
        return f"skip {ahead_name}"
    if kind == "stop":
        return f"stop at {game.space_name(int(s[st.POS]))} with every active cube"
    if kind == "board":
        gate = game.airport.gate_ids[arg] if arg < game.airport.num_gates else f"gate {arg}"
        return f"board the last cube at {gate}"
    return {"ignore_blockages": "ignore blockages during this move",
            "extra_goal": "score a goal right now", "draw": "draw 1 card"}[kind]


def _cubes_text(counts: np.ndarray) -> str:
    parts = [f"{COLOR_NAMES[c]} {int(counts[c])}" for c in range(NUM_COLORS) if counts[c]]
    return ", ".join(parts) or "empty"


def _cards_text(game: Game, counts: np.ndarray) -> str:
    parts = []
    for t in range(game.cards.num_types):
        if counts[t]:
            parts.append(game.cards.names[t] + (f" x{int(counts[t])}" if counts[t] > 1 else ""))
    return ", ".join(parts) or "-"


def render_text(game: Game, state: State, viewer: int | None = None) -> str:
    """The airport, planes, the move in progress and each seat, as text; with a
    ``viewer`` seat, the other hands are shown as their sizes only."""
    s, p, a = state.data, game.params, game.airport
    phase = int(s[st.PHASE])
    seat = int(s[st.CURRENT])
    if phase == st.PH_OVER:
        status = "game over"
    else:
        status = f"player_{seat} ({COLOR_NAMES[seat]}) to decide: {st.PHASE_NAMES[phase]}"
    name = a.name + (" (reconstructed layout)" if a.reconstructed else "")
    lines = [f"Planes at {name}, turn {int(s[st.TURNS]) + 1}: {status}",
             f"boarding track {int(s[st.TRACK])}/{int(p[st.P_END_AT])}"
             + (" (game ends after this round)" if s[st.END_TRIGGERED] else "")]
    prev = a.prev()
    for sp in range(a.num_spaces):
        cubes = state["cubes"][sp * NUM_COLORS:(sp + 1) * NUM_COLORS]
        start = [f"P{i + 1}" for i in range(4) if a.start[i] == sp]
        gates = [a.gate_ids[g] for g in range(a.num_gates) if a.gate_access[g] == sp]
        arrows = ",".join(a.space_ids[j] for j in a.next[sp])
        cone = " CONE" if k.blocked(s, p, sp) else ""
        extra = " ".join(start + [f"gate {g}" for g in gates])
        lines.append(f"  {a.space_ids[sp]:>4} {POI_NAMES[game.poi[sp]]:<11} -> {arrows:<7} "
                     f"{_cubes_text(cubes)}{cone}" + (f"  [{extra}]" if extra else "")
                     + (f"  (from {','.join(a.space_ids[j] for j in prev[sp])})"
                        if len(prev[sp]) > 1 else ""))
    for g in range(a.num_gates):
        color = int(s[st.GATE_COLOR + g])
        lines.append(f"  gate {a.gate_ids[g]} at {a.space_ids[a.gate_access[g]]}: "
                     f"{COLOR_NAMES[color]} plane {int(s[st.BOARDED + g])}/"
                     f"{int(p[st.P_PLANE_SLOTS])}")
    if phase in (st.PH_STEP, st.PH_BRANCH):
        lines.append(f"move: active {_cubes_text(state['active'])} at "
                     f"{a.space_ids[s[st.POS]]} (from {a.space_ids[s[st.START]]}, "
                     f"{int(s[st.STEPS])} spaces)")
    effects = [name for name, field in (("skip owed", st.SKIP_OWED),
                                        ("ignoring blockages", st.IGNORE_BLOCKAGES),
                                        ("ignoring neutrals", st.IGNORE_NEUTRALS),
                                        ("own party only", st.OWN_ONLY),
                                        ("backwards", st.BACKWARDS)) if s[field]]
    if s[st.IN_PLAY] >= 0:
        effects.insert(0, f"action {game.cards.names[s[st.IN_PLAY]]!r}")
    if effects:
        lines.append("this turn: " + ", ".join(effects))
    scores = game.scores(state)
    for i in range(game.num_players):
        hand = state["hand"][i * MAX_TYPES:(i + 1) * MAX_TYPES]
        goals = state["goals"][i * MAX_TYPES:(i + 1) * MAX_TYPES]
        shown = (_cards_text(game, hand) if viewer is None or viewer == i
                 else f"{int(hand.sum())} cards")
        lines.append(f"player_{i} ({COLOR_NAMES[i]}): {scores[i]} VP, "
                     f"{int(k.own_boarded(s, p, i))} boarded | hand: {shown}"
                     f" | goals: {_cards_text(game, goals)}")
    decks = state["deck"].reshape(st.MAX_PLAYERS, MAX_TYPES).sum(axis=1)
    discards = state["discard"].reshape(st.MAX_PLAYERS, MAX_TYPES).sum(axis=1)
    rows = game.num_players if p[st.P_PLAYER_DECKS] else 1
    lines.append("deck " + "/".join(str(int(decks[r])) for r in range(rows)) + ", discard "
                 + "/".join(str(int(discards[r])) for r in range(rows)))
    return fold(lines)


#: what each action kind does, in our own words ({n}: the count, {poi}: the place)
ACTION_HELP = {
    "draw": "draw {n} card(s) into your hand",
    "gather": "gather all your party cubes together at a {poi} of your choice",
    "choose_one": "either ignore every blockage during your move, or score one more goal "
                  "card from your hand right away",
    "skip": "during your move, leave out one space of your choice (not one with a cone)",
    "draw_discard": "draw {n} cards, then discard one card from your hand",
    "regroup": "pick a space holding one of your cubes and bring all your other cubes there",
    "send": "put {n} of your party cubes on a {poi} of your choice",
    "ignore_neutrals": "during your move, leave every neutral cube where it is",
    "backwards": "during your move, travel against the arrows",
    "own_only": "during your move, only your own party cubes move",
    "move_twice": "make two moves this turn",
}


def _place(poi: int) -> str:
    return POI_NAMES[poi].replace("_", " ") if poi >= 0 else "space"


def _range_text(low: int, high: int, what: str) -> str:
    if high >= NO_LIMIT:
        return f"at least {low} {what}"
    return f"exactly {low} {what}" if low == high else f"{low} to {high} {what}"


def goal_text(cards: Cards, t: int) -> str:
    """The goal pattern of card type ``t`` in words."""
    parts = []
    if cards.goal_cubes[t] >= 0:
        parts.append(f"exactly {int(cards.goal_cubes[t])} cubes")
    if cards.goal_colors[t] >= 0:
        parts.append(f"exactly {int(cards.goal_colors[t])} different colours")
    low, high = (int(v) for v in cards.goal_mine[t])
    if (low, high) != (0, NO_LIMIT):
        parts.append(_range_text(low, high, "cube(s) of your colour"))
    low, high = (int(v) for v in cards.goal_neutral[t])
    if (low, high) != (0, NO_LIMIT):
        parts.append(_range_text(low, high, "neutral cube(s)"))
    if cards.goal_sole[t]:
        parts.append("and no other cubes" if cards.goal_sole[t] == SOLE_MINE
                     else "and only neutral cubes")
    where = "any space" if cards.goal_poi[t] < 0 else f"a {_place(int(cards.goal_poi[t]))} space"
    return f"{where} with " + ", ".join(parts) if parts else where


def card_help(game: Game) -> dict[str, str]:
    """What each card does, by name: its action, and its goal with the points it scores
    (built from the card data, so a custom ``card_data`` file is described too)."""
    cards = game.cards
    out = {}
    for t, name in enumerate(cards.names):
        kind = ACTION_KINDS[int(cards.action[t])]
        action = ACTION_HELP[kind].format(n=int(cards.action_n[t]),
                                          poi=_place(int(cards.action_poi[t])))
        out[name] = (f"As an action: {action}. As a goal ({int(cards.vp[t])} VP): "
                     f"{goal_text(cards, t)} on the board.")
    return out


def _line(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, color) -> None:
    steps = int(max(abs(x1 - x0), abs(y1 - y0)) // 2) + 1
    for i in range(steps + 1):
        f = i / steps
        canvas.rect(int(x0 + (x1 - x0) * f) - 1, int(y0 + (y1 - y0) * f) - 1, 3, 3, color)


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The airport: spaces with cubes, cones and arrows, gates with their planes, and a
    status line per seat."""
    s, p, a = state.data, game.params, game.airport
    at = a.at - a.at.min(axis=0)
    cols, rows = at.max(axis=0) + 1
    width = int(cols * (TILE_W + GAP) + 2 * GAP)
    height = int(rows * (TILE_H + GAP) + 2 * GAP + 24 * (game.num_players + 1))
    canvas = Canvas(height, width)
    centres = [(GAP + x * (TILE_W + GAP) + TILE_W / 2, GAP + y * (TILE_H + GAP) + TILE_H / 2)
               for x, y in at]
    mid_x = sum(c[0] for c in centres) / len(centres)
    mid_y = sum(c[1] for c in centres) / len(centres)
    for sp, row in enumerate(a.next):
        for j in row:
            (x0, y0), (x1, y1) = centres[sp], centres[j]
            _line(canvas, x0, y0, x1, y1, WHITE)
            canvas.disc(int(x0 + (x1 - x0) * 0.7), int(y0 + (y1 - y0) * 0.7), 5, WHITE)
    for sp in range(a.num_spaces):
        cx, cy = centres[sp]
        x, y = int(cx - TILE_W / 2), int(cy - TILE_H / 2)
        canvas.rect(x, y, TILE_W, TILE_H, (235, 235, 225))
        canvas.rect(x, y, TILE_W, 16, POI_RGB[game.poi[sp]])
        label = a.space_ids[sp] + " " + POI_SHORT[game.poi[sp]]
        canvas.text(x + 3, y + 3, label, WHITE)
        if int(s[st.POS]) == sp and state["active"].sum():
            canvas.frame(x, y, TILE_W, TILE_H, BLACK, thickness=3)
        for c in range(NUM_COLORS):
            count = int(s[st.CUBES + sp * NUM_COLORS + c])
            if count:
                bx = x + 4 + c * 23
                canvas.rect(bx, y + 24, 19, 19, CUBE_RGB[c])
                canvas.text(bx + 2, y + 28, str(count), BLACK if c in (3, 4) else WHITE)
        if k.blocked(s, p, sp):
            canvas.rect(x + TILE_W - 20, y + TILE_H - 22, 16, 18, CONE_RGB)
        starts = [f"P{i + 1}" for i in range(4) if a.start[i] == sp]
        if starts:
            canvas.text(x + 4, y + TILE_H - 16, starts[0], BLACK)
    for g in range(a.num_gates):
        sp = int(a.gate_access[g])
        cx, cy = centres[sp]
        dx, dy = cx - mid_x, cy - mid_y
        norm = max(abs(dx), abs(dy), 1.0)
        slot = sum(1 for h in range(g) if a.gate_access[h] == sp)
        gx = int(cx + dx / norm * (TILE_W / 2 + 14) - 18 + slot * 38 * (dy / norm))
        gy = int(cy + dy / norm * (TILE_H / 2 + 14) - 10 - slot * 24 * (dx / norm))
        color = CUBE_RGB[int(s[st.GATE_COLOR + g])]
        canvas.rect(gx, gy, 36, 20, color)
        canvas.frame(gx, gy, 36, 20, BLACK)
        canvas.text(gx + 3, gy + 5, f"{int(s[st.BOARDED + g])}/{int(p[st.P_PLANE_SLOTS])}",
                    BLACK)
    top = int(rows * (TILE_H + GAP) + GAP + 10)
    decks = state["deck"].reshape(st.MAX_PLAYERS, MAX_TYPES).sum(axis=1)
    discards = state["discard"].reshape(st.MAX_PLAYERS, MAX_TYPES).sum(axis=1)
    rows_of_cards = game.num_players if p[st.P_PLAYER_DECKS] else 1
    canvas.text(GAP, top, fit(
        f"BOARDING TRACK {int(s[st.TRACK])}/{int(p[st.P_END_AT])}  DECK "
        + "/".join(str(int(decks[r])) for r in range(rows_of_cards)) + "  DISCARD "
        + "/".join(str(int(discards[r])) for r in range(rows_of_cards)), width - 2 * GAP),
        WHITE)
    for i, points in enumerate(game.scores(state)):
        y = top + 24 * (i + 1)
        current = i == s[st.CURRENT] and s[st.PHASE] != st.PH_OVER
        goals = int(state["goals"][i * MAX_TYPES:(i + 1) * MAX_TYPES].sum())
        canvas.rect(GAP, y, 14, 14, CUBE_RGB[i])
        canvas.text(GAP + 20, y, fit(
            f"{'>' if current else ' '}P{i} {COLOR_NAMES[i]}  VP {points}  HAND "
            f"{int(k.hand_size(s, i))}  BOARDED {int(k.own_boarded(s, p, i))}  GOALS {goals}",
            width - 2 * GAP - 20), WHITE if current else (200, 200, 200))
    return canvas.image()
