"""Terrain helpers: PNG heightmaps (through Pillow, the `images` extra).

World.add_height_map(png_file_name, center_x, center_y, x_size, y_size, height_scale,
height_offset) calls _png_samples to decode the image.
"""

from __future__ import annotations

import os

import numpy as np


def _png_samples(path, height_scale: float, height_offset: float):
    """Decode a PNG into heightmap samples: (x_samples, y_samples, heights (n,) float64).

    Pixel (column i, row r) of a W x H image becomes sample (i, H-1-r): the image's top row is
    the largest y. Colour images are converted to 8-bit grey (Pillow's "L" mode); 16-bit grey
    images keep their 0..65535 values. height = height_offset + height_scale * value.
    """
    try:
        from PIL import Image
    except ImportError as e:  # pragma: no cover - exercised only without Pillow
        raise ImportError(
            "reading PNG heightmaps needs Pillow: pip install torsion[images]"
        ) from e
    path = os.fspath(path)
    try:
        with Image.open(path) as im:
            im.load()
            if im.mode in ("I;16", "I;16B", "I;16L", "I"):
                values = np.asarray(im, dtype=np.float64)
            else:
                values = np.asarray(im.convert("L"), dtype=np.float64)
    except FileNotFoundError as e:
        raise ValueError(f"cannot open PNG height map file '{path}'") from e
    except OSError as e:
        raise ValueError(f"cannot read PNG height map file '{path}': {e}") from e
    if values.ndim != 2 or values.shape[0] < 2 or values.shape[1] < 2:
        raise ValueError(f"PNG height map '{path}' must be at least 2 x 2 pixels, got {values.shape}")
    rows, cols = values.shape
    heights = height_offset + height_scale * values[::-1, :]
    return cols, rows, np.ascontiguousarray(heights).reshape(-1)
