"""Parameter-vector policies: agent specs ``tuned`` (the shipped generalist
vector) and ``tuned:FILE`` (a vector saved by ``transit-gym tune``).

A tuned seat plays inside the jitted whole-game loops: :func:`jit_setup` turns a list of
agent specs into the policy kernel, the extended game parameters and the seat codes that
``transit_gym.envs.core.rollout.play_games`` takes.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from transit_gym.agents.base import JitPolicyAgent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game

#: games with a tuned policy: its kernel module (``policy``, ``params_with_vectors``)
TUNED_MODULES = {
    "automobiles": "transit_gym.agents.tuned.automobiles",
    "automobiles_season": "transit_gym.agents.tuned.automobiles_season",
    "automobile": "transit_gym.agents.tuned.automobile",
    "loose_caboose": "transit_gym.agents.tuned.loose_caboose",
    "planes": "transit_gym.agents.tuned.planes",
}
#: the shipped generalist vector of each game (spec ``tuned``)
SHIPPED = {
    "automobiles": Path(__file__).with_name("automobiles_generalist.json"),
    "automobiles_season": Path(__file__).with_name("automobiles_generalist.json"),
    "automobile": Path(__file__).with_name("automobile_tuned.json"),
    "loose_caboose": Path(__file__).with_name("loose_caboose_tuned.json"),
    "planes": Path(__file__).with_name("planes_tuned.json"),
}


def is_tuned_spec(spec: str) -> bool:
    """``tuned`` or ``tuned:FILE``."""
    return spec == "tuned" or spec.startswith("tuned:")


def tuned_module(game_name: str):
    """The tuned kernel module of a game (ConfigError naming the games that have one)."""
    if game_name not in TUNED_MODULES:
        raise ConfigError(f"no tuned policy for game {game_name!r}; games with one: "
                          f"{sorted(TUNED_MODULES)}")
    return importlib.import_module(TUNED_MODULES[game_name])


@lru_cache(maxsize=64)
def _load(path: str, mtime: float, game_name: str) -> np.ndarray:
    from transit_gym.agents.tuned.vector import load

    return load(path, game_name).values


def spec_path(spec: str, game_name: str) -> Path:
    """The vector file a ``tuned`` / ``tuned:FILE`` spec names for ``game_name``."""
    if not is_tuned_spec(spec):
        raise ConfigError(f"{spec!r} is not a tuned agent spec (tuned or tuned:FILE)")
    tuned_module(game_name)
    return SHIPPED[game_name] if spec == "tuned" else Path(spec[len("tuned:"):])


def spec_vector(spec: str, game_name: str) -> np.ndarray:
    """The vector of a ``tuned`` / ``tuned:FILE`` spec for ``game_name``."""
    path = spec_path(spec, game_name)
    if not path.is_file():
        raise ConfigError(f"no tuned vector file {str(path)!r} (agent spec {spec!r})")
    return _load(str(path.resolve()), path.stat().st_mtime, game_name).copy()


def jit_setup(game: Game, specs: list[str]):
    """``(policy, params, codes)`` for ``play_games`` with seats ``specs`` (each random,
    rule_based, tuned or tuned:FILE): one vector slot per distinct tuned spec."""
    module = tuned_module(game.name)
    slots: dict[str, int] = {}
    codes: dict[str, int] = {"random": 0, "rule_based": 1}
    vectors = []
    for spec in specs:
        if is_tuned_spec(spec) and spec not in slots:
            slots[spec] = len(vectors)
            vectors.append(spec_vector(spec, game.name))
            codes[spec] = module.TUNED_CODE + slots[spec]
    return module.policy, module.params_with_vectors(game.param_table, vectors), codes


class TunedAgent(JitPolicyAgent):
    """A tuned seat outside the jitted loops (AEC env, play, replay, Python tournaments)."""

    def __init__(self, game: Game, spec: str, seed: int | None = None,
                 vector: np.ndarray | None = None):
        module = tuned_module(game.name)
        values = spec_vector(spec, game.name) if vector is None else vector
        super().__init__(game, module.policy, module.TUNED_CODE, spec, seed)
        self.vector = np.asarray(values, dtype=np.float64)
        # one extended row per parameter row of the game (a board drawn per reset)
        self.table = module.params_with_vectors(game.param_table, [self.vector])

    def _play(self, row: np.ndarray, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = np.ascontiguousarray(observation, dtype=np.float32)
        mask = np.ascontiguousarray(action_mask, dtype=np.int8)
        if not mask.any():
            raise ValueError(f"{self.name}.act: the mask has no legal action")
        return int(self.policy(self.code, row, obs, mask, self._words))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self._play(self.table[0], observation, action_mask)

    def act_state(self, state, seat: int) -> int:
        """The vector's action with the extended row of ``state``'s parameter row, without
        the seat's forbidden actions under restricted play."""
        game = state.game
        slot = game.variant_slot
        row = self.table[0 if slot < 0 else int(state.data[slot])]
        return self._play(row, game.observe(state, seat), self.legal_mask(state, seat))
