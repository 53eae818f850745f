"""A small policy-value network kept as one flat float32 array plus a layout record.

The same weights run three ways: in torch for training (``agents.learned.torch_net``),
inside numba for search and jitted play (:func:`forward`, one observation at a time, no
allocation), and as batched numpy matrix products for tournaments
(:meth:`Network.forward_batch`).

Architecture: each observation slot is mapped from its bounds to [-1, 1] (``scale`` and
``offset``, part of the weights), then ReLU hidden layers, then two heads: action logits
(one per action of the game) and a value, ``tanh`` of a linear output, the expected reward
of the seat that observes.

Flat layout of the weights, for ``sizes = [obs, h1, ..., hk, actions]``: ``scale[obs]``,
``offset[obs]``; per hidden layer ``W[out, in]`` (row-major) then ``b[out]``; the policy
head ``W[actions, hk]``, ``b[actions]``; the value head ``w[hk]``, ``b[1]``.

A checkpoint (``.npz``) stores the weights, the sizes and a :class:`NetworkRecord` naming
the game, its options and the observation layout it was trained on; loading it for another
game, player count or layout is a ``ConfigError`` naming both.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game

#: the format of a saved network (bumped when the flat layout changes)
FORMAT = 1


@dataclass(frozen=True)
class NetworkRecord:
    """What a network was built for: the game, its options and its observation layout."""

    game: str
    players: int
    options: dict[str, Any]
    obs_fields: list[tuple[str, int]]
    num_actions: int
    hidden: tuple[int, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def obs_size(self) -> int:
        return int(sum(size for _, size in self.obs_fields))

    @property
    def layout_digest(self) -> str:
        """A short hash of the observation layout and the action count."""
        text = json.dumps([list(map(list, self.obs_fields)), self.num_actions])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @classmethod
    def for_game(cls, game: Game, hidden: tuple[int, ...]) -> NetworkRecord:
        """The record of a fresh network for ``game``."""
        fields = [(name, stop - start) for name, start, stop in game.obs_layout().describe()]
        return cls(game.name, game.num_players, dict(game.options), fields,
                   int(game.num_actions), tuple(int(h) for h in hidden))

    def check_game(self, game: Game) -> None:
        """``ConfigError`` unless ``game`` has the game, player count and layout trained on."""
        mine = f"{self.game!r} ({self.players} players, layout {self.layout_digest})"
        other = NetworkRecord.for_game(game, self.hidden)
        theirs = f"{game.name!r} ({game.num_players} players, layout {other.layout_digest})"
        if (self.game, self.players, self.layout_digest) != (game.name, game.num_players,
                                                             other.layout_digest):
            raise ConfigError(f"this network was trained for {mine}; it cannot play {theirs}")

    def to_json(self) -> str:
        payload = asdict(self)
        payload["format"] = FORMAT
        payload["layout_digest"] = self.layout_digest
        return json.dumps(payload, sort_keys=True, default=str)

    @classmethod
    def from_json(cls, text: str) -> NetworkRecord:
        payload = json.loads(text)
        if payload.get("format") != FORMAT:
            raise ConfigError(f"network format {payload.get('format')!r} is not {FORMAT}")
        return cls(payload["game"], int(payload["players"]), dict(payload["options"]),
                   [(str(n), int(s)) for n, s in payload["obs_fields"]],
                   int(payload["num_actions"]), tuple(int(h) for h in payload["hidden"]),
                   dict(payload.get("extra", {})))


def layer_sizes(record: NetworkRecord) -> np.ndarray:
    """``[obs, h1, ..., hk, actions]`` as int64."""
    return np.array([record.obs_size, *record.hidden, record.num_actions], dtype=np.int64)


def weight_count(sizes: np.ndarray) -> int:
    """Length of the flat weight vector for ``sizes``."""
    total = 2 * int(sizes[0])
    for i in range(1, len(sizes) - 1):
        total += int(sizes[i]) * int(sizes[i - 1]) + int(sizes[i])
    hidden = int(sizes[-2])
    total += int(sizes[-1]) * hidden + int(sizes[-1])
    return total + hidden + 1


def bounds_scaling(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """``scale``, ``offset`` mapping each observation slot's bounds to [-1, 1]."""
    low, high = (np.asarray(b, dtype=np.float64) for b in game.obs_low_high())
    span = high - low
    scale = np.where(span > 0, 2.0 / np.where(span > 0, span, 1.0), 0.0)
    offset = np.where(span > 0, -1.0 - low * scale, 0.0)
    return scale.astype(np.float32), offset.astype(np.float32)


@nb.njit(cache=True)
def _dense(w: np.ndarray, o: int, width: int, out: int, x: np.ndarray, y: np.ndarray,
           relu: bool) -> int:
    """One layer whose ``W[out, width]`` (row-major) and ``b[out]`` start at ``w[o]``:
    ``y[:out] = W @ x[:width] + b`` (ReLU'd when ``relu``); returns the next layer's
    offset."""
    bias = o + out * width
    for j in range(out):
        acc = w[bias + j]
        row = o + j * width
        for i in range(width):
            acc += w[row + i] * x[i]
        y[j] = (acc if acc > 0.0 else 0.0) if relu else acc
    return bias + out


@nb.njit(cache=True)
def forward(w: np.ndarray, sizes: np.ndarray, x: np.ndarray, logits: np.ndarray,
            scratch: np.ndarray) -> float:
    """Logits into ``logits`` and the value (returned) of one observation ``x``.

    ``scratch`` holds at least ``2 * max(sizes)`` float32 slots."""
    width = sizes[0]
    half = scratch.shape[0] // 2
    cur = scratch[:half]
    nxt = scratch[half:]
    for i in range(width):
        cur[i] = x[i] * w[i] + w[width + i]
    o = 2 * width
    n_layers = sizes.shape[0]
    for layer in range(1, n_layers - 1):
        out = sizes[layer]
        o = _dense(w, o, width, out, cur, nxt, True)
        cur, nxt = nxt, cur
        width = out
    o = _dense(w, o, width, sizes[n_layers - 1], cur, logits, False)
    acc = w[o + width]
    for i in range(width):
        acc += w[o + i] * cur[i]
    return math.tanh(acc)


@nb.njit(cache=True)
def masked_argmax(logits: np.ndarray, mask: np.ndarray) -> int:
    """The legal action with the largest logit (ties to the lower action)."""
    best = -1
    for a in range(logits.shape[0]):
        if mask[a] and (best < 0 or logits[a] > logits[best]):
            best = a
    return best


class Network:
    """Flat weights, their sizes and the record; forward passes in numba or numpy."""

    def __init__(self, record: NetworkRecord, weights: np.ndarray):
        self.record = record
        self.sizes = layer_sizes(record)
        weights = np.ascontiguousarray(weights, dtype=np.float32).reshape(-1)
        if weights.size != weight_count(self.sizes):
            raise ConfigError(f"a network of sizes {self.sizes.tolist()} has "
                              f"{weight_count(self.sizes)} weights, got {weights.size}")
        if not np.isfinite(weights).all():
            raise ConfigError("the network's weights are not all finite")
        self.weights = weights
        self.scratch_size = 2 * int(self.sizes.max())
        self._matrices: list[tuple[np.ndarray, np.ndarray]] | None = None

    @classmethod
    def initial(cls, game: Game, hidden: tuple[int, ...], seed: int = 0) -> Network:
        """A fresh network for ``game``: He-initialised layers, zero biases, small heads."""
        record = NetworkRecord.for_game(game, hidden)
        sizes = layer_sizes(record)
        rng = np.random.default_rng(seed)
        scale, offset = bounds_scaling(game)
        parts = [scale, offset]
        for i in range(1, len(sizes)):
            fan_in, out = int(sizes[i - 1]), int(sizes[i])
            std = math.sqrt(2.0 / fan_in) if i < len(sizes) - 1 else 0.01
            parts += [rng.normal(0.0, std, out * fan_in), np.zeros(out)]
        parts += [rng.normal(0.0, 0.01, int(sizes[-2])), np.zeros(1)]
        return cls(record, np.concatenate(parts).astype(np.float32))

    # ----- pieces of the flat vector --------------------------------------------------------
    def matrices(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(W, b)`` views per layer (hidden layers, policy head, value head); the first
        entry is ``(scale, offset)``."""
        if self._matrices is None:
            w, sizes = self.weights, self.sizes
            n = int(sizes[0])
            out = [(w[:n], w[n:2 * n])]
            o = 2 * n
            for i in range(1, len(sizes)):
                rows, cols = int(sizes[i]), int(sizes[i - 1])
                out.append((w[o:o + rows * cols].reshape(rows, cols),
                            w[o + rows * cols:o + rows * cols + rows]))
                o += rows * cols + rows
            hidden = int(sizes[-2])
            out.append((w[o:o + hidden].reshape(1, hidden), w[o + hidden:o + hidden + 1]))
            self._matrices = out
        return self._matrices

    def forward_batch(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits ``(B, actions)`` and values ``(B,)`` of a batch of observations."""
        parts = self.matrices()
        scale, offset = parts[0]
        h = np.asarray(obs, dtype=np.float32) * scale + offset
        for weight, bias in parts[1:-2]:
            h = np.maximum(h @ weight.T + bias, 0.0)
        pw, pb = parts[-2]
        vw, vb = parts[-1]
        return h @ pw.T + pb, np.tanh(h @ vw.T + vb)[:, 0]

    def forward_one(self, obs: np.ndarray) -> tuple[np.ndarray, float]:
        """Logits and value of one observation, with the jitted kernel."""
        logits = np.zeros(self.record.num_actions, dtype=np.float32)
        scratch = np.zeros(self.scratch_size, dtype=np.float32)
        value = forward(self.weights, self.sizes, np.ascontiguousarray(obs, dtype=np.float32),
                        logits, scratch)
        return logits, float(value)

    # ----- files ----------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write ``path`` (``.npz``): weights, sizes and the record as JSON."""
        path = Path(path).with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            np.savez(handle, weights=self.weights, sizes=self.sizes,
                     record=np.array(self.record.to_json()))
        return path

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """A network saved by :meth:`save` (``ConfigError`` naming the file if it is not)."""
        path = Path(path)
        if not path.exists() and path.with_suffix(".npz").exists():
            path = path.with_suffix(".npz")
        if not path.exists():
            raise ConfigError(f"no network file at {str(path)!r}")
        try:
            with np.load(path, allow_pickle=False) as data:
                record = NetworkRecord.from_json(str(data["record"]))
                weights, sizes = data["weights"], data["sizes"]
        except (OSError, ValueError, KeyError) as exc:
            raise ConfigError(f"{str(path)!r} is not a transit-gym network file: {exc}") from exc
        net = cls(record, weights)
        if not np.array_equal(net.sizes, sizes):
            raise ConfigError(f"{str(path)!r}: stored sizes {sizes.tolist()} do not match its "
                              f"record {net.sizes.tolist()}")
        return net
