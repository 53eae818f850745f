"""Per-market tuned Automobiles vectors (``transit-gym tune`` default settings, seed 0, 2
players, Daytona, 3 laps, drivers off), one per suggested set, for ``tuned:FILE`` specs:
``tuned:<this folder>/rinse-repeat-daytona-2p-drivers-off.json``. Their scores against the
rule-based agent are in each file's ``meta`` and in docs/balance.md ("Tuned agents")."""
