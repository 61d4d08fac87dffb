"""Ray against every shape: exact hits from outside and inside, grazing and parallel rays.

The reference is independent of torsion's formulas: the first crossing of the shape's surface
along the ray, found by marching an inside/outside predicate and bisecting the sign change."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torsion


def quat_matrix(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


# inside predicates in the body frame, and the outward normal at a surface point
SHAPES = {
    "sphere": dict(
        add=lambda w: w.add_sphere(0.6, 1.0),
        inside=lambda p: np.linalg.norm(p) <= 0.6,
        normal=lambda p: p / np.linalg.norm(p),
    ),
    "box": dict(
        add=lambda w: w.add_box(0.8, 1.2, 0.5, 1.0),
        inside=lambda p: np.all(np.abs(p) <= [0.4, 0.6, 0.25]),
        normal=lambda p: np.eye(3)[np.argmax(np.abs(p) / [0.4, 0.6, 0.25])] * np.sign(p[np.argmax(np.abs(p) / [0.4, 0.6, 0.25])]),
    ),
    "cylinder": dict(
        add=lambda w: w.add_cylinder(0.5, 1.0, 1.0),
        inside=lambda p: p[0] ** 2 + p[1] ** 2 <= 0.25 and abs(p[2]) <= 0.5,
        normal=lambda p: (
            np.array([0, 0, np.sign(p[2])]) if abs(abs(p[2]) - 0.5) < 1e-7 else np.array([p[0], p[1], 0]) / 0.5
        ),
    ),
    "capsule": dict(
        add=lambda w: w.add_capsule(0.3, 0.8, 1.0),
        inside=lambda p: np.linalg.norm(p - [0, 0, np.clip(p[2], -0.4, 0.4)]) <= 0.3,
        normal=lambda p: (p - [0, 0, np.clip(p[2], -0.4, 0.4)]) / 0.3,
    ),
}


def reference_hit(inside, start, d, length, step=2e-3):
    """First t in [0, length] where the inside predicate changes from its value at t = 0."""
    s0 = inside(start)
    ts = np.arange(0.0, length + step, step)
    prev = 0.0
    for t in ts[1:]:
        if inside(start + t * d) != s0:
            lo, hi = prev, t
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                if inside(start + mid * d) == s0:
                    lo = mid
                else:
                    hi = mid
            return 0.5 * (lo + hi)
        prev = t
    return None


def one_body_world(name, pos, quat):
    w = torsion.World()
    body = SHAPES[name]["add"](w)
    body.set_position(pos)
    body.set_orientation(quat)
    return w, body


@pytest.mark.parametrize("name", list(SHAPES))
@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
)
def test_hit_matches_first_surface_crossing(name, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    pos = rng.uniform(-1, 1, 3)
    quat = rng.normal(size=4)
    w, body = one_body_world(name, pos, quat)
    rot = quat_matrix(quat)
    inside_w = lambda x: SHAPES[name]["inside"](rot.T @ (x - pos))  # noqa: E731
    # from outside toward a random point of the body's neighbourhood, or from inside
    from_inside = data.draw(st.booleans())
    start = pos + (rng.uniform(-0.1, 0.1, 3) if from_inside else rng.normal(size=3) * 2.5)
    target = pos + rng.uniform(-0.3, 0.3, 3)
    d = target - start if not from_inside else rng.normal(size=3)
    d /= np.linalg.norm(d)
    length = 6.0
    ref = reference_hit(inside_w, start, d, length)
    hits = w.ray_test(start, d, length)
    if ref is None:
        assert hits == [] or hits[0].distance < 2e-3  # at most a sliver the marching step misses
        return
    assert len(hits) == 1
    h = hits[0]
    assert h.distance == pytest.approx(ref, abs=1e-9)
    np.testing.assert_allclose(h.position, start + ref * d, atol=1e-8)
    n_ref = rot @ SHAPES[name]["normal"](rot.T @ (h.position - pos))
    np.testing.assert_allclose(h.normal, n_ref, atol=1e-6)
    assert abs(np.linalg.norm(h.normal) - 1) < 1e-12
    assert h.object == body and h.local_index == 0


def test_sphere_exact_cases():
    w = torsion.World()
    s = w.add_sphere(1.0, 1.0)
    s.set_position([0, 0, 0])
    (h,) = w.ray_test([-5, 0, 0], [1, 0, 0], 10)
    assert h.distance == 4.0 and list(h.normal) == [-1, 0, 0]
    (h,) = w.ray_test([0, 0, 0], [0, 0, 1], 10)  # from the centre: the exit point
    assert h.distance == 1.0 and list(h.normal) == [0, 0, 1]
    (h,) = w.ray_test([-5, 1.0, 0], [1, 0, 0], 10)  # grazing: tangent at (0, 1, 0)
    assert h.distance == 5.0 and list(h.position) == [0, 1, 0] and list(h.normal) == [0, 1, 0]
    assert w.ray_test([-5, 1.0 + 1e-9, 0], [1, 0, 0], 10) == []
    assert w.ray_test([-5, 0, 0], [1, 0, 0], 3.999) == []  # too short
    assert w.ray_test([5, 0, 0], [1, 0, 0], 10) == []  # pointing away


def test_box_faces_edges_and_parallel_rays():
    w = torsion.World()
    b = w.add_box(2.0, 2.0, 2.0, 1.0)
    (h,) = w.ray_test([0, 0, 5], [0, 0, -1], 10)
    assert h.distance == 4.0 and list(h.normal) == [0, 0, 1]
    # parallel to the top face, exactly in its plane: touches the face along its length
    (h,) = w.ray_test([-5, 0, 1.0], [1, 0, 0], 10)
    assert h.distance == 4.0 and list(h.normal) == [-1, 0, 0]
    # parallel and just above: misses
    assert w.ray_test([-5, 0, 1.0 + 1e-12], [1, 0, 0], 10) == []
    # from inside: the exit face
    (h,) = w.ray_test([0.5, 0, 0], [1, 0, 0], 10)
    assert h.distance == 0.5 and list(h.normal) == [1, 0, 0]
    # rotated 45 deg about z: the edge at x = -sqrt(2)
    b.set_orientation([np.cos(np.pi / 8), 0, 0, np.sin(np.pi / 8)])
    (h,) = w.ray_test([-5, 0, 0], [1, 0, 0], 10)
    assert h.distance == pytest.approx(5 - np.sqrt(2), abs=1e-12)


def test_cylinder_caps_side_and_axis():
    w = torsion.World()
    w.add_cylinder(0.5, 2.0, 1.0)
    (h,) = w.ray_test([0, 0, 5], [0, 0, -1], 10)  # along the axis: the top cap
    assert h.distance == 4.0 and list(h.normal) == [0, 0, 1]
    (h,) = w.ray_test([-5, 0, 0.3], [1, 0, 0], 10)
    assert h.distance == 4.5 and list(h.normal) == [-1, 0, 0]
    (h,) = w.ray_test([0.2, 0, 0.9], [0, 0, -1], 10)  # inside, down the axis: the bottom cap
    assert h.distance == pytest.approx(1.9) and list(h.normal) == [0, 0, -1]
    assert w.ray_test([-5, 0, 1.01], [1, 0, 0], 10) == []  # just above the top


def test_capsule_hemispheres():
    w = torsion.World()
    w.add_capsule(0.5, 1.0, 1.0)
    (h,) = w.ray_test([0, 0, 5], [0, 0, -1], 10)  # the top hemisphere's pole at z = 1
    assert h.distance == pytest.approx(4.0) and np.allclose(h.normal, [0, 0, 1])
    (h,) = w.ray_test([-5, 0, 0.2], [1, 0, 0], 10)  # the side
    assert h.distance == pytest.approx(4.5) and np.allclose(h.normal, [-1, 0, 0])


def test_ground():
    w = torsion.World()
    w.add_ground(0.5)
    (h,) = w.ray_test([1, 2, 3], [0, 0, -1], 10)
    assert h.distance == 2.5 and list(h.position) == [1, 2, 0.5] and list(h.normal) == [0, 0, 1]
    (h,) = w.ray_test([0, 0, 1.5], [1, 0, -1], 10)
    assert h.distance == pytest.approx(np.sqrt(2))
    assert w.ray_test([0, 0, 3], [1, 0, 0], 100) == []  # parallel
    assert w.ray_test([0, 0, 3], [0, 0, 1], 100) == []  # away
    (h,) = w.ray_test([0, 0, -1], [0, 0, 1], 10)  # from inside the half space: its surface
    assert h.distance == 1.5
    assert w.ray_test([0, 0, -1], [0, 0, -1], 10) == []
