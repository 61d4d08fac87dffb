"""Joint limits and Coulomb joint friction as 1-D rows of the contact solver: inelastic stops
(no bounce, exact to the solver's tolerance), their count in the diagnostics, warm starts, the
analytic stopping time under joint friction, and limits holding against contacts."""

from __future__ import annotations

import numpy as np
import pytest

import torsion

DT = 1e-3
INERTIA = 0.02  # kg m^2 about the hinge (a point-free rotor: the link's COM is on the axis)


def rotor(limits='lower="-1" upper="1"', friction=0.0):
    # a rotor about z through its COM: gravity does not act on the joint
    return (
        '<robot name="rotor"><link name="world"/><link name="r"><inertial><origin xyz="0 0 0"/>'
        f'<mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="{INERTIA}" ixy="0" ixz="0" iyz="0"/>'
        '</inertial></link><joint name="j" type="revolute"><parent link="world"/><child link="r"/>'
        f'<axis xyz="0 0 1"/><limit {limits} effort="100" velocity="100"/>'
        f'<dynamics damping="0" friction="{friction}"/></joint></robot>'
    )


def world():
    w = torsion.World()
    w.set_time_step(DT)
    return w


def test_a_joint_hitting_its_limit_at_speed_stops_without_bounce():
    w = world()
    s = w.add_articulated_system(rotor())
    s.set_state([0.0], [5.0])  # 5 rad/s towards the upper limit at 1 rad
    qs, vs = [], []
    for _ in range(400):
        w.integrate()
        qs.append(s.get_generalized_coordinate()[0])
        vs.append(s.get_generalized_velocity()[0])
    qs, vs = np.array(qs), np.array(vs)
    hit = int(np.argmax(qs >= 1.0 - 1e-12))
    assert 0 < hit < 250
    assert qs.max() <= 1.0 + 1e-12
    # after the hit: at the stop, at rest from the next step on, never moving back (inelastic;
    # the step that lands on the stop may still carry the approach speed gap / dt)
    np.testing.assert_allclose(qs[hit:], 1.0, atol=1e-12)
    np.testing.assert_allclose(vs[hit + 1:], 0.0, atol=1e-9)
    # before it, free motion at constant speed
    np.testing.assert_allclose(vs[: hit - 1], 5.0, rtol=1e-12)


def test_limit_rows_appear_only_near_a_limit_and_are_counted():
    w = world()
    s = w.add_articulated_system(rotor())
    s.set_state([0.0], [0.0])
    w.integrate()
    assert w.get_contact_solver_diagnostics()["joint_limit_rows"] == 0
    s.set_state([0.995], [0.0])  # within the 0.02 rad margin of the upper limit
    w.integrate()
    d = w.get_contact_solver_diagnostics()
    assert d["joint_limit_rows"] == 1 and d["joint_friction_rows"] == 0
    # a row that is not needed exerts nothing: the rotor drifts on freely
    s.set_state([0.99], [0.1])
    w.integrate()
    assert s.get_generalized_velocity()[0] == 0.1


def test_a_limit_row_is_warm_started_and_carries_the_pushing_torque():
    w = world()
    s = w.add_articulated_system(rotor())
    s.set_state([0.999], [0.0])
    s.set_generalized_force([3.0])  # pushes through the upper limit
    w.integrate(50)
    d = w.get_contact_solver_diagnostics()
    # warm_started counts contacts only (there are none): the row shows in joint_limit_rows
    assert d["joint_limit_rows"] == 1 and d["contacts"] == 0 and d["warm_started"] == 0
    assert d["iterations"] <= 2  # the remembered impulse is already the answer
    assert s.get_generalized_coordinate()[0] == pytest.approx(1.0, abs=1e-12)
    # the stop's impulse balances the torque: without it the rotor would gain dt * 3 / I
    assert s.get_generalized_velocity()[0] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.filterwarnings("ignore::torsion.JointLimitWarning")  # starts outside its limits
def test_warm_started_counts_contacts_not_joint_limit_rows():
    # a limp quadruped lying on the ground, some joints at their stops: every contact and every
    # limit row starts from its last impulse, and warm_started counted both (32 of 28 contacts).
    # Its straight legs start 14 cm inside the ground, which holds them at their stops: the
    # position pass is off, or it would pull them out and the robot would fold off its stops.
    w = torsion.World()
    w.add_ground()
    w.set_position_correction(0.0)
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = q.get_generalized_coordinate()
    gc[2] = 0.2
    q.set_generalized_coordinate(gc)
    q.set_control_mode(torsion.ControlMode.FORCE_AND_TORQUE)
    w.integrate(500)
    d = w.get_contact_solver_diagnostics()
    assert d["joint_limit_rows"] > 0 and d["contacts"] > 0
    assert d["warm_started"] == d["contacts"]


@pytest.mark.filterwarnings("ignore::torsion.JointLimitWarning")  # starts outside its limits
def test_a_joint_pushed_past_its_limit_is_brought_back_without_overshoot():
    w = world()
    s = w.add_articulated_system(rotor())
    s.set_state([1.05], [0.0])  # 0.05 rad past the limit (e.g. set by the user)
    qs = []
    for _ in range(100):
        w.integrate()
        qs.append(s.get_generalized_coordinate()[0])
    qs = np.array(qs)
    # an ERP-like correction: a fixed fraction (0.2) of the violation per step, monotone
    assert qs[0] == pytest.approx(1.0 + 0.05 * 0.8, rel=1e-9)
    assert np.all(np.diff(qs) <= 0.0) and np.all(qs >= 1.0)
    assert qs[-1] == pytest.approx(1.0, abs=1e-9)


def test_joint_friction_stops_a_spinning_rotor_at_the_analytic_time():
    # I dw/dt = -f_c: w(t) = w0 - f_c t / I, at rest from t = I w0 / f_c on
    f_c, w0 = 0.1, 2.0
    w = world()
    s = w.add_articulated_system(rotor(limits='lower="-100" upper="100"', friction=f_c))
    s.set_state([0.0], [w0])
    w.integrate(100)
    assert s.get_generalized_velocity()[0] == pytest.approx(w0 - f_c * 0.1 / INERTIA, rel=1e-9)
    assert w.get_contact_solver_diagnostics()["joint_friction_rows"] == 1
    t_stop = INERTIA * w0 / f_c  # 0.4 s
    w.integrate(int(round(t_stop / DT)) - 100 - 1)
    assert s.get_generalized_velocity()[0] > 0.0
    w.integrate(2)
    assert s.get_generalized_velocity()[0] == pytest.approx(0.0, abs=1e-12)
    # the angle turned: w0^2 I / (2 f_c), to first order in dt
    assert s.get_generalized_coordinate()[0] == pytest.approx(w0**2 * INERTIA / (2 * f_c), rel=5e-3)


def test_quadruped_knees_pushed_through_their_limits_with_the_feet_on_the_ground():
    # Standing on nearly straight legs, the knees' PD targets are moved 0.1 rad past their upper
    # limits: the limit rows and the feet's contacts are solved together. The limits hold, the
    # four feet keep carrying the robot's weight, and nothing sinks into the ground.
    w = world()
    w.add_ground()
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    lim = q.get_joint_limits()
    knees = np.array([8, 11, 14, 17])  # gv indices (gc index = gv index + 1)
    gc = q.get_generalized_coordinate()
    gc[7:] = np.tile([0.0, 0.47, -0.94], 4)  # knees 0.024 rad below their limit
    gc[2] = 0.0
    q.set_generalized_coordinate(gc)
    gc[2] = 0.02 - q.get_frame_position("FR_foot_fixed")[2]  # feet 2 cm above the ground
    q.set_generalized_coordinate(gc)
    q.set_pd_gains(np.full(18, 100.0), np.full(18, 2.0))
    q.set_pd_target(gc, np.zeros(18))
    w.integrate(1000)
    target = gc.copy()
    target[knees + 1] = lim[knees, 1] + 0.1
    q.set_pd_target(target, np.zeros(18))
    worst = -np.inf
    heights = []
    for _ in range(1500):
        w.integrate()
        worst = max(worst, (q.get_generalized_coordinate()[knees + 1] - lim[knees, 1]).max())
        heights.append(q.get_generalized_coordinate()[2])
    assert worst <= 1e-4
    np.testing.assert_allclose(q.get_generalized_coordinate()[knees + 1], lim[knees, 1], atol=1e-4)
    d = w.get_contact_solver_diagnostics()
    assert d["joint_limit_rows"] == 4 and d["contacts"] == 4
    c = q.get_contacts()
    weight = q.get_total_mass() * 9.81
    assert c["force"][:, 2].sum() == pytest.approx(weight, rel=0.01)
    assert np.all(c["position"][:, 2] > -1e-3)
    assert np.ptp(heights[-500:]) < 1e-3  # at rest on its stops
    assert w.get_warnings()["non_finite_state"] == 0
