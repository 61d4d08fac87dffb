"""Boxes and hulls near the ends of free edges: heightmap borders, heightmap holes and the open
boundary of a triangle mesh (ORIGINAL_MESH), against a brute-force reference written here (the
distance from the shape to the union of the surface's triangles, each by support-gap
maximisation over directions: tests/terrain/conftest.py). The shape is placed in front of every
triangle's plane (the surface is one-sided), within the contact margin; the deepest contact
reported must be exactly the true distance. An edge contact measured against the edge's line
rather than its segment (past a free edge's end) would claim less separation than the truth and
fail here."""

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

import torsion

from ..meshes import write_obj
from .conftest import grid_triangles, grid_xy, reference_distance_to_triangles

N, SIZE = 4, 0.9  # 4 x 4 samples, 0.3 m cells
MARGIN = 2.0


def shape_points(rng, kind):
    """Body-frame points of a random box (its corners) or hull (random points)."""
    if kind == "box":
        half = rng.uniform(0.04, 0.25, size=3)
        return np.array(list(itertools.product(*[(-h, h) for h in half]))), half
    return rng.normal(size=(int(rng.integers(8, 20)), 3)) * rng.uniform(0.05, 0.25, size=3), None


def heights(rng, hole):
    h = rng.uniform(-0.06, 0.06, size=N * N)
    if hole == "interior":
        h[1 * N + 1] = np.nan  # removes the six triangles around sample (1, 1)
    elif hole == "border":
        h[0 * N + 2] = np.nan  # a bite out of the y = min border
    return h


def place(rng, local, tris, xy, lift):
    """Centre so that the shape's lowest point is `lift` above the highest corner, at xy."""
    top = np.nanmax(tris[:, :, 2])
    x = np.array([xy[0], xy[1], 0.0])
    x[2] = top + lift - local[:, 2].min()
    return x


def in_front_of_every_plane(pts, tris):
    n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    n /= np.linalg.norm(n, axis=1)[:, None]
    return bool((np.einsum("pk,tk->pt", pts, n) - np.einsum("tk,tk->t", tris[:, 0], n)).min() > 1e-6)


def deepest(w, body):
    """Deepest contact of the world's contact problem (all pairs involve `body` here)."""
    w.integrate1()
    c = w.get_contact_problem()
    w.integrate2()
    assert len(c) >= 1
    return c["depth"].max()


def add_shape(w, tmp_path, kind, pts, half, x, q):
    if kind == "box":
        b = w.add_box(*(2 * half), 1.0)
    else:
        path = write_obj(tmp_path / "hull.obj", pts, ConvexHull(pts).simplices)
        b = w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                       collision_mode=torsion.MeshCollisionMode.CONVEX_HULL)
    b.set_position(x)
    b.set_orientation(q)
    return b


def margin_world():
    w = torsion.World()
    w.set_contact_settings(torsion.ContactSettings(margin=MARGIN, max_points_per_pair=8))
    w.set_broadphase_settings(torsion.BroadphaseSettings(aabb_margin=MARGIN))
    return w


def placed_shape(rng, kind, tris, xy, lift):
    """A random box or hull (points, half extents), a random rotation and a position in front of
    every triangle's plane within the contact margin of the surface, with the brute-force
    distance `ref` to the triangles (hypothesis rejects the draw when no such place is found)."""
    pts, half = shape_points(rng, kind)
    rot = Rotation.random(random_state=rng)
    local = pts @ rot.as_matrix().T
    x = place(rng, local, tris, xy, lift)
    assume(in_front_of_every_plane(local + x, tris))
    ref = reference_distance_to_triangles(local + x, tris)
    assert 0 < ref < MARGIN
    return pts, half, rot, x, ref


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["box", "hull"]),
       hole=st.sampled_from(["none", "interior", "border"]),
       xy=st.tuples(st.floats(-0.75, 0.75), st.floats(-0.75, 0.75)), lift=st.floats(0.005, 0.3))
def test_shapes_at_height_map_borders_and_holes_match_brute_force(tmp_path_factory, seed, kind, hole, xy, lift):
    rng = np.random.default_rng(seed)
    h = heights(rng, hole)
    tris = grid_triangles(N, N, SIZE, SIZE, h)
    pts, half, rot, x, ref = placed_shape(rng, kind, tris, xy, lift)
    w = margin_world()
    w.add_height_map(N, N, SIZE, SIZE, 0.0, 0.0, h)
    b = add_shape(w, tmp_path_factory.mktemp("hull"), kind, pts, half, x, np.roll(rot.as_quat(), 1))
    assert -deepest(w, b) == pytest.approx(ref, abs=2e-6)


def open_sheet(rng):
    """An open triangle mesh: a bumpy 4 x 4-vertex sheet with one corner cell and one interior
    triangle missing (so its boundary has convex and concave corners), vertices shared."""
    X, Y = grid_xy(N, N, SIZE, SIZE)
    v = np.stack([X, Y, rng.uniform(-0.06, 0.06, size=N * N)], 1)
    tris = []
    for j in range(N - 1):
        for i in range(N - 1):
            a, b, c, d = j * N + i, j * N + i + 1, (j + 1) * N + i + 1, (j + 1) * N + i
            if (i, j) == (2, 2):
                continue  # a missing corner cell
            tris.append((a, b, c))
            if (i, j) != (1, 1):
                tris.append((a, c, d))  # one interior triangle missing: a hole
    return v, np.array(tris)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["box", "hull"]),
       xy=st.tuples(st.floats(-0.75, 0.75), st.floats(-0.75, 0.75)), lift=st.floats(0.005, 0.3))
def test_shapes_at_open_mesh_boundaries_match_brute_force(tmp_path_factory, seed, kind, xy, lift):
    rng = np.random.default_rng(seed)
    v, t = open_sheet(rng)
    tris = v[t]
    pts, half, rot, x, ref = placed_shape(rng, kind, tris, xy, lift)
    d = tmp_path_factory.mktemp("sheet")
    path = write_obj(d / "sheet.obj", v, t)
    w = margin_world()
    m = w.add_mesh(path, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                   collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
    m.set_body_type(torsion.BodyType.STATIC)
    m.set_position([0, 0, 0])
    b = add_shape(w, d, kind, pts, half, x, np.roll(rot.as_quat(), 1))
    assert -deepest(w, b) == pytest.approx(ref, abs=2e-6)
