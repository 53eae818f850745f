"""Playing agents against each other through the rules API (any agents, any game)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.envs.core.game import Game
from transit_gym.training.runs.seating import play_seated
from transit_gym.training.runs.seeds import rotation_seed


@dataclass
class MatchResult:
    """Rewards per game and seat, and which agent sat where."""

    rewards: np.ndarray       # (games, players)
    seating: np.ndarray       # (games, players): index into the agent list

    def mean_reward(self, agent: int) -> float:
        return float(self.rewards[self.seating == agent].mean())

    def win_rate(self, agent: int) -> float:
        """Share of games the agent won (a shared win counts as a win)."""
        return float((self.rewards[self.seating == agent] > 0).mean())


def play_game(game: Game, seats: Sequence[Agent], seed: int, stream: int = 0) -> np.ndarray:
    """One game with ``seats[i]`` at seat i (``training.runs.seating``, the agents reseeded
    by ``seeds.rotation_seed``); returns the terminal rewards."""
    agent_seeds = [rotation_seed(seed, stream, i) for i in range(len(seats))]
    return play_seated(game, seats, range(len(seats)), seed, stream, agent_seeds).rewards


def rotate_match(game: Game, agents: Sequence[Agent], n_games: int, seed: int) -> MatchResult:
    """``n_games`` games, the seating rotated every game so each agent plays every seat.

    ``agents`` has one entry per seat (repeat an agent to fill seats)."""
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"need {n} agents (one per seat), got {len(agents)}")
    rewards = np.zeros((n_games, n), dtype=np.float32)
    seating = np.zeros((n_games, n), dtype=np.int64)
    for g in range(n_games):
        order = [(g + i) % n for i in range(n)]
        seating[g] = order
        rewards[g] = play_game(game, [agents[k] for k in order], seed, stream=g)
    return MatchResult(rewards, seating)
