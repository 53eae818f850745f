"""The batched training env's ``reward_shaping`` option (``training/vec_env.py``).

Potential-based shaping (Ng, Harada and Russell, 1999) as the AEC env defines it
(``envs/core/shaping.py``): the learner's reward after each of its steps adds the change of
its potential since its last decision, a game's last reward is the terminal reward plus
``0 - Phi``, so with discount 1 a game's rewards sum to the terminal reward minus ``Phi`` at
the learner's first decision; the terminal reward and the games themselves are unchanged.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.shaping import Shaping
from transit_gym.envs.registry import available_games, game_class
from transit_gym.training.vec_env import SelfPlayBatch, SelfPlayVecEnv, SelfPlayVectorEnv
from transit_gym.training.vec_shaping import LearnerPotentials

B = 4


def _game(name: str):
    cls = game_class(name)
    return cls(num_players=cls.min_players)


def _potential(game, data: np.ndarray, seat: int, coefficient: float = 1.0) -> float:
    """``Phi`` of ``seat`` written out from the game's strengths: its strength minus the
    others' mean, over the game's scale."""
    module = importlib.import_module(game.potential_module)
    strength = np.zeros(game.num_players, dtype=np.float64)
    module.strengths(data, game.params_of(data), strength)
    others = (strength.sum() - strength) / (game.num_players - 1)
    return float(coefficient * (strength[seat] - others[seat]) / module.SCALE)


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.random(masks.shape)
    noise[masks == 0] = -1.0
    return noise.argmax(axis=1)


def _episodes(game, shaping, seed: int, games: int,
              coefficient: float = 1.0) -> tuple[list[tuple[float, float, float]], int]:
    """Random learner moves against random and rule-based seats until ``games`` games have
    ended: per ended game (summed rewards, terminal reward, ``Phi`` at the learner's first
    decision written out here), and how many rewards came before a game's end."""
    batch = SelfPlayBatch(game, B, seed=seed, reward_shaping=shaping)
    rng = np.random.default_rng(seed)
    first = [_potential(game, batch.states[b], int(batch.seats[b]), coefficient)
             for b in range(B)]
    sums = np.zeros(B)
    ended = []
    early = 0
    while len(ended) < games:
        batch.step(_random_actions(batch.masks, rng))
        sums += batch.rewards
        early += int(np.count_nonzero(batch.rewards[~batch.dones]))
        for b in np.flatnonzero(batch.dones):
            ended.append((sums[b], float(batch.terminals[b]), first[b]))
            sums[b] = 0.0
            first[b] = _potential(game, batch.states[b], int(batch.seats[b]), coefficient)
    return ended, early


@pytest.mark.parametrize("name", available_games())
def test_shaped_rewards_sum_to_terminal_minus_first_potential(name):
    """Every game: a game's shaped rewards add up to its terminal reward minus the learner's
    potential at its first decision (discount 1), and the terminal reward is the game's."""
    game = _game(name)
    ended, early = _episodes(game, "score", seed=11, games=3)
    for total, terminal, phi0 in ended:
        assert total == pytest.approx(terminal - phi0, abs=1e-4)
    assert early > 0   # rewards before the end: the shaping was on


@pytest.mark.parametrize("name", available_games())
def test_rewards_between_decisions_are_the_potential_change(name):
    """Every game: each step's shaped reward is the learner's potential now minus at its last
    decision (the other seats' moves in between included), at a coefficient other than 1."""
    game = _game(name)
    coefficient = 2.5
    batch = SelfPlayBatch(game, B, seed=4, reward_shaping=coefficient)
    rng = np.random.default_rng(4)
    before = [_potential(game, batch.states[b], int(batch.seats[b]), coefficient)
              for b in range(B)]
    changed = 0
    for _ in range(200):
        batch.step(_random_actions(batch.masks, rng))
        for b in range(B):
            now = _potential(game, batch.states[b], int(batch.seats[b]), coefficient)
            if batch.dones[b]:
                expected = batch.terminals[b] - before[b]
            else:
                expected = now - before[b]
                changed += expected != 0.0
            assert batch.rewards[b] == pytest.approx(expected, abs=1e-5)
            before[b] = now
    assert changed > 0   # the potential moved during games, so the check saw shaping


@pytest.mark.parametrize("name", available_games())
def test_learner_potentials_are_the_aec_envs_for_the_learners_seat(name):
    """Every game: the batched env's potential of seat ``seats[b]`` in game ``b`` is the AEC
    env's potential of that seat in the same state (``envs.core.shaping.Shaping``), at every
    seat, during random games."""
    game = _game(name)
    coefficient = 0.75
    aec = Shaping(game, coefficient)
    batched = LearnerPotentials(game, coefficient)
    batch = SelfPlayBatch(game, B, seed=6)
    rng = np.random.default_rng(6)
    moved = False
    for _ in range(200):
        for seat in range(game.num_players):
            seats = np.full(B, seat, dtype=np.int64)
            got = batched(batch.states, seats)
            want = [aec.potentials(batch.states[b], game.params_of(batch.states[b]))[seat]
                    for b in range(B)]
            np.testing.assert_allclose(got, want, atol=1e-12)
            moved |= bool(np.any(got != 0.0))
        batch.step(_random_actions(batch.masks, rng))
    assert moved   # the potentials compared were not all zero


def test_off_is_terminal_only_and_shaping_changes_no_game():
    """Off (the default): rewards only at a game's end, equal to ``terminals``; on, the same
    seed plays the very same games (observations, masks, seats, ends, terminal rewards)."""
    game = _game("loose_caboose")
    off = SelfPlayBatch(game, B, seed=9)
    on = SelfPlayBatch(game, B, seed=9, reward_shaping="score")
    assert off.reward_shaping is None
    rng_off, rng_on = np.random.default_rng(2), np.random.default_rng(2)
    shaped = False
    for _ in range(80):
        off.step(_random_actions(off.masks, rng_off))
        on.step(_random_actions(on.masks, rng_on))
        assert np.all(off.rewards[~off.dones] == 0.0)
        np.testing.assert_array_equal(off.rewards, off.terminals)
        for name in ("obs", "masks", "seats", "dones", "terminals", "finals", "states"):
            np.testing.assert_array_equal(getattr(off, name), getattr(on, name))
        shaped |= bool(np.any(on.rewards != off.rewards))
    assert shaped


def test_vec_env_views_pass_the_option_and_report_terminal_episode_returns():
    """``SelfPlayVecEnv`` and ``SelfPlayVectorEnv`` shape through their batch; the SB3
    episode record ``r`` is the terminal reward, without shaping."""
    game = _game("loose_caboose")
    env = SelfPlayVecEnv(game, B, seed=5, reward_shaping="score")
    vector = SelfPlayVectorEnv(game, B, seed=5, reward_shaping=0.5)
    assert env.batch.reward_shaping == "score" and vector.batch.reward_shaping == 0.5
    env.reset()
    rng = np.random.default_rng(5)
    seen = 0
    while seen == 0:
        _, rewards, dones, infos = env.step(_random_actions(env.action_masks(), rng))
        for b in np.flatnonzero(dones):
            assert infos[b]["episode"]["r"] == env.batch.terminals[b]
            assert infos[b]["episode"]["r"] in infos[b]["final_rewards"]
            seen += 1


@pytest.mark.parametrize("bad", ["laps", -1.0, 0, float("nan"), True, [1.0]])
def test_a_bad_shaping_value_is_a_config_error(bad):
    """Not None, ``"score"`` or a positive finite number: a ``ConfigError`` naming the
    allowed values, before any game."""
    game = _game("loose_caboose")
    for make in (SelfPlayBatch, SelfPlayVecEnv, SelfPlayVectorEnv):
        with pytest.raises(ConfigError, match="reward_shaping must be None"):
            make(game, B, seed=1, reward_shaping=bad)


def test_train_routes_the_option_to_the_env_not_the_game(tmp_path):
    """``transit-gym train --option reward_shaping=...``: a bad value is a ``ConfigError``
    (not the game's unknown-option error), and the game is built without it."""
    from transit_gym.training.train import main, split_shaping

    assert split_shaping({"reward": "rank", "reward_shaping": "score"}) == (
        {"reward": "rank"}, "score")
    with pytest.raises(ConfigError, match="reward_shaping must be None"):
        main(["--game", "loose_caboose", "--steps", "64", "--envs", "2", "--eval-games", "2",
              "--no-progress", "--option", "reward_shaping=-2", "--out", str(tmp_path / "m")])

