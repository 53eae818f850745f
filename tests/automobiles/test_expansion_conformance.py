"""Racing Season conformance: the cross-game checks of
``tests/core/test_every_game.py`` (shared in ``tests/core/conformance.py``) on race
configurations covering every new option value, and a bad-value test per new option.

Covering design (each value at least once, some pairs; not the full product). All races
are ``laps=1`` (the checks need a short full game, not a long one) except ``C4`` with
``laps=2``, so that one configuration also crosses the line mid-race (R-BASE Car Phase).

| id | players | track | card_set | drivers | weaving | other |
| --- | --- | --- | --- | --- | --- | --- |
| C1 | 2 | talladega | Rinse & Repeat | True | True | |
| C2 | 3 | monte_carlo | Squeaky Clean (Crate Motor) | "all" | False | accelerated_play |
| C3 | 4 | tucson | Shake & Bake | False | True | |
| C4 | 5 | talladega | Well Oiled Machine (Crate Motor) | "all" | False | laps=2 |
| C5 | 2 | tucson | This or That | False | False | |
| C6 | 3 | random_expansion, track_seed=5 | Rubbin' is Racin' | True | True | |
| C7 | 4 | monte_carlo | random, card_pool="expansion" | True | True | |
| C8 | 5 | tucson | random, card_pool="all" | False | True | |

Covered: the three new tracks and a random expansion pool; the six expansion sets (R-YUC
"Suggested Card Sets") and both new random pools; drivers off/True (R-YUC
"Drivers")/"all" (the BGA table option); weaving on/off (R-YUC "Variant Weaving");
accelerated_play with Crate Motor (R-YUC online variant, the delayed card); 2, 3, 4 and 5
players. The season env (``automobiles_season``) is a registered game, so
``test_every_game.py`` already runs every check on it for 2-5 players.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.automobiles import rs_doc_tables as tables
from tests.core.conformance import (
    check_api_and_seed,
    check_batch_api,
    check_copy_and_pickle_mid_game,
    check_illegal_actions,
    check_jitted_rollouts,
    check_random_game_keeps_invariants,
    check_state_dict_json_round_trip,
)
from transit_gym.envs import automobiles_v0
from transit_gym.envs.automobiles import kernels as K
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import EXPANSION_TRACKS
from transit_gym.envs.automobiles.encode import OBS
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError

CONFIGS: dict[str, dict[str, Any]] = {
    "C1": dict(num_players=2, track="talladega", card_set="Rinse & Repeat", drivers=True,
               weaving=True),
    "C2": dict(num_players=3, track="monte_carlo", card_set="Squeaky Clean", drivers="all",
               accelerated_play=True),
    "C3": dict(num_players=4, track="tucson", card_set="Shake & Bake", weaving=True),
    "C4": dict(num_players=5, track="talladega", card_set="Well Oiled Machine", drivers="all",
               laps=2),
    "C5": dict(num_players=2, track="tucson", card_set="This or That"),
    "C6": dict(num_players=3, track="random_expansion", track_seed=5,
               card_set="Rubbin' is Racin'", drivers=True, weaving=True),
    "C7": dict(num_players=4, track="monte_carlo", card_set="random", card_pool="expansion",
               drivers=True, weaving=True),
    "C8": dict(num_players=5, track="tucson", card_set="random", card_pool="all",
               weaving=True),
}
IDS = list(CONFIGS)


def _options(cid: str) -> dict[str, Any]:
    return {"laps": 1, **CONFIGS[cid]}


def _game(cid: str) -> AutomobilesGame:
    return AutomobilesGame(**_options(cid))


def test_the_design_covers_every_new_option_value():
    """Each new track, each expansion set, drivers off/True/"all",
    weaving on/off, accelerated play with Crate Motor, and 2-5 players appear."""
    games = {cid: _game(cid) for cid in IDS}
    tracks = {g.track.name.lower().replace(" ", "_") for g in games.values()}
    assert set(EXPANSION_TRACKS) <= tracks, (EXPANSION_TRACKS, tracks)
    sets = {c["card_set"] for c in CONFIGS.values()}
    expansion_sets = {name for name, cards in games["C1"].cards.sets.items()
                      if any(games["C1"].cards.expansion[games["C1"].cards.card_id(n)]
                             for n in cards)}
    assert len(expansion_sets) == 6 and expansion_sets <= sets
    assert {c.get("drivers", False) for c in CONFIGS.values()} == {False, True, "all"}
    assert {c.get("weaving", False) for c in CONFIGS.values()} == {False, True}
    assert {c["num_players"] for c in CONFIGS.values()} == {2, 3, 4, 5}
    assert {c.get("card_pool") for c in CONFIGS.values()} >= {"expansion", "all"}
    accelerated = [cid for cid, c in CONFIGS.items() if c.get("accelerated_play")]
    assert any("Crate Motor" in games[cid].card_set for cid in accelerated)


def _env(cid: str):
    return automobiles_v0.env(**_options(cid))


def _random_games_keep_invariants(cid: str) -> None:
    game = _game(cid)
    for seed in range(10):
        check_random_game_keeps_invariants(game, seed)


#: the checks of ``tests/core/test_every_game.py``, each on a configuration's env or game
CHECKS = {
    "pettingzoo_api_and_seed": lambda cid: check_api_and_seed(
        lambda **kw: automobiles_v0.env(**_options(cid), **kw)),
    "deepcopy_and_pickle_mid_game_keep_the_game":
        lambda cid: check_copy_and_pickle_mid_game(_env(cid)),
    "state_dict_round_trips_through_json_mid_game":
        lambda cid: check_state_dict_json_round_trip(_game(cid)),
    "illegal_actions_raise_value_error_naming_the_legal_ones":
        lambda cid: check_illegal_actions(_env(cid)),
    "batch_api_matches_single_games_and_auto_resets": lambda cid: check_batch_api(_game(cid)),
    "jitted_rollouts_are_reproducible": lambda cid: check_jitted_rollouts(_game(cid)),
    "random_games_keep_invariants_after_every_step": _random_games_keep_invariants,
}


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("cid", IDS)
def test_cross_game_check_on_the_configuration(cid, check):
    """Each cross-game check (PettingZoo API and seeding, copies, JSON round trips,
    illegal actions, the batch API, jitted rollouts, invariants) on each configuration."""
    CHECKS[check](cid)


# ----- bad values of every new option name the option ---------------------
BAD_VALUES = [
    ("card_pool", dict(card_pool="expansions"), None),
    ("card_pool", dict(card_pool=1), None),
    ("card_pool", dict(card_pool=None), None),
    ("track", dict(track="le_mans"), None),
    ("track", dict(track="random_expansions"), None),
    ("track", dict(track=3), None),
    ("track_seed", dict(track="random_all", track_seed=-1), None),
    ("track_seed", dict(track="random", track_seed="seven"), None),
    ("track_seed", dict(track="random_expansion", track_seed=1.5), None),
    ("track_seed", dict(track="tucson", track_seed=4), "'tucson'"),  # seed without a draw
    ("weaving", dict(weaving="on"), None),
    ("weaving", dict(weaving=1), None),
    ("drivers", dict(drivers="some"), None),
    ("drivers", dict(drivers=2), None),
    ("drivers", dict(drivers=None), None),
    ("card_set", dict(card_set="Squeaky Dirty"), None),
]


@pytest.mark.parametrize(("option", "options", "shown"), BAD_VALUES,
                         ids=[f"{o}={v[o]!r}" for o, v, _ in BAD_VALUES])
def test_bad_new_option_values_raise_config_error_naming_them(option, options, shown):
    """A bad value is a ConfigError naming the option and the value (common rules: bad
    input gets a clear error, naming the value and what was expected). ``shown`` is the
    value the message must quote when it is not the option's own (a track_seed given for
    a fixed board is wrong because of the board)."""
    with pytest.raises(ConfigError, match=option) as err:
        automobiles_v0.env(**options)
    shown = shown or repr(options[option])
    assert shown in str(err.value), f"{shown} not in {err.value}"


# ----- the layout tables of docs/automobiles.md are the code's ------------
def test_doc_layout_tables_are_generated_from_the_code():
    """docs/automobiles.md holds the observation, action and decision tables exactly as
    ``rs_doc_tables`` makes them from ``encode.OBS``, ``kernels`` and ``PHASE_NAMES``
    (regenerate: ``python -m tests.automobiles.rs_doc_tables``)."""
    blocks = tables.doc_blocks(tables.DOC.read_text())
    for key, make in tables.TABLES.items():
        assert blocks[key] == make(), f"docs/automobiles.md '{key}' table is stale"


def test_doc_words_cover_every_field_decision_and_action():
    """Every OBS field, every expansion decision and every action index has words: a
    new one without them cannot reach the doc silently."""
    assert list(tables.OBS_WORDS) == OBS.names()
    assert list(tables.DECISION_WORDS) == tables.expansion_phases()
    assert len(tables.expansion_phases()) >= 22
    covered = [a for first, last, _ in tables.ACTION_KINDS.values()
               for a in range(first, last + 1)]
    assert covered == list(range(K.NUM_ACTIONS))


def test_random_games_offer_only_the_documented_answers_and_deciders():
    """The decisions table's "legal answers" and "who decides" hold in random games on
    the covering configurations, and every expansion decision comes up."""
    seen: set[str] = set()
    for cid in IDS:
        game = _game(cid)
        for seed in range(6):
            state = game.new_state(seed)
            rng = np.random.default_rng(seed)
            while not game.is_over(state):
                s = state.data
                phase = st.PHASE_NAMES[int(s[st.PHASE])]
                legal = np.flatnonzero(game.legal_mask(state))
                if phase in tables.DECISION_WORDS:
                    seen.add(phase)
                    _, _, who, kinds = tables.DECISION_WORDS[phase]
                    offered = {tables.action_kind(int(a)) for a in legal}
                    assert offered <= set(kinds), (cid, seed, phase, offered)
                    if who == "turn":
                        assert s[st.CURRENT] == s[st.TURN_SEAT], (cid, seed, phase)
                game.apply(state, int(rng.choice(legal)))
    assert seen == set(tables.DECISION_WORDS), set(tables.DECISION_WORDS) - seen


def test_expansion_observation_slices_stay_zero_in_the_base_game():
    """The "non-zero with" column: with every expansion option off, the expansion's
    observation slices are 0 for every seat at every step."""
    game = AutomobilesGame(num_players=3, laps=1)
    state = game.new_state(2)
    rng = np.random.default_rng(2)
    while not game.is_over(state):
        for seat in range(3):
            obs = game.observe(state, seat)
            for name in tables.EXPANSION_OBS:
                assert not obs[OBS.slice(name)].any(), name
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
