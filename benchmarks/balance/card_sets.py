"""Which configurations a balance sweep compares: card sets, or the default game.

Only Automobiles has card sets (five cards, one per colour). Every game accepts
``none``: a single configuration, for seat balance and game length alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.core.datafile import read_text
from transit_gym.envs.core.errors import ConfigError

GAMES_WITH_SETS = {"automobiles", "automobiles_season"}


def parse_sets(game: str, spec: str | None, seed: int,
               base_options: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``[(set name, env options)]`` for ``--sets``: suggested (the base game's seven),
    expansion (the Racing Season's six), random:N (base cards), a file, none."""
    if spec is None:
        spec = "suggested" if game in GAMES_WITH_SETS else "none"
    if spec == "none":
        return [("default", {})]
    if game not in GAMES_WITH_SETS:
        raise ConfigError(f"--sets {spec!r}: {game} has no card sets; use --sets none")
    cards = _automobiles_cards(base_options.get("card_data"))
    if spec == "suggested":
        return [(name, {"card_set": name}) for name in cards.base_sets]
    if spec == "expansion":
        return [(name, {"card_set": name}) for name in cards.expansion_sets]
    if spec.startswith("random:"):
        count = spec.split(":", 1)[1]
        if not count.isdigit() or int(count) < 1:
            raise ConfigError(f"--sets random:N needs a positive N, got {spec!r}")
        return random_sets(cards, int(count), seed)
    path = Path(spec)
    if not path.exists():
        raise ConfigError(f"--sets must be suggested, expansion, random:N, none or a file; "
                          f"{spec!r} is none of these (no such file)")
    return sets_from_file(path, cards)


def _automobiles_cards(card_data: str | None):
    from transit_gym.envs.automobiles.data import load_cards

    return load_cards(card_data)


def random_sets(cards, count: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """``count`` distinct random sets (one card per colour), drawn from ``seed``."""
    from transit_gym.envs.automobiles.data import CARD_COLOURS

    per_colour = [sorted(n for n in cards.cards_of(colour)
                         if not cards.expansion[cards.card_id(n)]) for colour in CARD_COLOURS]
    possible = int(np.prod([len(c) for c in per_colour]))
    if count > possible:
        raise ConfigError(f"random:{count} asks for more sets than exist ({possible})")
    rng = np.random.default_rng([seed, 0xCA4D5])
    chosen: list[tuple[str, ...]] = []
    while len(chosen) < count:
        pick = tuple(options[int(rng.integers(len(options)))] for options in per_colour)
        if pick not in chosen:
            chosen.append(pick)
    return [(f"random{i + 1}", {"card_set": list(pick)}) for i, pick in enumerate(chosen)]


def sets_from_file(path: Path, cards) -> list[tuple[str, dict[str, Any]]]:
    """Sets listed one per line as ``name: card, card, card, card, card`` (``#`` comments;
    a line without ``name:`` is named after its line number). A file that is not UTF-8
    text, a directory or over 1 MiB is a ``DataFileError`` naming it."""
    from transit_gym.envs.automobiles.data import set_problem

    rows = {name: {"color": int(cards.colours[i])} for i, name in enumerate(cards.names)}
    sets = []
    content = read_text(path, "--sets file")   # a regular UTF-8 file of at most 1 MiB
    for number, line in enumerate(content.splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        name, _, listed = text.rpartition(":")
        name = name.strip() or f"line{number}"
        names = [c.strip() for c in listed.split(",") if c.strip()]
        problem = set_problem(names, rows)
        if problem:
            raise ConfigError(f"{path}:{number}: {problem}")
        if any(name == other for other, _ in sets):
            raise ConfigError(f"{path}:{number}: set name {name!r} is used twice")
        sets.append((name, {"card_set": names}))
    if not sets:
        raise ConfigError(f"{path} lists no card sets")
    return sets
