"""RGB pictures from torsion's ray-cast depth camera, shaded in NumPy (no Pillow needed).

``World.capture_depth_camera`` gives depth, segmentation and world-frame hit points for every
pixel. :func:`shade` turns them into an (H, W, 3) uint8 picture: each object gets a colour from
its world index (the robot its own), the ground and terrain a checkerboard in world coordinates
(so motion over it is visible), and every surface Lambert shading from normals estimated from the
hit points of neighbouring pixels, fading with distance. Background is a sky gradient.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ._math import look_at

_SKY_TOP = np.array([0.55, 0.70, 0.90])
_SKY_BOTTOM = np.array([0.85, 0.90, 0.95])
_ROBOT = np.array([0.95, 0.55, 0.15])
_LIGHT = np.array([0.35, 0.25, 0.90]) / np.linalg.norm([0.35, 0.25, 0.90])


class Camera:
    """A pinhole depth camera (torsion.DepthCameraProperties) placed by eye and target points.

    width, height: pixels; hfov: horizontal field of view (degrees); clip_far: m.
    """

    def __init__(self, width: int = 320, height: int = 240, hfov: float = 70.0, clip_far: float = 12.0):
        import torsion

        if int(width) < 2 or int(height) < 2:
            raise ValueError(f"camera width and height must be >= 2 pixels, got {width} x {height}")
        self.width, self.height, self.hfov = int(width), int(height), float(hfov)
        self.properties = torsion.DepthCameraProperties(
            width=self.width, height=self.height, hfov=self.hfov, clip_far=float(clip_far),
            depth=True, segmentation=True, point_cloud=True)
        self.focal = 0.5 * self.width / np.tan(np.deg2rad(self.hfov) / 2.0)  # pixels

    def capture(self, world, eye, target, robot_index: int = -1,
                markers: Sequence[tuple[np.ndarray, float, Sequence[float]]] = ()) -> np.ndarray:
        """(H, W, 3) uint8 picture of ``world`` from ``eye`` looking at ``target`` (m, world).

        robot_index: world index of the object drawn in the robot colour. markers: (position,
        radius, rgb) discs drawn at world points that are not objects of the world (targets),
        hidden where a surface is nearer.
        """
        eye = np.asarray(eye, dtype=float)
        rot = look_at(eye, target)
        frame = world.capture_depth_camera(eye, rot, self.properties, num_threads=1)
        image = shade(frame.depth, frame.segmentation, frame.point_cloud, robot_index,
                      self.properties.clip_far)
        for position, radius, rgb in markers:
            self._draw_marker(image, frame.depth, eye, rot, np.asarray(position, float), radius, rgb)
        return image

    def _draw_marker(self, image, depth, eye, rot, position, radius, rgb) -> None:
        d = (position - eye) @ rot  # camera frame: x forward, y left, z up
        if d[0] <= 1e-6:
            return
        col = self.width / 2.0 - 0.5 - self.focal * d[1] / d[0]
        row = self.height / 2.0 - 0.5 - self.focal * d[2] / d[0]
        r_pix = max(self.focal * radius / d[0], 1.5)
        rows, cols = np.ogrid[0:self.height, 0:self.width]
        disc = ((rows - row) ** 2 + (cols - col) ** 2 <= r_pix * r_pix) & (depth > d[0] - radius)
        image[disc] = (np.asarray(rgb, dtype=float) * 255.0).astype(np.uint8)


def shade(depth: np.ndarray, segmentation: np.ndarray, points: Optional[np.ndarray],
          robot_index: int = -1, clip_far: Optional[float] = None,
          ground_index: int = 0) -> np.ndarray:
    """(H, W, 3) uint8 RGB from one depth camera frame (depth (H, W) m, segmentation (H, W)
    world indices with -1 for background, points (H, W, 3) world hit points or None).
    robot_index / ground_index: world indices drawn in the robot colour / as a checkerboard."""
    depth = np.asarray(depth, dtype=float)
    seg = np.asarray(segmentation)
    if depth.ndim != 2 or seg.shape != depth.shape:
        raise ValueError(f"depth and segmentation must both have shape (H, W), got {depth.shape} "
                         f"and {seg.shape}")
    h, w = depth.shape
    hit = seg >= 0
    far = float(clip_far) if clip_far is not None else float(depth[hit].max(initial=1.0))

    # base colour: one per object index, the robot orange, the ground (world index
    # ground_index) a checkerboard below
    ids = seg.astype(np.int64) + 1
    base = np.stack([(ids * 97) % 160 + 70, (ids * 57) % 160 + 70, (ids * 31) % 160 + 70],
                    axis=-1).astype(float) / 255.0
    base[seg == robot_index] = _ROBOT
    light = np.ones((h, w))
    if points is not None:
        p = np.where(hit[..., None], points, 0.0)
        # checkerboard of 0.5 m squares on the ground, in world x, y
        check = ((np.floor(p[..., 0] * 2.0) + np.floor(p[..., 1] * 2.0)) % 2.0)[..., None]
        tile = np.where(check > 0.5, 0.80, 0.62) * np.array([1.0, 1.0, 0.95])
        base = np.where((seg == ground_index)[..., None], tile, base)
        # normals from neighbouring hit points (central differences), Lambert shading
        du = np.zeros_like(p)
        dv = np.zeros_like(p)
        du[:, 1:-1] = p[:, 2:] - p[:, :-2]
        dv[1:-1, :] = p[2:, :] - p[:-2, :]
        n = np.cross(dv, du)
        norm = np.linalg.norm(n, axis=-1)
        ok = hit & (norm > 1e-12)
        ok[:, [0, -1]] = False
        ok[[0, -1], :] = False
        # neighbours on another object make a meaningless normal: keep flat light there
        same = np.ones_like(ok)
        same[:, 1:-1] &= (seg[:, 2:] == seg[:, :-2])
        same[1:-1, :] &= (seg[2:, :] == seg[:-2, :])
        ok &= same
        safe = np.where(ok, norm, 1.0)
        n = n / safe[..., None]
        # orient normals towards the camera side (their sign from the cross product is arbitrary)
        lam = np.abs(n @ _LIGHT)
        light = np.where(ok, 0.35 + 0.65 * lam, 0.8)
    fog = np.clip(1.0 - 0.5 * depth / max(far, 1e-9), 0.5, 1.0)
    rgb = base * (light * fog)[..., None]
    rows = np.linspace(0.0, 1.0, h)[:, None, None]
    sky = _SKY_TOP * (1.0 - rows) + _SKY_BOTTOM * rows
    rgb = np.where(hit[..., None], rgb, np.broadcast_to(sky, (h, w, 3)))
    return (np.clip(rgb, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)
