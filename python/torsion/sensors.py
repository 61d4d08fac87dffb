"""Sensor outputs and pictures of them.

``World.capture_depth_camera`` returns a :class:`DepthCameraFrame`; :func:`save_depth_png` and
:func:`save_segmentation_png` write frames as PNG pictures a person can look at (Pillow, from the
``images`` extra: ``pip install "torsion[images]"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np


@dataclass
class DepthCameraFrame:
    """One depth camera frame. Arrays are fresh copies, row-major, row 0 at the top.

    depth: (H, W) float64, metres along the camera's +X axis; clip_far where nothing is seen.
    segmentation: (H, W) int32, world index of the object seen, -1 for background.
    point_cloud: (H, W, 3) float64, world-frame hit points, NaN for background.
    Each is None unless requested in DepthCameraProperties.
    """

    depth: Optional[np.ndarray] = None
    segmentation: Optional[np.ndarray] = None
    point_cloud: Optional[np.ndarray] = None


def _pillow():
    try:
        from PIL import Image
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('saving pictures needs Pillow: pip install "torsion[images]"') from exc
    return Image


def depth_to_image(depth: np.ndarray, near: Optional[float] = None, far: Optional[float] = None) -> np.ndarray:
    """Map a depth image to 8-bit grey: near is white, far (and background) black."""
    depth = np.asarray(depth, dtype=float)
    if depth.ndim != 2:
        raise ValueError(f"depth must have shape (H, W), got shape {depth.shape}")
    finite = depth[np.isfinite(depth)]
    lo = float(finite.min()) if near is None and finite.size else (near or 0.0)
    hi = float(finite.max()) if far is None and finite.size else (far or 1.0)
    scale = max(hi - lo, 1e-12)
    grey = 1.0 - np.clip((np.nan_to_num(depth, nan=hi, posinf=hi) - lo) / scale, 0.0, 1.0)
    return (grey * 255.0 + 0.5).astype(np.uint8)


def segmentation_to_image(segmentation: np.ndarray) -> np.ndarray:
    """Give every object index its own colour (a fixed hash), background black. (H, W, 3) uint8."""
    seg = np.asarray(segmentation)
    if seg.ndim != 2:
        raise ValueError(f"segmentation must have shape (H, W), got shape {seg.shape}")
    ids = seg.astype(np.int64) + 1
    rgb = np.stack([(ids * 97) % 200 + 55, (ids * 57) % 200 + 55, (ids * 31) % 200 + 55], axis=-1)
    rgb[seg < 0] = 0
    return rgb.astype(np.uint8)


def save_depth_png(depth: np.ndarray, path, near: Optional[float] = None, far: Optional[float] = None) -> Path:
    """Save a depth image as a grey PNG (near white, far black). Returns the path."""
    path = Path(path)
    _pillow().fromarray(depth_to_image(depth, near, far), mode="L").save(path)
    return path


def save_segmentation_png(segmentation: np.ndarray, path) -> Path:
    """Save a segmentation image as a colour PNG (one colour per object). Returns the path."""
    path = Path(path)
    _pillow().fromarray(segmentation_to_image(segmentation), mode="RGB").save(path)
    return path
