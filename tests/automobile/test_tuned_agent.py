"""The tuned Automobile agent: the rule-based agent is one point of the procedure's
parameter space, each new entry changes play where it should (rulebook sections cited),
the shipped vector loads and beats the rule-based agent, bad files are refused, and the
AEC and jitted paths agree."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from tests.core.stepped import play_stepped
from transit_gym.agents.registry import make_agent, play_specs
from transit_gym.agents.rule_based.automobile import policy as rule_policy
from transit_gym.agents.tuned import SHIPPED, TunedAgent, jit_setup, spec_vector
from transit_gym.agents.tuned import automobile as tk
from transit_gym.agents.tuned import automobile_layout as lay
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import encode as e
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import FORD, KETTERING, MIDDLE
from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import play_games
from transit_gym.training.stats import seat_wins

WORDS = seeded_words(1, 0x5EED)
#: decisions and rewards of 60 seeded 3-player rule-based games (seed 7), recorded before
#: the rule-based agent became the procedure at ``RULE_BASED``
RULE_BASED_GAMES_SHA = "d830fac0f3f2c509"


def _vector(**entries: float) -> np.ndarray:
    v = lay.rule_based_vector()
    for name, value in entries.items():
        v[lay.INDEX[name]] = value
    return v


def _tuned_action(v: np.ndarray, obs: np.ndarray, mask: np.ndarray,
                  game: AutomobileGame | None = None) -> int:
    params = (AutomobileGame(num_players=3) if game is None else game).params
    return int(tk.policy(tk.TUNED_CODE, tk.params_with_vectors(params, [v]), obs, mask, WORDS))


def _blank(decision: int) -> tuple[np.ndarray, np.ndarray]:
    """An observation of a 3-player game in turn 1 with ``decision`` pending, no legal
    action yet."""
    obs = np.zeros(e.OBS_SIZE, dtype=np.float32)
    obs[e.O_DECISION + decision] = 1.0
    obs[e.O_TURN] = 1.0
    for k in range(3):
        obs[e.O_PLAYERS + k * e.PLAYER_BLOCK + e.B_PRESENT] = 1.0
    return obs, np.zeros(a.NUM_ACTIONS, dtype=np.int8)


def test_layout_names_values_and_scales():
    """One readable name, rule-based value and positive CMA-ES step per entry."""
    names = lay.names()
    assert len(names) == len(set(names)) == lay.VECTOR_SIZE == len(lay.NAMES)
    v = lay.rule_based_vector()
    assert v.shape == lay.scales().shape == (lay.VECTOR_SIZE,) and v.dtype == np.float64
    assert np.all(lay.scales() > 0)
    v[0] = 123.0
    assert lay.rule_based_vector()[0] != 123.0   # a fresh copy
    assert lay.GAME == "automobile" and lay.LAYOUT_VERSION == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rule_based_vector_decides_like_rule_based_at_every_decision(players):
    """Step seeded games: at every decision the procedure at the rule-based vector (read
    back from the game parameters) chooses exactly the rule-based action."""
    game = AutomobileGame(num_players=players)
    params = tk.params_with_vectors(game.params, [lay.rule_based_vector()])

    def choose(state, seat, obs, mask):
        expected = int(rule_policy(1, game.params, obs, mask, WORDS))
        assert int(tk.policy(tk.TUNED_CODE, params, obs, mask, WORDS)) == expected
        return expected

    assert play_stepped(game, range(100, 104), choose) > 100


def test_rule_based_agent_plays_its_recorded_games():
    """The rule-based agent plays bit for bit as before it became the procedure at the
    rule-based vector: 60 seeded games give the recorded decisions and rewards."""
    game = AutomobileGame(num_players=3)
    out = play_games(game, rule_policy, ["rule_based"] * 3, 60, seed=7)
    digest = hashlib.sha256(out.decisions.tobytes() + out.rewards.tobytes()).hexdigest()[:16]
    assert digest == RULE_BASED_GAMES_SHA


def test_selection_scores_choose_the_character():
    """RB P2: each player selects one character; with few loss cubes the rule-based
    agent takes Kettering (3 R&D cubes), a higher Ford score takes Ford."""
    obs, mask = _blank(st.PH_SELECT)
    mask[a.A_SELECT:a.A_SELECT + 6] = 1
    assert _tuned_action(lay.rule_based_vector(), obs, mask) == a.A_SELECT + KETTERING
    assert _tuned_action(_vector(**{"select.low.ford": 10.0}), obs, mask) == a.A_SELECT + FORD


def test_loan_entries_borrow_when_short_of_cash():
    """RB Loans: up to two $500 loans at any point; the rule-based agent never borrows,
    ``loan.max`` 1 borrows once while short of cash."""
    obs, mask = _blank(st.PH_ACTION)
    obs[e.O_ROUND] = 1.0
    obs[e.O_PLAYERS + e.B_CASH] = 0.3
    mask[[a.A_LOAN, a.A_RD, a.A_SALESMEN]] = 1
    assert _tuned_action(lay.rule_based_vector(), obs, mask) == a.A_RD
    assert _tuned_action(_vector(**{"loan.max": 1.0}), obs, mask) == a.A_LOAN
    obs[e.O_PLAYERS + e.B_LOANS] = 1.0
    assert _tuned_action(_vector(**{"loan.max": 1.0}), obs, mask) == a.A_RD


def test_discount_gate_takes_the_stack_on_a_full_space():
    """RB P6 C: a discount stack goes on an own space where cars were produced (not
    premium); the rule-based agent passes, the gate on takes the stack of two."""
    obs, mask = _blank(st.PH_EXEC)
    b = e.O_SPACES + 4 * e.SPACE_BLOCK
    obs[b + e.S_SEG + MIDDLE] = 1.0
    obs[b + e.S_OWNER] = 1.0
    obs[b + e.S_CARS] = 0.6
    mask[[a.A_EXEC_DISC, a.A_EXEC_DISC + 1, a.A_PASS]] = 1
    assert _tuned_action(lay.rule_based_vector(), obs, mask) == a.A_PASS
    assert _tuned_action(_vector(**{"exec.disc": 1.0}), obs, mask) == a.A_EXEC_DISC + 1
    assert _tuned_action(_vector(**{"exec.disc": 1.0, "exec.disc_min_cars": 7.0}), obs,
                         mask) == a.A_PASS


def test_a_changed_entry_changes_seeded_games():
    """One more salesman a turn (RB II) changes the seeded games against the rule-based
    agent; the rule-based vector reproduces them."""
    game = AutomobileGame(num_players=3)
    codes = {"random": 0, "rule_based": 1, "t": tk.TUNED_CODE}
    seats = ["t", "rule_based", "rule_based"]

    def run(v):
        params = tk.params_with_vectors(game.param_table, [v])
        return play_games(game, tk.policy, seats, 30, seed=5, params=params, codes=codes)

    ref = play_games(game, rule_policy, ["rule_based"] * 3, 30, seed=5)
    np.testing.assert_array_equal(run(lay.rule_based_vector()).final_states, ref.final_states)
    changed = run(_vector(**{"salesmen.per_turn": 1.0}))
    assert (changed.final_states != ref.final_states).any(axis=1).sum() >= 10


def test_shipped_vector_loads_with_the_layout_names_and_beats_rule_based():
    """The shipped ``tuned`` vector has this layout's names and wins more than half of
    150 seeded games against two rule-based seats (seats rotated)."""
    data = json.loads(SHIPPED["automobile"].read_text())
    assert data["game"] == "automobile" and data["layout_version"] == lay.LAYOUT_VERSION
    assert list(data["params"]) == lay.names()
    v = spec_vector("tuned", "automobile")
    assert not np.array_equal(v, lay.rule_based_vector())
    game = AutomobileGame(num_players=3)
    wins = 0.0
    for seat in range(3):
        specs = ["rule_based"] * 3
        specs[seat] = "tuned"
        out = play_specs(game, specs, 50, seed=11)
        wins += float(seat_wins(out.rewards)[:, seat].sum())
    assert wins / 150 > 0.5


def test_foreign_or_malformed_vector_files_are_config_errors(tmp_path):
    """A file of another game, of another layout version, with a missing entry or not
    JSON is refused with a ConfigError naming the problem."""
    good = json.loads(SHIPPED["automobile"].read_text())
    cases = {"planes": dict(good, game="planes"), "layout version": dict(good,
             layout_version=99), "missing": dict(good, params={
                 k: x for k, x in good["params"].items() if k != "qty.scale"})}
    for match, data in cases.items():
        path = tmp_path / f"{match.replace(' ', '_')}.json"
        path.write_text(json.dumps(data))
        with pytest.raises(ConfigError, match=match):
            spec_vector(f"tuned:{path}", "automobile")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ConfigError, match="not JSON"):
        spec_vector(f"tuned:{tmp_path / 'bad.json'}", "automobile")
    automobiles = tmp_path / "automobiles.json"
    automobiles.write_text(json.dumps(dict(good, game="automobiles")))
    with pytest.raises(ConfigError, match="automobiles"):
        make_agent(f"tuned:{automobiles}", AutomobileGame(num_players=3))


def test_aec_agent_and_jitted_loop_choose_the_same_actions():
    """``tuned`` through ``TunedAgent`` (the AEC path, ``make_agent``) and through
    ``jit_setup``'s kernel and parameters choose the same action at every decision of
    seeded games."""
    game = AutomobileGame(num_players=3)
    agent = make_agent("tuned", game, seed=0)
    assert isinstance(agent, TunedAgent)
    policy, params, codes = jit_setup(game, ["tuned", "rule_based", "rule_based"])
    row = np.ascontiguousarray(params if params.ndim == 1 else params[0])

    def choose(state, seat, obs, mask):
        action = agent.act(obs, mask)
        assert int(policy(codes["tuned"], row, obs, mask, WORDS)) == action
        assert agent.act_state(state, seat) == action
        return action

    assert play_stepped(game, range(300, 303), choose) > 100


@pytest.mark.parametrize("kernel_module", ["rule_based/automobile.py", "tuned/automobile.py"])
def test_the_kernel_cache_stamp_covers_every_agent_module_the_procedure_reads(kernel_module):
    """The kernels freeze the layout, the rule-based point and ``packing``'s reader: the
    disk-cache stamp of each must cover every module of ``agents/`` it imports."""
    from pathlib import Path

    from tests.automobiles.test_tuned_agent import _agent_modules_imported
    from transit_gym.envs import _numba_cache

    path = _numba_cache.AGENTS_DIR / kernel_module
    stamped = {Path(s).resolve() for s in _numba_cache.stamp_sources(str(path))}
    imported = _agent_modules_imported(path, set())
    assert imported
    assert not sorted(str(f) for f in imported if f.resolve() not in stamped)
