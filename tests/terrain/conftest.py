"""Shared helpers of the terrain tests."""

import numpy as np

import torsion

G = 9.81


def world(dt=1e-3, gravity=(0.0, 0.0, -G)):
    w = torsion.World()
    w.set_time_step(dt)
    w.set_gravity(gravity)
    return w


def grid_xy(nx, ny, x_size, y_size, cx=0.0, cy=0.0):
    """World x, y of every sample, x fastest (the heightmap's sample order)."""
    xs = cx - x_size / 2 + np.arange(nx) * (x_size / (nx - 1))
    ys = cy - y_size / 2 + np.arange(ny) * (y_size / (ny - 1))
    X, Y = np.meshgrid(xs, ys)  # [j, i]
    return X.reshape(-1), Y.reshape(-1)


def grid_triangles(nx, ny, x_size, y_size, heights, cx=0.0, cy=0.0):
    """The surface's triangles as an (m, 3, 3) array, built independently of the C++ code:
    cell (i, j) split from (i, j) to (i+1, j+1); triangles with a non-finite corner dropped."""
    X, Y = grid_xy(nx, ny, x_size, y_size, cx, cy)
    P = np.stack([X, Y, np.asarray(heights, float)], axis=1).reshape(ny, nx, 3)
    tris = []
    for j in range(ny - 1):
        for i in range(nx - 1):
            p00, p10, p11, p01 = P[j, i], P[j, i + 1], P[j + 1, i + 1], P[j + 1, i]
            for t in ((p00, p10, p11), (p00, p11, p01)):
                if np.all(np.isfinite(np.array(t))):
                    tris.append(t)
    return np.array(tris)
