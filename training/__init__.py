"""Training (MaskablePPO on a single-agent view), evaluation, tournaments and the demo."""

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
