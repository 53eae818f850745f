"""Exhaustive look-ahead and search play for constructed endgames: a position whose
winning move is known, so that a test can show both that it is the only one and that the
search finds it."""

from __future__ import annotations

from collections.abc import Callable

from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.game import Game, State

#: a state to score instead of ``state`` (e.g. played to the end once nothing can change)
Finish = Callable[[Game, State], State]


def best_outcome(game: Game, state: State, seat: int, finish: Finish | None = None) -> float:
    """Seat's reward when it makes every remaining decision as well as possible; the game
    must end without another seat deciding (the last turn of the round). ``finish`` may
    shortcut a state from which the rest cannot change the result."""
    if finish is not None:
        state = finish(game, state)
    if game.current_player(state) < 0:
        return float(game.rewards(state)[seat])
    assert game.current_player(state) == seat
    best = -1.0
    for action in game.legal_actions(state):
        child = state.copy()
        game.apply(child, int(action))
        best = max(best, best_outcome(game, child, seat, finish))
    return best


def outcomes(game: Game, state: State, seat: int,
             finish: Finish | None = None) -> dict[int, float]:
    """``best_outcome`` after each legal action of seat's pending decision."""
    result = {}
    for action in game.legal_actions(state):
        child = state.copy()
        game.apply(child, int(action))
        result[int(action)] = best_outcome(game, child, seat, finish)
    return result


def search_turn(game: Game, state: State, seat: int, seed: int,
                spec: str = "mcts:64") -> int:
    """The search plays seat's decisions in ``state`` (in place, invariants checked after
    each) for as long as seat is on turn; returns its first action."""
    agent = make_agent(spec, game, seed=seed)
    first = action = agent.act_state(state, seat)
    while True:
        game.apply(state, action)
        game.check_invariants(state)
        if game.current_player(state) != seat:
            return first
        action = agent.act_state(state, seat)
