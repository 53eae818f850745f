"""Game design: balance sweeps, card power, skill levels, market search, the designer's
report."""
