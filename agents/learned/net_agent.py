"""The network playing alone: the legal action with the largest logit (no search)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.agents.learned.network import Network, forward, masked_argmax
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game

#: shipped networks: ``<game>_<players>p_net.npz`` (spec ``net``)
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"


class NetAgent(Agent):
    """Greedy over the network's logits, masked to the legal actions."""

    name = "net"

    def __init__(self, game: Game, network: Network, name: str | None = None):
        network.record.check_game(game)
        self.game, self.network = game, network
        self._logits = np.zeros(game.num_actions, dtype=np.float32)
        self._scratch = np.zeros(network.scratch_size, dtype=np.float32)
        if name:
            self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.ascontiguousarray(action_mask, dtype=np.int8)
        if not mask.any():
            raise ValueError(f"{self.name}.act: the mask has no legal action")
        forward(self.network.weights, self.network.sizes,
                np.ascontiguousarray(observation, dtype=np.float32), self._logits,
                self._scratch)
        return int(masked_argmax(self._logits, mask))


def shipped_network_path(game: Game) -> Path:
    """The shipped network of ``game`` at its player count (ConfigError naming what is
    shipped when there is none)."""
    path = CHECKPOINTS / f"{game.name}_{game.num_players}p_net.npz"
    if not path.exists():
        shipped = sorted(p.stem for p in CHECKPOINTS.glob("*_net.npz"))
        raise ConfigError(f"no shipped network for {game.name!r} with {game.num_players} "
                          f"players (shipped: {shipped}); train one with "
                          f"`python -m transit_gym.training.exit --game {game.name}`")
    return path


def load_network(spec_path: str | None, game: Game) -> Network:
    """The network a ``net``/``net_mcts`` spec names (``None``: the shipped one), checked
    against ``game``."""
    path = shipped_network_path(game) if spec_path is None else Path(spec_path)
    network = Network.load(path)
    network.record.check_game(game)
    return network
