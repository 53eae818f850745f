"""Information-set Monte Carlo tree search, written once over the kernel contract.

Single-observer ISMCTS (one tree over the searching seat's information sets): every
simulation starts from a fresh determinization of the root (``Kernels.determinize``
re-samples everything the seat cannot see, future chance included), walks the tree by
UCB over the children whose actions are legal in that determinization (each child
counts how often it was *available*, which replaces the parent's visit count in the
exploration term), adds one node, plays the game to its end with a rollout policy,
and backs up the reward of every seat: a node keeps the reward of the seat that chose
its action, so the same search serves 2-5 players.

A search agent is handed the game state, not only the observation (``needs_state``,
``act_state``): it reads only what ``determinize`` leaves, i.e. what its seat may know.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.agents.policies import policy_kernel
from transit_gym.agents.search import loops as mcts_loops
from transit_gym.agents.search.loops import (
    ACTION,
    FIRST,
    FLOAT_FIELDS,
    INT_FIELDS,
    NEXT,
    UNKNOWN,
    VALUE,
    VISITS,
)
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.fused import jit_templates
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.restrict import as_loop_argument
from transit_gym.envs.core.rng import RNG_WORDS, fresh_seed, seeded_words

#: rollout policy codes: the built-in agents' codes of the game's policy kernel; ``tuned``
#: (games with a tuned policy) plays the shipped tuned vector with the tuned kernel, whose
#: codes 0 and 1 are the same random and rule-based agents
ROLLOUTS = {"random": 0, "rule_based": 1, "tuned": 2}
#: UCB exploration constant for rewards in [-1, 1]
DEFAULT_EXPLORATION = 1.4


@dataclass(frozen=True)
class SearchConfig:
    """How the search plays out a simulation (one row of :data:`DEFAULTS`).

    ``simulations`` per move; ``rollout`` names the rollout policy; ``epsilon`` makes each
    rollout move uniformly random with that probability; ``horizon`` cuts a rollout after
    that many decisions, at the next change of the seat to move, and scores the position
    with the game's leaf evaluation (``agents/search/leaf_<game>.py``; None plays to the end);
    ``prior`` weighs the progressive bias towards the rule-based action in the tree (0:
    none); ``prior_budget`` B (None: off) scales the prior with the budget, ``prior x
    simulations / B`` when ``simulations > B``, so the hint's bonus keeps the weight it has
    at B simulations against the growing visit counts; ``exploration`` is the UCB
    constant; ``horizon_budget`` H (None: off) lengthens a finite horizon the same way,
    ``horizon x simulations / H`` decisions when ``simulations > H``, so a larger budget
    also looks further ahead before trusting the leaf evaluation; ``horizon_cap`` C (None:
    no cap) stops that growth at C decisions, so a large budget does not turn the cut
    rollouts into playouts to the end.
    """

    simulations: int = 200
    rollout: str = "random"
    horizon: int | None = None
    prior: float = 0.0
    exploration: float = DEFAULT_EXPLORATION
    epsilon: float = 0.0
    prior_budget: int | None = None
    horizon_budget: int | None = None
    horizon_cap: int | None = None

    def prior_at(self, simulations: int | None) -> float:
        """The prior weight the search uses with ``simulations`` per move (None: a time
        limit, the prior unscaled)."""
        budget = self.prior_budget
        if budget is None or simulations is None or simulations <= budget:
            return float(self.prior)
        return float(self.prior) * simulations / budget

    def horizon_at(self, simulations: int | None) -> int:
        """The rollout horizon with ``simulations`` per move (-1: play to the end)."""
        if self.horizon is None:
            return -1
        budget = self.horizon_budget
        if budget is None or simulations is None or simulations <= budget:
            return self.horizon
        grown = self.horizon * simulations // budget
        return grown if self.horizon_cap is None else max(self.horizon,
                                                           min(grown, self.horizon_cap))


#: the Automobiles race search, also the Racing Season campaign's (its leaf evaluation is a
#: fitted season score: ``leaf_automobiles_season``): the shipped tuned agent in its rollouts
#: and prior: with rule-based ones (``mcts:200:rule_based``) it stayed below 60% against
#: ``rule_based`` in both games (docs/search.md)
AUTOMOBILES_SEARCH = SearchConfig(simulations=200, rollout="tuned", horizon=20,
                                  prior=1.0, horizon_budget=200, prior_budget=200,
                                  horizon_cap=100)
SEASON_SEARCH = AUTOMOBILES_SEARCH
#: the default search of each game (the spec ``mcts``; ``mcts:N`` changes only the
#: simulations); what a move of each costs: the CPU ms/move column of docs/ladders/
DEFAULTS: dict[str, SearchConfig] = {
    "loose_caboose": SearchConfig(simulations=200),
    "automobiles": AUTOMOBILES_SEARCH,
    "planes": SearchConfig(simulations=40, rollout="rule_based", horizon=8, prior=1.0),
    "automobile": SearchConfig(simulations=200, rollout="rule_based", horizon=None,
                               prior=1.0),
    "automobiles_season": SEASON_SEARCH,
}
#: simulations per move of the spec ``mcts`` for a game without a row in DEFAULTS
DEFAULT_SIMULATIONS = SearchConfig().simulations


class _Default:
    """Marks an argument left to the game's row of :data:`DEFAULTS`."""

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT = _Default()

_SEARCH_CACHE: dict[tuple[int, int, int], object] = {}


def default_config(game_name: str) -> SearchConfig:
    """The default search of a game (``SearchConfig()`` for a game without a row)."""
    return DEFAULTS.get(game_name, SearchConfig())


def eval_kernel(game_name: str):
    """The jitted leaf evaluation ``evaluate(s, p, out)`` of a game
    (``transit_gym.agents.search.leaf_<game>``)."""
    try:
        module = importlib.import_module(f"transit_gym.agents.search.leaf_{game_name}")
    except ModuleNotFoundError as exc:
        raise ConfigError(f"game {game_name!r} has no leaf evaluation module "
                          f"transit_gym.agents.search.leaf_{game_name}") from exc
    return module.evaluate


def rollout_policy(game: Game, rollout: str) -> tuple[Any, np.ndarray | None]:
    """The policy kernel the search's rollouts and prior call, and the parameter rows it
    needs (None: the game's own): the game's built-in agents, or for ``tuned`` the tuned
    kernel with the shipped vector appended to every row (ConfigError for a game without
    one)."""
    if rollout != "tuned":
        return policy_kernel(game.name), None
    from transit_gym.agents.tuned import spec_vector, tuned_module

    module = tuned_module(game.name)
    rows = module.params_with_vectors(game.param_table, [spec_vector("tuned", game.name)])
    return module.policy, np.atleast_2d(rows)


def search_kernel(game: Game, policy, evaluate):
    """The compiled simulation loop of ``game`` with agent ``policy`` and leaf evaluation
    ``evaluate`` (once per process)."""
    if game.kernels.determinize is None:
        raise ConfigError(
            f"game {game.name!r} has no determinize kernel, so a search agent cannot avoid "
            f"peeking at hidden information"
        )
    key = (id(game.kernels), id(policy), id(evaluate))
    if key not in _SEARCH_CACHE:
        k = game.kernels
        functions = {"legal_mask": k.legal_mask, "apply": k.apply,
                     "current_player": k.current_player, "rewards": k.rewards,
                     "observe": k.observe, "determinize": k.determinize, "policy": policy,
                     "evaluate": evaluate}
        _SEARCH_CACHE[key] = jit_templates(mcts_loops, mcts_loops.TEMPLATES,
                                           functions).simulate
    return _SEARCH_CACHE[key]


@dataclass
class SearchResult:
    """What one search found: the action chosen, visits per root action, simulations run."""

    action: int
    visits: np.ndarray       # float64 (num_actions,)
    values: np.ndarray       # float64 (num_actions,): mean reward of the searching seat
    simulations: int
    nodes: int


def _pick(value: Any, default: Any) -> Any:
    return default if value is DEFAULT else value


def check_config(config: SearchConfig, time_limit: float | None) -> None:
    """ConfigError naming the first bad field of a search configuration."""
    sims = config.simulations
    if sims is None and time_limit is None:
        raise ConfigError("an MCTS agent needs a simulation budget or a time limit")
    if sims is not None and (isinstance(sims, bool) or not isinstance(sims, int) or sims < 1):
        raise ConfigError(f"simulations must be a positive integer, got {sims!r}")
    if time_limit is not None and not time_limit > 0:
        raise ConfigError(f"time_limit must be a positive number of seconds, got "
                          f"{time_limit!r}")
    if config.rollout not in ROLLOUTS:
        raise ConfigError(f"unknown rollout policy {config.rollout!r}; known: "
                          f"{sorted(ROLLOUTS)}")
    _check_optional_int("horizon", config.horizon, 0, "play to the end")
    if not config.prior >= 0:
        raise ConfigError(f"prior must be >= 0, got {config.prior!r}")
    for name in ("prior_budget", "horizon_budget", "horizon_cap"):
        _check_optional_int(name, getattr(config, name), 1, "off")
    if not config.exploration >= 0:
        raise ConfigError(f"exploration must be >= 0, got {config.exploration!r}")
    if not 0 <= config.epsilon <= 1:
        raise ConfigError(f"epsilon must be in [0, 1], got {config.epsilon!r}")


def _check_optional_int(name: str, value: Any, least: int, none: str) -> None:
    """``ConfigError`` unless ``value`` is None (meaning ``none``) or an integer >= ``least``."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < least):
        raise ConfigError(f"{name} must be None ({none}) or an integer >= {least}, got "
                          f"{value!r}")


class MCTSAgent(Agent):
    """Information-set MCTS for any game with a ``determinize`` kernel.

    ``simulations`` per move, or a ``time_limit`` in seconds per move (whichever ends
    first when both are given); ``rollout``, ``horizon``, ``prior``, ``exploration`` and
    ``epsilon`` as in :class:`SearchConfig`; every argument left out takes the game's row
    of :data:`DEFAULTS`. ``seed`` fixes every choice of the search: with a simulation
    budget and no time limit the agent is fully reproducible.
    """

    name = "mcts"
    needs_state = True

    def __init__(self, game: Game, simulations: Any = DEFAULT,
                 time_limit: float | None = None, rollout: Any = DEFAULT,
                 exploration: Any = DEFAULT, max_nodes: int | None = None,
                 seed: int | None = None, chunk: int = 16, horizon: Any = DEFAULT,
                 prior: Any = DEFAULT, epsilon: Any = DEFAULT,
                 prior_budget: Any = DEFAULT, horizon_budget: Any = DEFAULT,
                 horizon_cap: Any = DEFAULT):
        base = default_config(game.name)
        config = SearchConfig(
            simulations=_pick(simulations, base.simulations),
            rollout=_pick(rollout, base.rollout), horizon=_pick(horizon, base.horizon),
            prior=_pick(prior, base.prior), exploration=_pick(exploration, base.exploration),
            epsilon=_pick(epsilon, base.epsilon),
            prior_budget=_pick(prior_budget, base.prior_budget),
            horizon_budget=_pick(horizon_budget, base.horizon_budget),
            horizon_cap=_pick(horizon_cap, base.horizon_cap))
        check_config(config, time_limit)
        self.game = game
        self.config = config
        self.simulations = config.simulations
        self.time_limit = time_limit
        self.rollout = config.rollout
        self.exploration = float(config.exploration)
        self.chunk = chunk
        if max_nodes is None:
            max_nodes = 2 * (config.simulations or 20_000) + 2
        self.max_nodes = int(max_nodes)
        evaluate = eval_kernel(game.name)
        policy, self._rows = rollout_policy(game, config.rollout)
        self._kernel = search_kernel(game, policy, evaluate)
        # every random stream of the search in one array (what tools that save an agent's
        # stream, like training.play, copy): the search's own words, then the rollouts'
        self._words = np.zeros(2 * RNG_WORDS, dtype=np.int64)
        self._ints = np.zeros((self.max_nodes, INT_FIELDS), dtype=np.int64)
        self._floats = np.zeros((self.max_nodes, FLOAT_FIELDS), dtype=np.float64)
        self.name = "mcts" if config.simulations is None else f"mcts:{config.simulations}"
        self.reset(seed)

    def _params(self, state: State) -> np.ndarray:
        """The parameter row of ``state`` as the rollout policy reads it (extended with the
        tuned vector for ``tuned`` rollouts)."""
        if self._rows is None:
            return self.game.params_of(state)
        slot = self.game.variant_slot
        return self._rows[0 if slot < 0 else int(state.data[slot])]

    def reset(self, seed: int | None = None) -> None:
        seed = fresh_seed() if seed is None else seed
        self._words[:RNG_WORDS] = seeded_words(seed, 0x15C7)
        self._words[RNG_WORDS:] = seeded_words(seed, 0x0110)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise ConfigError(
            "the MCTS agent searches from the game state: call act_state(state, seat) (the "
            "tournament, evaluation and play tools do this for agents with needs_state)"
        )

    def act_state(self, state: State, seat: int) -> int:
        """The action of ``seat`` (to move in ``state``) after searching; a forced move
        (one legal action) is played without a search."""
        if self.game.current_player(state) == seat:
            legal = np.flatnonzero(self.legal_mask(state, seat))
            if legal.size == 1:
                return int(legal[0])
        return self.search(state, seat).action

    def search(self, state: State, seat: int) -> SearchResult:
        """Search from ``state`` for ``seat``; the state itself is not changed."""
        game = self.game
        config = self.config
        if game.current_player(state) != seat:
            raise ConfigError(f"seat {seat} is not to move (seat "
                              f"{game.current_player(state)} is)")
        ints, floats = self._ints, self._floats
        ints[0, :] = -1
        ints[0, mcts_loops.HINT] = UNKNOWN
        floats[0, :] = 0.0
        root = np.ascontiguousarray(state.data)
        horizon = config.horizon_at(self.simulations)
        n_nodes, done = 1, 0
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        while True:
            n = self.chunk if self.simulations is None else min(self.chunk,
                                                                self.simulations - done)
            if n <= 0:
                break
            n_nodes = int(self._kernel(root, self._params(state), seat, ints, floats, n_nodes, n,
                                       self.exploration,
                                       config.prior_at(self.simulations),
                                       ROLLOUTS[config.rollout], float(config.epsilon),
                                       horizon, self._words[:RNG_WORDS],
                                       self._words[RNG_WORDS:], game.num_players,
                                       game.num_actions, game.obs_size,
                                       as_loop_argument(self.forbidden, game.num_actions)))
            done += n
            if deadline is not None and time.perf_counter() >= deadline:
                break
        visits = np.zeros(game.num_actions, dtype=np.float64)
        values = np.zeros(game.num_actions, dtype=np.float64)
        c = ints[0, FIRST]
        while c >= 0:
            a = ints[c, ACTION]
            visits[a] = floats[c, VISITS]
            values[a] = floats[c, VALUE] / max(floats[c, VISITS], 1.0)
            c = ints[c, NEXT]
        mask = self.legal_mask(state, seat)
        # most visits; ties to the better mean value, then the lower action
        order = np.lexsort((-np.arange(game.num_actions), values, visits))
        legal_order = [a for a in order[::-1] if mask[a]]
        return SearchResult(int(legal_order[0]), visits, values, done, n_nodes)


def is_search_spec(spec: str) -> bool:
    """Whether an agent spec names the search agent (``mcts`` or ``mcts:...``)."""
    return spec == "mcts" or spec.startswith("mcts:")


def parse_spec(spec: str) -> dict:
    """``mcts``, ``mcts:N`` (N simulations per move) or ``mcts:N:ROLLOUT`` (rollouts by
    ``random``, ``rule_based`` or ``tuned``) as MCTSAgent keyword arguments."""
    if spec == "mcts":
        return {}
    parts = spec.split(":")
    usage = (f"bad search agent spec {spec!r}: use 'mcts', 'mcts:N' or 'mcts:N:ROLLOUT' with "
             f"N >= 1 and ROLLOUT one of {sorted(ROLLOUTS)}")
    if parts[0] != "mcts" or len(parts) > 3 or not parts[1].isdigit() or int(parts[1]) < 1:
        raise ConfigError(usage)
    kwargs: dict = {"simulations": int(parts[1])}
    if len(parts) == 3:
        if parts[2] not in ROLLOUTS:
            raise ConfigError(usage)
        kwargs["rollout"] = parts[2]
    return kwargs
