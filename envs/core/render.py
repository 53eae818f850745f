"""Drawing helpers for ``rgb_array`` pictures, in plain numpy (no display, no pygame).

A :class:`Canvas` holds an ``(H, W, 3) uint8`` image with rectangles, outlines,
discs and short labels in a built-in 3x5 pixel font (digits, capitals, a few signs).
"""

from __future__ import annotations

import numpy as np

# 3x5 glyphs, rows top to bottom, 3 bits each (4 = left column, 1 = right column)
_GLYPHS: dict[str, tuple[int, int, int, int, int]] = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 7, 1, 7),
    "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 2, 2, 2),
    "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7), "A": (2, 5, 7, 5, 5), "B": (6, 5, 6, 5, 6),
    "C": (7, 4, 4, 4, 7), "D": (6, 5, 5, 5, 6), "E": (7, 4, 6, 4, 7), "F": (7, 4, 6, 4, 4),
    "G": (7, 4, 5, 5, 7), "H": (5, 5, 7, 5, 5), "I": (7, 2, 2, 2, 7), "J": (1, 1, 1, 5, 7),
    "K": (5, 5, 6, 5, 5), "L": (4, 4, 4, 4, 7), "M": (5, 7, 7, 5, 5), "N": (6, 5, 5, 5, 5),
    "O": (2, 5, 5, 5, 2), "P": (6, 5, 6, 4, 4), "Q": (2, 5, 5, 7, 3), "R": (6, 5, 6, 5, 5),
    "S": (3, 4, 2, 1, 6), "T": (7, 2, 2, 2, 2), "U": (5, 5, 5, 5, 7), "V": (5, 5, 5, 5, 2),
    "W": (5, 5, 7, 7, 5), "X": (5, 5, 2, 5, 5), "Y": (5, 5, 2, 2, 2), "Z": (7, 1, 2, 4, 7),
    ">": (4, 2, 1, 2, 4), "*": (5, 2, 7, 2, 5), "-": (0, 0, 7, 0, 0), "+": (0, 2, 7, 2, 0),
    "/": (1, 1, 2, 4, 4), ":": (0, 2, 0, 2, 0), "(": (1, 2, 2, 2, 1), ")": (4, 2, 2, 2, 4),
    "=": (0, 7, 0, 7, 0), "!": (2, 2, 2, 0, 2), "?": (6, 1, 2, 0, 2), ",": (0, 0, 0, 2, 4),
    "'": (2, 2, 0, 0, 0), "%": (5, 1, 2, 4, 5), "<": (1, 2, 4, 2, 1), "|": (2, 2, 2, 2, 2),
    "_": (0, 0, 0, 0, 7), "~": (0, 3, 6, 0, 0), "&": (2, 5, 2, 5, 3),
    ".": (0, 0, 0, 0, 2), "$": (3, 6, 2, 3, 6), "#": (5, 7, 5, 7, 5), " ": (0, 0, 0, 0, 0),
}

Color = tuple[int, int, int]

WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)
GREY: Color = (128, 128, 128)
FELT: Color = (24, 92, 52)


class Canvas:
    """An RGB image with clipped drawing primitives."""

    def __init__(self, height: int, width: int, background: Color = FELT):
        self.pixels = np.empty((height, width, 3), dtype=np.uint8)
        self.pixels[:, :] = background

    @property
    def height(self) -> int:
        return self.pixels.shape[0]

    @property
    def width(self) -> int:
        return self.pixels.shape[1]

    def rect(self, x: int, y: int, w: int, h: int, color: Color) -> None:
        """Filled rectangle with top-left corner (x, y)."""
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if x0 < x1 and y0 < y1:
            self.pixels[y0:y1, x0:x1] = color

    def frame(self, x: int, y: int, w: int, h: int, color: Color, thickness: int = 1) -> None:
        """Rectangle outline."""
        self.rect(x, y, w, thickness, color)
        self.rect(x, y + h - thickness, w, thickness, color)
        self.rect(x, y, thickness, h, color)
        self.rect(x + w - thickness, y, thickness, h, color)

    def disc(self, cx: int, cy: int, radius: int, color: Color) -> None:
        """Filled circle centred on (cx, cy)."""
        y0, y1 = max(cy - radius, 0), min(cy + radius + 1, self.height)
        x0, x1 = max(cx - radius, 0), min(cx + radius + 1, self.width)
        if x0 >= x1 or y0 >= y1:
            return
        yy, xx = np.ogrid[y0:y1, x0:x1]
        inside = (yy - cy) ** 2 + (xx - cx) ** 2 <= radius * radius
        self.pixels[y0:y1, x0:x1][inside] = color

    def text(self, x: int, y: int, label: str, color: Color = WHITE, scale: int = 2) -> None:
        """Draw ``label`` (unknown characters become blanks) at (x, y)."""
        for i, char in enumerate(label.upper()):
            rows = _GLYPHS.get(char, _GLYPHS[" "])
            gx = x + i * 4 * scale
            for r, bits in enumerate(rows):
                for c in range(3):
                    if bits & (4 >> c):
                        self.rect(gx + c * scale, y + r * scale, scale, scale, color)

    def image(self) -> np.ndarray:
        """The picture as ``(H, W, 3) uint8``."""
        return self.pixels


def text_width(label: str, scale: int = 2) -> int:
    """Width in pixels of ``label`` drawn with :meth:`Canvas.text`."""
    return len(label) * 4 * scale


def fit(label: str, width: int, scale: int = 2) -> str:
    """``label`` cut to the characters that fit in ``width`` pixels at ``scale``."""
    return label[:max(width // (4 * scale), 0)]
