"""Stepping articulated systems: energy, free fall, joint limits, implicit PD, damping, friction,
external forces, determinism. References are analytic or conservation laws."""

from __future__ import annotations

import numpy as np
import pytest

import torsion

from .conftest import standing_quadruped

G = [0.0, 0.0, -9.81]


def link(name, mass, com_z, inertia=0.01):
    return (
        f'<link name="{name}"><inertial><origin xyz="0 0 {com_z}"/><mass value="{mass}"/>'
        f'<inertia ixx="{inertia}" iyy="{inertia}" izz="{inertia}" ixy="0" ixz="0" iyz="0"/>'
        f"</inertial></link>"
    )


DOUBLE_PENDULUM = (
    '<robot name="double_pendulum"><link name="world"/>'
    + link("l1", 1.0, -0.5)
    + link("l2", 1.0, -0.5)
    + '<joint name="j1" type="continuous"><parent link="world"/><child link="l1"/>'
    '<origin xyz="0 0 2"/><axis xyz="0 1 0"/></joint>'
    '<joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>'
    '<origin xyz="0 0 -1"/><axis xyz="0 1 0"/></joint></robot>'
)


def light_pendulum(extra_limit=""):
    # 0.1 kg at 5 cm: inertia about the hinge ~ 3e-4 kg m^2
    return (
        '<robot name="light"><link name="world"/>' + link("arm", 0.1, -0.05, 1e-5)
        + '<joint name="hinge" type="revolute"><parent link="world"/><child link="arm"/>'
        f'<axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="5" velocity="50" {extra_limit}/>'
        "</joint></robot>"
    )


def energy(s):
    return s.get_kinetic_energy() + s.get_potential_energy(G)


def run_pendulum(dt, seconds, every):
    w = torsion.World()
    w.set_time_step(dt)
    s = w.add_articulated_system(DOUBLE_PENDULUM)
    s.set_state([1.0, 0.5], [0.0, 0.0])
    e0 = energy(s)
    errs = []
    for _ in range(int(round(seconds / dt / every))):
        w.integrate(every)
        errs.append(energy(s) - e0)
    s.set_state([0.0, 0.0], [0.0, 0.0])
    swing = e0 - energy(s)  # energy above the hanging rest state
    return np.abs(np.array(errs)).max() / swing, w


def test_passive_double_pendulum_conserves_energy():
    """Semi-implicit Euler: the energy error stays bounded (no drift) and is first order in dt.
    Stated bound: 2.5 % of the swing energy at dt = 1 ms over 10 s, 0.25 % at dt = 0.1 ms."""
    err_1ms, w = run_pendulum(1e-3, 10.0, 1)
    assert err_1ms < 0.025
    assert w.get_world_time() == pytest.approx(10.0)
    assert w.get_warnings()["non_finite_state"] == 0
    err_01ms, _ = run_pendulum(1e-4, 10.0, 10)
    assert err_01ms < 0.0025
    assert err_01ms < err_1ms / 5  # first-order convergence


def test_floating_robot_falls_freely():
    """A passive floating robot in uniform gravity falls as one body: after n steps the base
    velocity is exactly n dt g and nothing rotates (gravity exerts no internal torque)."""
    w = torsion.World()
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = q.get_generalized_coordinate()
    gc[7:] = np.tile([0.1, 0.8, -1.5], 4)
    q.set_generalized_coordinate(gc)
    w.integrate(500)
    gv = q.get_generalized_velocity()
    np.testing.assert_allclose(gv[:3], [0, 0, -9.81 * 0.5], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gv[3:], 0.0, atol=1e-12)
    gc1 = q.get_generalized_coordinate()
    # semi-implicit Euler: z = -g dt^2 n (n + 1) / 2
    assert gc1[2] == pytest.approx(-9.81 * 1e-6 * 500 * 501 / 2, rel=1e-12)
    np.testing.assert_allclose(gc1[7:], gc[7:], atol=1e-12)


def test_zero_gravity_momentum_is_conserved():
    """No gravity, no external force: the linear momentum of a tumbling humanoid (with joint
    damping and limit stops, both internal) is conserved up to the integrator's first-order
    error: relative drift < 1e-3 over 0.3 s at dt = 1 ms, ten times smaller at dt = 0.1 ms."""

    def drift(dt):
        w = torsion.World()
        w.set_time_step(dt)
        w.set_gravity([0, 0, 0])
        h = w.add_articulated_system(torsion.robots.urdf_path("humanoid"))
        rng = np.random.default_rng(0)
        h.set_generalized_velocity(rng.normal(size=h.get_dof()))

        def momentum():  # sum of m_b v_com,b from the body Jacobians
            coms = h.get_body_coms_w()
            p = np.zeros(3)
            for b, mass in enumerate(h.get_masses()):
                p += mass * (h.get_dense_jacobian_at(b, coms[b]) @ h.get_generalized_velocity())
            return p

        p0 = momentum()
        # the base rows of M are the linear momentum map (gv's base velocity is world-frame)
        np.testing.assert_allclose(h.get_mass_matrix()[:3] @ h.get_generalized_velocity(), p0, rtol=1e-12)
        w.integrate(int(round(0.3 / dt)))
        return np.abs(momentum() - p0).max() / np.abs(p0).max()

    d1, d2 = drift(1e-3), drift(1e-4)
    assert d1 < 1e-3
    assert d2 < d1 / 5


def test_joint_limit_holds_under_a_torque_pushing_through_it():
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    s = w.add_articulated_system(light_pendulum())
    np.testing.assert_array_equal(s.get_joint_limits(), [[-3.0, 3.0]])
    s.set_generalized_force([2.0])  # pushes towards +3 rad
    qs = []
    for _ in range(3000):
        w.integrate()
        qs.append(s.get_generalized_coordinate()[0])
    qs = np.array(qs)
    assert qs.max() <= 3.0 + 1e-12
    assert qs[-1] == pytest.approx(3.0, abs=1e-12)  # inelastic: it stays at the stop
    assert s.get_generalized_velocity()[0] == pytest.approx(0.0, abs=1e-9)
    # and it is released when the torque reverses
    s.set_generalized_force([-2.0])
    w.integrate(10)
    assert s.get_generalized_coordinate()[0] < 3.0


def test_arm_limits_hold_with_gravity_and_coupling():
    w = torsion.World()
    arm = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    lim = arm.get_joint_limits()
    arm.set_generalized_force(np.full(7, 50.0))
    for _ in range(2000):
        w.integrate()
        q = arm.get_generalized_coordinate()
        assert np.all(q <= lim[:, 1] + 1e-9) and np.all(q >= lim[:, 0] - 1e-9)


def test_implicit_pd_is_stable_where_explicit_pd_explodes():
    kp, kd, target = 1e4, 1.0, 0.5
    # implicit (in-engine) PD
    w = torsion.World()
    s = w.add_articulated_system(light_pendulum())
    s.set_pd_gains([kp], [kd])
    assert s.get_control_mode() == torsion.ControlMode.PD_PLUS_FEEDFORWARD_TORQUE
    s.set_pd_target([target], [0.0])
    qs = []
    for _ in range(500):
        w.integrate()
        qs.append(s.get_generalized_coordinate()[0])
    assert np.all(np.abs(qs) < 1.0)
    # steady error = gravity torque / kp (about 5e-6 rad here)
    assert s.get_generalized_coordinate()[0] == pytest.approx(target, abs=1e-4)
    grav = s.get_nonlinearities(G)[0]
    assert s.get_generalized_force()[0] == pytest.approx(grav, rel=1e-3)
    assert w.get_warnings()["non_finite_state"] == 0

    # the same gains applied explicitly (torque from the current state, every step)
    w2 = torsion.World()
    e = w2.add_articulated_system(light_pendulum(), clamp_to_effort_limits=False)
    blew_up = False
    for _ in range(500):
        q, v = e.get_generalized_coordinate()[0], e.get_generalized_velocity()[0]
        e.set_generalized_force([kp * (target - q) - kd * v])
        w2.integrate()
        if abs(e.get_generalized_velocity()[0]) > 1e3 or w2.get_warnings()["non_finite_state"]:
            blew_up = True
            break
    assert blew_up


@pytest.mark.filterwarnings("ignore::torsion.JointLimitWarning")  # starts outside its limits
def test_pd_on_the_quadruped_holds_a_posture():
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    target = q.get_generalized_coordinate()
    target[7:] = np.tile([0.0, 0.8, -1.5], 4)
    q.set_pd_gains(np.full(18, 100.0), np.full(18, 5.0))
    kp, kd = q.get_pd_gains()
    assert np.all(kp[:6] == 0) and np.all(kd[:6] == 0)  # no PD on the floating base
    q.set_pd_target(target, np.zeros(18))
    w.integrate(3000)
    np.testing.assert_allclose(q.get_generalized_coordinate()[7:], target[7:], atol=1e-6)


def test_effort_clamping():
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    assert torsion.World().add_articulated_system(light_pendulum()).get_clamp_to_effort_limits()  # default
    s = w.add_articulated_system(light_pendulum(), clamp_to_effort_limits=False)
    np.testing.assert_array_equal(s.get_effort_limits(), [5.0])
    s.set_pd_gains([1e4], [1.0])
    s.set_pd_target([2.0], [0.0])
    w.integrate()
    assert abs(s.get_generalized_force()[0]) > 5.0  # unclamped when turned off (as RaiSim)
    s.set_state([0.0], [0.0])
    s.set_clamp_to_effort_limits(True)
    w.integrate()
    assert s.get_generalized_force()[0] == pytest.approx(5.0, rel=1e-15)
    # the motion is exactly that of a constant 5 N m torque
    ref = w.add_articulated_system(light_pendulum())
    s.set_state([0.0], [0.0])
    ref.set_generalized_force([5.0])
    w.integrate()
    assert s.get_generalized_velocity()[0] == pytest.approx(ref.get_generalized_velocity()[0], rel=1e-12)


def pressing_arm(limit, clamp=True):
    """A 1 kg, 0.5 m arm on a hinge about y at 1 m, its sphere tip resting on a static box; the PD
    target (0.3 rad) presses the tip down with kp * 0.3 = 150 N m."""
    w = torsion.World()
    arm = torsion.Child("arm", joint_type="revolute", axis=(0, 1, 0), mass=1.0, com=(0.5, 0, 0),
                        inertia=(1e-3, 1e-3, 1e-3),
                        collisions=[torsion.CollisionShape("sphere", radius=0.05, xyz=(0.5, 0, 0))])
    r = w.add_articulated_system_from_tree(
        torsion.Child("base", joint_type="fixed", origin_xyz=(0, 0, 1.0), children=[arm]))
    box = w.add_box(0.4, 0.4, 0.2, 1.0)
    box.set_body_type(torsion.BodyType.STATIC)
    box.set_position([0.5, 0.0, 1.0 - 0.05 - 0.1 - 1e-5])
    r.set_pd_gains([500.0], [5.0])
    r.set_pd_target([0.3], [0.0])
    r.set_effort_limits([limit])
    r.set_clamp_to_effort_limits(clamp)
    return w, r


def test_effort_clamping_holds_against_a_contact():
    # a joint held at its limit while the contact takes the rest: the box pushes back with
    # exactly the moment of the limit and the arm's weight
    for limit in (2.0, 10.0):
        w, r = pressing_arm(limit)
        w.integrate(1000)
        assert r.get_generalized_force()[0] == limit  # held exactly
        # statics about the hinge: the limit and the arm's weight against the contact's moment
        c = r.get_contacts()
        arm_r = c["position"][0] - np.array([0.0, 0.0, 1.0])
        moment = np.cross(arm_r, c["force"][0])[1]
        assert limit + 1.0 * 9.81 * 0.5 + moment == pytest.approx(0.0, abs=1e-6)
        assert abs(r.get_generalized_velocity()[0]) < 1e-9
    # unclamped (RaiSim's PD), the PD presses with what it demands
    w, r = pressing_arm(2.0, clamp=False)
    w.integrate(1000)
    assert r.get_generalized_force()[0] == pytest.approx(150.0, rel=1e-3)


def test_effort_limit_holds_in_the_step_a_contact_load_appears():
    # The arm swings down through 20 mm of air onto the box; its PD target lies 20 mm past the
    # contact (kp 2000: a demand of about 40 N m once it touches, against a 20 N m limit). Before
    # contact the demand is within the limit; the load that makes it exceed comes through the
    # contact, in the step of the first touch. That step used to apply the PD's 39.6 N m. The
    # torque the dynamics applied is read back from the hinge's momentum balance.
    w, r = pressing_arm(20.0)
    w.set_time_step(1e-3)
    w.get_object_list()[1].set_position([0.5, 0.0, 1.0 - 0.05 - 0.1 - 0.02])
    r.set_pd_gains([2000.0], [50.0])
    r.set_pd_target([0.06], [0.0])
    touched = 0
    for _ in range(300):
        applied, _, contacts = step_hinge(w, r)
        assert applied == pytest.approx(r.get_generalized_force()[0], abs=1e-6)
        assert abs(applied) <= 20.0 + 1e-6
        if contacts:
            touched += 1
            assert applied == pytest.approx(20.0, abs=1e-6)  # pressing, held at the limit
    assert touched > 200  # it touched early and stayed


def step_hinge(w, r, gravity=9.81):
    """One step of a pressing_arm-like hinge (1 kg at 0.5 m on a hinge about y at (0, 0, 1)):
    returns the torque the actuator applied, read back from the hinge's momentum balance, the
    PD's demand at the end-of-step velocity u1, and the number of contacts. The arm's inertia
    about the hinge is constant (no Coriolis), so I du = dt (tau + m g l cos q0) plus the moment
    of the contacts' world-frame impulses (force * dt)."""
    dt = w.get_time_step()
    inertia = 1e-3 + 1.0 * 0.5**2
    q0 = r.get_generalized_coordinate()[0]
    u0 = r.get_generalized_velocity()[0]
    w.integrate()
    c = r.get_contacts()
    moment = sum(np.cross(p - np.array([0.0, 0.0, 1.0]), f * dt)[1]
                 for p, f in zip(c["position"], c["force"]))
    u1 = r.get_generalized_velocity()[0]
    applied = (inertia * (u1 - u0) - moment) / dt - 1.0 * gravity * 0.5 * np.cos(q0)
    (kp,), (kd,) = r.get_pd_gains()
    demand = kp * (r.get_pd_target()[0][0] - q0 - dt * u1) + kd * (0.0 - u1)
    return applied, demand, len(c)


def test_clamped_torque_follows_the_demand_through_the_target_in_the_same_step():
    # A stiff PD swings a hinge through its target in zero gravity (no contacts): the demand at
    # the end-of-step velocity flips from beyond one limit to beyond the other, or falls within
    # it, from one step to the next. Every step must apply clamp(demand) of its own end velocity;
    # a dof held from the previous step used to keep its full limit, in the wrong direction, for
    # one step after its demand had reversed (applied -2 N m where the demand was +378 N m).
    w, r = pressing_arm(2.0)
    w.set_time_step(0.02)
    w.set_gravity([0.0, 0.0, 0.0])
    w.remove_object(w.get_object_list()[1])  # no table: the arm swings freely
    r.set_generalized_coordinate([1.0])
    r.set_pd_gains([5000.0], [50.0])
    r.set_pd_target([0.0], [0.0])
    seen = set()
    for _ in range(150):
        applied, demand, contacts = step_hinge(w, r, gravity=0.0)
        assert contacts == 0
        assert applied == pytest.approx(np.clip(demand, -2.0, 2.0), abs=1e-8)
        assert r.get_generalized_force()[0] == pytest.approx(applied, abs=1e-8)
        seen.add(int(np.sign(demand)) * (abs(demand) > 2.0))
    assert seen == {-1, 0, 1}  # held on both sides and released


@pytest.mark.parametrize("dt", [1e-3, 0.02])
def test_held_dof_is_released_or_turned_in_the_step_its_demand_changes(dt):
    # The arm is held at its 2 N m limit pressing on the table (its PD demands 150 N m). A new
    # target then asks for -250 N m (pull up: held at -2, too weak to lift the arm off) or for
    # 1 N m (press more lightly): the very next step must apply -2 and 1 N m. Both used to apply
    # +2 for one more step.
    for target, expected in ((-0.5, -2.0), (None, 1.0)):
        w, r = pressing_arm(2.0)
        w.set_time_step(dt)
        w.integrate(50)
        assert r.get_generalized_force()[0] == 2.0 and len(r.get_contacts()) == 1
        q = r.get_generalized_coordinate()[0]
        r.set_pd_target([q + 1.0 / 500.0 if target is None else target], [0.0])
        for _ in range(3):
            applied, demand, _ = step_hinge(w, r)
            assert applied == pytest.approx(np.clip(demand, -2.0, 2.0), abs=1e-6)
            assert applied == pytest.approx(r.get_generalized_force()[0], abs=1e-6)
            assert applied == pytest.approx(expected, abs=1e-3)
        assert len(r.get_contacts()) == 1  # still resting on the table


def test_a_limit_that_never_binds_changes_nothing():
    w1, r1 = pressing_arm(1e3)
    w2, r2 = pressing_arm(1e3, clamp=False)
    w1.integrate(500)
    w2.integrate(500)
    np.testing.assert_array_equal(r1.get_generalized_coordinate(), r2.get_generalized_coordinate())
    np.testing.assert_array_equal(r1.get_generalized_force(), r2.get_generalized_force())


def test_clamped_quadruped_cannot_stand_on_weak_knees():
    # Standing needs about 4 N m at the knees: a 2 N m limit must let it sink, a 10 N m one not.
    # The knees' load comes through the feet's contacts, which the free velocity does not see
    # (there the light calf relaxes in one step and nothing saturates): the clamp used to let it
    # stand as unclamped, reporting 4.4 N m against the 2 N m limit. The demand at the step's
    # end (contacts included) now holds such a joint at its limit from the next step on.
    def stand(limit):
        w = torsion.World()
        w.set_time_step(0.002)
        w.add_ground()
        q, _ = standing_quadruped(w, 0.31, kp=1000.0, kd=20.0)
        q.set_effort_limits(np.r_[np.full(6, np.inf), np.full(12, limit)])
        q.set_clamp_to_effort_limits(True)
        w.integrate(500)
        return q.get_generalized_coordinate()[2], np.abs(q.get_generalized_force()[6:]).max()

    z_weak, tau_weak = stand(2.0)
    z_strong, tau_strong = stand(10.0)
    assert tau_weak <= 2.0 and 3.0 < tau_strong < 10.0
    assert z_strong > 0.30 and z_weak < z_strong - 0.1


def test_urdf_damping_decays_velocity_and_friction_holds():
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    sl = w.add_articulated_system(torsion.robots.urdf_path("slider"))
    names = sl.get_movable_joint_names()
    assert names == ["cart_slide", "pole_hinge", "lift_slide"]
    assert sl.get_joint_friction()[0] == 0.5 and sl.get_joint_damping()[0] == 0.1
    # a push below the friction level does not move the cart
    sl.set_generalized_force([0.4, 0.0, 0.0])
    w.integrate(200)
    assert sl.get_generalized_coordinate()[0] == pytest.approx(0.0, abs=1e-12)
    # above it, the cart accelerates with the net force 0.6 - 0.5 (minus damping)
    sl.set_generalized_force([1.1, 0.0, 0.0])
    w.integrate(200)
    assert sl.get_generalized_velocity()[0] > 0.0
    # released: friction and damping stop it within a finite time, and it stays stopped
    sl.set_generalized_force([0.0, 0.0, 0.0])
    w.integrate(2000)
    assert sl.get_generalized_velocity()[0] == pytest.approx(0.0, abs=1e-12)


def test_external_force_matches_jacobian_transpose():
    """A world force at a point enters as J^T f: one step from rest in zero gravity gives
    du = dt M^-1 J^T f."""
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    arm = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    arm.set_generalized_coordinate([0.1, 0.5, -0.3, -1.0, 0.2, 0.4, 0.0])
    f, p = np.array([3.0, -1.0, 2.0]), arm.get_frame_position("tool_joint")
    body = arm.get_body_index("link_7")
    jac = arm.get_dense_jacobian_at(body, p)
    minv = np.linalg.inv(arm.get_mass_matrix() + 1e-3 * np.diag(arm.get_joint_damping()))
    arm.set_external_force(body, f, p)
    w.integrate()
    np.testing.assert_allclose(arm.get_generalized_velocity(), 1e-3 * minv @ jac.T @ f, rtol=1e-9, atol=1e-14)
    # the force lasted one step: afterwards only damping acts, so the energy cannot grow
    e = arm.get_kinetic_energy()
    w.integrate(10)
    assert arm.get_kinetic_energy() <= e


def test_dynamics_queries_between_integrate1_and_integrate2_change_nothing():
    # Read-only queries must not touch the step: get_nonlinearities(g) and
    # compute_forward_dynamics(tau, g) used to overwrite the step's h (computed in integrate1 for
    # the world's gravity) with the query's, so a free-falling quadruped queried with zero gravity
    # did not fall in that step (base vz 0 against -g dt), and one queried with 2 g fell twice as
    # fast. Split steps with every dynamics query in between must be bitwise a plain step.
    def falling():
        w = torsion.World()
        w.set_time_step(0.002)
        q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
        gc = q.get_generalized_coordinate()
        gc[2] = 2.0
        gc[7:] = torsion.robots.QUADRUPED_STAND
        rng = np.random.default_rng(5)
        q.set_state(gc, rng.normal(0.0, 1.0, 18))  # turning and swinging: Coriolis terms too
        q.set_pd_gains(np.full(18, 300.0), np.full(18, 10.0))
        q.set_pd_target(gc, np.zeros(18))
        return w, q

    def queries(q):
        for g in ([0.0, 0.0, 0.0], [0.0, 0.0, -19.62], [3.0, -1.0, 4.0]):
            q.get_nonlinearities(g)
            q.compute_forward_dynamics(np.ones(18), g)
            q.compute_inverse_dynamics(np.ones(18), g)
            q.get_potential_energy(g)
        q.get_inverse_mass_matrix()
        q.get_mass_matrix()
        q.get_kinetic_energy()
        q.get_dense_frame_jacobian(q.get_frame_names()[-1])
        q.benchmark_mass_matrix(2)
        q.benchmark_frame_jacobian(q.get_frame_names()[-1], 2)

    w1, q1 = falling()
    w2, q2 = falling()
    for _ in range(5):
        w1.integrate()
        w2.integrate1()
        queries(q2)
        w2.integrate2()
        queries(q2)  # and between steps
    assert q1.get_generalized_velocity()[2] < -5 * 9.81 * 0.002 * 0.99  # it falls
    for get in ("get_generalized_coordinate", "get_generalized_velocity",
                "get_generalized_force"):
        np.testing.assert_array_equal(getattr(q1, get)(), getattr(q2, get)())
    assert w1.state_hash() == w2.state_hash()


def test_determinism_bitwise():
    def run():
        w = torsion.World()
        h = w.add_articulated_system(torsion.robots.urdf_path("humanoid"))
        rng = np.random.default_rng(7)
        h.set_generalized_velocity(rng.normal(size=h.get_dof()))
        h.set_pd_gains(np.full(h.get_dof(), 50.0), np.full(h.get_dof(), 2.0))
        w.integrate(500)
        return h.get_generalized_coordinate().tobytes() + h.get_generalized_velocity().tobytes()

    assert run() == run()


# a free-floating rod: inertia 0.021, 0.021, 0.0005 kg m^2 (a thin link, like a robot's forearm)
ROD = ('<robot name="rod"><link name="rod"><inertial><origin xyz="0 0 0"/><mass value="1"/>'
       '<inertia ixx="0.021" iyy="0.021" izz="0.0005" ixy="0" ixz="0" iyz="0"/></inertial></link>'
       '</robot>')


@pytest.mark.parametrize("dt, tol", [(1e-3, 1e-4), (1e-2, 0.1)])
def test_a_torque_free_spinning_link_keeps_its_energy_and_momentum(dt, tol):
    # Euler's equations, torque-free: kinetic energy and |L| are constant. With the velocity-
    # product terms taken at the step's start velocity (semi-implicit Euler) the rod gained 51 %
    # of its energy in 1 s at dt = 1 ms and 1400x at dt = 10 ms; taken at the predicted midpoint
    # velocity, it keeps it to 7e-5 and 8 %.
    w = torsion.World()
    w.set_gravity([0.0, 0.0, 0.0])
    w.set_time_step(dt)
    r = w.add_articulated_system(ROD, fixed_base=False)
    gv = np.zeros(6)
    gv[3:] = [3.0, -2.0, 30.0]
    r.set_generalized_velocity(gv)

    e0 = r.get_kinetic_energy()
    inertia = np.diag([0.021, 0.021, 0.0005])
    l0 = np.linalg.norm(inertia @ gv[3:])  # body and world frames coincide at the start
    w.integrate(int(round(1.0 / dt)))
    assert abs(r.get_kinetic_energy() / e0 - 1.0) < tol
    q = r.get_generalized_coordinate()[3:7]  # (w, x, y, z), body to world
    wq, v = q[0], q[1:]
    rot = (wq * wq - v @ v) * np.eye(3) + 2 * np.outer(v, v) + 2 * wq * np.array(
        [[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    omega_b = rot.T @ r.get_generalized_velocity()[3:]
    assert abs(np.linalg.norm(inertia @ omega_b) / l0 - 1.0) < tol


@pytest.mark.parametrize("dt, seed", [(0.005, 9), (0.01, 9), (0.01, 15)])
def test_the_unactuated_humanoid_falling_over_stays_bounded(dt, seed):
    # pushes that blew the humanoid up (|v| 1e150) when its Coriolis terms were explicit
    rng = np.random.default_rng(seed)
    w = torsion.World()
    w.set_time_step(dt)
    w.add_ground()
    h = w.add_articulated_system(torsion.robots.urdf_path("humanoid"))
    gc = h.get_generalized_coordinate()
    gc[2] += 0.05
    gv = np.zeros(h.get_dof())
    gv[:3] = rng.uniform(-2, 2, 3)
    gv[3:6] = rng.uniform(-3, 3, 3)
    h.set_state(gc, gv)
    peak = 0.0
    for _ in range(int(round(3.0 / dt))):
        w.integrate()
        peak = max(peak, np.abs(h.get_generalized_velocity()).max())
    assert peak < 100.0


def test_one_step_uses_the_velocity_terms_at_the_predicted_midpoint(oracle, tmp_path):
    # One free step of a floating chain with off-diagonal inertias, against Pinocchio:
    #   u_mid = u - dt/2 M^-1 c(q, u),  u+ = u + dt M^-1 (tau - g(q) - c(q, u_mid))
    # with c = h(q, u) - h(q, 0) (Coriolis, centrifugal, gyroscopic) and g = h(q, 0).
    def body(name, m, com, inertia):
        ixx, iyy, izz, ixy, ixz, iyz = inertia
        return (f'<link name="{name}"><inertial><origin xyz="{com}"/><mass value="{m}"/>'
                f'<inertia ixx="{ixx}" iyy="{iyy}" izz="{izz}" ixy="{ixy}" ixz="{ixz}" '
                f'iyz="{iyz}"/></inertial></link>')

    urdf = ('<robot name="chain">'
            + body("base", 2.0, "0.05 0 0", (0.03, 0.05, 0.04, 0.004, -0.002, 0.001))
            + body("upper", 0.7, "0 0 -0.2", (0.01, 0.012, 0.002, 0.0005, 0.0, -0.0003))
            + body("lower", 0.4, "0.1 0 0", (0.001, 0.006, 0.0055, 0.0, 0.0002, 0.0))
            + '<joint name="a" type="continuous"><parent link="base"/><child link="upper"/>'
            '<origin xyz="0.1 0 0" rpy="0.3 0 0"/><axis xyz="0 1 0"/></joint>'
            '<joint name="b" type="continuous"><parent link="upper"/><child link="lower"/>'
            '<origin xyz="0 0 -0.4" rpy="0 0.2 0"/><axis xyz="1 0 1"/></joint></robot>')
    path = tmp_path / "chain.urdf"
    path.write_text(urdf)
    dt = 0.01
    w = torsion.World()
    w.set_time_step(dt)
    s = w.add_articulated_system(str(path), fixed_base=False)
    orc = oracle(str(path)).bind(s)
    rng = np.random.default_rng(3)
    gc = s.get_generalized_coordinate()
    gc[:3] = rng.uniform(-1, 1, 3)
    quat = rng.normal(size=4)
    gc[3:7] = quat / np.linalg.norm(quat)
    gc[7:] = rng.uniform(-2, 2, 2)
    gv = rng.normal(scale=3.0, size=s.get_dof())
    tau = rng.normal(size=s.get_dof())
    tau[:6] = 0.0
    s.set_state(gc, gv)
    s.set_generalized_force(tau)
    w.integrate()
    m = orc.mass_matrix(gc)
    g = orc.nonlinear(gc, np.zeros_like(gv), G)
    c = orc.nonlinear(gc, gv, G) - g
    u_mid = gv - 0.5 * dt * np.linalg.solve(m, c)
    c_mid = orc.nonlinear(gc, u_mid, G) - g
    expected = gv + dt * np.linalg.solve(m, tau - g - c_mid)
    np.testing.assert_allclose(s.get_generalized_velocity(), expected, rtol=0, atol=1e-9)
    # and semi-implicit Euler would be off by far more than that tolerance
    euler = gv + dt * np.linalg.solve(m, tau - g - c)
    assert np.abs(euler - expected).max() > 1e-5


def test_a_robot_velocity_set_mid_step_is_the_one_the_step_starts_from():
    # Velocities may be set between integrate1() and integrate2() (the contacts do not depend on
    # them), and the step starts from the new one, as a single body's does: the robot's velocity
    # terms must be those of the new velocity too, not of the one integrate1() saw. Same step,
    # velocity set before integrate1() or between the two: the same result.
    def run(mid):
        w = torsion.World()
        s = w.add_articulated_system(DOUBLE_PENDULUM)
        s.set_state([1.0, 0.5], [0.0, 0.0])
        if not mid:
            s.set_generalized_velocity([3.0, -4.0])
        w.integrate1()
        if mid:
            s.set_generalized_velocity([3.0, -4.0])
        w.integrate2()
        return s.get_generalized_velocity()

    assert run(True).tobytes() == run(False).tobytes()
