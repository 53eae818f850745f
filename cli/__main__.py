"""``python -m transit_gym.cli``: the same as the ``transit-gym`` command."""

import sys

from transit_gym.cli.main import main

if __name__ == "__main__":  # a spawned worker process imports this file too
    sys.exit(main())
