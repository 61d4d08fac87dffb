"""Meshes for deformables (World.add_deformable_cloth / add_deformable_volume).

grid_cloth: a rectangular cloth of triangles; box_tetrahedra: a box of hexahedral cells, each
split into six tetrahedra along its main diagonal (Kuhn's subdivision, the same in every cell, so
neighbouring cells share their faces). Both return NumPy arrays ready for the World methods.
"""

from __future__ import annotations

import itertools

import numpy as np

__all__ = ["grid_cloth", "box_tetrahedra"]


def _count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def _length(value, name: str) -> float:
    v = float(value)
    if not np.isfinite(v) or v <= 0.0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return v


def grid_cloth(nx: int, ny: int, size_x: float, size_y: float, center=(0.0, 0.0, 0.0)):
    """A flat cloth in the plane z = center[2]: (nx + 1) x (ny + 1) vertices over size_x x size_y
    metres centred at `center`, 2 nx ny triangles (counter-clockwise seen from +z).

    Returns (vertices (n, 3) float64, triangles (m, 3) int64). Vertex (i, j) (i along x, j along
    y) has index j * (nx + 1) + i: the corners are 0, nx, ny * (nx + 1) and the last."""
    nx, ny = _count(nx, "nx"), _count(ny, "ny")
    sx, sy = _length(size_x, "size_x"), _length(size_y, "size_y")
    c = np.asarray(center, dtype=float).reshape(3)
    xs = np.linspace(-0.5 * sx, 0.5 * sx, nx + 1) + c[0]
    ys = np.linspace(-0.5 * sy, 0.5 * sy, ny + 1) + c[1]
    X, Y = np.meshgrid(xs, ys)  # rows j (y), columns i (x)
    vertices = np.stack([X.ravel(), Y.ravel(), np.full(X.size, c[2])], axis=1)
    tris = []
    for j in range(ny):
        for i in range(nx):
            a = j * (nx + 1) + i
            b, d, e = a + 1, a + nx + 1, a + nx + 2
            tris.append((a, b, e))
            tris.append((a, e, d))
    return vertices, np.asarray(tris, dtype=np.int64)


def box_tetrahedra(nx: int, ny: int, nz: int, size_x: float, size_y: float, size_z: float,
                   origin=(0.0, 0.0, 0.0)):
    """A box [origin, origin + size] of nx x ny x nz cells, 6 tetrahedra per cell (positive
    volume: (b-a) x (c-a) . (d-a) > 0).

    Returns (vertices (n, 3) float64, tetrahedra (m, 4) int64). Vertex (i, j, k) has index
    (k * (ny + 1) + j) * (nx + 1) + i."""
    nx, ny, nz = _count(nx, "nx"), _count(ny, "ny"), _count(nz, "nz")
    size = np.array([_length(size_x, "size_x"), _length(size_y, "size_y"),
                     _length(size_z, "size_z")])
    o = np.asarray(origin, dtype=float).reshape(3)
    n = np.array([nx, ny, nz])
    grid = np.stack(np.meshgrid(np.arange(nx + 1), np.arange(ny + 1), np.arange(nz + 1),
                                indexing="ij"), axis=-1)  # (i, j, k)
    idx = lambda i, j, k: (k * (ny + 1) + j) * (nx + 1) + i  # noqa: E731
    ijk = grid.transpose(2, 1, 0, 3).reshape(-1, 3)  # ordered by k, then j, then i
    vertices = o + ijk * (size / n)
    unit = np.eye(3, dtype=int)
    tets = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                base = np.array([i, j, k])
                for perm in itertools.permutations(range(3)):
                    p0 = base
                    p1 = p0 + unit[perm[0]]
                    p2 = p1 + unit[perm[1]]
                    p3 = p2 + unit[perm[2]]
                    t = [idx(*p) for p in (p0, p1, p2, p3)]
                    a, b, c, d = (vertices[v] for v in t)
                    if np.dot(np.cross(b - a, c - a), d - a) < 0.0:
                        t[2], t[3] = t[3], t[2]
                    tets.append(t)
    return vertices, np.asarray(tets, dtype=np.int64)
