"""Drawing helpers for ``rgb_array`` pictures (no display, no pygame).

A :class:`Canvas` holds an ``(H, W, 3) uint8`` image with rectangles, outlines, discs and
short labels. Labels are drawn with Pillow's ``ImageDraw`` and a real TrueType font (the
one Pillow ships, ``ImageFont.load_default(size=...)``) when Pillow with FreeType is
installed (the ``render`` extra); without it, with a built-in 3x5 pixel font (digits,
capitals, a few signs) in plain numpy.

Renderers lay pictures out in their own units; :func:`zoomed` draws every picture made
inside it ``z`` times larger (sharp text at any zoom: the font is drawn at the final size).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any

import numpy as np

from transit_gym.envs.core.errors import ConfigError

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

#: draw labels with Pillow's TrueType font when it is installed (False: the pixel font)
USE_PILLOW = True
#: TrueType size per unit of label ``scale`` (the pixel font's capitals are 5 units high)
POINTS_PER_SCALE = 7
_zoom = 1


@contextlib.contextmanager
def zoomed(factor: int) -> Iterator[None]:
    """Pictures made inside this block are drawn ``factor`` times larger."""
    global _zoom
    if not isinstance(factor, int) or isinstance(factor, bool) or not 1 <= factor <= 16:
        raise ConfigError(f"the picture scale must be a whole number 1-16, got {factor!r}")
    before, _zoom = _zoom, factor
    try:
        yield
    finally:
        _zoom = before


def zoom() -> int:
    """The zoom factor pictures are drawn with now (1 outside :func:`zoomed`)."""
    return _zoom


@functools.lru_cache(maxsize=64)
def _truetype(pixels: int) -> Any:
    """Pillow's bundled TrueType font at ``pixels`` size, or None without Pillow/FreeType."""
    try:
        from PIL import ImageFont
        font = ImageFont.load_default(size=pixels)
    except (ImportError, TypeError, OSError):   # no Pillow, or a Pillow without sizes
        return None
    return font if isinstance(font, ImageFont.FreeTypeFont) else None


def font_for(scale: int) -> Any:
    """The TrueType font labels of ``scale`` are drawn with now, or None (pixel font)."""
    return _truetype(POINTS_PER_SCALE * scale * _zoom) if USE_PILLOW else None


class Canvas:
    """An RGB image with clipped drawing primitives, in layout units (see :func:`zoomed`)."""

    def __init__(self, height: int, width: int, background: Color = FELT):
        self.zoom = _zoom
        self.pixels = np.empty((height * self.zoom, width * self.zoom, 3), dtype=np.uint8)
        self.pixels[:, :] = background

    @property
    def height(self) -> int:
        return self.pixels.shape[0] // self.zoom

    @property
    def width(self) -> int:
        return self.pixels.shape[1] // self.zoom

    def _fill(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        """Fill the device-pixel box [x0, x1) x [y0, y1), clipped."""
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.pixels.shape[1]), min(y1, self.pixels.shape[0])
        if x0 < x1 and y0 < y1:
            self.pixels[y0:y1, x0:x1] = color

    def rect(self, x: int, y: int, w: int, h: int, color: Color) -> None:
        """Filled rectangle with top-left corner (x, y)."""
        z = self.zoom
        x, y = int(x), int(y)
        self._fill(x * z, y * z, (x + int(w)) * z, (y + int(h)) * z, color)

    def frame(self, x: int, y: int, w: int, h: int, color: Color, thickness: int = 1) -> None:
        """Rectangle outline."""
        self.rect(x, y, w, thickness, color)
        self.rect(x, y + h - thickness, w, thickness, color)
        self.rect(x, y, thickness, h, color)
        self.rect(x + w - thickness, y, thickness, h, color)

    def disc(self, cx: int, cy: int, radius: int, color: Color) -> None:
        """Filled circle centred on (cx, cy)."""
        z = self.zoom
        cx, cy, radius = int(cx) * z + z // 2, int(cy) * z + z // 2, int(radius) * z
        y0, y1 = max(cy - radius, 0), min(cy + radius + 1, self.pixels.shape[0])
        x0, x1 = max(cx - radius, 0), min(cx + radius + 1, self.pixels.shape[1])
        if x0 >= x1 or y0 >= y1:
            return
        yy, xx = np.ogrid[y0:y1, x0:x1]
        inside = (yy - cy) ** 2 + (xx - cx) ** 2 <= radius * radius
        self.pixels[y0:y1, x0:x1][inside] = color

    def paste(self, x: int, y: int, picture: np.ndarray) -> None:
        """Copy a picture drawn at the same zoom with its top-left corner at (x, y)."""
        z = self.zoom
        y0, x0 = int(y) * z, int(x) * z
        h = min(picture.shape[0], self.pixels.shape[0] - y0)
        w = min(picture.shape[1], self.pixels.shape[1] - x0)
        if h > 0 and w > 0:
            self.pixels[y0:y0 + h, x0:x0 + w] = picture[:h, :w]

    def text(self, x: int, y: int, label: str, color: Color = WHITE, scale: int = 2) -> None:
        """Draw ``label`` with its capitals' top-left at (x, y), 5 x ``scale`` units high."""
        font = font_for(scale)
        if font is not None:
            self._truetype_text(int(x) * self.zoom, int(y) * self.zoom, label, color, font)
            return
        step = scale * self.zoom
        for i, char in enumerate(label.upper()):
            rows = _GLYPHS.get(char, _GLYPHS[" "])
            gx = int(x) * self.zoom + i * 4 * step
            for r, bits in enumerate(rows):
                for c in range(3):
                    if bits & (4 >> c):
                        gy = int(y) * self.zoom + r * step
                        self._fill(gx + c * step, gy, gx + (c + 1) * step, gy + step, color)

    def _truetype_text(self, x: int, y: int, label: str, color: Color, font: Any) -> None:
        """Blend ``label`` (antialiased) in at device pixel (x, y)."""
        from PIL import Image, ImageDraw

        if not label.strip():
            return
        top = font.getbbox("H")[1]              # capitals start at y, as with the pixel font
        _, _, right, bottom = font.getbbox(label)
        pad = int(font.size)                      # room for hinted glyphs wider than the box
        mask = Image.new("L", (right + pad, bottom - top + pad))
        ImageDraw.Draw(mask).text((0, -top), label, fill=255, font=font)
        alpha = np.asarray(mask, dtype=np.float32) / 255.0
        y0, x0 = max(y, 0), max(x, 0)
        y1 = min(y + alpha.shape[0], self.pixels.shape[0])
        x1 = min(x + alpha.shape[1], self.pixels.shape[1])
        if y0 >= y1 or x0 >= x1:
            return
        a = alpha[y0 - y:y1 - y, x0 - x:x1 - x, None]
        region = self.pixels[y0:y1, x0:x1].astype(np.float32)
        blended = region * (1.0 - a) + np.asarray(color, dtype=np.float32) * a
        self.pixels[y0:y1, x0:x1] = np.rint(blended).astype(np.uint8)

    def image(self) -> np.ndarray:
        """The picture as ``(H, W, 3) uint8`` (device pixels: layout size times zoom)."""
        return self.pixels


def text_width(label: str, scale: int = 2) -> int:
    """Width in layout units of ``label`` drawn with :meth:`Canvas.text`."""
    font = font_for(scale)
    if font is None:
        return len(label) * 4 * scale
    return int(np.ceil(font.getlength(label) / _zoom))


def fit(label: str, width: int, scale: int = 2) -> str:
    """``label`` cut to the characters that fit in ``width`` units at ``scale``."""
    if font_for(scale) is None:
        return label[:max(width // (4 * scale), 0)]
    end = len(label)
    while end > 0 and text_width(label[:end], scale) > width:
        end -= 1
    return label[:end]
