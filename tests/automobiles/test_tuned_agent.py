"""The tuned Automobiles agent: the rule-based agent is one point of
its parameter space, every card can be bought and played, the vector files round-trip,
and the ``tuned`` / ``tuned:FILE`` specs reach every door (make_agent, play_games).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.core.stepped import play_stepped
from transit_gym.agents.registry import make_agent, play_specs, policy_kernel
from transit_gym.agents.rule_based.automobiles import policy as rule_policy
from transit_gym.agents.tuned import TunedAgent
from transit_gym.agents.tuned import automobiles as tk
from transit_gym.agents.tuned import vector as tv
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import play_games

#: markets covering every card: base sets, expansion sets, random markets of all 35
CONFIGS = [
    dict(num_players=2, card_set="First Game"),
    dict(num_players=3, card_set="Rinse & Repeat", track="tucson", drivers=True),
    dict(num_players=2, card_set="Squeaky Clean", track="monte_carlo", drivers=True),
    dict(num_players=4, card_set="Shake & Bake", track="talladega", drivers="all"),
    dict(num_players=2, card_set="random", card_pool="all", track="monza", drivers=True),
    dict(num_players=3, card_set="random", card_pool="expansion", drivers=True),
    dict(num_players=5, card_set="random", card_pool="all", laps=1, drivers="all"),
    # every card of the choices block: Car Chief, Pit Team, Suspension, Diesel Engine
    dict(num_players=2, card_set="Broken Down"),
    dict(num_players=3, card_set="Broken Down", track="monza", drivers=True),
]


def _game(options):
    options = dict(options)
    players = options.pop("num_players")
    return AutomobilesGame(num_players=players, **options)


@pytest.mark.parametrize("options", CONFIGS)
def test_rule_based_vector_decides_like_rule_based_at_every_decision(options):
    """Step whole seeded games; at every decision the tuned kernel at the rule-based
    vector must choose exactly the rule-based action (identical action sequences)."""
    game = _game(options)
    params = tk.params_with_vectors(game.params, [tv.rule_based_vector()])
    words = seeded_words(1, 0x5EED)

    def choose(state, seat, obs, mask):
        expected = int(rule_policy(1, game.params, obs, mask, words))
        assert int(tk.policy(tk.TUNED_CODE, params, obs, mask, words)) == expected, options
        return expected

    assert play_stepped(game, range(100, 106), choose) > 100


@pytest.mark.parametrize("options", CONFIGS[1:5])
def test_rule_based_vector_plays_the_same_jitted_games(options):
    """In the jitted whole-game loop, tuned-at-rule-based seats reproduce the rule-based
    games exactly: same decisions, same end states, same rewards."""
    game = _game(options)
    n = game.num_players
    ref = play_games(game, policy_kernel("automobiles"), ["rule_based"] * n, 40, seed=7)
    policy = tk.policy
    params = tk.params_with_vectors(game.params, [tv.rule_based_vector()])
    codes = {"rule_based": 1, "tuned_rb": tk.TUNED_CODE}
    mixed = ["tuned_rb" if s % 2 == 0 else "rule_based" for s in range(n)]
    out = play_games(game, policy, mixed, 40, seed=7, params=params, codes=codes)
    np.testing.assert_array_equal(out.decisions, ref.decisions)
    np.testing.assert_array_equal(out.final_states, ref.final_states)
    np.testing.assert_array_equal(out.rewards, ref.rewards)


def _count_bought_played(game, vector, n_games=20):
    """Cubes of each market effect bought and activated by seat 0 (tuned) over stepped
    games against the rule-based agent."""
    tuned = TunedAgent(game, "tuned", seed=0, vector=vector)
    rule = make_agent("rule_based", game, seed=1)
    bought: dict[int, int] = {}
    played: dict[int, int] = {}
    from transit_gym.agents.tuned.automobiles_fixed import effects as _effects
    from transit_gym.envs.automobiles.kernels import A_ACTIVE, A_STOCK
    from transit_gym.envs.automobiles.state import PH_ACTION, PH_BUY

    for g in range(n_games):
        state = game.new_state(500 + g)
        while (seat := game.current_player(state)) >= 0:
            obs = game.observe(state, seat)
            mask = game.legal_mask(state)
            agent = tuned if seat == 0 else rule
            action = agent.act(obs, mask)
            if seat == 0:
                eff = _effects(np.asarray(obs, dtype=np.float32))
                ph = int(state.data[_phase_index()])
                if ph == PH_BUY and A_STOCK <= action < A_STOCK + 10:
                    e = int(eff[action - A_STOCK])
                    bought[e] = bought.get(e, 0) + 1
                if ph == PH_ACTION and A_ACTIVE <= action < A_ACTIVE + 10:
                    e = int(eff[action - A_ACTIVE])
                    played[e] = played.get(e, 0) + 1
            game.apply(state, action)
    return bought, played


def _phase_index():
    from transit_gym.envs.automobiles.state import PHASE

    return PHASE


def test_the_vector_can_make_never_bought_cards_bought_and_played():
    """Each of the 15 Racing Season cards, among them Pit Mechanic, Air Jacks, Internal
    Combustion, Camber & Toe, Fuel Injection and Burnout (never or nearly never used by the
    rule-based agent), is bought and activated once the vector puts it first
    and drops its gate."""
    for cards in (["Performance Testing", "Pit Mechanic", "Camber & Toe", "Overdrive",
                   "Internal Combustion"],
                  ["Factory Support", "Air Jacks", "Burnout", "Bump & Run",
                   "Fuel Injection Engine"],
                  ["Maintenance Staff", "Impact Wrench", "Redline", "Adrenaline",
                   "Crate Motor"]):
        game = AutomobilesGame(num_players=2, card_set=cards)
        for name in cards:   # one card at a time put first, to be bought and played
            card = tv.card_of_name(name)
            v = tv.rule_based_vector()
            v[tv.card_param(card, tv.K_BUY)] = 50.0
            v[tv.card_param(card, tv.K_WANT)] = 10.0   # owned cubes, the start bag included
            v[tv.card_param(card, tv.K_ORDER)] = 1.0
            v[tv.card_param(card, tv.K_GATE)] = 0.0
            bought, played = _count_bought_played(game, v, n_games=3)
            e = card - tv.FIRST_EFFECT_CARD
            assert bought.get(e, 0) > 0, (name, bought)
            assert played.get(e, 0) > 0, (name, played)


def test_vector_layout_names_every_card_and_round_trips(tmp_path):
    assert tv.NUM_CARDS == 40
    assert len(tv.names()) == tv.VECTOR_SIZE == len(set(tv.names()))
    assert tv.card_of_name("Camber & Toe") == tv.CARDS.index("camber_toe")
    assert tv.card_of_name("Fuel Injection Engine") == tv.CARDS.index("fuel_injection")
    v = tv.rule_based_vector() + np.linspace(0, 1, tv.VECTOR_SIZE)
    path = tv.TunedVector(v, market={"card_set": "First Game"}, meta={"seed": 3}).save(
        tmp_path / "v.json")
    back = tv.load(path)
    np.testing.assert_array_equal(back.values, v)
    assert back.market == {"card_set": "First Game"} and back.meta == {"seed": 3}
    data = json.loads(path.read_text())
    data["layout_version"] = 999
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="layout version"):
        tv.load(path)
    data["layout_version"], data["game"] = tv.LAYOUT_VERSION, "planes"
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="planes"):
        tv.load(path)


def test_tuned_specs_reach_make_agent_and_the_jitted_loops(tmp_path):
    game = AutomobilesGame(num_players=2, card_set="Squeaky Clean")
    agent = make_agent("tuned", game, seed=0)
    state = game.new_state(0)
    action = agent.act(game.observe(state, game.current_player(state)), game.legal_mask(state))
    assert game.legal_mask(state)[action] == 1
    path = tv.TunedVector(tv.rule_based_vector()).save(tmp_path / "rb.json")
    spec = f"tuned:{path}"
    ours = play_specs(game, [spec, "rule_based"], 20, seed=3)
    ref = play_specs(game, ["rule_based", "rule_based"], 20, seed=3)
    np.testing.assert_array_equal(ours.final_states, ref.final_states)
    with pytest.raises(ConfigError, match="no tuned vector file"):
        make_agent(f"tuned:{tmp_path / 'missing.json'}", game)


def test_tuned_for_a_game_without_one_names_the_games_that_have_one(monkeypatch):
    from transit_gym.agents import tuned
    from transit_gym.envs.planes.rules import PlanesGame

    monkeypatch.delitem(tuned.TUNED_MODULES, "planes")   # a game without a tuned policy
    with pytest.raises(ConfigError, match="automobiles"):
        make_agent("tuned", PlanesGame(num_players=2))


def test_tournaments_and_balance_sweeps_take_tuned_specs(tmp_path):
    """A tournament pair and a balance-sweep chunk with a ``tuned:FILE`` seat run in the
    jitted loop; at the rule-based vector they reproduce the rule-based games."""
    from transit_gym.benchmarks.balance.sweep import Chunk, run_chunk
    from transit_gym.training.tournament import PairChunk, play_pair

    path = tv.TunedVector(tv.rule_based_vector()).save(tmp_path / "rb.json")
    spec = f"tuned:{path}"
    options = (("card_set", "Rinse & Repeat"), ("drivers", True))
    pair = play_pair(PairChunk("automobiles", 2, options, 0, 1, (spec, "rule_based"), 5, 0, 6))
    ref = play_pair(PairChunk("automobiles", 2, options, 0, 1, ("rule_based", "rule_based"),
                              5, 0, 6))
    assert pair == ref and len(pair) == 6
    ours = run_chunk(Chunk("automobiles", 2, options, (spec, "rule_based"), 5, "R&R", 0, 6))
    theirs = run_chunk(Chunk("automobiles", 2, options, ("rule_based", "rule_based"), 5,
                             "R&R", 0, 6))
    assert ours == theirs and len(ours) == 6


def test_season_tuned_agent_plays_its_races_with_the_vector(tmp_path):
    """The Racing Season campaign's tuned seat: races by the tuned race policy, sponsors
    by the vector's sponsor block; at the rule-based vector the seasons are unchanged
    (decision for decision in ``tests/automobiles_season/test_tuned_sponsors.py``)."""
    from transit_gym.envs.automobiles_season.rules import AutomobilesSeasonGame

    game = AutomobilesSeasonGame(num_players=2)
    path = tv.TunedVector(tv.rule_based_vector()).save(tmp_path / "rb.json")
    ours = play_specs(game, [f"tuned:{path}", "rule_based"], 3, seed=2)
    ref = play_specs(game, ["rule_based", "rule_based"], 3, seed=2)
    np.testing.assert_array_equal(ours.final_states, ref.final_states)
    agent = make_agent("tuned", game, seed=0)
    state = game.new_state(0)
    seat = game.current_player(state)
    assert game.legal_mask(state)[agent.act(game.observe(state, seat),
                                            game.legal_mask(state))] == 1


def test_play_and_replay_seat_tuned_agents():
    """``training.play`` and ``training.replay`` take the ``tuned`` spec like any agent."""
    import io

    from transit_gym.training.play import new_session
    from transit_gym.training.replay import record

    session = new_session("automobiles", 2, 0, ["tuned"], 4, {}, io.StringIO())
    assert isinstance(session.agents[1], TunedAgent)
    frames = record("automobiles", 2, ["tuned", "rule_based"], 4, at=5)
    assert len(frames) == 1 and frames[0].ndim == 3


def test_shipped_vectors_load_and_name_their_market():
    """The generalist and the per-market vectors in the package load with this layout and
    say what they were tuned on (file name = the optimiser's market name)."""
    from pathlib import Path

    from transit_gym.agents import tuned
    from transit_gym.training.tune import market_name

    general = tv.load(tuned.SHIPPED["automobiles"])
    assert len(general.market["markets"]) == 10 and general.meta["eval_vs_rule_based"]
    files = sorted((Path(tuned.__file__).parent / "markets").glob("*.json"))
    assert files
    for path in files:
        v = tv.load(path)
        assert path.stem == market_name([v.market["markets"]], v.market["players"])
        assert v.meta["eval_vs_rule_based"]["games"] == 200


def _version_1_file(path, values, market=None):
    """A vector file as layout version 1 wrote it (no sponsor block)."""
    params = dict(zip(tv.names()[:tv.VERSION_SIZES[1]], values[:tv.VERSION_SIZES[1]].tolist(),
                      strict=True))
    path.write_text(json.dumps({"game": "automobiles", "layout_version": 1,
                                "market": market or {}, "meta": {}, "params": params}))
    return path


def test_older_layouts_load_with_rule_based_sponsor_entries(tmp_path):
    """Layout 1 (no choices, no sponsor block) and 2 (no sponsor block) files load with the
    entries they lack at their rule-based values and everything else as saved."""
    rng = np.random.default_rng(0)
    values = tv.rule_based_vector() + rng.normal(size=tv.VECTOR_SIZE)
    back = tv.load(_version_1_file(tmp_path / "v1.json", values, {"card_set": "First Game"}))
    assert back.values.shape == (tv.VECTOR_SIZE,) and back.market == {"card_set": "First Game"}
    size = tv.VERSION_SIZES[1]
    np.testing.assert_array_equal(back.values[:size], values[:size])
    np.testing.assert_array_equal(back.values[size:], tv.rule_based_vector()[size:])
    data = json.loads((tmp_path / "v1.json").read_text())
    data["layout_version"] = 2
    data["params"].update(zip(tv.CHOICES, values[tv.CHOICE_BASE:tv.SPONSOR_BASE].tolist(),
                              strict=True))
    (tmp_path / "v2.json").write_text(json.dumps(data))
    back = tv.load(tmp_path / "v2.json").values
    np.testing.assert_array_equal(back[:tv.SPONSOR_BASE], values[:tv.SPONSOR_BASE])
    np.testing.assert_array_equal(back[tv.SPONSOR_BASE:], tv.rule_based_sponsor_entries())
    assert tv.names()[tv.SPONSOR_BASE:] == list(tv.SPONSOR_PARAMS)
    data = json.loads((tmp_path / "v1.json").read_text())
    data["params"]["sponsor.money"] = 1.0      # a sponsor entry in a version-1 file
    (tmp_path / "v1.json").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="sponsor.money"):
        tv.load(tmp_path / "v1.json")
    data["layout_version"] = True
    (tmp_path / "v1.json").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="layout version"):
        tv.load(tmp_path / "v1.json")


def _shipped_files():
    from pathlib import Path

    from transit_gym.agents import tuned

    return [tuned.SHIPPED["automobiles"],
            *sorted((Path(tuned.__file__).parent / "markets").glob("*.json"))]


def test_shipped_vectors_keep_their_race_entries_and_race_decisions():
    """The shipped generalist and the 13 market vectors load with every entry their file
    holds unchanged and the others (the sponsor block, the choices of a layout-1 file) at
    their rule-based values; the race policy never reads the sponsor block: jitted races
    with any sponsor entries end exactly as with the loaded ones."""
    files = _shipped_files()
    assert len(files) == 14
    rule = dict(zip(tv.names(), tv.rule_based_vector(), strict=True))
    for path in files:
        data = json.loads(path.read_text())
        if data["layout_version"] < 3:   # written before the sponsor block
            assert "sponsor.money" not in data["params"]
        else:
            assert set(data["params"]) == set(tv.names())
        values = tv.load(path).values
        np.testing.assert_array_equal(values, [data["params"].get(n, rule[n])
                                               for n in tv.names()])
    game = _game(CONFIGS[4])
    wild = values.copy()
    wild[tv.SPONSOR_BASE:] = np.random.default_rng(1).normal(scale=50, size=tv.NUM_SPONSOR_PARAMS)
    games = []
    for v in (values, wild):
        params = tk.params_with_vectors(game.params, [v])
        games.append(play_games(game, tk.policy, ["t", "rule_based"], 30, seed=4, params=params,
                                codes={"t": tk.TUNED_CODE, "rule_based": 1}))
    np.testing.assert_array_equal(games[0].decisions, games[1].decisions)
    np.testing.assert_array_equal(games[0].final_states, games[1].final_states)


@pytest.mark.parametrize("index", range(14))
def test_shipped_vectors_replay_their_recorded_evaluation_exactly(index):
    """Each shipped vector, loaded with today's layout, scores exactly the win share
    against ``rule_based`` its file recorded when it was tuned (the optimiser's own
    evaluation games: same deals, same seeds), so its race decisions are unchanged."""
    from transit_gym.training import tune

    vector = tv.load(_shipped_files()[index])
    recorded = vector.meta["eval_vs_rule_based"]
    settings, players = vector.meta["settings"], vector.market["players"]
    markets = vector.market["markets"]
    markets = markets if isinstance(markets, list) else [markets]
    chunks = max(1, min(2 * vector.meta["workers"], settings["eval_games"] // players))
    per = max(1, settings["eval_games"] // chunks)
    wins = played = 0
    for c in range(chunks):
        _, w, n = tune._evaluate((c, vector.values, [None], markets, players, per,
                                  settings["seed"], tune.EVAL_FIRST + c * 1_000_000, tune.GAME))
        wins += w
        played += n
    assert played == recorded["games"]
    assert round(wins / played, 4) == recorded["score"]


def _agent_modules_imported(path, found):
    """Files of ``agents/`` that ``path`` imports, directly or through others."""
    import ast
    from pathlib import Path

    root = Path(path).resolve().parents[2]   # the folder holding agents/, envs/ ...
    for node in ast.walk(ast.parse(Path(path).read_text())):
        if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(
                "transit_gym.agents"):
            continue
        parts = node.module.split(".")[1:]
        candidates = [root.joinpath(*parts).with_suffix(".py")]
        candidates += [root.joinpath(*parts, f"{alias.name}.py") for alias in node.names]
        for file in candidates:
            if file.is_file() and file not in found:
                found.add(file)
                _agent_modules_imported(file, found)
    return found


@pytest.mark.parametrize("kernel_module", ["rule_based/automobiles.py",
                                           "rule_based/automobiles_season.py",
                                           "tuned/automobiles.py",
                                           "tuned/automobiles_season.py"])
def test_the_kernel_cache_stamp_covers_every_agent_module_the_procedure_reads(kernel_module):
    """The rule-based and tuned kernels freeze the layout, the rule-based point and the
    shared kernels of other modules: the disk-cache stamp of each kernel must cover every
    module of ``agents/`` it imports, so an edit there recompiles it."""
    from pathlib import Path

    from transit_gym.envs import _numba_cache

    path = _numba_cache.AGENTS_DIR / kernel_module
    stamped = {Path(s).resolve() for s in _numba_cache.stamp_sources(str(path))}
    imported = _agent_modules_imported(path, set())
    assert imported, kernel_module
    missing = sorted(str(f) for f in imported if f.resolve() not in stamped)
    assert not missing, f"{kernel_module}: not under the cache stamp: {missing}"
