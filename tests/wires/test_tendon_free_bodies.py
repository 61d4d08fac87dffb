"""Spatial tendons over free single bodies (world/tendons.hpp): sites and wrap obstacles on
dynamic boxes, the tendon's forces in both bodies' dynamics. Checked against finite differences,
the two-body oscillator's closed form and the conservation of momentum."""

import math

import numpy as np
import pytest

import torsion


def quat_mul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def quat_exp(v):
    """the rotation by the world vector v (rad), (w, x, y, z)"""
    a = np.linalg.norm(v)
    if a == 0.0:
        return np.array([1.0, 0.0, 0.0, 0.0])
    return np.r_[math.cos(a / 2), math.sin(a / 2) * np.asarray(v) / a]


def rotation(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def free_world():
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    w.set_time_step(1e-3)
    return w


def two_boxes(w, q_a, q_b):
    a = w.add_box(0.2, 0.1, 0.15, 2.0)
    b = w.add_box(0.1, 0.2, 0.1, 3.0)
    a.set_position([0.0, 0.0, 0.0])
    b.set_position([0.9, 0.15, -0.05])
    a.set_orientation(q_a)
    b.set_orientation(q_b)
    return a, b


def wrapped_path(anchor, a, b):
    """anchor -> a site on A -> around a sphere on B (side point) -> a site on B"""
    return [
        ("site", anchor, 0, [0.0, 0.1, 0.0]),
        ("site", a, 0, [0.1, 0.03, 0.05]),
        ("sphere", b, 0, [-0.25, 0.0, 0.0], 0.08, [-0.25, 0.0, 0.2]),
        ("site", b, 0, [0.05, -0.08, 0.02]),
    ]


def test_jacobian_over_free_bodies_against_finite_differences():
    w = free_world()
    anchor = w.add_box(0.1, 0.1, 0.1, 1.0)
    anchor.set_position([-0.6, 0.0, 0.1])
    anchor.set_body_type(torsion.BodyType.STATIC)
    q_a = quat_exp([0.3, -0.2, 0.5])
    q_b = quat_exp([-0.4, 0.1, 0.2])
    a, b = two_boxes(w, q_a, q_b)
    t = w.add_spatial_tendon("t", wrapped_path(anchor, a, b))
    base = {a: (a.get_position(), q_a), b: (b.get_position(), q_b)}

    def length_moved(body, dx, dth):
        p, q = base[body]
        body.set_position(p + dx)
        body.set_orientation(quat_mul(quat_exp(dth), q))
        length = t.get_length()
        body.set_position(p)
        body.set_orientation(q)
        return length

    # the sphere on B is in the way: the tendon is longer than the straight sites' path
    sa = a.get_position() + rotation(q_a) @ [0.1, 0.03, 0.05]
    sb = b.get_position() + rotation(q_b) @ [0.05, -0.08, 0.02]
    straight = np.linalg.norm(sa - (anchor.get_position() + [0.0, 0.1, 0.0])) + np.linalg.norm(sb - sa)
    assert t.get_length() > straight + 1e-3
    h = 1e-6
    rng = np.random.default_rng(5)
    total = 0.0
    for body in (a, b):
        jac = t.get_jacobian(body)
        assert jac.shape == (6,)
        for _ in range(3):
            v, om = rng.normal(size=3), rng.normal(size=3)
            fd = (length_moved(body, h * v, h * om) - length_moved(body, -h * v, -h * om)) / (2 * h)
            assert jac @ np.r_[v, om] == pytest.approx(fd, abs=1e-7)
        va, oa = rng.normal(size=3), rng.normal(size=3)
        body.set_velocity(va, oa)
        total += jac @ np.r_[va, oa]
    # the anchor is static: the tendon's rate is the two bodies' parts
    assert t.get_velocity() == pytest.approx(total, abs=1e-12)
    assert np.all(t.get_jacobian(anchor) == 0.0)


def test_spring_between_two_free_boxes_is_the_two_body_oscillator():
    # sites at the centres of mass: a spring of stiffness k along the line, reduced mass
    # mu = m1 m2 / (m1 + m2), angular frequency sqrt(k / mu); the centre of mass stays at rest
    w = free_world()
    w.set_time_step(1e-4)
    m1, m2, k, rest, x0 = 2.0, 3.0, 50.0, 0.8, 1.0
    a = w.add_box(0.2, 0.2, 0.2, m1)
    b = w.add_box(0.2, 0.2, 0.2, m2)
    b.set_position([x0, 0.0, 0.0])
    t = w.add_spatial_tendon("spring", [("site", a, 0, [0, 0, 0]), ("site", b, 0, [0, 0, 0])],
                             stiffness=k, spring_length=rest)
    mu = m1 * m2 / (m1 + m2)
    period = 2 * math.pi / math.sqrt(k / mu)
    crossings, last, n = [], t.get_length() - rest, 0
    while len(crossings) < 3 and n < 100000:
        w.integrate()
        n += 1
        e = t.get_length() - rest
        if last > 0.0 >= e:
            crossings.append(n * 1e-4)
        last = e
        p = m1 * a.get_linear_velocity() + m2 * b.get_linear_velocity()
        assert np.abs(p).max() < 1e-12
    assert len(crossings) == 3
    assert (crossings[2] - crossings[0]) / 2 == pytest.approx(period, rel=5e-3)
    assert abs(t.get_spring_force() + k * (t.get_length() - rest)) < 0.05 * k * (x0 - rest)


def test_wrapped_tendon_between_spinning_balls_conserves_momentum():
    # a stiff spatial tendon wrapped around a sphere on B, sites off the centres: the tendon
    # pulls and turns both bodies; linear and angular momentum (about the origin) are conserved
    # to round-off, and the energy does not grow (the implicit spring only loses). Balls (an
    # isotropic inertia): the single bodies' rotation step keeps angular momentum under a torque
    # only to O(dt^2) for an anisotropic one (a compliant wire between boxes drifts as much)
    w = free_world()
    a = w.add_sphere(0.12, 2.0)
    b = w.add_sphere(0.1, 3.0)
    b.set_position([0.9, 0.15, -0.05])
    a.set_orientation(quat_exp([0.3, -0.2, 0.5]))
    b.set_orientation(quat_exp([-0.4, 0.1, 0.2]))
    path = wrapped_path(a, a, b)[1:]  # A's site, B's sphere, B's site
    path.insert(0, ("site", a, 0, [-0.1, -0.05, 0.0]))
    t = w.add_spatial_tendon("t", path, stiffness=400.0, damping=0.0)
    t.set_properties(spring_length=0.6 * t.get_length())
    a.set_velocity([0.1, -0.2, 0.05], [1.0, 0.5, -2.0])
    b.set_velocity([-0.05, 0.1, 0.0], [-0.5, 2.0, 1.0])

    def momenta():
        p = np.zeros(3)
        ang = np.zeros(3)
        for body in (a, b):
            pb = body.get_mass() * body.get_linear_velocity()
            p += pb
            ang += np.cross(body.get_position(), pb) + body.get_angular_momentum()
        return p, ang

    def energy():
        return (a.get_kinetic_energy() + b.get_kinetic_energy()
                + 0.5 * 400.0 * (t.get_length() - t.get_spring_length()) ** 2)

    p0, l0 = momenta()
    e0 = energy()
    moved = 0.0
    for _ in range(400):
        w.integrate()
        moved = max(moved, abs(t.get_spring_force()))
        p, ang = momenta()
        np.testing.assert_allclose(p, p0, atol=1e-11)
        np.testing.assert_allclose(ang, l0, atol=1e-9)
    assert moved > 10.0  # the tendon did pull
    assert energy() <= e0 * (1 + 1e-9)


def test_limit_holds_a_box_hanging_from_a_static_anchor():
    # a rope: a spatial tendon with an upper limit from a static anchor to a box's top, the box
    # released off to the side: it swings on the rope, whose length stays at the limit
    w = torsion.World()
    w.set_time_step(1e-3)
    anchor = w.add_sphere(0.05, 1.0)
    anchor.set_position([0.0, 0.0, 2.0])
    anchor.set_body_type(torsion.BodyType.STATIC)
    box = w.add_box(0.1, 0.1, 0.1, 1.5)
    box.set_position([0.6, 0.0, 2.0 - 0.8 - 0.05])  # its top 1 m from the anchor
    t = w.add_spatial_tendon("rope", [("site", anchor, 0, [0, 0, 0]),
                                      ("site", box, 0, [0, 0, 0.05])], limits=(0.0, 1.0))
    assert t.get_length() == pytest.approx(1.0, abs=1e-12)
    worst = 0.0
    for _ in range(1500):
        w.integrate()
        worst = max(worst, t.get_length() - 1.0)
    assert worst < 1e-4
    assert t.get_limit_force() < 0.0  # it pulls (the upper limit's force is <= 0)
    # held up (a free fall would have taken it 11 m down in these 1.5 s)
    assert box.get_position()[2] > 0.5


def test_path_rules_for_single_bodies():
    w = free_world()
    a = w.add_box(0.2, 0.2, 0.2, 1.0)
    b = w.add_box(0.2, 0.2, 0.2, 1.0)
    c = w.add_box(0.2, 0.2, 0.2, 1.0)
    b.set_position([1, 0, 0])
    c.set_position([2, 0, 0])
    with pytest.raises(ValueError, match="at most two"):
        w.add_spatial_tendon("three", [("site", a, 0, [0, 0, 0]), ("site", b, 0, [0, 0, 0]),
                                       ("site", c, 0, [0, 0, 0])])
    c.set_body_type(torsion.BodyType.KINEMATIC)
    with pytest.raises(ValueError, match="kinematic"):
        w.add_spatial_tendon("kin", [("site", a, 0, [0, 0, 0]), ("site", c, 0, [0, 0, 0])])
    with pytest.raises(ValueError, match="local index"):
        w.add_spatial_tendon("local", [("site", a, 1, [0, 0, 0]), ("site", b, 0, [0, 0, 0])])
    t = w.add_spatial_tendon("ok", [("site", a, 0, [0, 0, 0]), ("site", b, 0, [0, 0, 0])])
    w.remove_object(a)
    assert not t.is_alive()


def test_coupling_of_tendons_over_three_bodies_is_refused():
    # each tendon spans two bodies, the pair three: a coupling's row has two sides
    w = free_world()
    a, b, c = (w.add_box(0.2, 0.2, 0.2, 1.0) for _ in range(3))
    b.set_position([1, 0, 0])
    c.set_position([2, 0, 0])
    t1 = w.add_spatial_tendon("ab", [("site", a, 0, [0, 0, 0]), ("site", b, 0, [0, 0, 0])])
    t2 = w.add_spatial_tendon("bc", [("site", b, 0, [0, 0, 0]), ("site", c, 0, [0, 0, 0])])
    t3 = w.add_spatial_tendon("ba", [("site", b, 0, [0, 0.1, 0]), ("site", a, 0, [0, 0.1, 0])])
    with pytest.raises(ValueError, match="more than two movable objects"):
        w.add_tendon_coupling("abc", t1, t2)
    # over the same two bodies: a hard coupling holds L1 = L2 while they fly apart and B spins
    # (which alone would change the off-centre tendon's length)
    cp = w.add_tendon_coupling("same", t1, t3, [0.0, 1.0])
    a.set_velocity([-1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    b.set_velocity([1.0, 0.0, 0.5], [0.0, 0.0, 3.0])
    w.integrate(200)
    assert abs(cp.get_error()) < 1e-6 and t1.get_length() > 1.1
    assert abs(cp.get_force()) > 0.0


def test_armature_between_spinning_balls_keeps_the_energy():
    # a spatial tendon with armature a (no spring) between two spinning, drifting balls: the
    # dynamics with M + a J^T J and MuJoCo's velocity-product bias J^T a (dJ/dt u) conserve
    # E = kinetic energy + 1/2 a (dL/dt)^2; the step keeps it to O(dt) (2e-5 of it over 0.5 s at
    # dt = 1e-4). Without the bias, E would change at the rate -a (dL/dt) (dJ/dt u), shown below
    # to be 100 times larger over the same time
    arm, dt, duration = 0.8, 1e-4, 0.5
    w = free_world()
    w.set_time_step(dt)
    a = w.add_sphere(0.12, 2.0)
    b = w.add_sphere(0.1, 3.0)
    b.set_position([0.9, 0.15, -0.05])
    path = [("site", a, 0, [-0.1, -0.05, 0.0]), ("site", a, 0, [0.1, 0.03, 0.05]),
            ("site", b, 0, [0.05, -0.08, 0.02])]
    t = w.add_spatial_tendon("t", path, armature=arm)
    a.set_velocity([0.1, -0.2, 0.05], [1.0, 0.5, -2.0])
    b.set_velocity([-0.05, 0.1, 0.0], [-0.5, 2.0, 1.0])

    def energy():
        return a.get_kinetic_energy() + b.get_kinetic_energy() + 0.5 * arm * t.get_velocity() ** 2

    # (dJ/dt) u at the start by central differences: the bodies moved by +-eps along their
    # velocities
    def jac_u(eps):
        saved = [(body.get_position().copy(), body.get_quaternion().copy()) for body in (a, b)]
        for body in (a, b):
            body.set_position(body.get_position() + eps * body.get_linear_velocity())
            body.set_orientation(quat_mul(quat_exp(eps * body.get_angular_velocity()),
                                          body.get_quaternion()))
        v = sum(np.asarray(t.get_jacobian(body)) @ np.r_[body.get_linear_velocity(),
                                                         body.get_angular_velocity()]
                for body in (a, b))
        for body, (p, q) in zip((a, b), saved):
            body.set_position(p)
            body.set_orientation(q)
        return v

    jdot_u = (jac_u(1e-6) - jac_u(-1e-6)) / 2e-6
    e0 = energy()
    bias_rate = abs(arm * t.get_velocity() * jdot_u)
    worst = 0.0
    for _ in range(int(round(duration / dt))):
        w.integrate()
        worst = max(worst, abs(energy() - e0))
    assert worst < 5e-5 * e0
    assert bias_rate * 0.05 > 100 * worst  # (over a tenth of the run)
