"""Heightmap contacts against a brute-force reference built here in NumPy from the triangulated
surface (no torsion code): the exact sphere-surface distance (closest point over every
triangle), and for boxes the vertical penetration of densely sampled surface points."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torsion

from .conftest import grid_triangles

N, SIZE = 9, 2.0  # 0.25 m cells


def terrain(seed, amp):
    rng = np.random.default_rng(seed)
    return amp * rng.uniform(-1.0, 1.0, size=N * N)


def closest_on_triangles(p, tris):
    """Distance from p to the union of triangles (vectorised Ericson 5.1.5 via projections)."""
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    best = np.full(len(tris), np.inf)
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1)[:, None]
    # face: projection inside
    d = np.einsum("ij,ij->i", p - a, n)
    q = p - d[:, None] * n
    def inside(q):
        s1 = np.einsum("ij,ij->i", np.cross(b - a, q - a), n)
        s2 = np.einsum("ij,ij->i", np.cross(c - b, q - b), n)
        s3 = np.einsum("ij,ij->i", np.cross(a - c, q - c), n)
        return (s1 >= 0) & (s2 >= 0) & (s3 >= 0)
    best = np.where(inside(q), np.abs(d), best)
    for u, v in ((a, b), (b, c), (c, a)):
        e = v - u
        t = np.clip(np.einsum("ij,ij->i", p - u, e) / np.einsum("ij,ij->i", e, e), 0.0, 1.0)
        best = np.minimum(best, np.linalg.norm(p - (u + t[:, None] * e), axis=1))
    return best.min()


def heights_below(x, y, h):
    """Surface heights under points (x, y) (arrays), by locating each point's cell and its half
    (split along the (i, j)-(i+1, j+1) diagonal) and interpolating that triangle's plane; NaN
    outside the grid."""
    H = np.asarray(h, float).reshape(N, N)
    d = SIZE / (N - 1)
    u, v = (np.asarray(x) + SIZE / 2) / d, (np.asarray(y) + SIZE / 2) / d
    out = np.full(np.shape(u), np.nan)
    ok = (u >= 0) & (u <= N - 1) & (v >= 0) & (v <= N - 1)
    i = np.minimum(np.floor(u[ok]).astype(int), N - 2)
    j = np.minimum(np.floor(v[ok]).astype(int), N - 2)
    fu, fv = u[ok] - i, v[ok] - j
    h00, h10, h11, h01 = H[j, i], H[j, i + 1], H[j + 1, i + 1], H[j + 1, i]
    lower = fu >= fv  # triangle (00, 10, 11): z = h00 + fu (h10 - h00) + fv (h11 - h10)
    out[ok] = np.where(lower, h00 + fu * (h10 - h00) + fv * (h11 - h10),
                       h00 + fv * (h01 - h00) + fu * (h11 - h01))
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), amp=st.floats(0.0, 0.06),
       xy=st.tuples(st.floats(-0.7, 0.7), st.floats(-0.7, 0.7)),
       r=st.floats(0.05, 0.3), lift=st.floats(-0.05, 0.05))
def test_sphere_depth_is_r_minus_the_exact_surface_distance(seed, amp, xy, r, lift):
    h = terrain(seed, amp)
    tris = grid_triangles(N, N, SIZE, SIZE, h)
    hm_shape_world = torsion.World()
    hm = hm_shape_world.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, h)
    z0 = hm.get_height(*xy)
    centre = np.array([xy[0], xy[1], z0 + r + lift])
    dist = closest_on_triangles(centre, tris)
    if dist < 0.5 * r:
        return  # the centre is near or below the surface: depth is not a distance there
    true_depth = r - dist
    # the contacts of one sphere against the map, through a one-off world pair query
    w = torsion.World()
    w.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, h)
    s = w.add_sphere(r, 1.0)
    s.set_position(centre)
    w.set_contact_settings(torsion.ContactSettings(max_points_per_pair=8))
    w.integrate1()
    c = w.get_contact_problem()
    w.integrate2()
    if true_depth <= 1e-9:
        # apart or just touching: nothing deeper than the truth
        assert len(c) == 0 or c["depth"].max() <= true_depth + 1e-9
        return
    assert len(c) >= 1
    got = c["depth"].max()
    assert got == pytest.approx(true_depth, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), amp=st.floats(0.0, 0.04),
       xy=st.tuples(st.floats(-0.6, 0.6), st.floats(-0.6, 0.6)),
       angles=st.tuples(st.floats(-0.3, 0.3), st.floats(-0.3, 0.3), st.floats(-3.1, 3.1)),
       lift=st.floats(-0.03, 0.05))
def test_box_contacts_exist_exactly_when_the_box_dips_below_the_surface(seed, amp, xy, angles, lift):
    h = terrain(seed, amp)
    half = np.array([0.15, 0.1, 0.05])
    rx, ry, rz = angles
    cx, sx, cy, sy, cz, sz = math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry), math.cos(rz), math.sin(rz)
    R = (np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]]) @ np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
         @ np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]]))
    # brute force: sample the box's surface, vertical penetration of every sample
    g = np.linspace(-1, 1, 17)
    pts = []
    for k in range(3):
        for sgn in (-1, 1):
            A, B = np.meshgrid(g, g)
            P = np.zeros((A.size, 3))
            P[:, k] = sgn
            others = [i for i in range(3) if i != k]
            P[:, others[0]], P[:, others[1]] = A.ravel(), B.ravel()
            pts.append(P)
    local = np.concatenate(pts) * half
    lowest = (R @ local.T).T[:, 2].min()
    z_surface = heights_below(np.array([xy[0]]), np.array([xy[1]]), h)[0]
    centre = np.array([xy[0], xy[1], z_surface - lowest + lift])
    world_pts = centre + (R @ local.T).T
    pen = heights_below(world_pts[:, 0], world_pts[:, 1], h) - world_pts[:, 2]
    w = torsion.World()
    w.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, h)
    b = w.add_box(*(2 * half), 1.0)
    b.set_position(centre)
    qw = np.zeros(4)
    # rotation matrix -> quaternion (w, x, y, z)
    tr = np.trace(R)
    qw = math.sqrt(max(1 + tr, 1e-12)) / 2
    q = np.array([qw, (R[2, 1] - R[1, 2]) / (4 * qw), (R[0, 2] - R[2, 0]) / (4 * qw), (R[1, 0] - R[0, 1]) / (4 * qw)])
    b.set_orientation(q)
    w.integrate1()
    c = w.get_contact_problem()
    w.integrate2()
    slope = 8 * amp / (SIZE / (N - 1))  # steepest slope of the terrain
    if np.nanmax(pen) > 0.002 + slope * 0.02:
        assert len(c) >= 1
        # the deepest reported depth is the penetration measured along the surface normal:
        # within the sampling resolution of the vertical penetration times cos(slope)
        assert c["depth"].max() >= np.nanmax(pen) * math.cos(math.atan(slope)) - 0.01
    if np.nanmax(pen) < -0.002 - slope * 0.02:
        assert len(c) == 0
    for k in range(len(c)):
        # normals point from B to A; the heightmap (index 0) is A here: flip to heightmap -> box
        n = -c["normal"][k] if c["object_a_index"][k] == 0 else c["normal"][k]
        assert n[2] > 0.5  # surface normals of gentle terrain point up
