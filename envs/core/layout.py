"""Named slices over flat vectors: the state vector and the observation vector."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


class Layout:
    """An ordered list of named fields, each a run of ``size`` slots in a flat vector."""

    def __init__(self, fields: Iterable[tuple[str, int]]):
        self.fields: dict[str, slice] = {}
        offset = 0
        for name, size in fields:
            if name in self.fields:
                raise ValueError(f"duplicate field {name!r} in layout")
            if size < 0:
                raise ValueError(f"field {name!r} has negative size {size}")
            self.fields[name] = slice(offset, offset + size)
            offset += size
        self.size = offset

    def offset(self, name: str) -> int:
        """First slot of field ``name``."""
        return self.fields[name].start

    def offsets(self, names: str) -> tuple[int, ...]:
        """First slots of the fields ``names`` (separated by white space), in that order:
        ``PHASE, CURRENT = LAYOUT.offsets("phase current")`` binds a state module's
        constants."""
        unknown = [name for name in names.split() if name not in self.fields]
        if unknown:
            raise ValueError(f"no field {', '.join(map(repr, unknown))} in this layout "
                             f"(fields: {', '.join(self.fields)})")
        return tuple(self.fields[name].start for name in names.split())

    def slice(self, name: str) -> slice:
        """The slice covering field ``name``."""
        return self.fields[name]

    def length(self, name: str) -> int:
        """Number of slots of field ``name``."""
        s = self.fields[name]
        return s.stop - s.start

    def names(self) -> list[str]:
        """Field names in order."""
        return list(self.fields)

    def locate(self, index: int) -> tuple[str, int]:
        """The field holding slot ``index`` and the position inside it."""
        for name, s in self.fields.items():
            if s.start <= index < s.stop:
                return name, index - s.start
        raise IndexError(f"slot {index} is outside the layout (size {self.size})")

    def describe(self) -> list[tuple[str, int, int]]:
        """``(name, start, stop)`` rows, for documentation tables."""
        return [(n, s.start, s.stop) for n, s in self.fields.items()]

    def __len__(self) -> int:
        return self.size


def widen_fixed_slots(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bounds with no slot where ``low == high`` (Gymnasium warns about such boxes): a slot
    fixed at a value ``c`` by the configuration gets ``[min(c, 0), max(c, 0)]``, and a slot
    fixed at 0 gets ``[0, 1]``. True bounds stay true; only empty ranges are opened."""
    low, high = low.copy(), high.copy()
    fixed = low == high
    low[fixed] = np.minimum(low[fixed], 0)
    high[fixed] = np.maximum(high[fixed], 0)
    high[fixed & (low == high)] = 1
    return low, high
