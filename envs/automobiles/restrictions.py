"""Restricted play in Automobiles: game concepts as forbidden action ids.

Each function returns the action ids a seat may not take (see
:mod:`transit_gym.envs.core.restrict`); ``forbid(num_players, num_actions, {seat: ids})``
makes the forbidden array. The ids hold in every decision, so each restriction also
forbids what the same id means elsewhere (``encode.action_name``):

- "may not buy card X" is ``A_STOCK + colour(X)``: buying that colour in the Buy Phase
  and in the setup buy, gaining or buying it in a season sponsor step, and returning a
  drawn cube of that colour to the stock while sorting for Driver 04.
- "may not take Driver D" is ``A_DRIVER + D - 1`` (the draft only).
- "may not use a driver ability" is ``A_USE_DRIVER`` (whichever driver the seat holds).
- "may not take sponsor S" is ``A_SPONSOR + id(S)`` (season campaign only).
"""

from __future__ import annotations

from transit_gym.envs.automobiles.data import CARD_COLOURS, COLOURS
from transit_gym.envs.automobiles.kernels import A_STOCK
from transit_gym.envs.automobiles.racing_season.drivers import A_DRIVER, A_USE_DRIVER
from transit_gym.envs.core.errors import ConfigError

NUM_DRIVERS = 10


def buy_card(cards, name: str) -> list[int]:
    """"May not buy card ``name``": the stock action of its colour (``cards``: a game's
    ``CardData``, e.g. ``game.cards``; only the five market colours can be forbidden)."""
    if name not in cards.names:
        raise ConfigError(f"unknown card {name!r}; known: {sorted(cards.names)}")
    colour = int(cards.colours[cards.names.index(name)])
    if colour not in CARD_COLOURS:
        raise ConfigError(f"card {name!r} is a {COLOURS[colour]} card, always in play; only "
                          f"market cards ({[COLOURS[c] for c in CARD_COLOURS]}) can be "
                          f"forbidden")
    return [A_STOCK + colour]


def take_driver(number: int) -> list[int]:
    """"May not take Driver ``number``" (1-10) in the draft."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= NUM_DRIVERS:
        raise ConfigError(f"driver number must be 1..{NUM_DRIVERS}, got {number!r}")
    return [A_DRIVER + number - 1]


def use_driver_ability() -> list[int]:
    """"May not use a driver ability" (the seat's own driver, whichever it is)."""
    return [A_USE_DRIVER]


def take_sponsor(sponsor_names: tuple[str, ...] | list[str], name: str) -> list[int]:
    """"May not take sponsor ``name``" in the season campaign (``sponsor_names``: the
    season game's ``sponsor_data.names``)."""
    from transit_gym.envs.automobiles_season.state import A_SPONSOR

    names = list(sponsor_names)
    if name not in names:
        raise ConfigError(f"unknown sponsor {name!r}; known: {names}")
    return [A_SPONSOR + names.index(name)]


def held_drivers(state) -> list[int]:
    """Each seat's driver number (0: none yet) in an Automobiles ``state``."""
    from transit_gym.envs.automobiles import state as st

    n = state.game.num_players
    return [int(d) for d in state.data[st.DRIVER_OF:st.DRIVER_OF + n]]
