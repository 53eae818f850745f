"""Observation scaling inside the policy: each slot mapped from its bounds to [-1, 1].

The bounds are the observation space's (the games' tight ``obs_low_high``), stored as
buffers of the network, so a saved checkpoint scales its inputs itself wherever it plays
(the training envs, the AEC env, tournaments) from raw observations.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class BoundsScaler(BaseFeaturesExtractor):
    """Flatten and rescale ``[low, high]`` to ``[-1, 1]`` per slot (constant slots give 0)."""

    def __init__(self, observation_space: gymnasium.spaces.Box):
        size = int(np.prod(observation_space.shape))
        super().__init__(observation_space, size)
        low = np.asarray(observation_space.low, dtype=np.float64).reshape(-1)
        high = np.asarray(observation_space.high, dtype=np.float64).reshape(-1)
        span = high - low
        scale = np.where(span > 0, 2.0 / np.where(span > 0, span, 1.0), 0.0)
        offset = np.where(span > 0, -1.0 - low * scale, 0.0)
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        self.register_buffer("offset", torch.as_tensor(offset, dtype=torch.float32))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return observations.flatten(1) * self.scale + self.offset
