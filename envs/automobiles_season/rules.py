"""The Racing Season's rules module (DESIGN.md functional API), from ``season_rules``."""

from transit_gym.envs.automobiles.season_rules import (  # noqa: F401
    AutomobilesSeasonGame,
    apply,
    current_player,
    is_over,
    legal_mask,
    new_game,
    scores,
)
