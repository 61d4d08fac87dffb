"""The position pass for robots (World.set_position_correction, 0.2 by default): the penetration
of an articulated system's contacts with the ground removed by moving its configuration, its
velocities untouched (split impulse). References: a robot at rest in zero gravity keeps exactly
zero velocity (no energy added) while it is moved out; the contact depth the collision detection
reports; the same scene with the pass off."""

import numpy as np
import pytest

import torsion

DT = 1e-3
TOL = 5e-5  # m: "no visible penetration" (issue 30): a resting robot within 0.05 mm
STAND = torsion.robots.QUADRUPED_STAND


def box_link(name, mass, size, xyz="0 0 0"):
    sx, sy, sz = size
    i = [mass * (b * b + c * c) / 12.0 for b, c in ((sy, sz), (sx, sz), (sx, sy))]
    return (
        f'<link name="{name}"><inertial><origin xyz="{xyz}"/><mass value="{mass}"/>'
        f'<inertia ixx="{i[0]}" iyy="{i[1]}" izz="{i[2]}" ixy="0" ixz="0" iyz="0"/></inertial>'
        f'<collision><origin xyz="{xyz}"/><geometry><box size="{sx} {sy} {sz}"/></geometry></collision></link>'
    )


# a floating two-link robot: a plate and a flap on an unactuated hinge
FLAP = (
    '<robot name="flap">' + box_link("plate", 2.0, (0.4, 0.3, 0.05))
    + box_link("flap", 0.5, (0.2, 0.3, 0.05), "0.1 0 0")
    + '<joint name="hinge" type="revolute"><parent link="plate"/><child link="flap"/>'
    '<origin xyz="0.21 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="10"/>'
    "</joint></robot>"
)


def max_depth(robot):
    c = robot.get_contacts()
    return float(c["depth"].max()) if len(c["depth"]) else -np.inf


def quadruped_world(fraction=None, gravity=-9.81):
    w = torsion.World()
    w.set_time_step(DT)
    w.set_gravity([0.0, 0.0, gravity])
    w.add_ground()
    if fraction is not None:
        w.set_position_correction(fraction)
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = q.get_generalized_coordinate()
    gc[2] = 0.33
    gc[7:] = STAND
    q.set_generalized_coordinate(gc)
    q.set_pd_gains(np.full(18, 50.0), np.full(18, 1.0))
    q.set_pd_target(gc, np.zeros(18))
    return w, q


def test_a_standing_quadruped_rests_on_its_feet():
    # dropped 3 cm onto its feet under PD (kp 50, kd 1: it still sways gently after seconds):
    # with the pass off the landing leaves the feet 0.23 mm deep for ever; with the default
    # pass they stay within 0.05 mm of the surface. The pass only lifts the robot by what it
    # removes: the base stands higher by the difference in depth, and sways as it did.
    out = {}
    for fraction in (0.0, None):
        w, q = quadruped_world(fraction)
        w.integrate(3000)
        c = q.get_contacts()
        assert len(c["depth"]) == 4  # the four feet
        out[fraction] = (max_depth(q), q.get_generalized_coordinate()[2],
                         np.abs(q.get_generalized_velocity()).max())
    (d_off, z_off, v_off), (d_on, z_on, v_on) = out[0.0], out[None]
    assert d_off > 4 * TOL
    assert 0.0 < d_on <= TOL
    assert z_on - z_off == pytest.approx(d_off - d_on, abs=2e-5)
    assert v_on == pytest.approx(v_off, abs=1e-3)


def test_a_dropped_linkage_rests_on_the_surface():
    # the unactuated plate and flap dropped flat from 0.3 m: the impact leaves it deep with the
    # pass off; by default it rests within 0.05 mm, and comes to rest
    depths = {}
    for fraction in (0.0, None):
        w = torsion.World()
        w.set_time_step(DT)
        w.add_ground()
        if fraction is not None:
            w.set_position_correction(fraction)
        r = w.add_articulated_system(FLAP)
        r.set_generalized_coordinate([0, 0, 0.3, 1, 0, 0, 0, 0])
        w.integrate(1500)
        depths[fraction] = max_depth(r)
        assert np.abs(r.get_generalized_velocity()).max() < 1e-3
    assert depths[0.0] > 4 * TOL
    assert 0.0 < depths[None] <= TOL


def test_moved_out_at_rest_without_gaining_velocity():
    # zero gravity, the robot at rest 2 mm inside the ground: the pass lifts it out over a few
    # steps while every velocity stays exactly zero (no kinetic energy added), and leaves it
    # between the slop and the surface
    w = torsion.World()
    w.set_time_step(DT)
    w.set_gravity([0.0, 0.0, 0.0])
    w.add_ground()
    r = w.add_articulated_system(FLAP)
    r.set_generalized_coordinate([0, 0, 0.023, 1, 0, 0, 0, 0])  # half-thickness 0.025: 2 mm deep
    w.integrate()
    assert max_depth(r) == pytest.approx(2e-3, abs=1e-9)
    for _ in range(200):
        w.integrate()
        assert not r.get_generalized_velocity().any()
    assert 0.0 < max_depth(r) <= TOL
    gc = r.get_generalized_coordinate()
    assert gc[2] == pytest.approx(0.025, abs=TOL)
    # lifted, not turned: the 8 corner contacts agree to the sweeps' tolerance (1e-8 m)
    assert gc[3:] == pytest.approx([1, 0, 0, 0, 0], abs=1e-6)


def test_off_leaves_the_robot_where_it_is():
    # fraction 0: the configuration is untouched (no pass), the overlap stays
    w = torsion.World()
    w.set_time_step(DT)
    w.set_gravity([0.0, 0.0, 0.0])
    w.add_ground()
    w.set_position_correction(0.0)
    r = w.add_articulated_system(FLAP)
    gc0 = np.array([0, 0, 0.023, 1, 0, 0, 0, 0], dtype=float)
    r.set_generalized_coordinate(gc0)
    w.integrate(50)
    assert np.array_equal(r.get_generalized_coordinate(), gc0)


def test_the_pass_is_deterministic_bitwise():
    def run():
        w, q = quadruped_world()
        w.integrate(400)
        return q.get_generalized_coordinate().tobytes(), w.state_hash()

    assert run() == run()
