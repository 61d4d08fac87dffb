"""Deeply overlapping pairs that go through GJK/EPA (box-capsule, box-cylinder, capsule-cylinder,
cylinder-cylinder) with their centres at or near the same place, as when two objects are spawned
at one spot, checked against the brute-force signed distance of test_properties.py (depth, normal,
and both surface points of every contact).

Two defects showed here. EPA removed every polytope face the new support point saw, wherever it
lay; on nearly coplanar faces round-off made a far face "seen", the polytope folded inside out
and the search stopped on a face that was not on the boundary: the normal polish then climbed to
the wrong local maximum (capsule-cylinder: depth 0.5588 for 0.5494). And the polish of the normal
of curved pairs kept EPA's witness point while the normal turned, often to its exact opposite
when the centres coincide (both directions are as deep): the contact point lay up to 1.4 m off A's
surface, a wild lever arm for the solver."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_properties import Body, check_pair, rot


def exact_body(kind, dims, pos, quat):
    """A Body whose quaternion is used exactly as given (already unit): normalising it again can
    change it by an ulp, and two cases below depend on the exact input."""
    b = Body(kind, dims, pos, quat)
    b.q = np.asarray(quat, float)
    b.R = rot(b.q)
    return b


def test_box_cylinder_same_centre_point_on_both_surfaces():
    # the old contact point lay 1.41 m off the box (depth right: 0.831011)
    check_pair(
        Body("box", (1.0, 0.25, 1.0), (0.0, 0.0, 0.0),
             (0.0, 0.816496580927726, 0.0, 0.5773502691896257)),
        Body("cylinder", (0.5, 1.0), (0.0, 0.0, 0.0),
             (-0.4082482904638631, 0.0, -0.4082482904638631, -0.8164965809277261)),
    )


def test_capsule_cylinder_same_centre_point_on_both_surfaces():
    # the old contact point lay 1.42 m off the capsule (depth right: 0.758154)
    check_pair(
        exact_body("capsule", (0.6, 1.0), (0.0, 0.0, 0.0),
                   (0.6666666666666666, 0.0, -0.3333333333333333, 0.6666666666666666)),
        exact_body("cylinder", (0.6, 0.1), (0.0, 0.0, 0.0),
                   (0.7559289460184544, 0.5345224838248488, 0.3779644730092272, 0.0)),
    )


def test_cylinder_cylinder_same_centre_point_on_both_surfaces():
    # the old contact point lay 0.50 m off cylinder A (depth right: 0.504791)
    check_pair(
        Body("cylinder", (0.25, 0.1), (0.0, 0.0, 0.0), (0.0, 0.0, -1.0, 0.0)),
        Body("cylinder", (0.6, 0.5), (0.0, 0.0, 0.0),
             (-0.5547001962252291, -0.5547001962252291, -0.5547001962252291, -0.2773500981126146)),
    )


def test_capsule_cylinder_epa_polytope_stays_convex():
    # EPA folded (its closest face went from 0.476 to -0.544 m in one step) and stopped on a face
    # off the boundary: old depth 0.558781 for 0.549363, points 0.11 m off the cylinder
    check_pair(
        exact_body("capsule", (0.07312350719245567, 0.8766868257547696),
                   (-6.808748492768934e-05, 8.583555924103475e-05, -0.0005469648680161984),
                   (0.5369461532486787, -0.4401174054003152, -0.5377211581181232,
                    0.4783737598230545)),
        exact_body("cylinder", (0.47654397014330335, 0.227140159542648), (0.0, 0.0, 0.0),
                   (-0.6317022291091459, -0.39893347586910405, -0.5377564968277541,
                    -0.3906690743955463)),
    )


# simple values (exact zeros, halves, right angles) make the symmetric configurations where the
# defects showed; centres coincide or are a hair to a millimetre apart
simple_size = st.sampled_from([0.1, 0.25, 0.5, 1.0])
simple_quat = st.tuples(*[st.sampled_from([0.0, 0.0, 1.0, -1.0, 0.5, -0.5, 0.7071067811865476])] * 4
                        ).filter(lambda q: sum(v * v for v in q) > 0.05)
offset = st.tuples(*[st.floats(-1.0, 1.0)] * 3)


@st.composite
def near_coincident(draw, kind_a, kind_b):
    def dims(kind):
        if kind == "box":
            return (draw(simple_size), draw(simple_size), draw(simple_size))
        return (draw(st.sampled_from([0.05, 0.1, 0.25, 0.5, 0.6])), draw(simple_size))

    scale = draw(st.sampled_from([0.0, 0.0, 1e-9, 1e-5, 1e-3]))
    pos = tuple(scale * c for c in draw(offset))
    return Body(kind_a, dims(kind_a), pos, draw(simple_quat)), \
        Body(kind_b, dims(kind_b), (0.0, 0.0, 0.0), draw(simple_quat))


PAIRS = [("box", "capsule"), ("box", "cylinder"), ("capsule", "cylinder"), ("cylinder", "cylinder")]


@pytest.mark.parametrize("kinds", PAIRS, ids=lambda k: "-".join(k))
def test_near_coincident_centres_against_brute_force(kinds):
    @settings(max_examples=30, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(near_coincident(*kinds))
    def run(pair):
        check_pair(*pair)

    run()



def _qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def inside_near_axis(rng, inner):
    """A capsule or cylinder inside a cylinder, its axis within a few degrees of the cylinder's
    and its centre 10 um to 1 cm off the axis: the way out is through the side, along the ridge
    of core_gap perpendicular to both axes, or through a cap that is almost as deep."""
    q = rng.normal(size=4)
    cylinder = Body("cylinder", (rng.choice([0.3, 0.5, 0.6]), rng.choice([0.25, 0.5, 1.0])),
                    (0.0, 0.0, 0.0), q / np.linalg.norm(q))
    off = rng.normal(size=3)
    off *= rng.choice([1e-5, 1e-4, 1e-3, 1e-2]) / np.linalg.norm(off)
    q_rel = np.array((1.0, *(rng.choice([0.0, 1e-3, 1e-2, 0.1]) * rng.normal(size=3))))
    dims = (rng.choice([0.05, 0.1]), rng.choice([0.1, 0.2]))
    body = Body(inner, dims, tuple(cylinder.R @ off),
                _qmul(cylinder.q, q_rel / np.linalg.norm(q_rel)))
    return body, cylinder


@pytest.mark.parametrize("inner", ["capsule", "cylinder"])
def test_inside_a_cylinder_near_its_axis_against_brute_force(inner):
    # The pattern search on the normal stalled on the ridge of core_gap perpendicular to the axes
    # (each compass move left the ridge) or stayed at a cap's direction: 11 to 21 of 150 such
    # pairs came out too deep, up to 0.26 % (0.3498 for 0.3491 m) with the centre 1 mm off axis.
    rng = np.random.default_rng(33)
    for _ in range(50):
        check_pair(*inside_near_axis(rng, inner))
