"""The network playing alone: the legal action with the largest logit (no search)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.agents.learned.network import Network, forward, masked_argmax
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game

#: shipped networks: ``<game>_<players>p_net.npz`` (spec ``net``) and
#: ``<game>_<players>p_<name>_net.npz`` (spec ``net:<name>``, e.g. ``net:generalist``)
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"
#: a shipped network's name in a spec: letters, digits and underscores, no path or suffix
_NAME = re.compile(r"[a-z][a-z0-9_]*")


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


def is_shipped_name(spec_path: str) -> bool:
    """``spec_path`` names a shipped network (``generalist``), not a file."""
    return _NAME.fullmatch(spec_path) is not None


def shipped_network_path(game: Game, name: str | None = None) -> Path:
    """The shipped network of ``game`` at its player count, the default one or the one
    called ``name`` (ConfigError naming what is shipped when there is none)."""
    stem = f"{game.name}_{game.num_players}p" + (f"_{name}" if name else "")
    path = CHECKPOINTS / f"{stem}_net.npz"
    if not path.exists():
        shipped = sorted(p.stem for p in CHECKPOINTS.glob("*_net.npz"))
        which = f"network {name!r}" if name else "network"
        raise ConfigError(f"no shipped {which} for {game.name!r} with {game.num_players} "
                          f"players (shipped: {shipped}); train one with "
                          f"`transit-gym exit --game {game.name}`")
    return path


def load_network(spec_path: str | None, game: Game) -> Network:
    """The network a ``net``/``net_mcts`` spec names (``None``: the shipped one; a bare
    name such as ``generalist``: the shipped one of that name; else a file), checked
    against ``game``."""
    if spec_path is None or is_shipped_name(spec_path):
        path = shipped_network_path(game, spec_path)
    else:
        path = Path(spec_path)
    network = Network.load(path)
    network.record.check_game(game)
    return network
