"""The flat-weight policy-value network, its agents and its search."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.agents.learned.network import Network, NetworkRecord
from transit_gym.agents.learned.specs import parse_network_spec
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game

torch = pytest.importorskip("torch")


def _game(name: str = "loose_caboose", players: int = 2):
    return cached_game(name, players, ())


def _states(game, n: int = 5):
    """A few states along a seeded random game."""
    rng = np.random.default_rng(0)
    state = game.new_state(11)
    out = []
    while game.current_player(state) >= 0 and len(out) < n:
        out.append(state.copy())
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply(state, int(rng.choice(legal)))
    return out


@pytest.mark.parametrize("name", ["loose_caboose", "planes"])
def test_numba_numpy_and_torch_forward_agree(name):
    from transit_gym.agents.learned.torch_net import TorchNet

    game = _game(name)
    net = Network.initial(game, (16, 8), seed=3)
    model = TorchNet.from_network(net)
    for state in _states(game):
        obs = game.observe(state, game.current_player(state))
        logits, value = net.forward_one(obs)
        batch_logits, batch_values = net.forward_batch(obs[None])
        with torch.no_grad():
            torch_logits, torch_values = model(torch.from_numpy(obs[None]))
        np.testing.assert_allclose(logits, batch_logits[0], atol=1e-5)
        np.testing.assert_allclose(logits, torch_logits.numpy()[0], atol=1e-5)
        assert value == pytest.approx(float(batch_values[0]), abs=1e-5)
        assert value == pytest.approx(float(torch_values[0]), abs=1e-5)
    assert np.array_equal(model.to_network().weights, net.weights)


def test_save_load_round_trip_keeps_weights_and_record(tmp_path):
    game = _game()
    net = Network.initial(game, (8,), seed=1)
    path = net.save(tmp_path / "lc")
    loaded = Network.load(path)
    assert np.array_equal(loaded.weights, net.weights)
    assert loaded.record == net.record
    assert loaded.record.options == game.options


def test_network_for_another_game_or_player_count_is_a_usage_error(tmp_path):
    """A checkpoint records its game and observation layout; loading it into another game
    is a ConfigError naming both."""
    path = Network.initial(_game(), (8,), seed=1).save(tmp_path / "lc")
    with pytest.raises(ConfigError, match="loose_caboose.*planes"):
        make_agent(f"net:{path}", _game("planes"))
    with pytest.raises(ConfigError, match="2 players.*3 players"):
        make_agent(f"net:{path}", _game("loose_caboose", 3))


def test_broken_network_files_are_config_errors(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="not a transit-gym network"):
        Network.load(bad)
    with pytest.raises(ConfigError, match="no network file"):
        Network.load(tmp_path / "missing.npz")
    net = Network.initial(_game(), (8,), seed=1)
    with pytest.raises(ConfigError, match="weights"):
        Network(net.record, net.weights[:-1])
    weights = net.weights.copy()
    weights[0] = np.nan
    with pytest.raises(ConfigError, match="finite"):
        Network(net.record, weights)


@pytest.mark.parametrize(("spec", "parsed"), [
    ("net", (False, None, None)),
    ("net:a/b.npz", (False, None, "a/b.npz")),
    ("net_mcts", (True, None, None)),
    ("net_mcts:8", (True, 8, None)),
    ("net_mcts:8:x.npz", (True, 8, "x.npz")),
    ("net_mcts:x.npz", (True, None, "x.npz")),
])
def test_network_specs_parse(spec, parsed):
    assert parse_network_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["net:", "net_mcts:0", "netx"])
def test_bad_network_specs_are_config_errors(spec):
    with pytest.raises(ConfigError, match="spec"):
        parse_network_spec(spec)


def test_spec_net_without_a_shipped_network_names_what_is_shipped():
    with pytest.raises(ConfigError, match="no shipped network for 'planes'"):
        make_agent("net", _game("planes", 4))


def test_net_agent_plays_legal_moves_to_the_end(tmp_path):
    game = _game()
    path = Network.initial(game, (8,), seed=2).save(tmp_path / "lc")
    agent = make_agent(f"net:{path}", game)
    state = game.new_state(5)
    while (player := game.current_player(state)) >= 0:
        action = agent.act_state(state, player)
        assert game.legal_mask(state)[action]
        game.apply(state, action)
    assert game.is_over(state)


def _biased_network(game, favourite: int) -> Network:
    """A network whose logits favour ``favourite`` and whose value is 0 everywhere."""
    net = Network.initial(game, (8,), seed=0)
    parts = net.matrices()
    for weight, bias in parts[1:]:
        weight[:] = 0.0
        bias[:] = 0.0
    parts[-2][1][favourite] = 5.0
    return Network(net.record, net.weights)


def test_search_follows_the_prior_when_values_are_equal_and_is_reproducible():
    """PUCT: with every value 0, visits go where the prior points; the same seed gives the
    same visits."""
    from transit_gym.agents.search.net_mcts import NetSearchAgent

    game = _game()
    state = next(s for s in _states(game, 20) if game.legal_mask(s).sum() >= 2)
    legal = np.flatnonzero(game.legal_mask(state))
    favourite = int(legal[-1])
    net = _biased_network(game, favourite)
    player = game.current_player(state)
    first = NetSearchAgent(game, net, simulations=40, seed=9).search(state, player)
    again = NetSearchAgent(game, net, simulations=40, seed=9).search(state, player)
    assert first.action == favourite
    assert first.visits[favourite] == first.visits.max()
    assert np.array_equal(first.visits, again.visits)
    assert first.visits.sum() == 39   # the first simulation evaluates the root


def test_search_agent_rejects_bad_settings():
    from transit_gym.agents.search.net_mcts import NetSearchAgent

    game = _game()
    net = Network.initial(game, (8,), seed=0)
    for kwargs in ({"simulations": 0}, {"c_puct": 0.0}, {"root_noise": 2.0}):
        with pytest.raises(ConfigError):
            NetSearchAgent(game, net, **kwargs)


def test_record_json_round_trip():
    record = NetworkRecord.for_game(_game(), (4, 4))
    assert NetworkRecord.from_json(record.to_json()) == record


def test_restricted_search_never_plays_or_visits_a_forbidden_action():
    """Restricted play holds for the network search: the action its prior
    favours, once forbidden to the seat, is neither chosen nor visited at the root."""
    from transit_gym.agents.search.net_mcts import NetSearchAgent

    game = _game()
    state = next(s for s in _states(game, 20) if game.legal_mask(s).sum() >= 3)
    player = game.current_player(state)
    favourite = int(np.flatnonzero(game.legal_mask(state))[-1])
    agent = NetSearchAgent(game, _biased_network(game, favourite), simulations=40, seed=9)
    forbidden = np.zeros((game.num_players, game.num_actions), dtype=bool)
    forbidden[player, favourite] = True
    agent.restrict(forbidden, game)
    result = agent.search(state, player)
    assert result.action != favourite and result.visits[favourite] == 0
    assert agent.act_state(state, player) != favourite
