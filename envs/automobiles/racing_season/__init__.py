"""The Racing Season expansion of Automobiles: its cards (``cards_piles``, ``cards_moves``,
``cards_delayed``), its drivers (``drivers``, ``driver_data``, ``drivers.toml``), the season
sponsors (``sponsors``, ``sponsors.toml``) and its three boards (``track_<name>.toml``).
The base game's kernels reach the card and driver kernels through one dispatch each."""

from pathlib import Path

#: the folder of the expansion's data files (boards, drivers, sponsors)
DATA_DIR = Path(__file__).resolve().parent
