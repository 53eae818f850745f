"""Picture labels: Pillow's TrueType font when Pillow is installed,
the built-in 3x5 pixel font otherwise; both at any zoom."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from transit_gym.envs.core import render
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.render import BLACK, WHITE, Canvas


def ink(label: str, zoom: int = 1) -> np.ndarray:
    """The label drawn white on black; returns the grey levels of its pixels."""
    with render.zoomed(zoom):
        canvas = Canvas(20, 8 * len(label) + 8, BLACK)
        canvas.text(2, 2, label, WHITE)
    return canvas.image()[:, :, 0]


def bbox(grey: np.ndarray) -> tuple[int, int]:
    rows, cols = np.nonzero(grey)
    return rows.max() - rows.min() + 1, cols.max() - cols.min() + 1


def test_with_pillow_labels_are_antialiased_truetype_that_scales_with_the_zoom():
    pytest.importorskip("PIL")
    assert render.font_for(2) is not None, "Pillow without FreeType sizes"
    small, large = ink("SEASON 42"), ink("SEASON 42", zoom=4)
    assert large.shape == (small.shape[0] * 4, small.shape[1] * 4)
    levels = np.unique(large)
    assert len(levels) > 10           # smooth edges: a real outline font, not blocks
    (h1, w1), (h4, w4) = bbox(small), bbox(large)
    assert 3.3 < h4 / h1 < 4.7 and 3.3 < w4 / w1 < 4.7
    assert 8 <= h1 <= 12              # capitals about 5 units x scale 2 high


def test_without_pillow_the_pixel_font_draws_its_glyphs(monkeypatch):
    """The numpy fallback: two colours only, the 3x5 glyph grid, blocks grow with zoom."""
    monkeypatch.setitem(sys.modules, "PIL", None)          # Pillow not installed
    render._truetype.cache_clear()
    try:
        assert render.font_for(2) is None
        grey = ink("1")
        assert set(np.unique(grey)) == {0, 255}
        glyph = grey[2:12:2, 2:8:2] > 0                    # scale 2: one bit per 2x2 block
        expected = [[bool(bits & (4 >> c)) for c in range(3)] for bits in render._GLYPHS["1"]]
        assert glyph.tolist() == expected
        assert bbox(ink("1", zoom=3)) == tuple(3 * v for v in bbox(grey))
        assert render.text_width("AB") == 16 and render.fit("ABCDEF", 17) == "AB"
    finally:
        render._truetype.cache_clear()


def test_use_pillow_false_also_selects_the_pixel_font(monkeypatch):
    monkeypatch.setattr(render, "USE_PILLOW", False)
    assert render.font_for(2) is None
    assert set(np.unique(ink("OK"))) == {0, 255}


def test_shapes_scale_with_the_zoom_and_a_bad_zoom_is_refused():
    with render.zoomed(3):
        canvas = Canvas(10, 10, BLACK)
        canvas.rect(1, 1, 2, 2, WHITE)
        assert canvas.image().shape == (30, 30, 3) and (canvas.width, canvas.height) == (10, 10)
    assert np.count_nonzero(canvas.image()[:, :, 0]) == 36
    assert render.zoom() == 1
    for bad in (0, 17, 1.5, True, "2"):
        with pytest.raises(ConfigError, match="whole number 1-16"), render.zoomed(bad):
            pass
