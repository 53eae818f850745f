"""The policy told the rule-based agent's choice (``--hint rule_based``:
trained policies that beat the rule-based agents)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from transit_gym.agents.learned.ppo import PolicyAgent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import game_class
from transit_gym.training import train
from transit_gym.training.behaviour_cloning import collect, fit, greedy_actions
from transit_gym.training.hinted_policy import HintedPolicy, check_hint, rule_based_choices
from transit_gym.training.vec_env import SelfPlayVecEnv


@pytest.fixture(scope="module")
def game():
    return game_class("loose_caboose")(num_players=2)


@pytest.fixture(scope="module")
def data(game):
    return collect(game, 800, seed=2, num_envs=16)


def hinted_model(game):
    return train.make_model(SelfPlayVecEnv(game, 2, seed=0), 0, n_steps=8, batch_size=8,
                            learning_rate=3e-4, net_arch=(16,), scaled=True, hint=game)


def test_issue13_hint_is_the_rule_based_agents_choice(game, data):
    """The hint of a row is what the rule-based agent plays from that observation and mask,
    and a fresh hinted policy plays it (the hint outweighs the near-zero initial logits)."""
    assert np.array_equal(rule_based_choices(game, data.obs, data.masks), data.actions)
    model = hinted_model(game)
    assert isinstance(model.policy, HintedPolicy)
    assert np.array_equal(greedy_actions(model.policy, data.obs, data.masks), data.actions)


def test_issue13_hint_weight_is_learned_and_saved(game, data, tmp_path):
    """Fitting labels that disagree with the rule-based agent moves the hint's weight; the
    saved checkpoint rebuilds the hint and plays as the live policy does."""
    model = hinted_model(game)
    before = model.policy.hint_weight.item()
    flipped = collect(game, 400, seed=4, teacher="random", num_envs=16)
    fit(model.policy, flipped, epochs=3, batch_size=128, learning_rate=1e-2)
    assert model.policy.hint_weight.item() < before
    model.save(str(tmp_path / "h"))
    agent = PolicyAgent(tmp_path / "h.zip")
    assert isinstance(agent.policy, HintedPolicy)
    assert torch.equal(agent.policy.hint_weight, model.policy.hint_weight)
    live = greedy_actions(model.policy, data.obs, data.masks)
    for i in range(0, len(data), 41):
        assert agent.act(data.obs[i], data.masks[i]) == live[i]


def test_unknown_hint_is_a_config_error():
    """Bad input gets a clear error naming the value (common rules)."""
    check_hint("rule_based")
    with pytest.raises(ConfigError, match="unknown hint 'oracle'"):
        check_hint("oracle")


def test_issue13_shipped_hinted_policy_hints_with_the_played_games_rules():
    """A hinted checkpoint played in a game with other rule options (here another card
    set) asks the rule-based agent of THAT game, not of the game it was trained on; a
    game it cannot play is refused by name."""
    from transit_gym.agents.registry import make_agent

    played = game_class("automobiles")(num_players=2, card_set="Rev'd Up")
    agent = make_agent("ppo", played)
    assert isinstance(agent.policy, HintedPolicy)
    assert agent.policy.game is played
    state = played.new_state(seed=3)
    seat = played.current_player(state)
    obs, mask = played.observe(state, seat), played.legal_mask(state)
    hint = agent.policy.hints(obs[None, :], mask[None, :]).numpy()
    assert hint.argmax() == rule_based_choices(played, obs[None, :], mask[None, :])[0]
    with pytest.raises(ConfigError, match="trained on 'automobiles' with 2 players"):
        agent.policy.use_game(game_class("automobiles")(num_players=3))
