"""The season env's observation, saved states, hidden information and built-in agent
(R-YUC season campaign and sponsors; DESIGN: agents read only obs, mask and params)."""

from __future__ import annotations

import json

import numpy as np

from tests.automobiles_season.helpers import (
    award_state,
    give,
    remove,
    season,
    set_award,
    take,
)
from transit_gym.agents.rule_based.automobiles_season import policy, sponsor_worth
from transit_gym.envs.automobiles_season import kernels as kern
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season_v0 import Game, env
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rng import seeded_words


def test_the_observation_shows_the_sponsor_decision_market_and_points():
    """Sponsors "are revealed ... for all to see"; points are recorded on a public sheet."""
    game = season(3)
    state = award_state(game, 2)
    player = game.current_player(state)
    obs = game.observe(state, player)
    assert obs[kern.SO_DECISION + ss.S_PICK] == 1.0
    other = (player + 1) % 3
    assert game.observe(state, other)[kern.SO_DECISION:kern.SO_DECISION + 9].sum() == 0
    market = [int(v) for v in state.data[ss.MARKET:ss.MARKET + 3] if v >= 0]
    assert sorted(np.flatnonzero(obs[kern.SO_MARKET:kern.SO_MARKET + 18]).tolist()) == \
        sorted(market)
    assert obs[kern.SO_POINTS] == state.data[ss.POINTS + player]
    assert obs[kern.SO_EFFECT] == 1.0, "the first player applies the first-place effect"


def test_the_sponsor_deck_order_is_hidden_and_determinize_resamples_only_it_and_chance():
    """The face-down sponsor deck is the season's only hidden part besides future draws."""
    game = season(3)
    state = award_state(game, 4)
    seat = game.current_player(state)
    top = int(state.data[ss.DECK_TOP])
    a = game.determinize(state, seat, seed=1)
    b = game.determinize(state, seat, seed=2)
    for other in (a, b):
        assert np.array_equal(game.observe(other, seat), game.observe(state, seat))
        assert np.array_equal(other.data[ss.DECK:ss.DECK + top],
                              state.data[ss.DECK:ss.DECK + top])
        assert sorted(other.data[ss.DECK + top:ss.DECK + 18]) == \
            sorted(state.data[ss.DECK + top:ss.DECK + 18])
    assert not np.array_equal(a.data[ss.DECK:ss.DECK + 18], b.data[ss.DECK:ss.DECK + 18])


def test_a_saved_season_with_a_sponsor_file_loads_without_the_file(tmp_path):
    """Saved states carry the user sponsor file (DEVELOPING: data files are embedded)."""
    path = tmp_path / "sponsors.toml"
    path.write_text("[standard_removal]\nfirst = 1\nmiddle = 2\nlast = 3\n"
                    "[[sponsor]]\nname = 'C1'\nwear_remove = [1, 2, 3]\n"
                    "[[sponsor]]\nname = 'C2'\nwear_remove = [2, 3, 4]\n"
                    "[[sponsor]]\nname = 'C3'\nwear_remove = [3, 4, 5]\n")
    game = Game(num_players=2, drivers=False, sponsor_data=str(path))
    state = game.new_state(3)
    payload = json.loads(json.dumps(state.to_dict()))
    path.unlink()
    restored = State.from_dict(payload)
    assert restored == state
    assert restored.game.sponsor_data.names == ("C1", "C2", "C3")


def test_the_rule_based_agent_takes_the_sponsor_worth_most_for_its_place():
    """The agent reads the sponsor table from the parameters: first place with A3 ($5 to
    spend) and B1 (1 extra cube) on offer takes A3."""
    game = season(3)
    state = award_state(game, 0)
    set_award(game, state, 0, ["B1", "A3", "C1"])
    player = game.current_player(state)
    action = policy(1, game.params, game.observe(state, player), game.legal_mask(state),
                    seeded_words(0, 1))
    ids = [game.sponsor_data.names.index(n) for n in ("B1", "A3", "C1")]
    best = max(ids, key=lambda i: sponsor_worth(game.params, i, 0))
    assert action == ss.A_SPONSOR + best == take(game, "A3")


def test_the_rule_based_agent_keeps_a_better_sponsor_and_removes_wear_first():
    """Last place owning A3 ($11) with B1 and C1 on offer keeps A3, removes one of them,
    then its standard removal takes wear cubes first."""
    game = season(3)
    state = award_state(game, 0)
    set_award(game, state, 2, ["B1", "C1"], owned="A3")   # last place, A3 $11 vs B1 4 cubes
    player = game.current_player(state)
    mask = game.legal_mask(state)
    words = seeded_words(0, 1)
    assert policy(1, game.params, game.observe(state, player), mask, words) == ss.A_KEEP
    game.apply(state, ss.A_KEEP)
    game.apply(state, int(policy(1, game.params, game.observe(state, player),
                                 game.legal_mask(state), words)))
    assert int(state.data[ss.SEASON_PHASE]) == ss.S_STANDARD
    give(game, state, player, "wear", 2)
    action = policy(1, game.params, game.observe(state, player), game.legal_mask(state), words)
    assert action == remove("wear")


def test_the_env_reports_each_race_in_the_final_infos():
    """Per-race results (finish order, points, sponsor effects) reach ``infos``."""
    e = env(num_players=2, tracks=["daytona", "monza", "daytona"], drivers=False)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            assert len(info["races"]) == 3
            assert [r["track"] for r in info["races"]] == ["daytona", "monza", "daytona"]
            assert info["points"] == sum(r["points"][int(agent[-1])] for r in info["races"])
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
