"""The tuned Loose Caboose! agent (spec ``tuned``): the rule-based agent is one point of the
procedure's parameter space, its entries change play where they should, the shipped vector
loads and beats the rule-based agent, bad vector files are refused, and the AEC path
(``TunedAgent``) and the jitted path (``jit_setup``) choose the same actions.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.core.stepped import play_stepped
from transit_gym.agents.registry import make_agent, play_specs
from transit_gym.agents.rule_based.loose_caboose import policy as rule_policy
from transit_gym.agents.tuned import SHIPPED, TunedAgent, jit_setup, spec_vector
from transit_gym.agents.tuned import loose_caboose as lc
from transit_gym.agents.tuned import loose_caboose_layout as layout
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import play_games
from transit_gym.envs.loose_caboose import encode as e
from transit_gym.envs.loose_caboose.kernels import A_PASS, A_ROLL, NUM_ACTIONS, play_action
from transit_gym.envs.loose_caboose.rules import LooseCabooseGame

CODES = {"random": 0, "rule_based": 1, "vector": lc.TUNED_CODE}
#: the rule-based agent's games before its constants moved into the vector: seed 7, games
#: 0-299, total decisions of [rule_based, rule_based] and of [rule_based, random]
RULE_BASED_DECISIONS = {("rule_based", "rule_based"): 17894, ("rule_based", "random"): 16098}


def _vector(**entries: float) -> np.ndarray:
    v = layout.rule_based_vector()
    for name, value in entries.items():
        v[layout.NAMES.index(name.replace("__", "."))] = value
    return v


def test_layout_names_every_entry_once_with_a_positive_step():
    """The contract of a layout module: one readable name per entry, a fresh rule-based
    vector of that size, one positive CMA-ES step per entry."""
    assert layout.VECTOR_SIZE == len(layout.NAMES) == len(set(layout.NAMES))
    assert layout.names() == list(layout.NAMES)
    first = layout.rule_based_vector()
    first[0] = 99.0
    assert layout.rule_based_vector()[0] != 99.0
    assert layout.scales().shape == (layout.VECTOR_SIZE,) and (layout.scales() > 0).all()


@pytest.mark.parametrize("options", [{}, {"geometry": False, "bank_first": False,
                                          "pass_banks": False}])
def test_rule_based_agent_plays_its_seeded_games_as_before_the_vector(options):
    """Bit for bit: the rule-based agent (now the procedure at ``RULE_BASED``) makes the
    same number of decisions in the recorded seeded games, and the vector read back from
    the fixed-point game parameters plays the same games to the same end states."""
    game = LooseCabooseGame(num_players=2, **options)
    params = lc.params_with_vectors(game.param_table, [layout.rule_based_vector()])
    for seats, decisions in RULE_BASED_DECISIONS.items():
        ref = play_games(game, rule_policy, list(seats), 300, seed=7)
        ours = play_games(game, lc.policy, ["vector", seats[1]], 300, seed=7, params=params,
                          codes=CODES)
        np.testing.assert_array_equal(ours.final_states, ref.final_states)
        np.testing.assert_array_equal(ours.decisions, ref.decisions)
        if not options:
            assert int(ref.decisions.sum()) == decisions


def _choose_obs(hand: dict[int, int], ahead: int, back: list[int], top: int,
                continuing: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A crafted observation and mask: ordinary straight cards of each value in ``hand``,
    ``ahead`` cards ahead of the caboose, ``back`` values at the back of the railway, the
    seat's pile topped by ``top`` (0: empty)."""
    obs = np.zeros(e.OBS_SIZE, dtype=np.float32)
    obs[e.O_DECISION + (1 if continuing else 0)] = 1.0
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[A_ROLL if continuing else A_PASS] = 1
    for value, n in hand.items():
        obs[e.O_HAND + (value - 1) * 4] = n
        mask[play_action(value, 0, 0)] = 1
    obs[e.O_RAILWAY:e.O_RAILWAY + 3] = (ahead + 1 + len(back), ahead, len(back))
    obs[e.O_BACK:e.O_BACK + len(back)] = np.array(back) / 4.0
    obs[e.O_PLAYERS + e.B_TOP + top] = 1.0
    obs[e.O_DRAW] = 20.0
    return obs, mask


def test_exact_penalty_points_pass_to_cancel_the_pile_top():
    """Cancelling Out Penalty Cards: passing takes the back card (a 3) onto a pile topped
    by a 3, cancelling both. The rule-based agent prices it at 3 points and lays its 1;
    with ``exact_weight`` 1 the cancel is a gain and the procedure passes."""
    game = LooseCabooseGame(num_players=2)
    obs, mask = _choose_obs({1: 1}, ahead=0, back=[3, 1, 2], top=3)
    assert lc.decide(layout.rule_based_vector(), game.params, obs, mask) == play_action(1, 0, 0)
    assert lc.decide(_vector(exact_weight=1.0), game.params, obs, mask) == A_PASS
    # no matching top: the same position is a play at both points
    obs, mask = _choose_obs({1: 1}, ahead=0, back=[3, 1, 2], top=2)
    assert lc.decide(_vector(exact_weight=1.0), game.params, obs, mask) == play_action(1, 0, 0)


def test_kept_cards_stay_in_hand_until_the_last_turn():
    """``keep.1`` 1: with one card of value 1 left after laying, the procedure rolls
    instead of laying it (rule-based: lays every card); on the last turn (Ending the Game:
    hands count) it lays it."""
    game = LooseCabooseGame(num_players=2)
    obs, mask = _choose_obs({1: 1}, ahead=2, back=[2], top=0, continuing=True)
    assert lc.decide(layout.rule_based_vector(), game.params, obs, mask) == play_action(1, 0, 0)
    assert lc.decide(_vector(keep__1=1.0), game.params, obs, mask) == A_ROLL
    obs[e.O_END] = 1.0
    assert lc.decide(_vector(keep__1=1.0), game.params, obs, mask) == play_action(1, 0, 0)


def test_gift_weight_avoids_leaving_a_cancel_to_the_next_player():
    """``gift_weight``: passing takes the back 1 and leaves a 4 at the back of the railway
    while the next player's pile shows a 4 (their pass would cancel it: Cancelling Out
    Penalty Cards). The rule-based agent passes rather than roll four dice with no track
    ahead; with a high weight the procedure lays its 4 instead."""
    game = LooseCabooseGame(num_players=2)
    obs, mask = _choose_obs({4: 1}, ahead=0, back=[1, 4, 4], top=0)
    obs[e.O_PLAYERS + e.PLAYER_BLOCK + e.B_TOP + 4] = 1.0
    rule_based = lc.decide(layout.rule_based_vector(), game.params, obs, mask)
    assert rule_based == A_PASS
    assert lc.decide(_vector(gift_weight=2.0), game.params, obs, mask) == play_action(4, 0, 0)


def test_vector_size_is_checked():
    game = LooseCabooseGame(num_players=2)
    with pytest.raises(ValueError, match=str(layout.VECTOR_SIZE)):
        lc.params_with_vectors(game.param_table, [np.zeros(3)])


def test_shipped_vector_loads_with_the_layout_and_beats_rule_based():
    """The shipped file names every entry of the layout and wins more than half of 200
    seeded games (seats alternated) against the rule-based agent."""
    data = json.loads(SHIPPED["loose_caboose"].read_text())
    assert data["game"] == "loose_caboose" and list(data["params"]) == layout.names()
    game = LooseCabooseGame(num_players=2)
    vector = spec_vector("tuned", "loose_caboose")
    assert vector.shape == (layout.VECTOR_SIZE,)
    wins = 0.0
    for seats in (["tuned", "rule_based"], ["rule_based", "tuned"]):
        result = play_specs(game, seats, 100, seed=3)
        wins += float((result.rewards[:, seats.index("tuned")] > 0).sum())
    assert wins / 200 > 0.5


def _write(path, **changes):
    data = {"game": "loose_caboose", "layout_version": layout.LAYOUT_VERSION, "market": {},
            "meta": {}, "params": dict(zip(layout.names(),
                                           layout.rule_based_vector().tolist(), strict=True))}
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


def test_foreign_or_malformed_vector_files_are_config_errors(tmp_path):
    """A vector of another game, a missing entry or a file that is not JSON is refused
    with a ConfigError; a well-formed rule-based file plays the rule-based games."""
    game = LooseCabooseGame(num_players=2)
    good = _write(tmp_path / "rb.json")
    ours = play_specs(game, [f"tuned:{good}", "rule_based"], 20, seed=5)
    ref = play_specs(game, ["rule_based", "rule_based"], 20, seed=5)
    np.testing.assert_array_equal(ours.final_states, ref.final_states)
    params = dict(zip(layout.names()[1:], layout.rule_based_vector()[1:].tolist(), strict=True))
    bad = [_write(tmp_path / "foreign.json", game="automobiles"),
           _write(tmp_path / "missing.json", params=params)]
    (tmp_path / "garbage.json").write_text("{not json")
    for path in (*bad, tmp_path / "garbage.json"):
        with pytest.raises(ConfigError):
            make_agent(f"tuned:{path}", game)


def test_aec_and_jitted_paths_choose_the_same_actions():
    """``TunedAgent`` (AEC env path) and the kernel of ``jit_setup`` (jitted loops) at the
    shipped vector agree at every decision of stepped seeded games."""
    game = LooseCabooseGame(num_players=2)
    agent = make_agent("tuned", game, seed=0)
    assert isinstance(agent, TunedAgent)
    policy, params, codes = jit_setup(game, ["tuned", "rule_based"])
    words = seeded_words(1, 0x5EED)
    row = params if params.ndim == 1 else params[0]

    def choose(state, seat, obs, mask):
        action = agent.act(obs, mask)
        assert action == int(policy(codes["tuned"], row, obs, mask, words))
        assert action == agent.act_state(state, seat)
        return action

    assert play_stepped(game, range(300, 320), choose) > 200
