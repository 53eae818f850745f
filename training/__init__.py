"""Training (MaskablePPO on a single-agent view), evaluation, tournaments and the demo.

Importing this package registers the Gymnasium ids of the single-agent views
(``transit_gym/LooseCaboose-v0``, ``transit_gym/Automobiles-v0``, ``transit_gym/Automobile-v0``,
``transit_gym/Planes-v0``; see :mod:`transit_gym.training.gym_registration`).
"""

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.training.gym_registration import register_all

register_all()
