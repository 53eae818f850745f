"""The batched training envs: the learner's seat of B games per call, the
other seats played inside, masks and observations always the learner's, auto-reset."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.envs.core.errors import ConfigError, IllegalActionError
from transit_gym.envs.core.game import State
from transit_gym.envs.registry import game_class
from transit_gym.training.vec_env import SelfPlayBatch, SelfPlayVecEnv, SelfPlayVectorEnv

B = 16


@pytest.fixture(scope="module")
def game():
    return game_class("loose_caboose")(num_players=2)


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.random(masks.shape)
    noise[masks == 0] = -1.0
    return noise.argmax(axis=1)


def assert_learner_view(game, batch: SelfPlayBatch) -> None:
    """Every slot: the learner's seat is to move and obs/mask are exactly its view."""
    for b in range(batch.num_envs):
        state = State(game, batch.states[b].copy())
        seat = int(batch.seats[b])
        assert game.current_player(state) == seat
        np.testing.assert_array_equal(batch.masks[b], game.legal_mask(state))
        np.testing.assert_array_equal(batch.obs[b], game.observe(state, seat))


def test_issue13_masks_and_obs_are_the_learners_also_on_auto_reset_steps(game):
    """Masks correct, including on auto-reset steps; opponents' moves never
    appear as learner steps (after every step the learner's seat is to move)."""
    batch = SelfPlayBatch(game, B, seed=3)
    rng = np.random.default_rng(0)
    assert_learner_view(game, batch)
    resets = 0
    for _ in range(120):
        batch.step(random_actions(batch.masks, rng))
        resets += int(batch.dones.sum())
        assert_learner_view(game, batch)
    assert resets > B   # auto-reset steps were checked too


def test_issue13_terminal_rewards_are_zero_sum_and_from_the_learners_seat(game):
    """Terminal rewards are zero-sum;
    the learner's reward is its seat's, and only at the end of a game."""
    env = SelfPlayVecEnv(game, B, seed=5)
    env.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(100):
        seats = env.batch.seats.copy()
        _, rewards, dones, infos = env.step(random_actions(env.action_masks(), rng))
        assert np.all(rewards[~dones] == 0.0)
        for b in np.flatnonzero(dones):
            finals = infos[b]["final_rewards"]
            assert abs(float(finals.sum())) < 1e-5
            assert rewards[b] == finals[seats[b]]
            assert infos[b]["terminal_observation"].shape == (game.obs_size,)
            finished += 1
    assert finished > 0


def test_issue13_same_seed_same_trajectory(game):
    """The same seed reproduces the same games (chance and opponents)."""
    def run(seed: int) -> list[np.ndarray]:
        batch = SelfPlayBatch(game, B, seed=seed)
        rng = np.random.default_rng(7)
        out = []
        for _ in range(60):
            batch.step(random_actions(batch.masks, rng))
            out += [batch.obs.copy(), batch.rewards.copy(), batch.seats.copy()]
        return out

    first, again, other = run(11), run(11), run(12)
    for x, y in zip(first, again, strict=True):
        np.testing.assert_array_equal(x, y)
    assert any(not np.array_equal(x, y) for x, y in zip(first, other, strict=True))


def test_issue13_learner_seat_rotates_or_is_fixed(game):
    """The learner's seat rotates at random, or is the one configured."""
    rotating = SelfPlayBatch(game, 64, seed=2)
    assert set(rotating.seats.tolist()) == {0, 1}
    fixed = SelfPlayBatch(game, B, learner_seat=1, seed=2)
    rng = np.random.default_rng(3)
    for _ in range(80):
        fixed.step(random_actions(fixed.masks, rng))
        assert np.all(fixed.seats == 1)
    with pytest.raises(ConfigError, match="learner_seat"):
        SelfPlayBatch(game, B, learner_seat=2)


def test_issue13_policy_opponents_play_in_one_batched_forward(game, monkeypatch):
    """A policy opponent moves for every game waiting on it in one forward
    call; the learner still only sees its own turns."""
    from sb3_contrib import MaskablePPO

    from transit_gym.training import vec_env

    env = SelfPlayVecEnv(game, B, opponents=["random"], seed=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0, device="cpu")
    calls = []
    real = vec_env.policy_logits

    def counted(policy, obs):
        calls.append((len(obs), int((env.batch.status > 0).sum())))
        return real(policy, obs)

    monkeypatch.setattr(vec_env, "policy_logits", counted)
    env.batch.add_policy(model.policy)
    env.batch.set_builtin_weights({"random": 0})   # every opponent is now the policy
    env.reset()
    rng = np.random.default_rng(5)
    for _ in range(30):
        env.step(random_actions(env.action_masks(), rng))
        assert_learner_view(game, env.batch)
    assert calls and all(rows == waiting for rows, waiting in calls)   # all waiting games
    assert max(rows for rows, _ in calls) > 1


def test_issue13_maskable_ppo_learns_on_the_vec_env(game):
    """MaskablePPO runs on the VecEnv (action_masks read from it)."""
    from sb3_contrib import MaskablePPO

    from transit_gym.training.train import quiet_logger

    env = SelfPlayVecEnv(game, B, seed=6)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                        device="cpu")
    quiet_logger(model, None)   # no SB3-<date> folder left in the temp directory
    model.learn(total_timesteps=16 * B * 2)
    assert model.num_timesteps == 16 * B * 2


def test_issue13_gymnasium_vector_view_masks_on_auto_reset(game):
    """As a gymnasium.vector env the masks are in infos, and after an
    auto-reset (same step) they are the new game's, with the last view in final_obs."""
    env = SelfPlayVectorEnv(game, B, seed=8)
    obs, infos = env.reset(seed=8)
    rng = np.random.default_rng(9)
    seen_done = False
    for _ in range(60):
        obs, rewards, terminated, truncated, infos = env.step(
            random_actions(infos["action_mask"], rng))
        np.testing.assert_array_equal(infos["action_mask"], env.batch.masks.astype(bool))
        assert_learner_view(game, env.batch)
        if terminated.any():
            seen_done = True
            assert np.all(infos["_final_obs"] == terminated)
    assert seen_done


def test_illegal_learner_action_and_bad_opponents_are_refused(game):
    """Bad input gets a clear error naming the value (common rules)."""
    batch = SelfPlayBatch(game, 2, seed=1)
    illegal = np.array([int(np.flatnonzero(batch.masks[0] == 0)[0]), 0])
    with pytest.raises(IllegalActionError, match="slot 0"):
        batch.step(illegal)
    with pytest.raises(ConfigError, match="unknown built-in opponent 'mcts'"):
        SelfPlayBatch(game, 2, opponents=["mcts"])
    with pytest.raises(ConfigError, match="positive total weight"):
        SelfPlayBatch(game, 2, opponents={"random": 0})


def test_issue23_a_training_batch_mixes_boards_drawn_per_reset():
    """A learner trains over random boards: the training batch of
    ``track="random_all"`` holds several boards, and every slot's observation and mask are
    the learner's view of its own board, also after auto-resets."""
    mixed = game_class("automobiles")(num_players=2, track="random_all", laps=1)
    batch = SelfPlayBatch(mixed, B, opponents=("rule_based",), seed=2)
    boards = {mixed.track_of(batch.states[b]).name for b in range(B)}
    assert len(boards) >= 3
    assert_learner_view(mixed, batch)
    rng = np.random.default_rng(3)
    for _ in range(60):
        batch.step(random_actions(batch.masks, rng))
        assert_learner_view(mixed, batch)
    boards |= {mixed.track_of(batch.states[b]).name for b in range(B)}
    assert len(boards) >= 4
