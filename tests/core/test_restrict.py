"""Restricted play (DESIGN "Wave 3 additions"): a per-seat forbidden-action mask applied to
the legal mask before any agent chooses, in the AEC env, the batch API, the jitted games and
the search agent alike; a restriction leaving no legal action is an error."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import random_env_decisions
from transit_gym.agents.registry import make_agent, policy_kernel
from transit_gym.agents.search.mcts import MCTSAgent
from transit_gym.envs import automobiles_v0, planes_v0
from transit_gym.envs.automobiles import restrictions as auto
from transit_gym.envs.automobiles.data import COLOURS
from transit_gym.envs.automobiles.kernels import A_STOCK
from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.core.errors import ConfigError, IllegalActionError
from transit_gym.envs.core.restrict import ForbiddenError, forbid
from transit_gym.envs.core.rollout import play_games
from transit_gym.envs.planes import restrictions as planes_restrict

SET = "Rinse & Repeat"


def _game(**options):
    return automobiles_v0.Game(num_players=2, card_set=SET, **options)


def _market_card(game, colour: str) -> str:
    return game.market(game.new_state(0))[colour]


def _yellow_ban(game) -> np.ndarray:
    card = _market_card(game, "yellow")
    return forbid(game.num_players, game.num_actions, {0: auto.buy_card(game.cards, card)})


def test_buy_card_restriction_is_the_stock_action_of_the_cards_colour():
    game = _game()
    card = _market_card(game, "purple")
    assert auto.buy_card(game.cards, card) == [A_STOCK + COLOURS.index("purple")]
    with pytest.raises(ConfigError, match="unknown card"):
        auto.buy_card(game.cards, "No Such Card")


def test_aec_env_masks_forbidden_actions_and_stepping_one_names_the_legal_ones():
    game = _game()
    ban = _yellow_ban(game)
    env = automobiles_v0.env(num_players=2, card_set=SET, forbidden=ban)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    yellow = A_STOCK + COLOURS.index("yellow")
    offered_to_other, tried = 0, False
    for agent, mask in random_env_decisions(env, rng):
        if agent == "player_0":
            assert not mask[yellow]
            if not tried and env.unwrapped._mask.any():
                raw = env.unwrapped.game.legal_mask(env.unwrapped.game_state)
                if raw[yellow]:   # legal in the game, forbidden to this seat
                    with pytest.raises(IllegalActionError, match="legal"):
                        env.step(yellow)
                    tried = True
        else:
            offered_to_other += int(mask[yellow])
    assert tried and offered_to_other > 0


def test_batch_env_masks_forbidden_actions_of_the_seat_to_move():
    game = _game()
    batch = BatchEnv(game, 8, seed=1, forbidden=_yellow_ban(game))
    yellow = A_STOCK + COLOURS.index("yellow")
    words_rng = np.random.default_rng(2)
    offered_to_other = 0
    for _ in range(400):
        seat0 = batch.players == 0
        assert not batch.masks[seat0, yellow].any()
        offered_to_other += int(batch.masks[~seat0, yellow].sum())
        batch.step(batch.sample_actions(words_rng))
    assert offered_to_other > 0


@pytest.mark.parametrize("agent", ["rule_based", "random"])
def test_jitted_games_never_let_a_restricted_seat_buy_the_card(agent):
    game = _game()
    results = play_games(game, policy_kernel(game.name), [agent, agent], 20, seed=4,
                         forbidden=_yellow_ban(game))
    bought = [[game.final_info(results.state(game, i))[s]["bought"]["yellow"] for s in (0, 1)]
              for i in range(20)]
    assert all(b[0] == 0 for b in bought)
    assert sum(b[1] for b in bought) > 0   # the card is bought when allowed


def test_forbidding_every_market_card_still_leaves_stop_buying():
    """Buy Phase: stopping is always legal, so banning all five market cards is no error."""
    game = _game()
    market = game.market(game.new_state(0))
    ids = [a for c in ("yellow", "purple", "red", "green", "blue")
           for a in auto.buy_card(game.cards, market[c])]
    ban = forbid(2, game.num_actions, {1: ids})
    results = play_games(game, policy_kernel(game.name), ["rule_based"] * 2, 10, seed=0,
                         forbidden=ban)
    for i in range(10):
        info = game.final_info(results.state(game, i))[1]
        assert sum(info["bought"][c] for c in ("yellow", "purple", "red", "green", "blue")) == 0


def test_a_restriction_leaving_no_legal_action_is_an_error_everywhere():
    game = _game(start_player=0)
    everything = np.zeros((2, game.num_actions), dtype=bool)
    everything[0] = True
    with pytest.raises(ForbiddenError, match="no legal action left"):
        play_games(game, policy_kernel(game.name), ["rule_based"] * 2, 1, forbidden=everything)
    with pytest.raises(ForbiddenError, match="seat 0 has no legal action"):
        automobiles_v0.env(num_players=2, card_set=SET, start_player=0,
                           forbidden=everything).reset(seed=0)
    with pytest.raises(ForbiddenError, match="batch slot"):
        BatchEnv(game, 2, seed=0, forbidden=everything)


def test_bad_forbidden_arrays_are_config_errors():
    game = _game()
    with pytest.raises(ConfigError, match="shape"):
        play_games(game, policy_kernel(game.name), ["random"] * 2, 1,
                   forbidden=np.zeros((3, game.num_actions), dtype=bool))
    with pytest.raises(ConfigError, match="booleans"):
        BatchEnv(game, 1, forbidden=np.full((2, game.num_actions), 0.5))
    with pytest.raises(ConfigError, match="driver number"):
        auto.take_driver(11)


def test_driver_draft_restriction_keeps_the_seat_off_that_driver():
    game = automobiles_v0.Game(num_players=2, card_set=SET, drivers="all")
    ban = forbid(2, game.num_actions, {0: auto.take_driver(8)})
    results = play_games(game, policy_kernel(game.name), ["rule_based"] * 2, 12, seed=0,
                         forbidden=ban)
    held = [auto.held_drivers(results.state(game, i)) for i in range(12)]
    assert all(h[0] != 8 for h in held)
    assert any(h[1] == 8 for h in held)


def test_agents_through_act_state_respect_the_restriction():
    game = _game()
    ban = _yellow_ban(game)
    agent = make_agent("rule_based", game, seed=0)
    agent.restrict(ban, game)
    state = game.new_state(5)
    yellow = A_STOCK + COLOURS.index("yellow")
    checked = 0
    while (player := game.current_player(state)) >= 0:
        action = agent.act_state(state, player)
        assert not (player == 0 and action == yellow)
        checked += int(player == 0 and game.legal_mask(state)[yellow])
        game.apply(state, action)
    assert checked > 0


def test_search_agent_never_chooses_or_simulates_a_forbidden_root_action():
    """The search masks the restricted seat's moves everywhere: at its root (no visits to
    a forbidden action) and below it."""
    game = _game()
    ban = _yellow_ban(game)
    agent = MCTSAgent(game, simulations=40, seed=0)
    agent.restrict(ban, game)
    yellow = A_STOCK + COLOURS.index("yellow")
    state = game.new_state(5)
    searched = 0
    while (player := game.current_player(state)) >= 0 and searched < 3:
        legal = game.legal_mask(state)
        if player == 0 and legal[yellow] and legal.sum() > 2:
            result = agent.search(state, 0)
            assert result.visits[yellow] == 0 and result.action != yellow
            searched += 1
        action = int(np.flatnonzero(legal)[0]) if player == 1 else agent.act_state(state, 0)
        game.apply(state, action)
    assert searched == 3


def test_planes_card_restriction_masks_that_card_type():
    env = planes_v0.env(num_players=2, forbidden=forbid(2, planes_v0.Game(
        num_players=2).num_actions, {1: planes_restrict.use_card(0)}))
    env.reset(seed=0)
    card = planes_restrict.use_card(0)[0]
    rng = np.random.default_rng(1)
    steps = 0
    for agent, mask in random_env_decisions(env, rng, 600):
        if agent == "player_1":
            assert not mask[card]
        steps += 1
    assert steps > 0
