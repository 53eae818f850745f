"""The game/state split shared by every environment (after OpenSpiel).

A :class:`Game` is a configured ruleset: player count, options, data tables
packed into an ``int64`` parameter vector, and the game's jitted kernels. A
:class:`State` is one position: a flat ``int64`` vector (random generator
included) plus a reference to its game. All rules run in the kernels, which
every game provides with the same signatures (see :class:`Kernels`), so the AEC
env, the batch API and the rollouts are written once in ``transit_gym.envs.core``.
"""

from __future__ import annotations

import importlib
import inspect
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from transit_gym.envs.core.datafile import check_path
from transit_gym.envs.core.embedded import UserFile
from transit_gym.envs.core.errors import (
    ConfigError,
    IllegalActionError,
    StateDictError,
    illegal_action_message,
    unknown_keywords_message,
)
from transit_gym.envs.core.layout import Layout
from transit_gym.envs.core.rng import RNG_WORDS, fresh_seed, seeded_words
from transit_gym.envs.core.variants import VARIANT_FIELD, start_variant

STATE_FORMAT = 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class Kernels:
    """The jitted functions a game provides; ``s`` is the state vector, ``p`` the params.

    - ``init(s, p)``: set up a new game; ``s[0:4]`` already holds the seeded generator.
    - ``legal_mask(s, p, mask)``: write the int8 mask of the pending decision.
    - ``apply(s, p, action)``: play a legal action (no checking) and resolve chance.
    - ``current_player(s, p) -> int``: the seat that decides next, -1 when the game is over.
    - ``rewards(s, p, out)``: terminal rewards per seat (float32).
    - ``observe(s, p, seat, out)``: the float32 observation of one seat.
    """

    init: Callable
    legal_mask: Callable
    apply: Callable
    current_player: Callable
    rewards: Callable
    observe: Callable
    #: ``violation(s, p, where) -> int``: 0 when the kernels can run on ``s``, else a code
    #: (see ``Game.violation_messages``); ``where`` (int64[3]) receives the index in ``s``
    #: of the offending slot (-1 for a broken sum or relation) and the allowed lowest and
    #: highest value (both -1 when no single range applies)
    violation: Callable | None = None
    #: ``determinize(s, p, seat, rng)``: re-sample in place everything ``seat`` cannot see
    #: (deck and bag order, hidden contents, other hands, hidden tiles, and the state's own
    #: generator words ``s[0:4]``, i.e. future chance), drawing from ``rng`` (int64[4]
    #: xoshiro128** words of the searcher, advanced). The result depends only on what
    #: ``seat`` has seen and on ``rng``; it keeps every conserved quantity and passes
    #: ``violation``
    determinize: Callable | None = None

    @classmethod
    def of(cls, rules_module, observe: Callable, violation: Callable | None = None,
           determinize: Callable | None = None) -> Kernels:
        """The kernels of a game whose rules module defines ``init``, ``legal_mask``,
        ``apply``, ``current_player`` and ``rewards``."""
        return cls(init=rules_module.init, legal_mask=rules_module.legal_mask,
                   apply=rules_module.apply, current_player=rules_module.current_player,
                   rewards=rules_module.rewards, observe=observe, violation=violation,
                   determinize=determinize)


class Game(ABC):
    """A configured game. Subclasses set the class attributes and ``_build``."""

    name: ClassVar[str] = ""
    layout: ClassVar[Layout]
    kernels: ClassVar[Kernels]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: module with ``render_text(game, state)`` and ``render_rgb(game, state)`` (imported
    #: on first use, so rendering code stays out of the rules)
    render_module: ClassVar[str | None] = None
    #: module with the jitted per-seat ``strengths(s, p, out)`` and its ``SCALE``: the
    #: measure of the reward-shaping potential (``envs.core.shaping``)
    potential_module: ClassVar[str | None] = None
    #: the observation layout, when it does not depend on the options
    obs: ClassVar[Layout | None] = None
    #: the option naming the seat that starts (a seat number or ``"random"``); sweeps
    #: and tournaments set it to 0 so that seat 0 is the first in turn order
    start_option: ClassVar[str] = "first_player"
    #: option sets that draw at random, each drawn at ``reset(seed)`` from the reset seed
    #: (a draw in ``init`` from the state's generator, or a parameter row per candidate:
    #: ``param_table``); the cross-game tests run PettingZoo's seed test on each
    random_options: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: what each code of ``kernels.violation`` means
    violation_messages: ClassVar[dict[int, str]] = {}
    #: observation bounds used until a game declares per-slot ones (``obs_low_high``)
    obs_bounds: ClassVar[tuple[float, float]] = (0.0, float("inf"))

    num_players: int
    num_actions: int
    obs_size: int
    #: index in the state vector of the ``variant`` field (the state's parameter row), or
    #: -1 when the game has a single row (no option drawn per reset)
    variant_slot: int = -1

    @classmethod
    def option_names(cls) -> list[str]:
        """The rule options this game accepts (the keywords of ``_build``), without
        ``num_players``."""
        params = inspect.signature(cls._build).parameters
        return [name for name in params if name != "self"]

    def __init__(self, num_players: int | None = None, **options: Any):
        if num_players is None:
            num_players = self.min_players
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise ConfigError(f"num_players must be an integer, got {num_players!r}")
        if not self.min_players <= int(num_players) <= self.max_players:
            raise ConfigError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"got num_players={num_players}"
            )
        self.num_players = int(num_players)
        unknown = set(options) - set(self.option_names())
        if unknown:
            raise ConfigError(unknown_keywords_message(
                unknown, ["num_players", *self.option_names()], self.name))
        self._options = dict(options)
        self._data_files: dict[str, UserFile] = {}
        self._build(**options)
        restoring = getattr(self, "_restoring", None)
        if restoring is not None:
            unused = sorted(set(restoring) - set(self._data_files))
            if unused:
                raise StateDictError(
                    f"state dict embeds data files for {unused}, but those options of "
                    f"{self.name} name no data file"
                )
            del self._restoring
        self._seal_params()

    # ----- parameters: one row, or a table of rows drawn per reset ----------------------------
    @property
    def params(self) -> np.ndarray:
        """The parameter vector of a game with a single row. A game that draws an option
        per reset has one row per candidate: use :meth:`params_of` (``ConfigError`` here)."""
        table = self._param_table
        if table.shape[0] > 1:
            raise ConfigError(
                f"{self!r} draws its parameters per reset ({table.shape[0]} rows): use "
                f"game.params_of(state) for the row of a state")
        return table[0]

    @params.setter
    def params(self, value: np.ndarray) -> None:
        self._param_table = np.asarray(value)[None, :]
        self._rows = list(self._param_table)

    @property
    def param_table(self) -> np.ndarray:
        """Every parameter row, shape ``(num_variants, P)`` (C-contiguous int64)."""
        return self._param_table

    @param_table.setter
    def param_table(self, value: np.ndarray) -> None:
        value = np.asarray(value)
        if value.ndim != 2 or value.shape[0] < 1:
            raise ValueError(f"param_table must be 2-D with at least one row, "
                             f"got shape {value.shape}")
        self._param_table = value
        self._rows = list(value)

    @property
    def num_variants(self) -> int:
        """How many parameter rows a new game draws from (1: nothing drawn per reset)."""
        return int(self._param_table.shape[0])

    def params_of(self, state: State | np.ndarray) -> np.ndarray:
        """The parameter row the kernels take for ``state`` (a ``State`` or its vector):
        the row its ``variant`` field names, the only row of a game without one."""
        if self.variant_slot < 0:
            return self._rows[0]
        data = state.data if isinstance(state, State) else state
        return self._rows[int(data[self.variant_slot])]

    @property
    def observation_params(self) -> np.ndarray:
        """The row handed to an observation-only policy kernel when no state is at hand
        (row 0). Such a kernel may read from ``p`` only what every row shares (player
        count, option flags); what differs per row (the board) it reads from the
        observation."""
        return self._param_table[0]

    def _seal_params(self) -> None:
        """Freeze the table as C-contiguous int64 and, with several rows, extend this
        game's state layout by the ``variant`` field (last slot)."""
        self._param_table = np.ascontiguousarray(self._param_table, dtype=np.int64)
        self._rows = list(self._param_table)   # views, one per row (params_of is hot)
        if self._param_table.shape[0] > 1:
            base = type(self).layout
            self.layout = Layout([*((n, base.length(n)) for n in base.names()),
                                  (VARIANT_FIELD, 1)])
            self.variant_slot = base.size

    def _check_variant(self, data: np.ndarray) -> None:
        """``StateDictError`` unless the state's ``variant`` indexes a parameter row."""
        if self.variant_slot < 0:
            return
        v = int(data[self.variant_slot])
        if not 0 <= v < self.num_variants:
            raise StateDictError(
                f"{self.name} state rejected: field {VARIANT_FIELD} = {v}, allowed "
                f"0..{self.num_variants - 1} (the parameter rows of {self!r})")

    @classmethod
    def restore(cls, options: dict[str, Any], data_files: Any = None) -> Game:
        """The game of a saved state (``State.from_dict``, unpickling). An option naming a
        user data file takes the file's content from ``data_files`` (``{option: {"path",
        "sha256", "text"}}``, digest checked) and never opens the path; a path without
        embedded content is refused. Bad options raise ``StateDictError``."""
        if not isinstance(options, dict) or any(not isinstance(k, str) for k in options):
            raise StateDictError(f"state dict 'options' must be a table of named options, "
                                 f"got {options!r:.120}")
        if data_files is None:
            data_files = {}
        if not isinstance(data_files, dict):
            raise StateDictError(f"state dict 'data_files' must be a table, got "
                                 f"{type(data_files).__name__}")
        game = cls.__new__(cls)
        game._restoring = dict(data_files)
        try:
            game.__init__(**options)
        except StateDictError:
            raise
        except (ValueError, TypeError, OverflowError, LookupError) as exc:
            raise StateDictError(f"state dict options are invalid: {exc}") from exc
        return game

    def _data_file(self, option: str, value: Any, builtin: Collection[str] = ()) -> Any:
        """Resolve option ``option`` that may name a user data file: ``None`` and the
        ``builtin`` names are returned as they are (the game's shipped files); a path (str
        or ``Path``) becomes a :class:`UserFile`, read once here, or, for a game rebuilt
        from a saved state, taken from the state's embedded copy without opening the
        path; a :class:`UserFile` (a game passing its own file on to the games it is made
        of) is taken as it is. Any other value is a ``ConfigError`` naming the option."""
        if value is None or (isinstance(value, str) and value in builtin):
            return value
        if isinstance(value, UserFile):
            self._options[option] = value.path
            self._data_files[option] = value
            return value
        if not isinstance(value, str):   # a Path kept as a string; else a ConfigError
            value = str(check_path(value, option))
            self._options[option] = value
        restoring = getattr(self, "_restoring", None)
        if restoring is not None:
            if option not in restoring:
                raise StateDictError(
                    f"option {option}={value!r} names a data file, but the state dict embeds "
                    f"no content for it (saved states carry their data files; paths are "
                    f"never opened when loading)"
                )
            file = UserFile.from_embedded(option, value, restoring[option])
        else:
            file = UserFile.read(value, option)
        self._data_files[option] = file
        return file

    @property
    def data_files(self) -> dict[str, UserFile]:
        """The user data files this game was built from, by option (text and digest)."""
        return dict(self._data_files)

    # ----- to be provided by each game -----------------------------------------------------
    @abstractmethod
    def _build(self, **options: Any) -> None:
        """Validate options; set ``num_actions``, ``obs_size`` and ``params``."""

    def describe_action(self, state: State, action: int) -> str:
        """The action in words, for the current decision of ``state``."""
        return f"action {action}"

    def render_text(self, state: State) -> str:
        """The table as text (the ``ansi`` render): ``render_module.render_text``."""
        return self._renderer().render_text(self, state)

    def render_rgb(self, state: State) -> np.ndarray:
        """A picture of the table, ``(H, W, 3) uint8``: ``render_module.render_rgb``."""
        return self._renderer().render_rgb(self, state)

    def _renderer(self):
        if not self.render_module:
            raise ConfigError(f"{self.name} has no renderer (set Game.render_module)")
        return importlib.import_module(self.render_module)

    def final_info(self, state: State) -> list[dict[str, Any]]:
        """Per-seat scores, ranks and statistics for ``infos`` at the end."""
        return [{} for _ in range(self.num_players)]

    def step_info(self, state: State) -> list[dict[str, Any]] | None:
        """Per-seat dicts for ``infos`` after a step that did not end the game (e.g. a
        finished stage of a campaign), or None: nothing new. The env calls it only when a
        game overrides it (``has_step_info``); the dicts replace each agent's info."""
        return None

    @property
    def has_step_info(self) -> bool:
        """Whether this game publishes infos during the game (overrides ``step_info``)."""
        return type(self).step_info is not Game.step_info

    def check_invariants(self, state: State) -> None:  # noqa: B027 - optional hook
        """Raise ``AssertionError`` naming the broken invariant (conservation, bounds)."""

    def obs_layout(self) -> Layout:
        """Named slices of the observation vector."""
        if self.obs is not None:
            return self.obs
        return Layout([("observation", self.obs_size)])

    def obs_low_high(self) -> tuple[np.ndarray, np.ndarray]:
        """True per-slot bounds of the observation (float32 arrays of ``obs_size``): every
        observation of every reachable state lies inside them, and no slot has ``low == high``
        (``layout.widen_fixed_slots``). Games override this with tight bounds per field; the
        default spreads ``obs_bounds`` over every slot."""
        low, high = self.obs_bounds
        return (np.full(self.obs_size, low, dtype=np.float32),
                np.full(self.obs_size, high, dtype=np.float32))

    def obs_one_hot_groups(self) -> list[slice]:
        """Slices of the observation that are one-hot codes (each sums to at most 1)."""
        return []

    # ----- validation of states from outside ---------------------------------------------------
    def validate(self, state: State) -> None:
        """Raise ``StateDictError`` unless the kernels can safely run on ``state``.

        Checks the vector's shape and type, runs the game's jitted ``violation`` check
        (every index and count a kernel reads, conservation, the pending decision), then
        requires a legal action while the game runs, then the Python invariants. Every
        state entering from outside (``State.from_dict``, ``set_state``, unpickling,
        ``BatchEnv.load``) passes through here.
        """
        data = state.data
        if not isinstance(data, np.ndarray) or data.dtype != np.int64 or data.ndim != 1:
            raise StateDictError(
                f"{self.name} state must be a 1-D int64 array, got "
                f"{getattr(data, 'dtype', type(data).__name__)} {getattr(data, 'shape', '')}"
            )
        if data.shape[0] != self.layout.size:
            raise StateDictError(
                f"{self.name} state must have {self.layout.size} slots, got {data.shape[0]}"
            )
        if not data.flags.c_contiguous:
            raise StateDictError(f"{self.name} state vector must be contiguous")
        self._check_variant(data)
        p = self.params_of(state)
        violation = self.kernels.violation
        if violation is not None:
            where = np.full(3, -1, dtype=np.int64)
            code = int(violation(data, p, where))
            if code:
                raise StateDictError(self._violation_message(data, code, where))
        try:
            self.check_invariants(state)
        except (AssertionError, ArithmeticError, LookupError, TypeError, ValueError) as exc:
            raise StateDictError(f"{self.name} state is inconsistent: {exc}") from exc
        if self.kernels.current_player(data, p) >= 0:
            mask = np.zeros(self.num_actions, dtype=np.int8)
            self.kernels.legal_mask(data, p, mask)
            if not mask.any():
                raise StateDictError(
                    f"{self.name} state is a live game (seat "
                    f"{int(self.kernels.current_player(data, p))} to move) with no "
                    f"legal action"
                )

    def adopt(self, state: Any) -> State:
        """A validated copy of ``state`` for this game (``set_state``, ``BatchEnv.load``):
        ``StateDictError`` unless it is a ``State`` of an equal game holding a 1-D int64
        vector that passes :meth:`validate`."""
        if not isinstance(state, State):
            raise StateDictError(f"expected a State of {self!r}, got {type(state).__name__}")
        if state.game != self:
            raise StateDictError(f"state is for {state.game!r}, this one plays {self!r}")
        data = state.data
        if not isinstance(data, np.ndarray) or data.dtype != np.int64:
            raise StateDictError(
                f"state vector must be an int64 array, got "
                f"{getattr(data, 'dtype', type(data).__name__)}"
            )
        candidate = State(self, np.array(data, dtype=np.int64, copy=True, order="C"))
        self.validate(candidate)
        return candidate

    def _violation_message(self, data: np.ndarray, code: int, where: np.ndarray) -> str:
        meaning = self.violation_messages.get(code, "see the game's violation_messages")
        text = f"{self.name} state rejected (check {code}: {meaning})"
        index, low, high = (int(v) for v in where)
        if 0 <= index < data.shape[0]:
            name, pos = self.layout.locate(index)
            label = name if self.layout.length(name) == 1 else f"{name}[{pos}]"
            text += f": field {label} = {int(data[index])}"
            if low != -1 or high != -1:
                text += f", allowed {low}..{high}"
        return text

    def determinize(self, state: State, seat: int, seed: int = 0) -> State:
        """A copy of ``state`` in which everything ``seat`` cannot see is re-sampled from
        ``seed`` (the game's ``determinize`` kernel; future chance included)."""
        if self.kernels.determinize is None:
            raise ConfigError(f"game {self.name!r} has no determinize kernel")
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not (
                0 <= seat < self.num_players):
            raise ConfigError(f"seat must be 0..{self.num_players - 1}, got {seat!r}")
        out = state.copy()
        self.kernels.determinize(out.data, self.params_of(out), int(seat),
                                 seeded_words(seed, 0xDE7))
        return out

    # ----- identity --------------------------------------------------------------------------
    @property
    def options(self) -> dict[str, Any]:
        """The constructor options (JSON-safe), enough to rebuild this game."""
        return {"num_players": self.num_players, **self._options}

    def embedded_files(self) -> dict[str, dict[str, str]]:
        """The user data files in the JSON-safe form saved states carry."""
        return {k: f.embedded() for k, f in self._data_files.items()}

    def _digests(self) -> dict[str, str]:
        return {k: f.sha256 for k, f in self._data_files.items()}

    def __reduce__(self):
        return (_rebuild_game, (type(self), self.options, self.embedded_files()))

    def __eq__(self, other: object) -> bool:
        return (type(self) is type(other) and self.options == other.options  # type: ignore[attr-defined]
                and self._digests() == other._digests())  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, json.dumps(self.options, sort_keys=True, default=str),
                     tuple(sorted(self._digests().items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"

    # ----- rules -----------------------------------------------------------------------------
    def new_state(self, seed: int | None = None, stream: int = 0) -> State:
        """A new game, every chance event fixed by ``seed`` and ``stream`` (fresh entropy
        when ``seed`` is None); an option drawn per reset (the parameter row) included."""
        data = np.zeros(self.layout.size, dtype=np.int64)
        data[:RNG_WORDS] = seeded_words(fresh_seed() if seed is None else seed, stream)
        self.kernels.init(data, start_variant(data, self._param_table, self.variant_slot))
        return State(self, data)

    def legal_mask(self, state: State) -> np.ndarray:
        """The int8 mask of the pending decision (all zero when the game is over)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        self.kernels.legal_mask(state.data, self.params_of(state), mask)
        return mask

    def legal_actions(self, state: State) -> list[int]:
        """Legal actions of the pending decision, ascending."""
        return [int(a) for a in np.flatnonzero(self.legal_mask(state))]

    def current_player(self, state: State) -> int:
        """Seat deciding now, or -1 when the game is over."""
        return int(self.kernels.current_player(state.data, self.params_of(state)))

    def is_over(self, state: State) -> bool:
        return self.current_player(state) < 0

    def check_action(self, state: State, action: Any, mask: np.ndarray | None = None) -> int:
        """Return ``action`` as an int, or raise ``IllegalActionError`` naming the legal ones."""
        if mask is None:
            mask = self.legal_mask(state)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
                action = int(action)
            else:
                legal = [int(a) for a in np.flatnonzero(mask)]
                raise IllegalActionError(
                    illegal_action_message(action, legal, lambda a: self.describe_action(state, a))
                )
        action = int(action)
        if not (0 <= action < self.num_actions) or mask[action] == 0:
            legal = [int(a) for a in np.flatnonzero(mask)]
            if not legal:
                raise IllegalActionError(f"illegal action {action!r}: the game is over")
            raise IllegalActionError(
                illegal_action_message(action, legal, lambda a: self.describe_action(state, a))
            )
        return action

    def apply(self, state: State, action: int) -> None:
        """Play ``action`` in place after checking it is legal."""
        action = self.check_action(state, action)
        self.kernels.apply(state.data, self.params_of(state), action)

    def rewards(self, state: State) -> np.ndarray:
        """Terminal rewards per seat (zeros while the game runs)."""
        out = np.zeros(self.num_players, dtype=np.float32)
        if self.is_over(state):
            self.kernels.rewards(state.data, self.params_of(state), out)
        return out

    def observe(self, state: State, seat: int) -> np.ndarray:
        """The observation vector of ``seat``: only what that seat may see."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be in 0..{self.num_players - 1}, got {seat}")
        out = np.zeros(self.obs_size, dtype=np.float32)
        self.kernels.observe(state.data, self.params_of(state), seat, out)
        return out

    # ----- state dictionaries ----------------------------------------------------------------
    def state_from_dict(self, payload: dict[str, Any]) -> State:
        """Rebuild a state of this game from ``State.to_dict()`` output."""
        if not isinstance(payload, dict):
            raise StateDictError(f"state dict must be a dict, got {type(payload).__name__}")
        if payload.get("game") != self.name:
            raise StateDictError(
                f"state dict is for game {payload.get('game')!r}, not {self.name!r}"
            )
        fmt = payload.get("format")
        if type(fmt) is not int or fmt != STATE_FORMAT:
            raise StateDictError(f"unsupported state format {payload.get('format')!r}")
        fields = payload.get("fields")
        if not isinstance(fields, dict):
            raise StateDictError("state dict has no 'fields' table")
        expected = self.layout.names()
        missing = [n for n in expected if n not in fields]
        extra = [n for n in fields if n not in self.layout.fields]
        if missing or extra:
            raise StateDictError(f"state fields differ: missing {missing}, unexpected {extra}")
        data = np.zeros(self.layout.size, dtype=np.int64)
        for name in expected:
            values = fields[name]
            size = self.layout.length(name)
            if not isinstance(values, list) or len(values) != size:
                raise StateDictError(f"state field {name!r} must be a list of {size} integers")
            if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
                raise StateDictError(f"state field {name!r} must hold integers only")
            if any(not INT64_MIN <= v <= INT64_MAX for v in values):
                raise StateDictError(
                    f"state field {name!r} holds a value outside the int64 range"
                )
            data[self.layout.slice(name)] = values
        state = State(self, data)
        self.validate(state)
        return state


def _rebuild_game(cls: type[Game], options: dict[str, Any],
                  data_files: dict[str, Any] | None = None) -> Game:
    """Unpickling a game: user data files come from the pickle, paths are not opened."""
    return cls.restore(options, data_files)


class State:
    """One position of a game: a flat int64 vector with named fields, RNG included."""

    __slots__ = ("game", "data")

    def __init__(self, game: Game, data: np.ndarray):
        self.game = game
        self.data = data

    def copy(self) -> State:
        """An independent copy (the future, chance included, is the same)."""
        return State(self.game, self.data.copy())

    def __getitem__(self, name: str) -> np.ndarray:
        """A writable view of field ``name``."""
        return self.data[self.game.layout.slice(name)]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.game == other.game
            and np.array_equal(self.data, other.data)
        )

    def __hash__(self) -> int:
        return hash((self.game, self.data.tobytes()))

    def __reduce__(self):
        return (_restore_state, (self.game, self.data.copy()))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: game name, options, every field as a list of ints, and
        (under ``data_files``) the text and SHA-256 of each user data file the game was
        built from, so that loading never needs to open a path."""
        out: dict[str, Any] = {
            "game": self.game.name,
            "format": STATE_FORMAT,
            "options": self.game.options,
            "fields": {
                n: [int(v) for v in self.data[s]] for n, s in self.game.layout.fields.items()
            },
        }
        files = self.game.embedded_files()
        if files:
            out["data_files"] = files
        return out

    @staticmethod
    def from_dict(payload: dict[str, Any]) -> State:
        """Rebuild a state (and its game) from ``to_dict()`` output; validates everything.
        User data files come from the dict's ``data_files`` (digest checked); no path named
        in the options is ever opened."""
        from transit_gym.envs.core.catalog import GAMES, game_class

        if not isinstance(payload, dict) or "game" not in payload:
            raise StateDictError("state dict must be a dict with a 'game' entry")
        name = payload["game"]
        if not isinstance(name, str) or name not in GAMES:
            raise StateDictError(f"state dict names game {name!r}; games: {sorted(GAMES)}")
        unknown = sorted(set(payload) - {"game", "format", "options", "fields", "data_files"})
        if unknown:
            raise StateDictError(f"state dict has unexpected entries {unknown}")
        options = payload.get("options")
        if not isinstance(options, dict):
            raise StateDictError("state dict has no 'options' table")
        game = game_class(name).restore(options, payload.get("data_files"))
        return game.state_from_dict(payload)

    def __repr__(self) -> str:
        return f"State({self.game.name}, player={self.game.current_player(self)})"


def _restore_state(game: Game, data: np.ndarray) -> State:
    """Unpickling: a state from bytes is validated like one from a dict."""
    state = State(game, np.ascontiguousarray(data))
    game.validate(state)
    return state
