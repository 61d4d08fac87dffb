"""Every shape pair against cases solved by hand: touching, separated, deep, edge-on, face-on and
rotated, with exact normals (from B to A) and depths, and the symmetry of swapping A and B."""

import math

import numpy as np
import pytest

import torsion
from torsion import Shape

I = (1.0, 0.0, 0.0, 0.0)
S2 = math.sqrt(2.0)


def q_axis(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return (math.cos(angle / 2), *(math.sin(angle / 2) * axis))


QX90 = q_axis((1, 0, 0), math.pi / 2)  # body z -> world -y
QY90 = q_axis((0, 1, 0), math.pi / 2)  # body z -> world x
QX45 = q_axis((1, 0, 0), math.pi / 4)
QY45 = q_axis((0, 1, 0), math.pi / 4)
QZ45 = q_axis((0, 0, 1), math.pi / 4)
UP = (0.0, 0.0, 1.0)

# name, shape A, position A, quaternion A, shape B, position B, quaternion B,
# expected normal (B to A), expected deepest depth, expected number of points
CASES = [
    # sphere-sphere
    ("ss-deep", Shape.sphere(1), (0, 0, 1.5), I, Shape.sphere(1), (0, 0, 0), I, UP, 0.5, 1),
    ("ss-diag", Shape.sphere(0.5), (0.6, 0.8, 0), I, Shape.sphere(1), (0, 0, 0), I, (0.6, 0.8, 0), 0.5, 1),
    # sphere-box
    ("sb-face", Shape.sphere(0.5), (0, 0, 0.9), I, Shape.box(1, 1, 1), (0, 0, 0), I, UP, 0.1, 1),
    ("sb-edge", Shape.sphere(0.5), (0.7, 0, 0.7), I, Shape.box(1, 1, 1), (0, 0, 0), I,
     (1 / S2, 0, 1 / S2), 0.5 - 0.2 * S2, 1),
    ("sb-corner", Shape.sphere(0.5), (0.7, 0.7, 0.7), I, Shape.box(1, 1, 1), (0, 0, 0), I,
     tuple(np.ones(3) / math.sqrt(3)), 0.5 - 0.2 * math.sqrt(3), 1),
    ("sb-inside", Shape.sphere(0.1), (0.1, 0, 0.4), I, Shape.box(1, 1, 1), (0, 0, 0), I, UP, 0.2, 1),
    ("sb-rotated", Shape.sphere(0.5), (0, 0, 0.5 * S2 + 0.4), I, Shape.box(1, 1, 1), (0, 0, 0), QX45,
     UP, 0.1, 1),
    # sphere-cylinder
    ("sc-side", Shape.sphere(0.5), (0.9, 0, 0), I, Shape.cylinder(0.5, 2), (0, 0, 0), I, (1, 0, 0), 0.1, 1),
    ("sc-cap", Shape.sphere(0.5), (0.2, 0, 1.4), I, Shape.cylinder(0.5, 2), (0, 0, 0), I, UP, 0.1, 1),
    ("sc-rim", Shape.sphere(0.5), (0.5 + 0.3, 0, 1.3), I, Shape.cylinder(0.5, 2), (0, 0, 0), I,
     (1 / S2, 0, 1 / S2), 0.5 - 0.3 * S2, 1),
    ("sc-inside", Shape.sphere(0.1), (0.3, 0, 0), I, Shape.cylinder(0.5, 2), (0, 0, 0), I, (1, 0, 0), 0.3, 1),
    ("sc-lying", Shape.sphere(0.5), (0, 0, 0.9), I, Shape.cylinder(0.5, 2), (0, 0, 0), QX90, UP, 0.1, 1),
    # sphere-capsule
    ("sk-side", Shape.sphere(0.5), (0.6, 0, 0.3), I, Shape.capsule(0.2, 1), (0, 0, 0), I, (1, 0, 0), 0.1, 1),
    ("sk-end", Shape.sphere(0.5), (0, 0, 1.1), I, Shape.capsule(0.2, 1), (0, 0, 0), I, UP, 0.1, 1),
    # sphere-ground
    ("sg", Shape.sphere(0.5), (3, 4, 0.4), I, Shape.ground(), (0, 0, 0), I, UP, 0.1, 1),
    ("sg-high-plane", Shape.sphere(0.5), (3, 4, 1.2), I, Shape.ground(), (0, 0, 1.0), I, UP, 0.3, 1),
    # box-box
    ("bb-face", Shape.box(1, 1, 1), (0.2, 0.1, 0.95), I, Shape.box(1, 1, 1), (0, 0, 0), I, UP, 0.05, 4),
    ("bb-face-x", Shape.box(1, 1, 1), (0.97, 0, 0), I, Shape.box(1, 1, 1), (0, 0, 0), I, (1, 0, 0), 0.03, 4),
    ("bb-edge-edge", Shape.box(1, 1, 1), (0, 0, S2 - 0.1), QX45, Shape.box(1, 1, 1), (0, 0, 0), QY45,
     UP, 0.1, 1),
    ("bb-edge-face", Shape.box(1, 1, 1), (0, 0, 0.5 + 0.5 * S2 - 0.02), QX45, Shape.box(2, 2, 1),
     (0, 0, 0), I, UP, 0.02, 2),
    ("bb-rotated-z", Shape.box(1, 1, 1), (0, 0, 0.99), QZ45, Shape.box(1, 1, 1), (0, 0, 0), I, UP, 0.01, 4),
    ("bb-small-on-big", Shape.box(0.2, 0.2, 0.2), (0.3, -0.2, 0.59), I, Shape.box(2, 2, 1), (0, 0, 0), I,
     UP, 0.01, 4),
    # box-ground
    ("bg-face", Shape.box(1, 2, 0.5), (1, 1, 0.24), I, Shape.ground(), (0, 0, 0), I, UP, 0.01, 4),
    ("bg-edge", Shape.box(1, 1, 1), (0, 0, 0.5 * S2 - 0.01), QX45, Shape.ground(), (0, 0, 0), I, UP, 0.01, 2),
    ("bg-corner", Shape.box(1, 1, 1), (0, 0, 0.5 * math.sqrt(3) - 0.01),
     q_axis(np.cross((1, 1, 1), (0, 0, -1)), math.acos(-1 / math.sqrt(3))), Shape.ground(), (0, 0, 0), I,
     UP, 0.01, 1),
    # capsule-capsule
    ("kk-cross", Shape.capsule(0.2, 1), (0, 0, 0.35), QY90, Shape.capsule(0.2, 1), (0, 0, 0), QX90, UP, 0.05, 1),
    ("kk-parallel", Shape.capsule(0.2, 1), (0.3, 0, 0.35), QY90, Shape.capsule(0.2, 1), (0, 0, 0), QY90,
     UP, 0.05, 2),
    ("kk-end-end", Shape.capsule(0.2, 1), (0, 0, 1.35), I, Shape.capsule(0.2, 1), (0, 0, 0), I, UP, 0.05, 1),
    # capsule-ground
    ("kg-lying", Shape.capsule(0.2, 1), (0, 0, 0.15), QY90, Shape.ground(), (0, 0, 0), I, UP, 0.05, 2),
    ("kg-standing", Shape.capsule(0.2, 1), (0, 0, 0.65), I, Shape.ground(), (0, 0, 0), I, UP, 0.05, 1),
    # cylinder-ground
    ("cg-standing", Shape.cylinder(0.3, 1), (0, 0, 0.49), I, Shape.ground(), (0, 0, 0), I, UP, 0.01, 4),
    ("cg-lying", Shape.cylinder(0.3, 1), (0, 0, 0.29), QX90, Shape.ground(), (0, 0, 0), I, UP, 0.01, 2),
    ("cg-tilted", Shape.cylinder(0.3, 1), (0, 0, 0.5 * math.cos(0.3) + 0.3 * math.sin(0.3) - 0.01),
     q_axis((1, 0, 0), 0.3), Shape.ground(), (0, 0, 0), I, UP, 0.01, 1),
    # box-cylinder (convex routine)
    ("bc-on-cap", Shape.box(0.4, 0.4, 0.4), (0, 0, 1.19), I, Shape.cylinder(0.5, 2), (0, 0, 0), I, UP, 0.01, 4),
    ("bc-on-side", Shape.box(2, 2, 1), (0, 0, 0.99), I, Shape.cylinder(0.5, 2), (0, 0, 0), QY90, UP, 0.01, 2),
    ("bc-edge-on-side", Shape.box(1, 1, 1), (0, 0, 0.5 + 0.5 * S2 - 0.05), QX45, Shape.cylinder(0.5, 3),
     (0, 0, 0), QY90, UP, 0.05, 2),
    # box-capsule
    ("bk-lying", Shape.box(2, 2, 1), (0, 0, 0.69), I, Shape.capsule(0.2, 1), (0, 0, 0), QY90, UP, 0.01, 2),
    ("bk-standing", Shape.box(2, 2, 1), (0, 0, 1.19), I, Shape.capsule(0.2, 1), (0, 0, 0), I, UP, 0.01, 1),
    ("bk-deep-core", Shape.box(2, 2, 1), (0, 0, 0.5), I, Shape.capsule(0.2, 1), (0, 0, 0), QY90, UP, 0.2, 2),
    # cylinder-cylinder
    ("cc-stacked", Shape.cylinder(0.5, 1), (0.1, 0, 0.99), I, Shape.cylinder(0.5, 1), (0, 0, 0), I, UP, 0.01, 4),
    ("cc-crossed", Shape.cylinder(0.3, 2), (0, 0, 0.59), QY90, Shape.cylinder(0.3, 2), (0, 0, 0), QX90,
     UP, 0.01, 1),
    ("cc-parallel-lying", Shape.cylinder(0.3, 2), (0.2, 0, 0.59), QY90, Shape.cylinder(0.3, 2), (0, 0, 0),
     QY90, UP, 0.01, 2),
    # cylinder-capsule
    ("ck-capsule-on-cap", Shape.capsule(0.1, 0.6), (0, 0, 0.59), QY90, Shape.cylinder(0.5, 1), (0, 0, 0), I,
     UP, 0.01, 2),
    ("ck-standing", Shape.capsule(0.1, 0.6), (0, 0, 0.89), I, Shape.cylinder(0.5, 1), (0, 0, 0), I, UP, 0.01, 1),
]

IDS = [c[0] for c in CASES]


def collide(*args, **kw):
    return torsion.collide(*args, **kw)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_normal_depth_and_count(case):
    _, sa, pa, qa, sb, pb, qb, normal, depth, count = case
    c = collide(sa, pa, qa, sb, pb, qb)
    assert len(c) == count, c
    n = np.asarray(normal, float)
    n /= np.linalg.norm(n)
    np.testing.assert_allclose(c["normal"], np.tile(n, (len(c), 1)), atol=1e-7)
    assert c["depth"].max() == pytest.approx(depth, abs=1e-7)
    np.testing.assert_allclose(np.linalg.norm(c["normal"], axis=1), 1.0, atol=1e-12)


# the ground is always B in a world; (ground, shape) is tested in test_ground_as_a
NON_GROUND = [c for c in CASES if c[4].type != torsion.ShapeType.GROUND]


@pytest.mark.parametrize("case", NON_GROUND, ids=[c[0] for c in NON_GROUND])
def test_swapping_a_and_b_flips_the_normal(case):
    _, sa, pa, qa, sb, pb, qb, _, depth, count = case
    ab = collide(sa, pa, qa, sb, pb, qb)
    ba = collide(sb, pb, qb, sa, pa, qa)
    assert len(ba) == len(ab)
    assert ba["depth"].max() == pytest.approx(ab["depth"].max(), abs=1e-9)
    np.testing.assert_allclose(ba["normal"][0], -ab["normal"][0], atol=1e-7)


def test_ground_as_a():
    # the dispatch table also serves (ground, shape): normal from the shape to the ground
    c = collide(Shape.ground(), (0, 0, 0), I, Shape.sphere(0.5), (0, 0, 0.4), I)
    assert len(c) == 1
    np.testing.assert_allclose(c["normal"][0], (0, 0, -1))
    assert c["depth"][0] == pytest.approx(0.1)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_separated_gives_nothing(case):
    # lift A by its depth plus 1 mm along the normal: no contact at margin 0, one at margin 2 mm
    _, sa, pa, qa, sb, pb, qb, normal, depth, _ = case
    n = np.asarray(normal, float) / np.linalg.norm(normal)
    lifted = np.asarray(pa, float) + (depth + 1e-3) * n
    assert len(collide(sa, lifted, qa, sb, pb, qb)) == 0
    c = collide(sa, lifted, qa, sb, pb, qb, torsion.ContactSettings(margin=2e-3))
    assert len(c) >= 1
    assert c["depth"].max() == pytest.approx(-1e-3, abs=1e-7)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_touching(case):
    # exactly touching (depth 0) is a contact once a tiny margin absorbs round-off
    _, sa, pa, qa, sb, pb, qb, normal, depth, _ = case
    n = np.asarray(normal, float) / np.linalg.norm(normal)
    touching = np.asarray(pa, float) + depth * n
    c = collide(sa, touching, qa, sb, pb, qb, torsion.ContactSettings(margin=1e-9))
    assert len(c) >= 1
    assert c["depth"].max() == pytest.approx(0.0, abs=1e-8)


def test_contact_positions_are_midway():
    # box resting 1 cm into the ground: points at the corners' xy, z = -depth/2
    c = collide(Shape.box(1, 2, 0.5), (1, 1, 0.24), I, Shape.ground(), (0, 0, 0), I)
    xy = sorted(map(tuple, np.round(c["position"][:, :2], 12)))
    assert xy == sorted([(0.5, 0.0), (1.5, 0.0), (0.5, 2.0), (1.5, 2.0)])
    np.testing.assert_allclose(c["position"][:, 2], -0.005)


def test_edge_edge_contact_point():
    c = collide(Shape.box(1, 1, 1), (0, 0, S2 - 0.1), QX45, Shape.box(1, 1, 1), (0, 0, 0), QY45)
    np.testing.assert_allclose(c["position"][0], (0, 0, 0.5 * S2 - 0.05), atol=1e-9)


def test_feature_ids_are_stable_under_small_motion():
    a = collide(Shape.box(1, 1, 1), (0.2, 0.1, 0.95), I, Shape.box(1, 1, 1), (0, 0, 0), I)
    b = collide(Shape.box(1, 1, 1), (0.2001, 0.1, 0.9501), I, Shape.box(1, 1, 1), (0, 0, 0), I)
    assert sorted(a["feature"]) == sorted(b["feature"])
    assert len(set(a["feature"])) == len(a)
