"""The tuned season agent's sponsor decisions (sponsor keep-or-swap in the
strategy vector). At the rule-based vector it answers every decision of whole seasons,
races and sponsor awards ("Sponsors" of the Racing Season rulebook: take or keep, remove
an available sponsor, remove and gain cubes), exactly like the rule-based season agent;
the sponsor entries change its sponsor choices; version-1 files still play as before."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.rule_based.automobiles_season import policy as rule_policy
from transit_gym.agents.rule_based.automobiles_season import season_rule_based
from transit_gym.agents.tuned import automobiles_season as ts
from transit_gym.agents.tuned import vector as tv
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season_v0 import Game
from transit_gym.envs.core.rng import seeded_words

#: seasons covering 2-4 players, drivers off / on / all, fixed and random tracks, markets
CONFIGS = [
    dict(num_players=2),
    dict(num_players=3, tracks=["daytona", "monza", "tucson"], laps=1, drivers=False),
    dict(num_players=4, tracks="random", races=4, laps=1, drivers="all"),
    dict(num_players=2, tracks="random_all", races=3, laps=2, card_set="random",
         card_pool="all"),
    dict(num_players=3, laps=1, card_set="Broken Down"),   # the choices block's cards
]


def _row(game, table, state):
    slot = game.variant_slot
    return table[0 if slot < 0 else int(state.data[slot])]


def _step_seasons(game, vector, reference, seasons=3, seed=300):
    """Step seeded seasons; at every decision the tuned kernel with ``vector`` must pick
    ``reference(params, row, obs, mask, words)``. Returns (decisions, sponsor decisions)."""
    table = ts.params_with_vectors(game.param_table, [vector])
    words = seeded_words(1, 0x5EA5)
    decisions = sponsor = 0
    for g in range(seasons):
        state = game.new_state(seed + g)
        while not game.is_over(state):
            player = game.current_player(state)
            obs = np.ascontiguousarray(game.observe(state, player), dtype=np.float32)
            mask = np.ascontiguousarray(game.legal_mask(state), dtype=np.int8)
            row = _row(game, table, state)
            expected = int(reference(game.params_of(state), row, obs, mask, words))
            got = int(ts.policy(ts.TUNED_CODE, row, obs, mask, words))
            assert got == expected, (g, decisions, int(state.data[ss.SEASON_PHASE]))
            sponsor += int(state.data[ss.SEASON_PHASE]) != ss.S_RACE
            game.apply(state, expected)
            decisions += 1
    return decisions, sponsor


@pytest.mark.parametrize("options", CONFIGS)
def test_rule_based_vector_plays_whole_seasons_like_the_rule_based_season_agent(options):
    """Every decision of whole seasons, race and sponsor, is the rule-based one."""
    game = Game(**options)

    def reference(params, row, obs, mask, words):
        return rule_policy(1, params, obs, mask, words)

    decisions, sponsor = _step_seasons(game, tv.rule_based_vector(), reference)
    assert sponsor > 20 and decisions > sponsor


def test_jitted_seasons_at_the_rule_based_vector_match_rule_based_seasons():
    from transit_gym.agents.registry import policy_kernel
    from transit_gym.envs.core.rollout import play_games

    game = Game(num_players=3, laps=1)
    ref = play_games(game, policy_kernel("automobiles_season"), ["rule_based"] * 3, 12, seed=5)
    table = ts.params_with_vectors(game.param_table, [tv.rule_based_vector()])
    out = play_games(game, ts.policy, ["t", "rule_based", "t"], 12, seed=5, params=table,
                     codes={"rule_based": 1, "t": ts.TUNED_CODE})
    np.testing.assert_array_equal(out.decisions, ref.decisions)
    np.testing.assert_array_equal(out.final_states, ref.final_states)


def _old_season_policy(vector):
    """The season seat of layout version 1: races by the vector, sponsors rule-based."""
    from transit_gym.agents.tuned.automobiles import tuned
    from transit_gym.envs.automobiles.encode import OBS_SIZE
    from transit_gym.envs.automobiles.kernels import NUM_ACTIONS

    def reference(params, row, obs, mask, words):
        if any(obs[ts.SO_DECISION + k] > 0.5 for k in range(1, ss.NUM_SEASON_PHASES)):
            return season_rule_based(row, obs, mask)
        return tuned(vector, obs[:OBS_SIZE], mask[:NUM_ACTIONS])

    return reference


@pytest.mark.parametrize("layout", [1, 2])
def test_an_older_layout_vector_plays_seasons_as_it_did_before_the_sponsor_block(tmp_path,
                                                                                  layout):
    """The shipped Broken Down vector's entries (it has choices), written as a layout-1 or
    layout-2 file, are read with rule-based sponsor entries: its races come from its own
    entries and its sponsor answers are the rule-based ones, decision for decision (what
    the season seat of those layouts did)."""
    from pathlib import Path

    from transit_gym.agents import tuned

    source = Path(tuned.__file__).parent / "markets" / "broken-down-daytona-2p-drivers-off.json"
    size = tv.VERSION_SIZES[layout]
    race = tv.load(source).values[:size]
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"game": "automobiles", "layout_version": layout,
                                "params": dict(zip(tv.names()[:size], race.tolist(),
                                                   strict=True))}))
    migrated = tv.load(path).values
    np.testing.assert_array_equal(migrated[:size], race)
    np.testing.assert_array_equal(migrated[tv.SPONSOR_BASE:], tv.rule_based_sponsor_entries())
    game = Game(num_players=2, laps=2, card_set="Broken Down")
    decisions, sponsor = _step_seasons(game, migrated, _old_season_policy(migrated),
                                       seasons=2)
    assert sponsor > 10 and decisions > sponsor


def _sponsor_choices(vector, players=3, seasons=6):
    """Sponsor picks (the action at each ``pick`` decision) of seat 0 playing ``vector``
    against rule-based seats, jitted-equivalent stepping."""
    game = Game(num_players=players, laps=1)
    table = ts.params_with_vectors(game.param_table, [vector])
    words = seeded_words(2, 9)
    picks = []
    for g in range(seasons):
        state = game.new_state(700 + g)
        while not game.is_over(state):
            player = game.current_player(state)
            obs = np.ascontiguousarray(game.observe(state, player), dtype=np.float32)
            mask = np.ascontiguousarray(game.legal_mask(state), dtype=np.int8)
            row = _row(game, table, state)
            if player == 0:
                action = int(ts.policy(ts.TUNED_CODE, row, obs, mask, words))
                if int(state.data[ss.SEASON_PHASE]) == ss.S_PICK:
                    picks.append((bool(mask[ss.A_KEEP]), action))
            else:
                action = int(rule_policy(1, row, obs, mask, words))
            game.apply(state, action)
    return picks


def test_keep_bias_decides_keep_or_swap():
    """A large keep bias keeps the own sponsor whenever keeping is allowed; a very negative
    one always takes an available sponsor instead."""
    keeper = tv.rule_based_vector()
    keeper[tv.sponsor_param(tv.P_KEEP_BIAS)] = 1000.0
    swapper = tv.rule_based_vector()
    swapper[tv.sponsor_param(tv.P_KEEP_BIAS)] = -1000.0
    kept = [a == ss.A_KEEP for can_keep, a in _sponsor_choices(keeper) if can_keep]
    swapped = [a != ss.A_KEEP for can_keep, a in _sponsor_choices(swapper) if can_keep]
    assert kept and all(kept)
    assert swapped and all(swapped)


def test_worth_weights_decide_which_sponsor_is_taken():
    """With only the money weight on, the seat takes the sponsor paying most money for its
    place; with only the gain weight on, the one giving most cubes."""
    from transit_gym.envs.automobiles_season.data import SP_GAIN, SP_MONEY

    game = Game(num_players=3, laps=1)
    params = game.params_of(game.new_state(0))
    for weight, column in ((tv.P_MONEY, SP_MONEY), (tv.P_GAIN, SP_GAIN)):
        v = tv.rule_based_vector()
        v[tv.sponsor_param(0):tv.sponsor_param(tv.P_KEEP_BIAS)] = 0.0
        v[tv.sponsor_param(weight)] = 1.0
        v[tv.sponsor_param(tv.P_KEEP_BIAS)] = -1000.0
        mask = np.zeros(ss.NUM_ACTIONS, dtype=np.int8)
        mask[ss.A_SPONSOR:ss.A_SPONSOR + 18] = 1
        for place in range(3):
            worths = [float(ts.sponsor_value(params, i, place, column)) for i in range(18)]
            best, worth = ts._best_in(v, params, mask, ss.A_SPONSOR, place)
            assert worth == max(worths) and best == int(np.argmax(worths))


def test_drop_place_is_rounded_to_a_place():
    v = tv.rule_based_vector()
    for value, place in ((-3.0, 0), (0.4, 0), (1.2, 1), (1.6, 2), (9.0, 2)):
        v[tv.sponsor_param(tv.P_DROP_PLACE)] = value
        assert ts.drop_place(v) == place
