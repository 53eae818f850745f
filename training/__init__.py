"""Training (MaskablePPO on a single-agent view), evaluation, tournaments and the demo."""

import envs  # noqa: F401  (kernel cache set-up)
