"""Invariants of an Automobile state (raised as ``AssertionError`` naming what broke).

Money is conserved between the players and the bank, R&D cubes between the players,
the character tiles and the stock, demand tiles between the bag and the table; no
space holds two owners or more than 3 factories + 1 parts factory; piece counts stay
within each player's supply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import NUM_SPACES, PREMIUM

if TYPE_CHECKING:
    from transit_gym.envs.core.game import Game, State


def _check_money_and_cubes(game: Game, state: State) -> None:
    n = game.num_players
    p = game.params
    cash = state["cash"]
    assert int(state["bank"][0]) + int(cash[:n].sum()) == int(p[st.P_BANK_TOTAL]), (
        f"money not conserved: bank {state['bank'][0]} + players {cash[:n].sum()} "
        f"!= {p[st.P_BANK_TOTAL]}"
    )
    rd = state["rd"]
    assert (rd[:n] >= 0).all() and state["rd_stock"][0] >= 0, "negative R&D cubes"
    assert (state["char_rd"] >= 0).all(), "negative R&D cubes on a character"
    total = int(rd[:n].sum()) + int(state["rd_stock"][0]) + int(state["char_rd"].sum())
    assert total == int(p[st.P_RD_CUBES]), (
        f"R&D cubes not conserved: {total} counted, {p[st.P_RD_CUBES]} in the game"
    )
    assert (state["loss"][:n] >= 0).all(), "negative loss cubes"
    loans = state["loans"][:n]
    assert ((loans >= 0) & (loans <= p[st.P_LOANS_MAX])).all(), f"loans out of range: {loans}"
    for name in ("cash", "rd", "loss", "loans", "fac_count", "car_count"):
        assert not state[name][n:].any(), f"{name} set for a seat beyond {n} players"


def _check_spaces(game: Game, state: State) -> None:
    n = game.num_players
    p = game.params
    owner = state["owner"]
    fac = state["factories"]
    parts = state["parts"]
    closed = state["closed"]
    cars = state["cars"]
    seg = p[st.P_SEGMENT:st.P_SEGMENT + NUM_SPACES]
    max_per_space = int(p[st.P_MAX_PER_SPACE])
    for i in range(NUM_SPACES):
        where = f"space {i + 1}"
        assert -1 <= owner[i] < n, f"{where}: owner {owner[i]} out of range"
        assert 0 <= fac[i] <= max_per_space, f"{where}: {fac[i]} factories (max {max_per_space})"
        assert parts[i] in (0, 1), f"{where}: {parts[i]} parts factories (max 1)"
        assert closed[i] in (0, 1), f"{where}: bad closed flag"
        if parts[i]:
            assert fac[i] > 0, f"{where}: a parts factory alone on a space"
        if closed[i]:
            assert fac[i] == 0 and parts[i] == 0, f"{where}: factories on a closed space"
        if fac[i] > 0 or cars[i] > 0:
            assert owner[i] >= 0, f"{where}: factories or cars without an owner"
        assert cars[i] >= 0, f"{where}: negative cars"
        assert state["ad"][i] in (0, 1), f"{where}: more than one advertisement marker"
        assert 0 <= state["disc"][i] <= 2, f"{where}: bad discount markers"
        if seg[i] == PREMIUM:
            assert state["disc"][i] == 0, f"{where}: discount on a premium space"
    built = np.flatnonzero(owner >= 0)
    expected = int(built.max()) if built.size else -1
    assert state["frontier"][0] == expected, (
        f"frontier {state['frontier'][0]} is not the most advanced space built in ({expected})"
    )


def _check_pieces(game: Game, state: State) -> None:
    n = game.num_players
    p = game.params
    owner = state["owner"]
    for seat in range(n):
        mine = owner == seat
        open_mine = mine & (state["closed"] == 0)
        factories = int(state["factories"][open_mine].sum())
        assert state["fac_count"][seat] == factories, f"seat {seat}: factory count mismatch"
        assert factories <= p[st.P_MAX_FACTORIES], f"seat {seat}: {factories} factories"
        parts_spaces = np.flatnonzero(mine & (state["parts"] == 1))
        at = int(state["parts_at"][seat])
        assert parts_spaces.size <= p[st.P_PARTS_FACTORIES], f"seat {seat}: parts factories"
        assert (at == -1 and parts_spaces.size == 0) or (
            parts_spaces.size == 1 and parts_spaces[0] == at
        ), f"seat {seat}: parts factory position mismatch"
        cars = int(state["cars"][mine].sum())
        assert state["car_count"][seat] == cars, f"seat {seat}: car count mismatch"
        assert cars <= p[st.P_MAX_CARS], f"seat {seat}: {cars} cars on the board"
        show = state["show"][seat * 3:seat * 3 + 3]
        used = state["used"][seat * 3:seat * 3 + 3]
        assert (show >= 0).all() and (used >= 0).all(), f"seat {seat}: negative salesmen"
        assert show.sum() + used.sum() <= p[st.P_SALESMEN], f"seat {seat}: too many salesmen"


def _check_tiles_and_markers(game: Game, state: State) -> None:
    n = game.num_players
    p = game.params
    data = game.data
    kinds = len(data.tile_values)
    bag = state["bag"]
    assert (bag >= 0).all() and not bag[kinds:].any(), "bad bag counts"
    out = [int(v) for v in state["tiles"][: 2 * n] if v] + [int(v) for v in state["bag_tiles"] if v]
    assert all(v in data.tile_values for v in out), f"unknown demand tile values {out}"
    for k in range(kinds):
        count = int(bag[k]) + sum(1 for v in out if v == data.tile_values[k])
        assert count == data.tile_counts[k], (
            f"demand tiles of value {data.tile_values[k]}: {count}, expected {data.tile_counts[k]}"
        )
    assert not state["tiles"][2 * n:].any(), "tiles held by a seat beyond the player count"
    if state["phase"][0] != st.PH_OVER:
        assert state["ad"].sum() == state["ads_bought"][0], "ads placed != ads bought"
        stacks = int(p[st.P_STACKS:st.P_STACKS + len(data.discount_stacks)].sum())
        placed = int(state["disc"].sum()) + int(state["disc_avail"].sum())
        assert placed == stacks, f"discount markers: {placed} counted, {stacks} in the game"
    assert 0 <= state["ads_bought"][0] <= len(data.ad_costs), "too many ads bought"
    assert 0 <= state["closures_used"][0] <= p[st.P_CLOSURES], "too many executive closures"


def _check_order(game: Game, state: State) -> None:
    n = game.num_players
    phase = int(state["phase"][0])
    assert 0 <= phase < st.NUM_PHASES, f"bad phase {phase}"
    if phase != st.PH_OVER:
        assert 0 <= state["current"][0] < n, "current seat out of range"
    assert sorted(int(x) for x in state["sel_order"][:n]) == list(range(n)), (
        "selection order is not a permutation of the seats"
    )
    char_of = state["char_of"]
    char_seat = state["char_seat"]
    for c in range(st.NUM_CHARACTERS):
        seat = int(char_seat[c])
        assert seat == -1 or char_of[seat] == c, f"character {c} and seat {seat} disagree"
    for seat in range(n):
        c = int(char_of[seat])
        assert c == -1 or char_seat[c] == seat, f"seat {seat} and character {c} disagree"


def check(game: Game, state: State) -> None:
    """Every invariant of ``state``; raises ``AssertionError`` naming the first broken one."""
    _check_money_and_cubes(game, state)
    _check_spaces(game, state)
    _check_pieces(game, state)
    _check_tiles_and_markers(game, state)
    _check_order(game, state)
