"""The choices block of the tuned Automobiles vector (layout 2, Broken
Down): the gear Car Chief upgrades and Suspension moves on, the cubes Pit Team removes
besides wear, and Diesel Engine's dark gray gate. The rule-based values keep the
rule-based play (also stepped in ``test_tuned_agent``); other values change the decisions
they name, layout-1 files load with the rule-based choices, and the optimiser searches
the choices of the market's cards and can start from another vector.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.registry import make_agent
from transit_gym.agents.tuned import TunedAgent
from transit_gym.agents.tuned import vector as tv
from transit_gym.envs.automobiles.data import BLACK, DARK, LIGHT, WEAR, WHITE
from transit_gym.envs.automobiles.encode import O_PLAYERS, PB_DISCARD
from transit_gym.envs.automobiles.kernels import A_ACTIVE, A_DISCARD, A_STOP
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.automobiles.state import (
    PH_ACTION,
    PH_CAR_CHIEF,
    PH_PIT_TEAM,
    PH_SUSPENSION,
    PHASE,
)
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training import tune

#: Broken Down's market colour of Diesel Engine (yellow, purple, red, green, blue)
BLUE = 9


def _vector(**choices: float) -> np.ndarray:
    v = tv.rule_based_vector()
    for name, value in choices.items():
        v[tv.CHOICE_BASE + tv.C[name.replace("__", ".")]] = value
    return v


def _seat0_decisions(vector: np.ndarray, phases: set[int], n_games: int = 12):
    """(phase, observation, mask, action) of seat 0 (tuned) in the given phases, stepped
    Broken Down games against the rule-based agent."""
    game = AutomobilesGame(num_players=2, card_set="Broken Down")
    tuned = TunedAgent(game, "tuned", seed=0, vector=vector)
    rule = make_agent("rule_based", game, seed=1)
    out = []
    for g in range(n_games):
        state = game.new_state(900 + g)
        while (seat := game.current_player(state)) >= 0:
            obs = game.observe(state, seat)
            mask = game.legal_mask(state)
            action = (tuned if seat == 0 else rule).act(obs, mask)
            phase = int(state.data[PHASE])
            if seat == 0 and phase in phases:
                out.append((phase, np.asarray(obs), np.asarray(mask).copy(), int(action)))
            game.apply(state, action)
    return out


def test_rule_based_choices_upgrade_the_highest_gear_and_scores_change_it():
    """Car Chief (Racing Season card list: remove a discard gear, gain the next one up):
    the rule-based choice upgrades the highest gear below black; scores putting white
    first upgrade a white whenever one is legal."""
    rule = _seat0_decisions(tv.rule_based_vector(), {PH_CAR_CHIEF})
    assert rule
    for _, _, mask, action in rule:
        legal = [g for g in (DARK, LIGHT, WHITE) if mask[A_DISCARD + g]]
        if legal:
            assert action == A_DISCARD + legal[0]
    whites = _seat0_decisions(_vector(**{"car_chief_pick__white": 3.0,
                                         "car_chief_pick__dark_gray": 1.0}), {PH_CAR_CHIEF})
    chose_white = 0
    for _, _, mask, action in whites:
        if mask[A_DISCARD + WHITE]:
            assert action == A_DISCARD + WHITE
            chose_white += 1
    assert chose_white > 5


def test_suspension_scores_pick_the_gear_it_moves_on():
    """Suspension (+1 wear, move 1 space of a discard gear's colour): the rule-based
    choice is the highest legal gear; white scored first picks white when legal."""
    rule = _seat0_decisions(tv.rule_based_vector(), {PH_SUSPENSION})
    assert rule
    for _, _, mask, action in rule:
        legal = [g for g in (BLACK, DARK, LIGHT, WHITE) if mask[A_DISCARD + g]]
        assert action == A_DISCARD + legal[0]
    low = _seat0_decisions(_vector(**{"suspension_pick__white": 9.0}), {PH_SUSPENSION})
    picked = [a for _, _, mask, a in low if mask[A_DISCARD + WHITE]]
    assert picked and all(a == A_DISCARD + WHITE for a in picked)


def _with_pit_team(v: np.ndarray) -> np.ndarray:
    """``v`` buying Pit Team first and activating it first, gate off."""
    card = tv.card_of_name("Pit Team")
    v[tv.card_param(card, tv.K_BUY)] = 50.0
    v[tv.card_param(card, tv.K_WANT)] = 4.0
    v[tv.card_param(card, tv.K_ORDER)] = 1.0
    v[tv.card_param(card, tv.K_GATE)] = 0.0
    return v


def test_pit_team_removes_cheap_cubes_past_the_bound_only():
    """Pit Team (remove up to 3 discard cubes, buy one with their cost): the rule-based
    choice removes wear, then stops as soon as it may; a removal bound of 1.5 also removes
    whites (keep 1) but never a cube worth more."""
    keep = tv.rule_based_vector()[[tv.card_param(c, tv.K_KEEP) for c in range(4)]]
    assert keep[WHITE] <= 1.5 < keep[LIGHT]
    rule = _seat0_decisions(_with_pit_team(tv.rule_based_vector()), {PH_PIT_TEAM})
    stops = [a for _, _, mask, a in rule if mask[A_STOP] and not mask[A_DISCARD + WEAR]]
    assert stops and all(a == A_STOP for a in stops)
    bound = _seat0_decisions(_with_pit_team(_vector(pit_team_remove_keep=1.5)), {PH_PIT_TEAM})
    whites = 0
    for _, _, mask, action in bound:
        if mask[A_DISCARD + WEAR]:
            assert action == A_DISCARD + WEAR
        elif mask[A_DISCARD + WHITE]:
            assert action == A_DISCARD + WHITE
            whites += 1
        elif mask[A_STOP]:
            assert action == A_STOP
    assert whites > 0


def test_diesel_waits_for_dark_gray_cubes_in_the_discard():
    """Diesel Engine (+2 wear, move up to one dark gray space per dark gray discard cube):
    with the gate on and ``diesel_min_dark`` 3, it is activated only with at least 3 dark
    gray cubes in the discard; at the rule-based 0 it is also used with fewer."""
    card = tv.card_of_name("Diesel Engine")

    def buying_diesel(v):
        v[tv.card_param(card, tv.K_BUY)] = 50.0
        v[tv.card_param(card, tv.K_WANT)] = 5.0
        return v

    def darks_when_used(v):
        return [obs[O_PLAYERS + PB_DISCARD + DARK]
                for _, obs, _, a in _seat0_decisions(v, {PH_ACTION}) if a == A_ACTIVE + BLUE]

    free = darks_when_used(buying_diesel(tv.rule_based_vector()))
    assert free and min(free) < 3
    gated = darks_when_used(buying_diesel(_vector(diesel_min_dark=3.0)))
    assert gated and min(gated) >= 3


def test_layout_1_files_load_with_rule_based_choices(tmp_path):
    """A file written before the choices block (layout 1: no choice entries) loads, its
    choices at the rule-based values, everything else as saved; a layout-2 file missing a
    choice is refused."""
    v = tv.rule_based_vector() + np.linspace(0, 1, tv.VECTOR_SIZE)
    path = tv.TunedVector(v).save(tmp_path / "v.json")
    data = json.loads(path.read_text())
    for name in (*tv.CHOICES, *tv.SPONSOR_PARAMS):   # layout 1 had neither block
        del data["params"][name]
    data["layout_version"] = 1
    path.write_text(json.dumps(data))
    back = tv.load(path).values
    rb = tv.rule_based_vector()
    np.testing.assert_array_equal(back[:tv.CHOICE_BASE], v[:tv.CHOICE_BASE])
    np.testing.assert_array_equal(back[tv.CHOICE_BASE:], rb[tv.CHOICE_BASE:])
    data["layout_version"] = 2
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="missing"):
        tv.load(path)


def test_optimiser_searches_the_choices_of_the_market_cards_only():
    markets = [tune.market_options("Broken Down", None, "daytona", "off", None)]
    entries = set(tune.searched_entries(markets, 2).tolist())
    assert {tv.CHOICE_BASE + i for i in range(len(tv.CHOICES))} <= entries
    first = [tune.market_options("First Game", None, "daytona", "off", None)]   # Suspension
    chosen = {tv.CHOICES[i - tv.CHOICE_BASE] for i in tune.searched_entries(first, 2)
              if i >= tv.CHOICE_BASE}
    assert chosen == {f"suspension_pick.{g}" for g in tv.GEAR_NAMES}


def test_search_points_map_to_vectors_and_back():
    """``to_point`` inverts ``to_vector`` on the searched entries (want caps and Pit Team's
    bound included), so a search can start from any saved vector."""
    markets = [tune.market_options("Broken Down", None, "daytona", "off", None)]
    entries = tune.searched_entries(markets, 2)
    scale = tune.scales(entries)
    rng = np.random.default_rng(0)
    x = rng.normal(0, 1, entries.size)
    for j, i in enumerate(entries):   # the flat parts of the two nonlinear maps
        if tune._is_want(int(i)) or i == tune.PIT_TEAM_KEEP:
            x[j] = 0.0 if x[j] < 0.5 else min(x[j], 2.25)
    v = tune.to_vector(x, entries, scale)
    np.testing.assert_allclose(tune.to_point(v, entries, scale), x, atol=1e-12)
    np.testing.assert_array_equal(tune.to_point(tv.rule_based_vector(), entries, scale),
                                  np.zeros(entries.size))


def test_tune_starts_from_a_given_vector_file(tmp_path):
    """``--start FILE``: with a tiny step the search stays at the file's vector on the
    searched entries; the start is a setting of the cached folder."""
    markets = [tune.market_options("Broken Down", None, "daytona", "off", None)]
    entries = tune.searched_entries(markets, 2)
    start = _vector(**{"car_chief_pick__white": 3.0, "car_chief_pick__dark_gray": 1.0})
    start[tv.SCALAR_BASE + tv.S["pit_stop_wear"]] = 5.0
    path = tv.TunedVector(start).save(tmp_path / "start.json")
    out = tmp_path / "t"
    assert tune.main(["--card-set", "Broken Down", "--laps", "1", "--generations", "1",
                      "--games", "4", "--popsize", "4", "--eval-games", "4", "--workers", "1",
                      "--quiet", "--sigma", "1e-9", "--start", str(path),
                      "--out", str(out)]) == 0
    (saved,) = [p for p in out.glob("broken-down*.json") if not p.name.endswith(".log.json")]
    got = tv.load(saved)
    np.testing.assert_allclose(got.values[entries], start[entries], atol=1e-6)
    assert got.meta["settings"]["start"] == str(path)
    with pytest.raises(SystemExit):
        tune.main(["--card-set", "Broken Down", "--start", str(tmp_path / "none.json"),
                   "--out", str(tmp_path / "u")])


@pytest.mark.parametrize("stem", ["first-game", "money-money-money"])
def test_shipped_layout_1_vectors_replay_their_saved_evaluation(stem):
    """Vectors saved before the choices block, in markets with its cards (First Game:
    Suspension; Money, Money, Money: Car Chief and Pit Team), still play the same games:
    their 200-game evaluation against the rule-based agent, replayed chunk by chunk as the
    optimiser played it, gives exactly the saved score."""
    from pathlib import Path

    from transit_gym.agents import tuned

    path = Path(tuned.__file__).parent / "markets" / f"{stem}-daytona-2p-drivers-off.json"
    assert json.loads(path.read_text())["layout_version"] == 1
    v = tv.load(path)
    saved = v.meta["eval_vs_rule_based"]
    games, seed, workers = saved["games"], v.meta["settings"]["seed"], v.meta["workers"]
    chunks = max(1, min(2 * workers, games // 2))
    wins = played = 0.0
    for c in range(chunks):
        _, w, n = tune._evaluate((c, v.values, [None], [v.market["markets"]], 2,
                                  games // chunks, seed, tune.EVAL_FIRST + c * 1_000_000,
                                  tune.GAME))
        wins, played = wins + w, played + n
    assert played == games
    assert round(wins / played, 4) == saved["score"]
