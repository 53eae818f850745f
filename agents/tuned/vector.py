"""Tuned parameter-vector files (JSON) of every game with a tuned policy: ``TunedVector``,
``load`` and the layout each game's vectors follow.

A game's layout is the module ``transit_gym.agents.tuned.<game>_layout`` (the season's is
the race's, :data:`LAYOUT_OF`): ``GAME``, ``LAYOUT_VERSION``, ``VECTOR_SIZE``, ``names()``
(one name per entry), ``rule_based_vector()`` (the point that plays as the rule-based agent)
and, for the generic tuner, ``scales()`` (one optimiser unit per entry); ``VERSION_SIZES``
where older layouts are still read. A file of an older layout (a prefix of today's names)
is read with the entries it lacks at their rule-based values, so it plays as before.

The Automobiles layout's names (``K_KEEP``, ``card_param``, ``rule_based_vector``...) are
read through from :mod:`transit_gym.agents.tuned.automobiles_layout`.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

from transit_gym.agents.tuned import automobiles_layout
from transit_gym.agents.tuned.automobiles_layout import CARDS
from transit_gym.envs.core.errors import ConfigError

#: the Automobiles layout's version and game (kept for its older callers)
LAYOUT_VERSION = automobiles_layout.LAYOUT_VERSION
GAME = automobiles_layout.GAME
#: games that play another game's vectors
LAYOUT_OF = {"automobiles_season": "automobiles"}


def __getattr__(name: str):
    """The Automobiles layout's names read through from
    :mod:`transit_gym.agents.tuned.automobiles_layout`."""
    try:
        return getattr(automobiles_layout, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def layout_game(game: str) -> str:
    """The game whose vector layout ``game`` plays (the season: the race's)."""
    return LAYOUT_OF.get(game, game)


def layout(game: str) -> ModuleType:
    """The layout module of ``game``'s vectors (ConfigError for a game without one)."""
    name = layout_game(game)
    try:
        return importlib.import_module(f"transit_gym.agents.tuned.{name}_layout")
    except ModuleNotFoundError:
        raise ConfigError(f"no tuned vector layout for game {game!r}") from None


def version_sizes(lay: ModuleType) -> dict[int, int]:
    """Layout version -> entries a file of that version holds."""
    return getattr(lay, "VERSION_SIZES", {lay.LAYOUT_VERSION: lay.VECTOR_SIZE})


def card_of_name(name: str) -> int:
    """Card index of a card's data name ("Camber & Toe") or effect name ("camber_toe")."""
    key = name.strip().lower().replace("&", "").replace(" ", "_").replace("__", "_")
    key = {"diesel_engine": "diesel", "hybrid_engine": "hybrid", "rotary_engine": "rotary",
           "fuel_injection_engine": "fuel_injection", "bump__run": "bump_run",
           "camber__toe": "camber_toe"}.get(key, key)
    if key not in CARDS:
        raise ConfigError(f"unknown Automobiles card {name!r}; known: {', '.join(CARDS)}")
    return CARDS.index(key)


@dataclass
class TunedVector:
    """A parameter vector of ``game``'s layout with what it was tuned for."""

    values: np.ndarray
    market: dict = field(default_factory=dict)   # the configuration it was tuned on
    meta: dict = field(default_factory=dict)     # optimiser, seed, budget, score...
    game: str = GAME

    def __post_init__(self) -> None:
        self.game = layout_game(self.game)
        size = layout(self.game).VECTOR_SIZE
        self.values = np.asarray(self.values, dtype=np.float64)
        if self.values.shape != (size,):
            raise ConfigError(f"a tuned {self.game} vector has {size} entries, "
                              f"got shape {self.values.shape}")
        if not np.all(np.isfinite(self.values)):
            raise ConfigError("a tuned vector must hold finite numbers only")

    def to_json(self) -> dict:
        lay = layout(self.game)
        return {"game": self.game, "layout_version": lay.LAYOUT_VERSION,
                "market": self.market, "meta": self.meta,
                "params": dict(zip(lay.names(), self.values.tolist(), strict=True))}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        return path


def load(path: str | Path, game: str = GAME) -> TunedVector:
    """Read a vector file of ``game``'s layout; a wrong game, layout version or parameter
    set is a ConfigError."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"no tuned vector file {str(path)!r}")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ConfigError(f"tuned vector file {str(path)!r} is not JSON: {err}") from None
    expected_game = layout_game(game)
    if not isinstance(data, dict) or data.get("game") != expected_game:
        found = data.get("game") if isinstance(data, dict) else None
        raise ConfigError(f"{str(path)!r} is a vector for game {found!r}, "
                          f"not {expected_game!r}")
    lay = layout(expected_game)
    sizes = version_sizes(lay)
    version = data.get("layout_version")
    if isinstance(version, bool) or version not in sizes:
        raise ConfigError(f"{str(path)!r} has layout version {version!r}; this code reads "
                          f"versions {', '.join(map(str, sizes))}")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise ConfigError(f"{str(path)!r}: 'params' must be a table of name -> number")
    size = sizes[version]
    expected = lay.names()[:size]
    missing = [n for n in expected if n not in params]
    extra = [n for n in params if n not in expected]
    if missing or extra:
        raise ConfigError(f"{str(path)!r} (layout {version}): parameters missing "
                          f"{missing[:5]} / unknown {extra[:5]}")
    values = lay.rule_based_vector()   # entries an older layout lacks: their rule-based values
    try:
        values[:size] = [float(params[n]) for n in expected]
    except (TypeError, ValueError):
        raise ConfigError(f"{str(path)!r}: every parameter must be a number") from None
    return TunedVector(values, data.get("market", {}), data.get("meta", {}), expected_game)
