"""Sensor outputs and pictures of them.

``World.capture_depth_camera`` returns a :class:`DepthCameraFrame`; :func:`look_at` places the
camera; :func:`save_depth_png` and :func:`save_segmentation_png` write frames as PNG pictures a
person can look at (Pillow, from the ``images`` extra: ``pip install "torsion[images]"``).
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
    segmentation: (H, W) int32, world index of the object seen, -1 for background (RaiSim's;
    world indices change when an object is removed).
    object_id: (H, W) int64, the stable id of the object seen (``obj.get_id()``; never reused,
    unchanged by removals), -1 for background.
    link: (H, W) int32, the body seen within that object: a robot's body index
    (``robot.get_body_names()[link]``), a compound's child index, 0 for a single body; -1 for
    background. (object_id, link) names a robot link, as PyBullet's and MuJoCo's segmentation.
    point_cloud: (H, W, 3) float64, world-frame hit points, NaN for background.
    deformable_id: (H, W) int64, the id of the deformable seen (``DeformableObject.id``), -1
    elsewhere; on its pixels segmentation, object_id and link are -1.
    triangle: (H, W) int64, the index of the deformable's surface triangle seen
    (``get_surface_triangles()``), -1 elsewhere.
    Each is None unless requested in DepthCameraProperties (object_id, link, deformable_id and
    triangle come with segmentation).
    """

    depth: Optional[np.ndarray] = None
    segmentation: Optional[np.ndarray] = None
    point_cloud: Optional[np.ndarray] = None
    object_id: Optional[np.ndarray] = None
    link: Optional[np.ndarray] = None
    deformable_id: Optional[np.ndarray] = None
    triangle: Optional[np.ndarray] = None


def look_at(eye, target, up=(0.0, 0.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """(pos, rot) of a camera at `eye` looking at `target`, for World.capture_depth_camera.

    The camera frame is torsion's (RaiSim's): +X forward (toward target), +Y left, +Z up; `up`
    (world, any length) picks the roll: the camera's +Z is the part of `up` square to the
    viewing direction. rot (3, 3) maps camera to world, its columns the camera axes in the world.
    ValueError when eye == target, when up is zero or parallel to the viewing direction, or for
    non-finite input.

        pos, rot = torsion.sensors.look_at(eye=[1.5, 0, 1.2], target=[0, 0, 0.3])
        frame = world.capture_depth_camera(pos, rot, torsion.DepthCameraProperties())
    """
    eye = _finite3(eye, "eye")
    target = _finite3(target, "target")
    up = _finite3(up, "up")
    forward = target - eye
    n = float(np.linalg.norm(forward))
    if not n > 0.0:
        raise ValueError(f"target must differ from eye, both are {eye.tolist()}")
    x = forward / n
    un = float(np.linalg.norm(up))
    if not un > 0.0:
        raise ValueError("up must be a non-zero vector")
    y = np.cross(up / un, x)
    yn = float(np.linalg.norm(y))
    if yn < 1e-9:
        raise ValueError(f"up {up.tolist()} is parallel to the viewing direction {x.tolist()}: "
                         "give another up vector")
    y /= yn
    z = np.cross(x, y)
    return eye.copy(), np.column_stack([x, y, z])


def _finite3(v, name: str) -> np.ndarray:
    a = np.asarray(v, dtype=float)
    if a.shape != (3,):
        raise ValueError(f"{name} must have shape (3,), got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite, got {a.tolist()}")
    return a


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


def _segment_keys(segmentation, link) -> tuple[np.ndarray, Optional[np.ndarray]]:
    seg = np.asarray(segmentation)
    if seg.ndim != 2:
        raise ValueError(f"segmentation must have shape (H, W), got shape {seg.shape}")
    if not np.issubdtype(seg.dtype, np.integer):
        raise ValueError(f"segmentation must hold integers, got dtype {seg.dtype}")
    if link is None:
        return seg.astype(np.int64), None
    lk = np.asarray(link)
    if lk.shape != seg.shape:
        raise ValueError(f"link must have the shape of segmentation {seg.shape}, got {lk.shape}")
    if not np.issubdtype(lk.dtype, np.integer):
        raise ValueError(f"link must hold integers, got dtype {lk.dtype}")
    return seg.astype(np.int64), lk.astype(np.int64)


def _colours(ids: np.ndarray, links: Optional[np.ndarray]) -> np.ndarray:
    # a fixed hash of (id, link): the same object and link get the same colour in every frame
    key = (ids + 1) * 1000003 + (0 if links is None else links + 1) * 7919
    return np.stack([(key * 97) % 200 + 55, (key * 57) % 200 + 55, (key * 31) % 200 + 55],
                    axis=-1)


def segmentation_to_image(segmentation: np.ndarray, link: Optional[np.ndarray] = None) -> np.ndarray:
    """Give every object (and, with `link`, every link of it) its own colour, background black.

    segmentation: (H, W) integers, e.g. DepthCameraFrame.object_id (stable ids: the colours stay
    the same when other objects are removed) or .segmentation (world indices); link: None or
    DepthCameraFrame.link. Negative values are background. Returns (H, W, 3) uint8; the colour of
    each (object, link) is a fixed hash of it, listed by segmentation_color_map.
    """
    ids, links = _segment_keys(segmentation, link)
    rgb = _colours(ids, links)
    rgb[ids < 0] = 0
    return rgb.astype(np.uint8)


def segmentation_color_map(segmentation: np.ndarray, link: Optional[np.ndarray] = None) -> dict:
    """The colours segmentation_to_image gives: {object: (r, g, b)} without `link`, {(object,
    link): (r, g, b)} with it, for every one seen (background left out), in sorted order."""
    ids, links = _segment_keys(segmentation, link)
    seen = ids >= 0
    if links is None:
        keys = np.unique(ids[seen])
        rgb = _colours(keys, None)
        return {int(k): tuple(int(c) for c in col) for k, col in zip(keys, rgb)}
    pairs = np.unique(np.stack([ids[seen], links[seen]], axis=-1), axis=0) if seen.any() else np.zeros((0, 2), np.int64)
    rgb = _colours(pairs[:, 0], pairs[:, 1])
    return {(int(a), int(b)): tuple(int(c) for c in col) for (a, b), col in zip(pairs, rgb)}


def save_depth_png(depth: np.ndarray, path, near: Optional[float] = None, far: Optional[float] = None) -> Path:
    """Save a depth image as a grey PNG (near white, far black). Returns the path."""
    path = Path(path)
    _pillow().fromarray(depth_to_image(depth, near, far), mode="L").save(path)
    return path


def save_segmentation_png(segmentation: np.ndarray, path, link: Optional[np.ndarray] = None) -> Path:
    """Save a segmentation image as a colour PNG (one colour per object, or per (object, link)
    with `link`; segmentation_color_map lists them). Returns the path."""
    path = Path(path)
    _pillow().fromarray(segmentation_to_image(segmentation, link), mode="RGB").save(path)
    return path
