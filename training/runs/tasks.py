"""The game a worker's task is played in: the first fields of every run tool's task."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from transit_gym.envs.core.game import Game
from transit_gym.envs.registry import cached_game


@dataclass(frozen=True)
class TaskGame:
    """A game's name, player count and options (``options_key`` form): picklable, so a
    task can name its game to a worker process; the task's own fields follow these."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...]

    def build(self) -> Game:
        """The configured game, built once per process (``cached_game``)."""
        return cached_game(self.game, self.players, self.options)
