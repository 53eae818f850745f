"""Drivers in the season campaign and per-race results in ``infos``.

R-YUC "In a season campaign": players must use the drivers module; the draft happens once,
before the first race, and each player keeps the driver for the whole season. The issue
asks for each finished race's result in ``infos`` during the season.
"""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.agents.rule_based.automobiles_season import policy
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.kernels import A_DRIVER, A_USE_DRIVER
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season_v0 import Game, env
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.registry import available_games, env_module

TRACKS = ["daytona", "monza", "daytona"]


def _season_log(players: int = 3, seed: int = 0, **options) -> dict:
    """Play a 1-lap season with the rule-based season agent; log, per step: race number,
    race phase, action; per race: each player's driver and the seat order."""
    game = Game(num_players=players, tracks=TRACKS, laps=1, **options)
    state = game.new_state(seed)
    words = seeded_words(seed, 7)
    steps, drivers, orders, masks = [], {}, {}, []
    while not game.is_over(state):
        season_phase = int(state.data[ss.SEASON_PHASE])
        race_phase = int(state.data[st.PHASE])
        player = game.current_player(state)
        mask = game.legal_mask(state)
        if season_phase == ss.S_RACE and race_phase == st.PH_DRIVER_DRAFT:
            masks.append(mask.copy())
        action = int(policy(1, game.params, game.observe(state, player), mask, words))
        steps.append((game.race_no(state), season_phase, race_phase, action))
        game.apply(state, action)
        if int(state.data[ss.SEASON_PHASE]) == ss.S_RACE \
                and int(state.data[st.PHASE]) != st.PH_DRIVER_DRAFT:
            r = game.race_no(state)
            orders[r] = game.player_of(state)
            drivers[r] = {p: int(state.data[st.DRIVER_OF + seat])
                          for seat, p in enumerate(game.player_of(state))}
    return {"game": game, "steps": steps, "drivers": drivers, "orders": orders,
            "draft_masks": masks}


def test_the_draft_happens_once_before_race_1_and_every_player_keeps_the_driver():
    """R-YUC season: drivers are drafted once and kept; races 2 and 3 start with no draft
    and an empty draft pool, each player with the driver drafted in race 1, also when the
    turn order (the seat numbering) changed between races."""
    changed = False
    for seed in range(3):
        log = _season_log(3, seed)
        drafts = [r for r, sp, ph, _ in log["steps"]
                  if sp == ss.S_RACE and ph == st.PH_DRIVER_DRAFT]
        assert drafts == [0, 0, 0], f"one pick per player, race 1 only: {drafts}"
        first = log["drivers"][0]
        assert sorted(first.values()) == sorted(set(first.values()))
        assert all(1 <= d <= NUM_DRIVERS for d in first.values())
        for r in (1, 2):
            assert log["drivers"][r] == first, f"race {r + 1}: drivers changed"
        changed |= any(log["orders"][r] != log["orders"][0] for r in (1, 2))
    assert changed, "some season among the seeds renumbered the seats"


def test_later_races_have_an_empty_draft_pool_and_seats_moved_with_their_players():
    """Setting Up the Next Race: the revealed drivers went back to the box after the
    draft; ``driver_of`` follows ``player_of`` when the finishing order reorders seats."""
    game = Game(num_players=3, tracks=TRACKS, laps=1, sponsors=False)
    for seed in range(8):
        state = game.new_state(seed)
        words = seeded_words(seed, 7)
        while game.race_no(state) == 0:
            player = game.current_player(state)
            if int(state.data[st.PHASE]) != st.PH_DRIVER_DRAFT:
                held = {game.player_of(state)[seat]: int(state.data[st.DRIVER_OF + seat])
                        for seat in range(3)}
            game.apply(state, int(policy(1, game.params, game.observe(state, player),
                                         game.legal_mask(state), words)))
        assert not state.data[st.DRIVER_POOL:st.DRIVER_POOL + NUM_DRIVERS].any()
        assert int(state.data[st.PHASE]) != st.PH_DRIVER_DRAFT
        order = game.player_of(state)
        assert {order[seat]: int(state.data[st.DRIVER_OF + seat]) for seat in range(3)} == held
        if order != sorted(order):
            return
    pytest.fail("no seed reordered the seats for race 2")


def test_the_all_variant_drafts_from_all_ten_drivers_once():
    """The BGA table option (a draft from all ten, in a single race or a season): every
    driver is on offer at the first pick; no draft in later races."""
    log = _season_log(3, 1, drivers="all")
    first = log["draft_masks"][0]
    assert first[A_DRIVER:A_DRIVER + NUM_DRIVERS].sum() == NUM_DRIVERS
    assert len(log["draft_masks"]) == 3
    assert log["drivers"][2] == log["drivers"][0]


def test_the_season_agent_drafts_and_uses_driver_abilities_in_later_races():
    """Drivers keep working after race 1: the rule-based season agent takes a driver at
    each of its draft picks and uses abilities (the use action or an ability's decision)
    in races 2 and 3."""
    log = _season_log(3, 0)
    picks = [a for r, sp, ph, a in log["steps"] if sp == ss.S_RACE and ph == st.PH_DRIVER_DRAFT]
    assert all(A_DRIVER <= a < A_DRIVER + NUM_DRIVERS for a in picks)
    later = [(r, ph, a) for r, sp, ph, a in log["steps"] if sp == ss.S_RACE and r > 0
             and (a == A_USE_DRIVER or st.PH_DRIVER_DRAFT < ph < st.PH_OVER)]
    assert {r for r, _, _ in later} == {1, 2}, "abilities in both later races"


def test_drivers_option_values():
    """drivers: True (the rule, default), "all", False (documented non-rule option);
    anything else names the allowed values."""
    assert Game(num_players=2).drivers is True
    assert Game(num_players=2, drivers="all").drivers == "all"
    off = Game(num_players=2, drivers=False)
    state = off.new_state(0)
    assert int(state.data[st.PHASE]) != st.PH_DRIVER_DRAFT
    for bad in ("some", 1, None):
        with pytest.raises(ConfigError, match="drivers must be True"):
            Game(num_players=2, drivers=bad)


# ----- per-race results in infos ------------------------------------------------------------------
def _play_env(seed: int, **options):
    """Random legal play; yields (race_no before, phase before, infos after) per step."""
    e = env(num_players=2, tracks=TRACKS, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = e.unwrapped
    log = []
    while raw.agents:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        before = (raw.game.race_no(raw.game_state), int(raw.game_state.data[ss.SEASON_PHASE]))
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        after = (raw.game.race_no(raw.game_state), int(raw.game_state.data[ss.SEASON_PHASE]))
        log.append((before, after, {a: dict(raw.infos[a]) for a in raw.possible_agents}))
    return log


def test_each_finished_race_is_in_every_agents_info_from_the_step_that_ends_it():
    """Issue "per-race results in infos": the step that ends race k puts race k's result
    (race number, track, finishing order, points) in every agent's info; the step that
    ends the sponsor awards after it adds the sponsor choices; earlier steps have none."""
    log = _play_env(3)
    ended = [i for i, (b, a, _) in enumerate(log)
             if b[1] == ss.S_RACE and (a[1] != ss.S_RACE or a[0] != b[0])]
    assert len(ended) == 3
    assert all(not info for _, _, infos in log[:ended[0]] for info in infos.values())
    for k, i in enumerate(ended):
        infos = log[i][2]
        results = [infos[a]["race_result"] for a in infos]
        assert all(r == results[0] for r in results), "the same result for every agent"
        result = results[0]
        assert result["race"] == k + 1 and result["track"] == TRACKS[k]
        assert sorted(result["finish"]) == [0, 1]
        assert [result["places"][p] for p in result["finish"]] == [1, 2]
        first, middle, _ = Game(num_players=2).points.row(k)
        assert result["points"][result["finish"][0]] == first
        assert result["points"][result["finish"][1]] == middle
    awards = [i for i, (b, a, infos) in enumerate(log)
              if b[1] != ss.S_RACE and a[1] == ss.S_RACE]
    assert len(awards) == 2, "sponsor awards after races 1 and 2, not after the last"
    for k, i in enumerate(awards):
        result = log[i][2]["player_0"]["race_result"]
        assert result["race"] == k + 1 and result["awards_done"]
        assert all(e["sponsor"] is not None for e in result["sponsor_effects"])
    final = log[-1][2]["player_0"]
    assert len(final["races"]) == 3 and final["race_result"]["race"] == 3


def test_a_pickled_env_publishes_the_same_race_results():
    """The news bit that triggers the info lives in the state: an env pickled in race 1
    and the original, given the same actions, report the same results at the same steps
    (same seed, same result)."""
    import pickle

    e = env(num_players=2, tracks=TRACKS, sponsors=False)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(20):
        obs = e.last()[0]
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clone = pickle.loads(pickle.dumps(e))
    published = 0
    while e.unwrapped.agents and not any(e.unwrapped.terminations.values()):
        obs = e.last()[0]
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        clone.step(action)
        assert clone.unwrapped.infos == e.unwrapped.infos
        published += "race_result" in e.unwrapped.infos["player_0"]
    assert published > 0


def test_other_games_publish_no_infos_during_the_game():
    """The hook is opt-in: only the season overrides ``Game.step_info``; the race game's
    infos stay empty until the end."""
    users = [g for g in available_games() if env_module(g).Game(num_players=env_module(g)
                                                                .Game.min_players).has_step_info]
    assert users == ["automobiles_season"]
    e = env_module("automobiles").env(num_players=2)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(50):
        obs, _, term, trunc, info = e.last()
        assert info == {}
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("news", [-1, 4, 99])
def test_a_saved_state_with_bad_news_bits_is_refused(news):
    """The ``news`` field holds only the
    two bits; anything else is a ``StateDictError`` naming the field's range."""
    from transit_gym.envs.core.errors import StateDictError

    game = Game(num_players=2, tracks=TRACKS, drivers=False)
    state = game.new_state(0)
    game.validate(state)
    state.data[ss.NEWS] = news
    with pytest.raises(StateDictError, match="news"):
        game.validate(state)


def test_a_later_race_with_a_seat_missing_its_driver_is_refused():
    """Drivers are kept all season: a saved race-2 state whose seat lost its driver (while
    the drivers module is on) is refused rather than played on."""
    from transit_gym.envs.core.errors import StateDictError

    game = Game(num_players=2, tracks=TRACKS, laps=1, sponsors=False)
    state = game.new_state(2)
    words = seeded_words(2, 7)
    while game.race_no(state) == 0:
        player = game.current_player(state)
        game.apply(state, int(policy(1, game.params, game.observe(state, player),
                                     game.legal_mask(state), words)))
    game.validate(state)
    state.data[st.DRIVER_OF + 1] = 0
    with pytest.raises(StateDictError, match="kept all season"):
        game.validate(state)
