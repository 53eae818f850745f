"""The Racing Season campaign's name space (``transit_gym.envs.automobiles_season``): the
game lives in ``envs/automobiles/season*.py``; this package only gives it the
``<game>.rules`` module every registered game offers."""
