"""What the rule-test tables of Automobile and Planes (``tests/<game>/table.py``) share: a
real game and its state, the phase and the seat on turn, the legal actions and the
invariant check."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.core.game import Game, State


class RuleTable:
    """A game started with ``seed``, whose state a rule test edits and plays."""

    def __init__(self, game: Game, seed: int):
        self.game = game
        self.state: State = game.new_state(seed)
        self.s: np.ndarray = self.state.data
        self.p: np.ndarray = game.params

    @property
    def phase(self) -> int:
        return int(self.state["phase"][0])

    @property
    def current(self) -> int:
        return int(self.state["current"][0])

    def legal(self) -> list[int]:
        return self.game.legal_actions(self.state)

    def check(self) -> None:
        self.game.check_invariants(self.state)
