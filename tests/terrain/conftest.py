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


# --- brute-force distance between convex point sets (support-gap maximisation) -----------------

_FIB_N = 4000
_k = np.arange(_FIB_N) + 0.5
_phi = np.arccos(1 - 2 * _k / _FIB_N)
_th = np.pi * (1 + 5**0.5) * _k
DIRS = np.stack([np.cos(_th) * np.sin(_phi), np.sin(_th) * np.sin(_phi), np.cos(_phi)], 1)


def _polish(a_pts, b_pts, starts):
    """Nelder-Mead maximisation of the support gap from the given start directions."""
    from scipy.optimize import minimize

    def gap(d):
        return (d @ a_pts.T).min(axis=1) - (d @ b_pts.T).max(axis=1)

    best = -np.inf
    for d0 in starts:
        def f(x):
            d = np.array([np.sin(x[0]) * np.cos(x[1]), np.sin(x[0]) * np.sin(x[1]), np.cos(x[0])])
            return -gap(d[None])[0]

        x0 = [np.arccos(np.clip(d0[2], -1, 1)), np.arctan2(d0[1], d0[0])]
        r = minimize(f, x0, method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 4000})
        best = max(best, -r.fun, gap(np.asarray(d0)[None])[0])
    return best


def reference_distance(a_pts, b_pts):
    """max over unit d of (min over A of d.a - max over B of d.b): the distance between the
    convex hulls of the two point sets when they are apart (separating-axis duality). Dense
    sampling of directions, then Nelder-Mead polishing of the best few."""
    g = (DIRS @ a_pts.T).min(axis=1) - (DIRS @ b_pts.T).max(axis=1)
    return _polish(a_pts, b_pts, [DIRS[i] for i in np.argsort(g)[-3:]])


def reference_distance_to_triangles(a_pts, tris):
    """Distance from the convex hull of a_pts to the union of the triangles (m, 3, 3): the least
    of the per-triangle distances (each by reference_distance). Only triangles whose coarse
    (sampled) distance is within a sampling slack of the least are polished: the sampled value
    is a lower bound, and for shapes under a metre it is within 0.03 m of the truth."""
    amin = (DIRS @ a_pts.T).min(axis=1)  # (dirs,)
    tmax = (DIRS @ tris.reshape(-1, 3).T).reshape(len(DIRS), len(tris), 3).max(axis=2)
    coarse = (amin[:, None] - tmax).max(axis=0)  # (m,) lower bounds
    best = np.inf
    for t in np.flatnonzero(coarse <= coarse.min() + 0.06):
        best = min(best, reference_distance(a_pts, tris[t]))
    return best
