"""Shared helpers of the Racing Season tests: short seasons, races played by the
rule-based agent, and sponsor awards set up on the state of a finished race."""

from __future__ import annotations

import numpy as np

from transit_gym.agents.rule_based.automobiles_season import policy
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import COLOURS
from transit_gym.envs.automobiles.kernels import A_DISCARD, A_STOCK, A_STOP
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season_v0 import Game
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rng import seeded_words

SHORT = {"laps": 1, "drivers": False}   # drivers off (not a rule): sponsor tests stay small
COLOUR = {name: i for i, name in enumerate(COLOURS)}


def season(players: int = 3, tracks=("daytona", "monza", "daytona"), **options) -> Game:
    """A season of 1-lap races (drivers off unless asked: they are tested on their own)."""
    return Game(num_players=players, tracks=list(tracks) if not isinstance(tracks, str)
                else tracks, **{**SHORT, **options})


def play_race(game: Game, state: State, seed: int = 0, limit: int = 20000) -> int:
    """Let the rule-based agent play until the current race is over; returns decisions."""
    words = seeded_words(seed, 7)
    race_no = game.race_no(state)
    made = 0
    while int(state.data[ss.SEASON_PHASE]) == ss.S_RACE and game.race_no(state) == race_no:
        player = game.current_player(state)
        action = policy(1, game.params, game.observe(state, player), game.legal_mask(state),
                        words)
        game.apply(state, int(action))
        made += 1
        assert made < limit, "race did not end"
    return made


def award_state(game: Game, seed: int = 0, race_no: int = 0) -> State:
    """The state at the first sponsor decision after race ``race_no + 1``."""
    state = game.new_state(seed)
    while True:
        play_race(game, state, seed)
        if int(state.data[ss.SEASON_PHASE]) != ss.S_RACE and game.race_no(state) == race_no:
            return state
        assert game.race_no(state) <= race_no, "no sponsor decision after the race"


def owner_bag(game: Game, state: State, player: int) -> np.ndarray:
    """A view of ``player``'s bag (all its cubes between races)."""
    seat = game.player_of(state).index(player)
    start = st.BAG + seat * len(COLOURS)
    return state.data[start:start + len(COLOURS)]


def stock(state: State) -> np.ndarray:
    return state.data[st.STOCK:st.STOCK + len(COLOURS)]


def give(game: Game, state: State, player: int, colour: str, n: int) -> None:
    """Move ``n`` cubes of ``colour`` from the stock into ``player``'s bag (conserved)."""
    c = COLOUR[colour]
    assert stock(state)[c] >= n
    stock(state)[c] -= n
    owner_bag(game, state, player)[c] += n


def set_award(game: Game, state: State, k: int, market: list[str],
              owned: str | None = None) -> int:
    """Make finishing position ``k`` the player being awarded, with ``market`` available
    (and ``owned`` as their sponsor); returns that player."""
    names = game.sponsor_data.names
    s = state.data
    s[ss.AWARD_K] = k
    player = int(s[ss.FINISH + k])
    s[ss.MARKET:ss.MARKET + ss.MP] = -1
    s[ss.OWNED:ss.OWNED + ss.MP] = -1
    for slot, name in enumerate(market):
        s[ss.MARKET + slot] = names.index(name)
    if owned is not None:
        s[ss.OWNED + player] = names.index(owned)
    s[ss.EFF_PLACE] = 0 if k == 0 else (2 if k == game.num_players - 1
                                        and game.num_players > 2 else 1)
    s[ss.SEASON_PHASE] = ss.S_PICK
    return player


def take(game: Game, name: str) -> int:
    return ss.A_SPONSOR + game.sponsor_data.names.index(name)


def drop(game: Game, name: str) -> int:
    return ss.A_DROP + game.sponsor_data.names.index(name)


def remove(colour: str) -> int:
    return A_DISCARD + COLOUR[colour]


def from_stock(colour: str) -> int:
    return A_STOCK + COLOUR[colour]


STOP = A_STOP


def all_cubes(game: Game, state: State, player: int) -> np.ndarray:
    """Every cube ``player`` owns, over all the piles of its race seat."""
    seat = game.player_of(state).index(player)
    total = np.zeros(len(COLOURS), dtype=np.int64)
    for base in (st.BAG, st.ACTIVE, st.USED, st.DISCARD):
        start = base + seat * len(COLOURS)
        total += state.data[start:start + len(COLOURS)]
    return total
