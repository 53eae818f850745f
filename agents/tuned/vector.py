"""The tuned Automobiles policy's vector files (JSON): ``TunedVector``, ``load`` and the
layout versions it reads. The layout itself (the name and index of every entry, the
rule-based point ``rule_based_vector``) is :mod:`transit_gym.agents.tuned.automobiles_layout`,
re-exported here.

A file of an older layout (``VERSION_SIZES``: a prefix of today's names) is read with the
entries it lacks at their rule-based values, so it plays as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from transit_gym.agents.tuned import automobiles_layout
from transit_gym.agents.tuned.automobiles_layout import (
    CARDS,
    CHOICE_BASE,
    SPONSOR_BASE,
    VECTOR_SIZE,
    names,
    rule_based_vector,
)
from transit_gym.envs.core.errors import ConfigError

#: bump when the layout changes: an older file is read with the entries it lacks at their
#: rule-based values, a file of an unknown version is refused
LAYOUT_VERSION = 3
#: layout 1 (before the choices block) and 2 (before the sponsor block) still load
READABLE_LAYOUTS = (1, 2, 3)
GAME = "automobiles"
#: layout version -> entries a file of that version holds (a prefix of today's names)
VERSION_SIZES = {1: CHOICE_BASE, 2: SPONSOR_BASE, 3: VECTOR_SIZE}


def __getattr__(name: str):
    """The layout's names (``K_KEEP``, ``card_param``, ``rule_based_vector``...) read
    through from :mod:`transit_gym.agents.tuned.automobiles_layout`."""
    try:
        return getattr(automobiles_layout, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


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
    """A parameter vector with what it was tuned for."""

    values: np.ndarray
    market: dict = field(default_factory=dict)   # the configuration it was tuned on
    meta: dict = field(default_factory=dict)     # optimiser, seed, budget, score...

    def __post_init__(self) -> None:
        self.values = np.asarray(self.values, dtype=np.float64)
        if self.values.shape != (VECTOR_SIZE,):
            raise ConfigError(f"a tuned {GAME} vector has {VECTOR_SIZE} entries, "
                              f"got shape {self.values.shape}")
        if not np.all(np.isfinite(self.values)):
            raise ConfigError("a tuned vector must hold finite numbers only")

    def to_json(self) -> dict:
        return {"game": GAME, "layout_version": LAYOUT_VERSION, "market": self.market,
                "meta": self.meta, "params": dict(zip(names(), self.values.tolist(), strict=True))}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        return path


def load(path: str | Path) -> TunedVector:
    """Read a vector file; a wrong game, layout version or parameter set is a ConfigError."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"no tuned vector file {str(path)!r}")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ConfigError(f"tuned vector file {str(path)!r} is not JSON: {err}") from None
    if data.get("game") != GAME:
        raise ConfigError(f"{str(path)!r} is a vector for game {data.get('game')!r}, "
                          f"not {GAME!r}")
    version = data.get("layout_version")
    if isinstance(version, bool) or version not in READABLE_LAYOUTS:
        raise ConfigError(f"{str(path)!r} has layout version {version!r}; this code reads "
                          f"versions {', '.join(map(str, READABLE_LAYOUTS))}")
    params = data.get("params", {})
    size = VERSION_SIZES[version]
    expected = names()[:size]
    missing = [n for n in expected if n not in params]
    extra = [n for n in params if n not in expected]
    if missing or extra:
        raise ConfigError(f"{str(path)!r} (layout {version}): parameters missing "
                          f"{missing[:5]} / unknown {extra[:5]}")
    values = rule_based_vector()   # entries an older layout lacks: their rule-based values
    values[:size] = [float(params[n]) for n in expected]
    return TunedVector(values, data.get("market", {}), data.get("meta", {}))

