"""Multi-point manifolds: a box on a box reports the corners of the overlap polygon, computed
here by brute force (corners inside the other square, and crossings of edges)."""

import itertools
import math

import numpy as np
import pytest

import torsion
from torsion import Shape

I = (1.0, 0.0, 0.0, 0.0)


def square(center, half, angle):
    c, s = math.cos(angle), math.sin(angle)
    r = np.array([[c, -s], [s, c]])
    local = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * half
    return local @ r.T + np.asarray(center)


def cross2(u, v):
    return u[0] * v[1] - u[1] * v[0]


def inside(p, poly, tol=1e-9):
    # convex polygon in counter-clockwise order
    for a, b in zip(poly, np.roll(poly, -1, axis=0)):
        if cross2(b - a, p - a) < -tol:
            return False
    return True


def overlap_vertices(p, q):
    """Vertices of the intersection of two convex polygons, by brute force."""
    pts = [v for v in p if inside(v, q)] + [v for v in q if inside(v, p)]
    for (a, b), (c, d) in itertools.product(zip(p, np.roll(p, -1, 0)), zip(q, np.roll(q, -1, 0))):
        m = np.array([b - a, c - d]).T
        if abs(np.linalg.det(m)) < 1e-12:
            continue
        t, u = np.linalg.solve(m, c - a)
        if -1e-12 <= t <= 1 + 1e-12 and -1e-12 <= u <= 1 + 1e-12:
            pts.append(a + t * (b - a))
    # dedupe
    out = []
    for v in pts:
        if all(np.linalg.norm(v - w) > 1e-9 for w in out):
            out.append(v)
    return np.array(out)


@pytest.mark.parametrize(
    "offset,angle",
    [((0.2, 0.1), 0.0), ((0.0, 0.0), math.pi / 4), ((0.3, -0.2), 0.3), ((0.6, 0.5), 0.5),
     ((0.1, 0.7), 1.0), ((-0.4, 0.2), -0.2)],
)
def test_box_on_box_reports_the_overlap_polygon(offset, angle):
    depth = 0.01
    pos_a = (offset[0], offset[1], 1.0 - depth)
    qa = (math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2))
    settings = torsion.ContactSettings(max_points_per_pair=8)
    c = torsion.collide(Shape.box(1, 1, 1), pos_a, qa, Shape.box(1, 1, 1), (0, 0, 0), I, settings)
    expected = overlap_vertices(square(offset, 0.5, angle), square((0, 0), 0.5, 0.0))
    assert len(c) == len(expected)
    got = c["position"][:, :2]
    for v in expected:
        assert np.min(np.linalg.norm(got - v, axis=1)) < 1e-9
    np.testing.assert_allclose(c["depth"], depth, atol=1e-12)
    np.testing.assert_allclose(c["position"][:, 2], 0.5 - depth / 2, atol=1e-12)
    # reduced to 4 points (the default), the kept points are still overlap vertices and the
    # deepest is kept
    c4 = torsion.collide(Shape.box(1, 1, 1), pos_a, qa, Shape.box(1, 1, 1), (0, 0, 0), I)
    assert len(c4) == min(4, len(expected))
    for v in c4["position"][:, :2]:
        assert np.min(np.linalg.norm(expected - v, axis=1)) < 1e-9


def test_tilted_box_on_box_keeps_only_penetrating_corners():
    # tilted by 0.1 rad about y: one edge of A dips into B, the other edge is above it
    qa = (math.cos(0.05), 0.0, math.sin(0.05), 0.0)
    z = 0.5 + 0.5 * math.cos(0.1) + 0.5 * math.sin(0.1) - 0.01  # lowest edge 1 cm deep
    c = torsion.collide(Shape.box(1, 1, 1), (0, 0, z), qa, Shape.box(3, 3, 1), (0, 0, 0), I)
    assert len(c) == 2
    np.testing.assert_allclose(c["depth"], 0.01, atol=1e-9)
    np.testing.assert_allclose(sorted(c["position"][:, 1]), [-0.5, 0.5], atol=1e-9)


def test_stack_in_a_world():
    w = torsion.World()
    w.add_ground()
    boxes = []
    for k in range(3):
        b = w.add_box(1, 1, 1, 1.0)
        b.set_position([0.05 * k, 0, 0.5 + k * 0.999 - 0.001])
        boxes.append(b)
    w.integrate1()
    cp = w.get_contact_problem()
    pairs = sorted({(int(a), int(b)) for a, b in zip(cp["object_a_index"], cp["object_b_index"])})
    assert pairs == [(0, 1), (1, 2), (2, 3)]
    assert len(cp) == 12
    for b in boxes:
        assert len(b.get_contacts()) in (4, 8)
    w.integrate2()


def test_cylinder_standing_on_its_cap_has_four_points_on_the_rim():
    c = torsion.collide(Shape.cylinder(0.3, 1), (1, 2, 0.49), I, Shape.ground(), (0, 0, 0), I)
    assert len(c) == 4
    r = np.linalg.norm(c["position"][:, :2] - [1, 2], axis=1)
    np.testing.assert_allclose(r, 0.3, atol=1e-12)


def test_capsule_lying_on_a_box_has_two_points_at_its_ends():
    q = (math.cos(math.pi / 4), 0.0, math.sin(math.pi / 4), 0.0)  # axis along x
    c = torsion.collide(Shape.capsule(0.1, 0.8), (0.2, 0, 0.599), q, Shape.box(2, 2, 1), (0, 0, 0), I)
    assert len(c) == 2
    np.testing.assert_allclose(sorted(c["position"][:, 0]), [-0.2, 0.6], atol=1e-9)
    np.testing.assert_allclose(c["depth"], 0.001, atol=1e-9)


def polygon_area(pts):
    """Area of the convex hull of 2-D points (shoelace over the points sorted by angle)."""
    c = pts.mean(axis=0)
    order = np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))
    p = pts[order]
    return 0.5 * abs(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - p[:, 1] * np.roll(p[:, 0], -1)))


@pytest.mark.parametrize("angle", [math.pi / 4, 0.3, 0.5, 1.0, -0.2])
def test_reduced_manifold_keeps_a_large_support_polygon(angle):
    # two squares turned against each other overlap in a polygon of up to 8 corners; the 4 points
    # kept (the deepest first, then greedily by area) must span most of the largest quadrilateral
    # those corners allow (brute force over every 4 of them) and cover the overlap's centroid,
    # where a resting load acts: a support polygon, not 4 points bunched along one side
    qa = (math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2))
    pos_a = (0.1, -0.05, 0.99)
    expected = overlap_vertices(square((0.1, -0.05), 0.5, angle), square((0, 0), 0.5, 0.0))
    assert len(expected) > 4
    best = max(polygon_area(expected[list(s)]) for s in itertools.combinations(range(len(expected)), 4))
    c4 = torsion.collide(Shape.box(1, 1, 1), pos_a, qa, Shape.box(1, 1, 1), (0, 0, 0), I)
    assert len(c4) == 4
    kept = c4["position"][:, :2]
    assert polygon_area(kept) >= 0.8 * best
    hull = kept[np.argsort(np.arctan2(*(kept - kept.mean(axis=0)).T[::-1]))]
    assert inside(expected.mean(axis=0), hull)


def tilted_box_on_box(yaw, tilt_dir, tilt, lift, max_points):
    """Contacts of a unit box turned by `yaw` about z, tilted by `tilt` rad about the horizontal
    axis at angle `tilt_dir`, whose bottom face's centre is `lift` m above the top face of a unit
    box at the origin (margin 5 mm: the hovering corners of the overlap are speculative points)."""
    axis = np.array([math.cos(tilt_dir), math.sin(tilt_dir), 0.0])
    q_tilt = np.r_[math.cos(tilt / 2), math.sin(tilt / 2) * axis]
    q_yaw = np.array([math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)])
    w1, v1 = q_tilt[0], q_tilt[1:]
    w2, v2 = q_yaw[0], q_yaw[1:]
    q = np.r_[w1 * w2 - v1 @ v2, w1 * v2 + w2 * v1 + np.cross(v1, v2)]
    settings = torsion.ContactSettings(margin=0.005, max_points_per_pair=max_points)
    return torsion.collide(Shape.box(1, 1, 1), (0.0, 0.0, 1.0 + lift), q, Shape.box(1, 1, 1),
                           (0, 0, 0), I, settings)


@pytest.mark.parametrize("yaw, tilt_dir, lift", [(math.pi / 4, 0.0, 0.0), (math.pi / 4, 0.4, -3e-5),
                                                 (0.3, 1.2, 0.0), (1.0, 2.5, 0.0),
                                                 (0.2, -2.0, 0.0)])
def test_reduction_keeps_the_touching_points_before_the_hovering_ones(yaw, tilt_dir, lift):
    # a face tilted by 4e-4 rad over another: the overlap's corners on one side touch (depth >=
    # 0, they carry the load), those on the other hover 65 to 250 um (speculative). The points
    # kept must include every touching one (up to 4): kept by spread alone, the hovering far
    # corners displace a touching one, and the support changes whenever another corner becomes
    # the deepest by round-off (a box in a settled pile rocked for seconds that way)
    c8 = tilted_box_on_box(yaw, tilt_dir, 4e-4, lift, 8)
    touching = c8[c8["depth"] >= 0.0]
    assert len(c8) > 4 and 2 <= len(touching) < len(c8)
    assert (c8["depth"] >= 0.0).sum() + (c8["depth"] < -5e-5).sum() == len(c8)  # no borderline
    c4 = tilted_box_on_box(yaw, tilt_dir, 4e-4, lift, 4)
    assert len(c4) == 4
    kept_touching = c4[c4["depth"] >= 0.0]
    assert len(kept_touching) == min(len(touching), 4)
    for p in kept_touching["position"]:
        assert np.abs(touching["position"] - p).max(axis=1).min() < 1e-12


@pytest.mark.parametrize("yaw", [math.pi / 4, 0.3, 1.0])
def test_reduction_of_a_hovering_tilted_face_keeps_a_large_support_polygon(yaw):
    # the same face 1 mm up: every point hovers (0.8 to 1.2 mm), none is preferred for touching,
    # and the 4 kept span most of the overlap (at least 3/4 of the best 4 of its corners: the
    # greedy choice, which starts from the deepest corner, reaches 79 % at yaw 0.3)
    c8 = tilted_box_on_box(yaw, 0.3, 4e-4, 1e-3, 8)
    assert len(c8) > 4 and (c8["depth"] < -5e-4).all()
    pts = c8["position"][:, :2]
    best = max(polygon_area(pts[list(s)]) for s in itertools.combinations(range(len(pts)), 4))
    c4 = tilted_box_on_box(yaw, 0.3, 4e-4, 1e-3, 4)
    assert len(c4) == 4
    assert polygon_area(c4["position"][:, :2]) >= 0.75 * best


@pytest.mark.parametrize("tilt", [1e-12, -3e-12, 2e-11])
def test_a_box_resting_on_the_ground_at_margin_0_keeps_its_four_corners(tilt):
    # a box whose bottom face lies on the plane up to round-off (tilted by `tilt` rad: two
    # corners a few 1e-14 m above the plane, two below): all four are contacts at margin 0, or
    # the support polygon would lose two corners at random from step to step
    q = np.array([1.0, 0.5 * tilt, 0.0, 0.0])
    c = torsion.collide(Shape.box(0.4, 0.3, 0.2), (0.3, -0.2, 0.1), q / np.linalg.norm(q),
                        Shape.ground(), (0, 0, 0), I)
    assert len(c) == 4
    assert np.abs(c["depth"]).max() < 1e-11
