"""The network-guided search agent: IS-MCTS with PUCT, priors and values from a network.

See :mod:`transit_gym.agents.search.net_loops` for the algorithm. Like the plain search
(``mcts``) it is handed the state and searches only determinizations, so it never reads
what its seat cannot see. ``root_noise`` mixes Dirichlet noise into the root's prior
(AlphaZero's exploration for self-play); evaluation play leaves it at 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.agents.learned.network import Network, forward
from transit_gym.agents.search import net_loops
from transit_gym.agents.search.net_loops import (
    ACTION,
    EXPANDED,
    FIRST,
    FLOAT_FIELDS,
    INT_FIELDS,
    NEXT,
    VALUE,
    VISITS,
)
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.fused import jit_templates
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.restrict import as_loop_argument
from transit_gym.envs.core.rng import RNG_WORDS, fresh_seed, seeded_words

#: simulations per move of the spec ``net_mcts`` (``net_mcts:N`` sets N)
DEFAULT_SIMULATIONS = 64
DEFAULT_C_PUCT = 1.5
_KERNELS: dict[int, object] = {}


def net_search_kernel(game: Game):
    """The compiled network-guided simulation loop of ``game`` (once per process)."""
    if game.kernels.determinize is None:
        raise ConfigError(f"game {game.name!r} has no determinize kernel, so a search agent "
                          f"cannot avoid peeking at hidden information")
    key = id(game.kernels)
    if key not in _KERNELS:
        k = game.kernels
        functions = {"legal_mask": k.legal_mask, "apply": k.apply,
                     "current_player": k.current_player, "rewards": k.rewards,
                     "observe": k.observe, "determinize": k.determinize, "forward": forward}
        _KERNELS[key] = jit_templates(net_loops, net_loops.TEMPLATES, functions).net_simulate
    return _KERNELS[key]


@dataclass
class NetSearchResult:
    """The action chosen, visits and mean values per root action, the network's root
    logits (before any noise) and its value of the root for the searching seat."""

    action: int
    visits: np.ndarray
    values: np.ndarray
    simulations: int
    root_logits: np.ndarray
    root_value: float


class NetSearchAgent(Agent):
    """PUCT IS-MCTS over ``network`` (a :class:`Network` for this game)."""

    name = "net_mcts"
    needs_state = True

    def __init__(self, game: Game, network: Network, simulations: int = DEFAULT_SIMULATIONS,
                 c_puct: float = DEFAULT_C_PUCT, root_noise: float = 0.0,
                 noise_alpha: float = 0.3, seed: int | None = None, name: str | None = None):
        network.record.check_game(game)
        if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
            raise ConfigError(f"simulations must be a positive integer, got {simulations!r}")
        if not c_puct > 0:
            raise ConfigError(f"c_puct must be > 0, got {c_puct!r}")
        if not 0.0 <= root_noise <= 1.0:
            raise ConfigError(f"root_noise must be in [0, 1], got {root_noise!r}")
        self.game, self.network = game, network
        self.simulations, self.c_puct = simulations, float(c_puct)
        self.root_noise, self.noise_alpha = float(root_noise), float(noise_alpha)
        self._kernel = net_search_kernel(game)
        nodes = simulations + 2
        self._ints = np.zeros((nodes, INT_FIELDS), dtype=np.int64)
        self._floats = np.zeros((nodes, FLOAT_FIELDS), dtype=np.float64)
        self._logits = np.zeros((nodes, game.num_actions), dtype=np.float32)
        self._words = np.zeros(RNG_WORDS, dtype=np.int64)
        self._noise = np.random.default_rng(0)
        self.name = name or f"net_mcts:{simulations}"
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        seed = fresh_seed() if seed is None else seed
        self._words[:] = seeded_words(seed, 0x4E37)
        self._noise = np.random.default_rng([seed & 0xFFFFFFFF, 0x4E38])

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise ConfigError("the network search agent searches from the game state: call "
                          "act_state(state, seat)")

    def act_state(self, state: State, seat: int) -> int:
        legal = np.flatnonzero(self.legal_mask(state, seat))
        if legal.size == 1:
            return int(legal[0])
        return self.search(state, seat).action

    def _run(self, root: np.ndarray, seat: int, n_nodes: int, n: int) -> int:
        game, net = self.game, self.network
        return int(self._kernel(root, game.params_of(root), seat, self._ints, self._floats,
                                self._logits, n_nodes, n, self.c_puct, self._words,
                                game.num_players, game.num_actions, game.obs_size,
                                net.weights, net.sizes, net.scratch_size,
                                as_loop_argument(self.forbidden, game.num_actions)))

    def search(self, state: State, seat: int) -> NetSearchResult:
        """Search from ``state`` for ``seat`` (to move); the state is not changed."""
        game = self.game
        if game.current_player(state) != seat:
            raise ConfigError(f"seat {seat} is not to move (seat "
                              f"{game.current_player(state)} is)")
        self._ints[0, :] = -1
        self._ints[0, EXPANDED] = 0
        self._floats[0, :] = 0.0
        root = np.ascontiguousarray(state.data)
        mask = self.legal_mask(state, seat).astype(bool)
        n_nodes = self._run(root, seat, 1, 1)   # evaluates the root
        root_logits = self._logits[0].copy()
        root_value = float(self._floats[0, VALUE])
        if self.root_noise > 0.0:
            self._mix_root_noise(mask)
        n_nodes = self._run(root, seat, n_nodes, self.simulations - 1)
        visits = np.zeros(game.num_actions, dtype=np.float64)
        values = np.zeros(game.num_actions, dtype=np.float64)
        c = self._ints[0, FIRST]
        while c >= 0:
            a = self._ints[c, ACTION]
            visits[a] = self._floats[c, VISITS]
            values[a] = self._floats[c, VALUE] / max(self._floats[c, VISITS], 1.0)
            c = self._ints[c, NEXT]
        order = np.lexsort((-np.arange(game.num_actions), values, visits))
        action = next(int(a) for a in order[::-1] if mask[a])
        return NetSearchResult(action, visits, values, self.simulations, root_logits,
                               root_value)

    def _mix_root_noise(self, mask: np.ndarray) -> None:
        """Root prior := (1 - eps) * softmax + eps * Dirichlet, stored back as log-probs."""
        legal = np.flatnonzero(mask)
        logits = self._logits[0, legal].astype(np.float64)
        prior = np.exp(logits - logits.max())
        prior /= prior.sum()
        noise = self._noise.dirichlet(np.full(legal.size, self.noise_alpha))
        mixed = (1.0 - self.root_noise) * prior + self.root_noise * noise
        self._logits[0, legal] = np.log(np.maximum(mixed, 1e-12)).astype(np.float32)
