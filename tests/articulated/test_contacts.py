"""Contacts on articulated systems: robot-ground, robot-body and self contacts through the
contact solver (M^-1 J^T from the system's damped mass matrix), ray casts against robot links.
References are statics (forces balancing gravity), restitution, conservation of momentum and
bitwise determinism."""

from __future__ import annotations

import numpy as np
import pytest

import torsion

G = 9.81
STAND = torsion.robots.QUADRUPED_STAND


def box_link(name, mass, size, xyz="0 0 0"):
    sx, sy, sz = size
    i = [mass * (b * b + c * c) / 12.0 for b, c in ((sy, sz), (sx, sz), (sx, sy))]
    return (
        f'<link name="{name}"><inertial><origin xyz="{xyz}"/><mass value="{mass}"/>'
        f'<inertia ixx="{i[0]}" iyy="{i[1]}" izz="{i[2]}" ixy="0" ixz="0" iyz="0"/></inertial>'
        f'<collision><origin xyz="{xyz}"/><geometry><box size="{sx} {sy} {sz}"/></geometry></collision></link>'
    )


def standing_quadruped(kp=100.0, kd=2.0, height=0.33):
    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = q.get_generalized_coordinate()
    gc[2] = height
    gc[7:] = STAND
    q.set_generalized_coordinate(gc)
    q.set_pd_gains(np.full(18, kp), np.full(18, kd))
    q.set_pd_target(gc, np.zeros(18))
    return w, q


def feet(q):
    return [q.get_body_index(n) for n in ("FR_calf", "FL_calf", "RR_calf", "RL_calf")]


def test_quadruped_stands_for_10_s_without_drift_or_slip():
    w, q = standing_quadruped()
    w.integrate(2000)  # settle
    base0 = q.get_generalized_coordinate()[:3].copy()
    c0 = q.get_contacts()
    assert sorted(c0["local_body_index"]) == sorted(feet(q))  # four feet, nothing else
    for _ in range(10):
        w.integrate(1000)
        c = q.get_contacts()
        assert sorted(c["local_body_index"]) == sorted(feet(q))
    base1 = q.get_generalized_coordinate()[:3]
    assert np.linalg.norm(base1 - base0) < 1e-3
    assert 0.25 < base1[2] < 0.32
    # no slip: every foot's contact point stays put
    c1 = q.get_contacts()
    for b in feet(q):
        p0 = c0["position"][c0["local_body_index"] == b][0]
        p1 = c1["position"][c1["local_body_index"] == b][0]
        assert np.linalg.norm(p1[:2] - p0[:2]) < 1e-4
    # the feet carry the robot's weight, and friction stays inside the cone
    f = c1["force"]
    assert f.sum(axis=0) == pytest.approx([0.0, 0.0, q.get_total_mass() * G], abs=1e-6 * q.get_total_mass() * G)
    assert np.all(np.linalg.norm(f[:, :2], axis=1) <= 0.8 * f[:, 2] + 1e-9)
    assert not c1["is_self_collision"].any()


def test_link_resting_on_the_ground_balances_gravity():
    # a floating two-link robot (a plate and a flap on a hinge) lying flat on the ground
    urdf = (
        '<robot name="flap">' + box_link("plate", 2.0, (0.4, 0.3, 0.05))
        + box_link("flap", 0.5, (0.2, 0.3, 0.05), "0.1 0 0")
        + '<joint name="hinge" type="revolute"><parent link="plate"/><child link="flap"/>'
        '<origin xyz="0.21 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="10"/>'
        "</joint></robot>"
    )
    w = torsion.World()
    w.add_ground()
    r = w.add_articulated_system(urdf)
    r.set_generalized_coordinate([0, 0, 0.025, 1, 0, 0, 0, 0])
    w.integrate(500)
    c = r.get_contacts()
    per_body = {b: c["force"][c["local_body_index"] == b].sum(axis=0) for b in (0, 1)}
    total = per_body[0] + per_body[1]
    assert total == pytest.approx([0, 0, 2.5 * G], abs=1e-6)
    assert np.abs(r.get_generalized_velocity()).max() < 1e-6
    assert set(c["local_body_index"]) == {0, 1}
    assert (c["pair_object_index"] == 0).all() and (c["depth"] < 1e-4).all()


def test_robot_link_and_single_body_agree():
    # the same box as a single body and as a one-link floating robot, dropped tilted and spinning
    urdf = '<robot name="box">' + box_link("b", 1.5, (0.3, 0.2, 0.1)) + "</robot>"
    w = torsion.World()
    w.add_ground()
    w.set_contact_solver_iteration_order(True)
    box = w.add_box(0.3, 0.2, 0.1, 1.5)
    w2 = torsion.World()
    w2.add_ground()
    w2.set_contact_solver_iteration_order(True)
    robot = w2.add_articulated_system(urdf)
    quat = np.array([0.95, 0.2, 0.1, 0.05])
    quat /= np.linalg.norm(quat)
    box.set_position([0, 0, 0.3])
    box.set_orientation(quat)
    box.set_velocity([0.5, 0, 0], [0, 0, 1.0])
    robot.set_state(np.r_[[0, 0, 0.3], quat], [0.5, 0, 0, 0, 0, 1.0])
    for _ in range(600):
        w.integrate()
        w2.integrate()
    # the robot's base origin is its COM here; the integrators (gyroscopic terms) differ only in
    # round-off-level details, so the two trajectories stay close through impacts and sliding
    assert robot.get_generalized_coordinate()[:3] == pytest.approx(box.get_position(), abs=2e-3)
    assert robot.get_contacts()["force"].sum(axis=0) == pytest.approx(box.get_contacts()["force"].sum(axis=0), abs=0.5)
    assert robot.get_contacts()["force"].sum(axis=0)[2] == pytest.approx(1.5 * G, rel=1e-6)


def box_on_standing_quadruped():
    """The standing quadruped after 1000 steps with a 0.1 m, 1 kg box released 2 mm above its
    base's top face: (world, robot, box)."""
    w, q = standing_quadruped()
    w.integrate(1000)
    box = w.add_box(0.1, 0.1, 0.1, 1.0)
    top = q.get_generalized_coordinate()[2] + 0.057
    box.set_position([0.0, 0.0, top + 0.05 + 0.002])
    return w, q, box


def test_box_resting_on_the_standing_quadruped():
    w, q, box = box_on_standing_quadruped()
    w.integrate(5000)  # the robot's sway under the new load decays slowly (kd 2)
    cb = box.get_contacts()
    assert len(cb) > 0 and (cb["pair_local_body_index"] == 0).all()  # on the trunk
    assert cb["force"].sum(axis=0) == pytest.approx([0, 0, G], abs=1e-4 * G)
    feet_force = q.get_contacts()
    on_ground = feet_force[feet_force["pair_object_index"] == 0]["force"].sum(axis=0)
    total = (q.get_total_mass() + 1.0) * G
    assert on_ground == pytest.approx([0, 0, total], abs=1e-4 * total)


def test_ball_bounces_off_a_robot_link():
    # a plate on a vertical hinge (fixed base): it cannot move along the hinge's axis, so a
    # ball dropped on its centre bounces to e^2 of its drop height
    urdf = (
        '<robot name="plate"><link name="world"/>' + box_link("plate", 5.0, (1.0, 1.0, 0.1))
        + '<joint name="spin" type="continuous"><parent link="world"/><child link="plate"/>'
        '<axis xyz="0 0 1"/></joint></robot>'
    )
    w = torsion.World()
    w.set_material_pair_prop("plate", "ball", 0.8, 0.6, 0.0)
    r = w.add_articulated_system(urdf)
    w.set_object_material(r, "plate")
    ball = w.add_sphere(0.05, 0.3, "ball")
    h0 = 0.5
    ball.set_position([0.0, 0.0, 0.05 + 0.05 + h0])
    peak, rising, bounced = -1.0, False, False
    for _ in range(1500):
        w.integrate()
        z = ball.get_position()[2] - 0.1
        vz = ball.get_linear_velocity()[2]
        if vz > 0:
            rising = bounced = True
        if rising and vz <= 0:
            peak = z
            break
    assert bounced
    assert peak == pytest.approx(0.36 * h0, rel=0.02)
    assert abs(r.get_generalized_velocity()[0]) < 1e-9  # a central impact does not spin it


def momentum_error_after_impact(dt):
    # SimBenchmark's ANYmal momentum test (semantics.md A3): zero gravity, a 10 kg ball at 5 m/s
    # hits the free-floating robot; returns the relative change of the total linear and angular
    # momentum (about the world origin) over 0.3 s
    w = torsion.World()
    w.set_time_step(dt)
    w.set_gravity([0, 0, 0])
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    gc = q.get_generalized_coordinate()
    gc[7:] = STAND
    q.set_generalized_coordinate(gc)
    ball = w.add_sphere(0.1, 10.0)
    ball.set_position([-0.6, 0.0, 0.02])
    ball.set_velocity([5.0, 0.0, 0.0], [0, 0, 0])

    def momentum():
        # the base rows of M u are the robot's linear momentum and its angular momentum about the
        # base origin (gv's base velocities are world-frame)
        mu = q.get_mass_matrix() @ q.get_generalized_velocity()
        x = q.get_generalized_coordinate()[:3]
        p = mu[:3] + ball.get_linear_momentum()
        lo = mu[3:6] + np.cross(x, mu[:3])
        lo += np.cross(ball.get_position(), ball.get_linear_momentum()) + ball.get_angular_momentum()
        return p, lo

    p0, l0 = momentum()
    touched = False
    for _ in range(int(round(0.3 / dt))):
        w.integrate()
        touched |= len(ball.get_contacts()) > 0
    p1, l1 = momentum()
    assert touched and np.linalg.norm(q.get_generalized_velocity()[:3]) > 0.5
    scale = np.linalg.norm(p0)
    return np.linalg.norm(p1 - p0) / scale, np.linalg.norm(l1 - l0) / scale


def test_momentum_is_conserved_when_a_ball_hits_a_floating_robot():
    # contact impulses are equal and opposite: what remains is the articulated integrator's
    # first-order drift of a tumbling robot (see test_step.py), which shrinks with dt
    ep1, el1 = momentum_error_after_impact(1e-3)
    ep2, el2 = momentum_error_after_impact(1e-4)
    assert ep1 < 3e-3 and el1 < 3e-3
    assert ep2 < ep1 / 5 and el2 < el1 / 5


def test_joint_limit_holds_with_contacts_and_a_torque_through_it():
    w, q = standing_quadruped()
    w.integrate(500)
    upper = q.get_joint_limits()[:, 1]
    k = 6 + 2  # FR knee: a torque straightening it far beyond what the PD resists
    tau = np.zeros(18)
    tau[k] = 150.0
    q.set_generalized_force(tau)
    worst = -np.inf
    for _ in range(500):
        w.integrate()
        worst = max(worst, q.get_generalized_coordinate()[7 + 2] - upper[k])
    assert worst <= 1e-9
    assert q.get_generalized_coordinate()[9] == pytest.approx(upper[k], abs=1e-6)
    assert w.get_warnings()["non_finite_state"] == 0


def sliders_urdf(base_y):
    # a fixed base box and two blocks on prismatic joints along x, siblings (non-adjacent)
    return (
        '<robot name="sliders">' + box_link("base", 1.0, (0.2, 0.2, 0.2), f"0 {base_y} 0")
        + box_link("a", 1.0, (0.2, 0.2, 0.2)) + box_link("b", 1.0, (0.2, 0.2, 0.2))
        + '<joint name="ja" type="prismatic"><parent link="base"/><child link="a"/><origin xyz="-0.5 0 0"/>'
        '<axis xyz="1 0 0"/><limit lower="-5" upper="5" effort="10" velocity="10"/></joint>'
        '<joint name="jb" type="prismatic"><parent link="base"/><child link="b"/><origin xyz="0.5 0 0"/>'
        '<axis xyz="1 0 0"/><limit lower="-5" upper="5" effort="10" velocity="10"/></joint></robot>'
    )


def run_sliders(self_collision, base_y=1.0, parent=True, va=1.0, vb=-1.0):
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    r = w.add_articulated_system(sliders_urdf(base_y), fixed_base=True, do_not_collide_with_parent=parent)
    r.set_self_collision(self_collision)
    r.set_generalized_velocity([va, vb])
    self_contacts = 0
    for _ in range(800):
        w.integrate()
        c = r.get_contacts()
        self_contacts += int(c["is_self_collision"].sum())
    return r, self_contacts


def test_self_collision_between_siblings_on_and_off():
    r, n = run_sliders(True)
    qa, qb = r.get_generalized_coordinate()
    xa, xb = -0.5 + qa, 0.5 + qb
    assert n > 0
    assert xb - xa >= 0.2 - 1e-3  # they stopped at contact (equal masses, inelastic)
    assert np.abs(r.get_generalized_velocity()).max() < 1e-6
    r, n = run_sliders(False)
    qa, qb = r.get_generalized_coordinate()
    assert n == 0 and -0.5 + qa > 0.5 + qb  # passed through each other


def test_do_not_collide_with_parent():
    # block a slides into its parent (the base box at the origin); b moves away
    r, n = run_sliders(True, base_y=0.0, parent=True, va=1.0, vb=1.0)
    assert n == 0 and r.get_generalized_coordinate()[0] > 0.7
    r, n = run_sliders(True, base_y=0.0, parent=False, va=1.0, vb=1.0)
    assert n > 0 and r.get_generalized_coordinate()[0] < 0.3 + 1e-3


def test_contacts_are_deterministic_bitwise():
    def run():
        w, q = standing_quadruped(kp=60.0, kd=1.0, height=0.36)
        b = w.add_box(0.1, 0.1, 0.1, 0.5)
        b.set_position([0.05, 0.02, 0.6])
        s = w.add_sphere(0.05, 0.2)
        s.set_position([0.3, 0.0, 0.05])
        s.set_velocity([-1.0, 0.0, 0.0], [0, 0, 0])
        w.integrate(1500)
        return np.r_[q.get_generalized_coordinate(), q.get_generalized_velocity(), b.get_position(), s.get_position()]

    a, b = run(), run()
    assert a.tobytes() == b.tobytes()


def test_ray_hits_robot_links_with_their_local_index():
    w, q = standing_quadruped()
    w.integrate(200)
    x = q.get_generalized_coordinate()[:3]
    hit = w.ray_test(x + [0, 0, 1.0], [0, 0, -1], 2.0)
    assert len(hit) == 1
    assert hit[0].object_index == q.get_index_in_world() and hit[0].local_index == 0
    assert hit[0].distance == pytest.approx(1.0 - 0.057, abs=1e-4)  # the trunk is level to 1e-4
    # a horizontal ray at foot height hits the front-right foot first
    foot = q.get_frame_position("FR_foot_fixed")
    hit = w.ray_test(foot + [0, -1.0, 0], [0, 1, 0], 2.0)
    assert hit[0].local_index == q.get_body_index("FR_calf")
    assert hit[0].distance == pytest.approx(1.0 - 0.02, abs=1e-9)  # the foot sphere's centre
    # the ignore filter skips exactly that body: the ray goes on to the ground (world index 0)
    hit = w.ray_test(x + [0, 0, 1.0], [0, 0, -1], 2.0, q.get_index_in_world(), 0)
    assert hit[0].object_index == 0 and hit[0].distance == pytest.approx(1.0 + x[2], abs=1e-12)
    # a pose set by hand is seen at once
    gc = q.get_generalized_coordinate()
    gc[0] += 5.0
    q.set_generalized_coordinate(gc)
    hit = w.ray_test(x + [0, 0, 1.0], [0, 0, -1], 2.0)
    assert hit[0].object_index != q.get_index_in_world()  # the ground now


def test_depth_camera_sees_the_robot():
    w, q = standing_quadruped()
    w.integrate(10)
    rot = np.eye(3)
    props = torsion.DepthCameraProperties(width=32, height=24, hfov=60.0, clip_far=5.0)
    frame = w.capture_depth_camera([-1.0, 0.0, 0.3], rot, props)
    assert q.get_index_in_world() in set(np.unique(frame.segmentation))


def test_robot_collision_filter_and_material_by_body():
    w, q = standing_quadruped()
    with pytest.raises(IndexError, match="local_idx"):
        w.set_object_collision_filter(q, 1, -1, 13)
    with pytest.raises(IndexError, match="local_idx"):
        w.set_object_material(q, "rubber", 99)
    # a robot whose feet do not collide with the ground falls through it
    for b in feet(q):
        w.set_object_collision_filter(q, 1, 1, b)
    w.integrate(300)
    assert q.get_generalized_coordinate()[2] < 0.2


def test_self_collision_default_and_keyword():
    w = torsion.World()
    r = w.add_articulated_system(sliders_urdf(1.0), fixed_base=True)
    assert not r.get_self_collision() and r.get_do_not_collide_with_parent()
    r2 = w.add_articulated_system(sliders_urdf(1.0), fixed_base=True, self_collision=True,
                                  do_not_collide_with_parent=False)
    assert r2.get_self_collision() and not r2.get_do_not_collide_with_parent()
    # the two robots' blocks overlap each other (same place): robot-robot contacts, not self
    w.set_gravity([0, 0, 0])
    w.integrate()
    c = r.get_contacts()
    assert len(c) > 0 and not c["is_self_collision"].any()
    assert set(c["pair_object_index"]) == {r2.get_index_in_world()}


def _robot_pairs(self_collision, parent, pad):
    """Collision counters and contacts after one step of a crouched quadruped on the ground, in
    a world of at most 32 collision bodies (the broad phase tests every pair) or padded with
    `pad` far-apart spheres (the sweep runs): (narrow-phase pairs of the robot, broad-phase
    pairs of the robot, sorted robot contacts)."""
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    w.add_ground()
    for k in range(pad):
        w.add_sphere(0.1, 1.0).set_position([100.0 + 2.0 * k, 0.0, 5.0])
    q = w.add_articulated_system(torsion.robots.urdf_path("quadruped"),
                                 do_not_collide_with_parent=parent, self_collision=self_collision)
    gc = q.get_generalized_coordinate()
    gc[2] = 0.2
    gc[7:] = np.tile([0.6, 1.4, -2.6], 4)  # legs folded under the base, hips spread
    q.set_generalized_coordinate(gc)
    w.set_collision_counters_enabled(True)
    w.integrate()
    c = w.get_last_collision_counters()
    contacts = q.get_contacts()
    rows = sorted(zip(contacts["local_body_index"].tolist(), contacts["is_self_collision"].tolist(),
                      map(tuple, np.round(contacts["position"], 12).tolist())))
    # each pad sphere pairs with the ground only (they are 2 m apart, far from the robot)
    return c["narrowphase_pairs"] - pad, c["broadphase_pairs"] - pad, rows


def test_broad_phase_drops_exactly_the_pairs_the_filter_refuses():
    links = 17  # the quadruped's links with a collision shape: each pairs with the ground
    # no self-collision: the robot's own pairs never reach the box test, and the ground pairs
    # remain (the same in the all-pairs and the sweep broad phase)
    for pad in (0, 40):
        narrow, broad, _ = _robot_pairs(False, True, pad)
        assert narrow == broad == links
    # self-collision: the pairs passing the filter do not depend on the broad-phase path (the
    # exclusion keys are tested before the box test in one, after it in the other)
    counts = {}
    for parent in (True, False):
        alone = _robot_pairs(True, parent, 0)
        padded = _robot_pairs(True, parent, 40)
        assert alone[0] == padded[0] and alone[2] == padded[2]
        counts[parent] = alone[0]
    # adjacent links overlap at their joints: allowing them adds pairs
    assert links < counts[True] < counts[False]
