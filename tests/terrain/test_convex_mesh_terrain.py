"""Convex meshes (hulls) on terrain: against heightmaps and triangle meshes through the shared
convex-vs-triangle routine. A hull cube must behave exactly as a box of the same size (resting
height, contact count, sliding acceleration g (sin(theta) - mu cos(theta)) on a ramp); a lone
triangle against a random hull must report the exact signed distance (brute-force reference:
the support-function gap maximised over directions); a triangle mesh falls onto the ground."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

import torsion
from torsion import Shape
from torsion._core import collide_triangle

from ..meshes import box_mesh, plane_mesh, write_obj
from .conftest import reference_distance, world

G = 9.81
I = (1.0, 0.0, 0.0, 0.0)
CUBE_SIZE = (0.4, 0.4, 0.2)


def box_obj(path, size=CUBE_SIZE):
    return write_obj(path, *box_mesh(size))


def plane_obj(path, n=10, size=4.0, z=0.0):
    return write_obj(path, *plane_mesh(n, size, z))


def grid_xy(n, size):
    xs = -size / 2 + np.arange(n) * (size / (n - 1))
    X, Y = np.meshgrid(xs, xs)
    return X.reshape(-1), Y.reshape(-1)


def add_cube(w, kind, path, material="default"):
    if kind == "box":
        return w.add_box(*CUBE_SIZE, 2.0, material)
    b = w.add_mesh(path, 2.0, material=material)
    assert b.get_collision_mode() == torsion.MeshCollisionMode.CONVEX_HULL
    return b


@pytest.mark.parametrize("floor", ["heightmap", "ground"])
def test_hull_cube_rests_like_a_box(tmp_path, floor):
    path = box_obj(tmp_path / "cube.obj")
    got = {}
    for kind in ("box", "mesh"):
        w = world()
        if floor == "heightmap":
            w.add_height_map(21, 21, 4.0, 4.0, 0.0, 0.0, np.full(21 * 21, 0.1))
        else:
            w.add_ground(0.1)
        b = add_cube(w, kind, path)
        # off the cell corners, across cell edges and the cells' diagonals
        b.set_position([0.13, 0.27, 0.21])
        w.integrate(600)
        got[kind] = (b.get_position().copy(), len(b.get_contacts()))
        np.testing.assert_allclose(b.get_linear_velocity(), 0.0, atol=1e-4)
    (pb, nb), (pm, nm) = got["box"], got["mesh"]
    assert nb == nm == 4
    assert pm[2] == pytest.approx(pb[2], abs=1e-6)
    assert pm[2] == pytest.approx(0.2, abs=1e-3)


def test_hull_cube_on_a_flat_heightmap_rests_as_on_the_ground(tmp_path):
    path = box_obj(tmp_path / "cube.obj")
    z = []
    for floor in ("heightmap", "ground"):
        w = world()
        if floor == "heightmap":
            w.add_height_map(21, 21, 4.0, 4.0, 0.0, 0.0, np.zeros(21 * 21))
        else:
            w.add_ground(0.0)
        b = add_cube(w, "mesh", path)
        b.set_position([-0.31, 0.17, 0.105])
        w.integrate(600)
        z.append(b.get_position()[2])
    assert z[0] == pytest.approx(z[1], abs=1e-6)


@pytest.mark.parametrize("kind", ["box", "mesh"])
def test_hull_cube_slides_down_a_heightmap_ramp(tmp_path, kind):
    theta, mu = 0.3, 0.2  # tan(0.3) = 0.31 > mu: it slides
    n, size = 41, 8.0
    w = world()
    X, _ = grid_xy(n, size)
    w.add_height_map(n, n, size, size, 0.0, 0.0, -X * math.tan(theta), "ramp")
    w.set_material_pair_prop("ramp", "cube", mu, 0.0, 0.0)
    b = add_cube(w, kind, box_obj(tmp_path / "cube.obj"), "cube")
    nrm = np.array([math.sin(theta), 0.0, math.cos(theta)])
    b.set_position(np.array([-2.5, 0.13, 2.5 * math.tan(theta)]) + (0.1 + 1e-4) * nrm)
    b.set_orientation([math.cos(theta / 2), 0.0, math.sin(theta / 2), 0.0])  # flat on the slope
    down = np.array([math.cos(theta), 0.0, -math.sin(theta)])
    w.integrate(50)
    v0 = b.get_linear_velocity() @ down
    w.integrate(800)
    v1 = b.get_linear_velocity() @ down
    assert (v1 - v0) / 0.8 == pytest.approx(G * (math.sin(theta) - mu * math.cos(theta)), rel=0.01)
    p = b.get_position()
    assert p @ nrm == pytest.approx(0.1, abs=1e-3)  # on the surface, not sinking or hopping
    assert np.abs(b.get_angular_velocity()).max() < 1e-3  # no tipping over cell edges


def test_hull_rests_on_a_tessellated_plane_mesh_at_the_ground_height(tmp_path):
    cube = box_obj(tmp_path / "cube.obj")
    plane = plane_obj(tmp_path / "plane.obj", n=10, size=4.0, z=0.25)
    z = []
    for floor in ("mesh", "ground"):
        w = world()
        if floor == "mesh":
            s = w.add_mesh(plane, 1.0, inertia=np.eye(3), com=[0, 0, 0],
                           collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
            s.set_body_type(torsion.BodyType.STATIC)
            s.set_position([0, 0, 0])
        else:
            w.add_ground(0.25)
        b = add_cube(w, "mesh", cube)
        b.set_position([0.13, 0.27, 0.6])  # straddles the cells' internal edges
        b.set_orientation([math.cos(0.2), 0.0, 0.0, math.sin(0.2)])
        w.integrate(1500)
        z.append(b.get_position()[2])
        assert len(b.get_contacts()) == 4
        np.testing.assert_allclose(b.get_linear_velocity(), 0.0, atol=1e-4)
    assert z[0] == pytest.approx(z[1], abs=1e-6)
    assert z[0] == pytest.approx(0.35, abs=3e-3)  # the solver's resting penetration, as on the ground


def test_dynamic_triangle_mesh_falls_onto_the_ground(tmp_path):
    """Triangle mesh against the ground: its lowest vertices touch the plane (a closed box
    surface lands on its face: four corner contacts, at the resting height of a box)."""
    z = []
    for kind in ("mesh", "box"):
        w = world()
        w.add_ground(0.0)
        if kind == "mesh":
            m = w.add_mesh(box_obj(tmp_path / "cube.obj"), 2.0,
                           collision_mode=torsion.MeshCollisionMode.ORIGINAL_MESH)
        else:
            m = w.add_box(*CUBE_SIZE, 2.0)
        m.set_position([0.0, 0.0, 0.3])
        w.integrate(800)
        assert len(m.get_contacts()) == 4
        np.testing.assert_allclose(m.get_linear_velocity(), 0.0, atol=1e-4)
        z.append(m.get_position()[2])
    assert z[0] == pytest.approx(z[1], abs=1e-6)
    assert z[0] == pytest.approx(0.1, abs=3e-3)  # the solver's resting penetration, as the box


# --- one hull against one lone triangle, against brute force ----------------------------------

TRI = np.array([[-0.6, -0.5, 0.0], [0.7, -0.4, 0.05], [0.0, 0.6, -0.05]])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), offset=st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0)),
       lift=st.floats(0.02, 0.6), kind=st.sampled_from(["hull", "box"]))
def test_convex_shape_against_a_lone_triangle_matches_brute_force(seed, offset, lift, kind):
    """A random hull or box in front of a lone triangle (every edge free, so every face, edge
    and corner region is live, and past an edge's end only the corner can be closest): the
    deepest reported point is exactly the true distance (no contact claims more penetration or
    less separation than the truth), and its normal achieves that distance."""
    rng = np.random.default_rng(seed)
    if kind == "box":
        half = rng.uniform(0.05, 0.4, size=3)
        pts = np.array(list(itertools.product(*[(-h, h) for h in half])))
        shape = Shape.box(*(2 * half))
    else:
        pts = rng.normal(size=(int(rng.integers(8, 25)), 3)) * rng.uniform(0.1, 0.4, size=3)
        shape = Shape.convex_mesh(pts)
    rot = Rotation.random(random_state=rng)
    q = np.roll(rot.as_quat(), 1)
    local = pts @ rot.as_matrix().T
    n_tri = np.cross(TRI[1] - TRI[0], TRI[2] - TRI[0])
    n_tri /= np.linalg.norm(n_tri)
    # place the shape so that its lowest point along the triangle's normal is `lift` in front of
    # the triangle's plane: the shape is wholly in front (the one-sided triangle sees it)
    x = np.array([offset[0], offset[1], 0.0])
    x += n_tri * (lift - ((local + x - TRI[0]) @ n_tri).min())
    world_pts = local + x
    ref = reference_distance(world_pts, TRI)
    assert ref > 0
    c = collide_triangle(shape, x, q, TRI, settings=torsion.ContactSettings(margin=2.0, max_points_per_pair=8))
    assert len(c) >= 1
    k = np.argmax(c["depth"])
    assert -c["depth"][k] == pytest.approx(ref, abs=2e-6)
    nk = c["normal"][k]
    assert np.linalg.norm(nk) == pytest.approx(1.0)
    assert (world_pts @ nk).min() - (TRI @ nk).max() == pytest.approx(ref, abs=2e-6)


def test_hull_resting_flat_on_a_triangle_gets_its_face_corners():
    cube = np.array(list(itertools.product((-0.2, 0.2), (-0.1, 0.1), (-0.1, 0.1))))
    tri = np.array([[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 1.0, 0.0]])
    c = collide_triangle(Shape.convex_mesh(cube), (0, -0.5, 0.099), I, tri)
    assert len(c) == 4
    np.testing.assert_array_equal(c["normal"], np.tile((0, 0, 1.0), (4, 1)))
    np.testing.assert_allclose(c["depth"], 0.001, atol=1e-15)
    np.testing.assert_allclose(np.sort(c["position"][:, 0]), [-0.2, -0.2, 0.2, 0.2], atol=1e-15)
    # the same as a box of that size
    b = collide_triangle(Shape.box(0.4, 0.2, 0.2), (0, -0.5, 0.099), I, tri)
    np.testing.assert_allclose(np.sort(b["position"], axis=0), np.sort(c["position"], axis=0), atol=1e-15)


def test_non_convex_shapes_are_rejected():
    tri = np.array([[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 1.0, 0.0]])
    with pytest.raises(ValueError, match="ground"):
        collide_triangle(Shape.ground(), (0, 0, 0), I, tri)
