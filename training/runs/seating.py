"""The one Python game loop between seated agents.

``play_seated(game, agents, seats, seed, stream)`` plays one game: seat ``i`` is played by
``agents[seats[i]]`` (one agent may hold several seats, as the two sides of a tournament
pair do), every agent is reseeded first (``seeds.game_seed(seed, stream, k)`` for agent
``k``, or the caller's ``agent_seeds``), and the game starts from
``game.new_state(seed, stream)``. Restricted play: restrict the agents first
(``restrict_agents``); the loop asks each agent for its own restricted legal mask.

Forced moves: a decision with one legal action is played without asking an agent that
searches (``needs_state``: it would spend its budget on it). An observation agent is asked
at every decision, as the jitted loops (``envs/core/rollout.py``) ask it, so a built-in
agent plays the same game (and draws the same random numbers) in Python and in numba.

What gets recorded: ``before(state, seat)`` is called at every decision before the agent
is asked (sample collectors label positions there), and the result holds the final state
and the number of decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.envs.core.game import Game, State
from transit_gym.training.runs.seeds import game_seed


@dataclass
class Played:
    """A finished game: its final state and how many decisions were taken."""

    state: State
    decisions: int

    @property
    def rewards(self) -> np.ndarray:
        return self.state.game.rewards(self.state)


def restrict_agents(agents: Sequence[Agent], forbidden: np.ndarray | None, game: Game) -> None:
    """Tell every agent the match's forbidden actions (``envs/core/restrict.py``)."""
    for agent in agents:
        agent.restrict(forbidden, game)


def choose(agent: Agent, state: State, seat: int) -> int:
    """``agent``'s action for ``seat``; a forced move of a searching agent without asking."""
    if agent.needs_state:
        legal = np.flatnonzero(agent.legal_mask(state, seat))
        if legal.size == 1:
            return int(legal[0])
    return agent.act_state(state, seat)


def play_seated(game: Game, agents: Sequence[Agent], seats: Sequence[int], seed: int,
                stream: int = 0, agent_seeds: Sequence[int | None] | None = None,
                before: Callable[[State, int], None] | None = None) -> Played:
    """One game with ``agents[seats[i]]`` at seat ``i`` (see the module). ``agent_seeds``
    replaces the scheme's seeds of the agents (None: that agent is not reseeded)."""
    if len(seats) != game.num_players:
        raise ValueError(f"need one agent index per seat ({game.num_players}), got "
                         f"{list(seats)}")
    if agent_seeds is None:
        agent_seeds = [game_seed(seed, stream, k) for k in range(len(agents))]
    for agent, agent_seed in zip(agents, agent_seeds, strict=True):
        if agent_seed is not None:
            agent.reset(agent_seed)
    state = game.new_state(seed, stream=stream)
    decisions = 0
    while (player := game.current_player(state)) >= 0:
        if before is not None:
            before(state, player)
        game.apply(state, choose(agents[seats[player]], state, player))
        decisions += 1
    return Played(state, decisions)
