"""The torch twin of :class:`~transit_gym.agents.learned.network.Network`, for training.

``TorchNet.from_network(net)`` copies the flat weights into ``nn.Linear`` layers;
``to_network()`` flattens them back in the same order, so a trained model runs unchanged
inside numba. The input scaling (``scale``, ``offset``) is a fixed buffer, not trained.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from transit_gym.agents.learned.network import Network, NetworkRecord, layer_sizes


class TorchNet(nn.Module):
    """Bounds scaling, ReLU hidden layers, a logits head and a ``tanh`` value head."""

    def __init__(self, record: NetworkRecord):
        super().__init__()
        self.record = record
        sizes = layer_sizes(record).tolist()
        self.register_buffer("scale", torch.zeros(sizes[0]))
        self.register_buffer("offset", torch.zeros(sizes[0]))
        self.hidden = nn.ModuleList(nn.Linear(sizes[i - 1], sizes[i])
                                    for i in range(1, len(sizes) - 1))
        self.policy_head = nn.Linear(sizes[-2], sizes[-1])
        self.value_head = nn.Linear(sizes[-2], 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits ``(B, actions)`` and values ``(B,)``."""
        h = obs * self.scale + self.offset
        for layer in self.hidden:
            h = torch.relu(layer(h))
        return self.policy_head(h), torch.tanh(self.value_head(h)).squeeze(-1)

    @classmethod
    def from_network(cls, net: Network) -> TorchNet:
        model = cls(net.record)
        parts = net.matrices()
        with torch.no_grad():
            model.scale.copy_(torch.from_numpy(parts[0][0].copy()))
            model.offset.copy_(torch.from_numpy(parts[0][1].copy()))
            layers = [*model.hidden, model.policy_head, model.value_head]
            for layer, (weight, bias) in zip(layers, parts[1:], strict=True):
                layer.weight.copy_(torch.from_numpy(weight.copy()))
                layer.bias.copy_(torch.from_numpy(bias.copy()))
        return model

    def to_network(self) -> Network:
        """The flat-weight network with this model's current weights."""
        pieces = [self.scale, self.offset]
        for layer in [*self.hidden, self.policy_head, self.value_head]:
            pieces += [layer.weight.reshape(-1), layer.bias]
        flat = torch.cat([p.detach().reshape(-1).cpu() for p in pieces]).numpy()
        return Network(self.record, np.asarray(flat, dtype=np.float32))
