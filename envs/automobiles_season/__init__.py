"""The Racing Season campaign (``automobiles_season``): a season of races of Automobiles
with the Racing Season expansion, its points chart and sponsors. ``rules`` (the game class),
``kernels`` (the season's jitted rules around the race's), ``state``, ``data`` (``data.toml``:
the points chart; the sponsor table is the expansion's ``sponsors.toml``), ``invariants``,
``render`` and ``env``."""
