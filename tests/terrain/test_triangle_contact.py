"""torsion.collide_triangle: a convex shape against one one-sided triangle (the routine that
heightmaps and triangle meshes share), against hand-solved cases and against the exact
point-triangle distance (Ericson, Real-Time Collision Detection 5.1.5, re-derived here in NumPy)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torsion
from torsion import Shape
from torsion._core import collide_triangle

I = (1.0, 0.0, 0.0, 0.0)
TRI = np.array([[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 1.0, 0.0]])
NAN3 = [math.nan] * 3


def q_axis(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return (math.cos(angle / 2), *(math.sin(angle / 2) * axis))


def closest_point_on_triangle(p, a, b, c):
    """Ericson 5.1.5: the point of triangle abc closest to p, and which feature holds it."""
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = ab @ ap, ac @ ap
    if d1 <= 0 and d2 <= 0:
        return a, "vertex"
    bp = p - b
    d3, d4 = ab @ bp, ac @ bp
    if d3 >= 0 and d4 <= d3:
        return b, "vertex"
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0:
        return a + d1 / (d1 - d3) * ab, "edge"
    cp = p - c
    d5, d6 = ab @ cp, ac @ cp
    if d6 >= 0 and d5 <= d6:
        return c, "vertex"
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0:
        return a + d2 / (d2 - d6) * ac, "edge"
    va = d3 * d6 - d5 * d4
    if va <= 0 and (d4 - d3) >= 0 and (d5 - d6) >= 0:
        return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b), "edge"
    denom = 1.0 / (va + vb + vc)
    return a + ab * (vb * denom) + ac * (vc * denom), "face"


def test_sphere_on_face_is_exact():
    c = collide_triangle(Shape.sphere(0.5), (0.1, -0.2, 0.4), I, TRI)
    assert len(c) == 1
    np.testing.assert_allclose(c["normal"][0], (0, 0, 1), atol=0)
    assert c["depth"][0] == pytest.approx(0.1, abs=1e-15)
    # midway between the surfaces: the sphere's bottom at z = -0.1, the plane at 0
    np.testing.assert_allclose(c["position"][0], (0.1, -0.2, -0.05), atol=1e-15)


def test_sphere_beyond_a_free_edge_touches_the_edge():
    # centre 0.3 beyond the edge y = -1 and 0.3 above the plane: distance 0.3 sqrt(2)
    c = collide_triangle(Shape.sphere(0.5), (0.0, -1.3, 0.3), I, TRI)
    assert len(c) == 1
    np.testing.assert_allclose(c["normal"][0], (0, -1 / math.sqrt(2), 1 / math.sqrt(2)), atol=1e-5)
    assert c["depth"][0] == pytest.approx(0.5 - 0.3 * math.sqrt(2), abs=1e-10)


def test_sphere_beyond_a_flat_edge_is_left_to_the_neighbour():
    # the same sphere, but a coplanar triangle lies across the edge: this triangle reports
    # nothing there (its neighbour does), so a tessellated plane has no edge bumps
    nn = np.array([[0, 0, 1.0], NAN3, NAN3])
    assert len(collide_triangle(Shape.sphere(0.5), (0.0, -1.3, 0.3), I, TRI, nn)) == 0
    # and a sphere over the face near that edge gets the face normal exactly
    c = collide_triangle(Shape.sphere(0.5), (0.0, -0.99, 0.3), I, TRI, nn)
    np.testing.assert_array_equal(c["normal"][0], (0, 0, 1))
    assert c["depth"][0] == pytest.approx(0.2, abs=1e-15)


def test_sphere_above_plane_or_far_apart_makes_no_contact():
    assert len(collide_triangle(Shape.sphere(0.5), (0, 0, 0.51), I, TRI)) == 0
    assert len(collide_triangle(Shape.sphere(0.5), (5, 5, 0.0), I, TRI)) == 0
    # within the margin: a speculative contact with negative depth
    s = torsion.ContactSettings(margin=0.02)
    c = collide_triangle(Shape.sphere(0.5), (0, 0, 0.51), I, TRI, settings=s)
    assert len(c) == 1 and c["depth"][0] == pytest.approx(-0.01, abs=1e-15)


def test_behind_the_triangle_pushes_out_along_the_normal():
    # one-sided: the solid is behind the face, so a sphere sunk below it is pushed up
    c = collide_triangle(Shape.sphere(0.2), (0, 0, -0.1), I, TRI)
    assert len(c) == 1
    np.testing.assert_array_equal(c["normal"][0], (0, 0, 1))
    assert c["depth"][0] == pytest.approx(0.3, abs=1e-15)


def test_convex_ridge_gives_the_rounded_normal():
    # two faces meeting at the ridge x = 0 (z = 0), each sloping down at 0.2 rad
    a = 0.2
    left = np.array([[-1, -1, -math.tan(a)], [0, -1, 0], [0, 1, 0], ])
    right = np.array([[0, -1, 0], [1, -1, -math.tan(a)], [0, 1, 0]])
    n_left = np.array([-math.sin(a), 0, math.cos(a)])
    n_right = np.array([math.sin(a), 0, math.cos(a)])
    # left's edge 1 (v1 -> v2) is the ridge; right's edge 2 (v2 -> v0)
    nn_left = np.array([NAN3, n_right, NAN3])
    nn_right = np.array([NAN3, NAN3, n_left])
    r = 0.3
    centre = np.array([0.02, 0.0, 0.29])  # just past the ridge on the right, in the edge wedge
    cl = collide_triangle(Shape.sphere(r), centre, I, left, nn_left, owned=[True, True, True])
    cr = collide_triangle(Shape.sphere(r), centre, I, right, nn_right, owned=[True, True, False])
    both = np.concatenate([cl, cr])
    assert len(both) == 1  # the ridge point, reported once (by its owner)
    d = np.hypot(0.02, 0.29)
    np.testing.assert_allclose(both["normal"][0], centre / d, atol=1e-5)
    assert both["depth"][0] == pytest.approx(r - d, abs=1e-9)


def test_box_resting_flat_gets_its_four_corners():
    c = collide_triangle(Shape.box(0.4, 0.2, 0.2), (0, -0.5, 0.099), I, TRI)
    assert len(c) == 4
    np.testing.assert_array_equal(c["normal"], np.tile((0, 0, 1.0), (4, 1)))
    np.testing.assert_allclose(c["depth"], 0.001, atol=1e-15)
    np.testing.assert_allclose(np.sort(c["position"][:, 0]), [-0.2, -0.2, 0.2, 0.2], atol=1e-15)


def test_box_across_a_free_edge_is_clipped_to_it():
    # half of the box hangs beyond the edge y = -1: the points lie on the triangle's side, two
    # of them on the edge, all with the face normal (the box is held, not tipped by the edge)
    c = collide_triangle(Shape.box(0.4, 0.4, 0.2), (0, -1.0, 0.099), I, TRI)
    assert len(c) == 4
    np.testing.assert_array_equal(c["normal"], np.tile((0, 0, 1.0), (4, 1)))
    assert np.all(c["position"][:, 1] >= -1.0 - 1e-15)
    assert np.sum(np.isclose(c["position"][:, 1], -1.0, atol=1e-15)) == 2


def test_box_over_tessellated_plane_has_only_face_normals():
    # a unit square split along its diagonal; a box tilted a little about z, straddling the
    # diagonal and both outer edges: every point has the plane's normal (no ghost edges)
    a, b, cc, d = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.0]])
    t1, t2 = np.array([a, b, cc]), np.array([a, cc, d])
    up = np.array([0, 0, 1.0])
    nn1 = np.array([up, up, NAN3])  # edges a-b (neighbour cell), b-c (neighbour), c-a diag
    nn1[2] = up
    nn2 = np.array([up, up, up])
    q = q_axis((0, 0, 1), 0.3)
    for x in np.linspace(0.05, 0.95, 7):
        pts = []
        for tri, nn in ((t1, nn1), (t2, nn2)):
            pts.append(collide_triangle(Shape.box(0.3, 0.3, 0.1), (x, 0.5, 0.049), q, tri, nn))
        allp = np.concatenate(pts)
        assert len(allp) >= 3
        np.testing.assert_array_equal(allp["normal"], np.tile(up, (len(allp), 1)))
        np.testing.assert_allclose(allp["depth"], 0.001, atol=1e-12)


@pytest.mark.parametrize("shape,pos,quat,depth", [
    (Shape.capsule(0.1, 0.4), (0, -0.5, 0.09), q_axis((0, 1, 0), math.pi / 2), 0.01),
    (Shape.cylinder(0.1, 0.4), (0, -0.5, 0.19), I, 0.01),
    (Shape.cylinder(0.1, 0.4), (0, -0.5, 0.09), q_axis((0, 1, 0), math.pi / 2), 0.01),
])
def test_round_shapes_resting_flat(shape, pos, quat, depth):
    c = collide_triangle(shape, pos, quat, TRI)
    assert len(c) >= 2
    np.testing.assert_array_equal(c["normal"], np.tile((0, 0, 1.0), (len(c), 1)))
    np.testing.assert_allclose(c["depth"], depth, atol=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match="vertices"):
        collide_triangle(Shape.sphere(1), (0, 0, 0), I, np.zeros((2, 3)))
    with pytest.raises(ValueError, match="vertices"):
        collide_triangle(Shape.sphere(1), (0, 0, 0), I, [[0, 0, math.nan], [1, 0, 0], [0, 1, 0]])
    with pytest.raises(ValueError, match="neighbour_normals"):
        collide_triangle(Shape.sphere(1), (0, 0, 0), I, TRI, np.zeros((3, 3)))
    with pytest.raises(ValueError, match="ground"):
        collide_triangle(Shape.ground(), (0, 0, 0), I, TRI)
    # a degenerate triangle touches nothing
    assert len(collide_triangle(Shape.sphere(1), (0, 0, 0), I, [[0, 0, 0], [1, 0, 0], [2, 0, 0]])) == 0


coord = st.floats(-1.5, 1.5, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(tri=st.lists(st.tuples(coord, coord, st.floats(-0.5, 0.5)), min_size=3, max_size=3),
       centre=st.tuples(coord, coord, st.floats(-0.2, 1.0)), r=st.floats(0.05, 0.6))
def test_sphere_against_exact_distance(tri, centre, r):
    """A sphere in front of a lone triangle (every edge free): the reported depth is r minus
    the exact point-triangle distance where the closest point is on the face or an edge; in a
    vertex region it never underestimates (the edge arcs stand in for the vertex cone)."""
    v = np.array(tri, float)
    n = np.cross(v[1] - v[0], v[2] - v[0])
    area2 = np.linalg.norm(n)
    if area2 < 0.05:
        return
    n /= area2
    # shortest edge not tiny, angles not degenerate
    if min(np.linalg.norm(v[i] - v[(i + 1) % 3]) for i in range(3)) < 0.1:
        return
    c = np.array(centre)
    h = n @ (c - v[0])
    if h <= 1e-3:
        return  # behind the face: one-sided, tested separately
    p, feature = closest_point_on_triangle(c, *v)
    dist = np.linalg.norm(c - p)
    true_depth = r - dist
    res = collide_triangle(Shape.sphere(r), c, I, v)
    if true_depth < -1e-9:
        if feature != "vertex":
            assert len(res) == 0
        return
    assert len(res) >= 1
    got = res["depth"].max()
    if feature == "vertex":
        assert got >= true_depth - 1e-9
    else:
        assert got == pytest.approx(true_depth, abs=1e-9)
        k = int(np.argmax(res["depth"]))
        np.testing.assert_allclose(res["normal"][k], (c - p) / dist, atol=2e-5)
