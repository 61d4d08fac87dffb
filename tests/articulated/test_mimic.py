"""URDF mimic joints (q_mimic = multiplier * q_master + offset) against Pinocchio 4's mimic models
(pinocchio.buildModelFromXML(..., mimic=True), JointModelMimic), which are in reduced
coordinates like torsion's: a mimic joint owns no entry of gc or gv.

Layout mapping (explicit): Pinocchio orders its joints by its own URDF walk, so torsion's dof k
(movable joint name get_movable_joint_names()[k]) is Pinocchio's idx_v of the joint of that
name (and idx_q: the fixtures have fixed bases and 1-coordinate joints, so nq = nv). Frames are
compared by name (Pinocchio's JOINT / FIXED_JOINT frames at each URDF joint's child origin);
torsion's world-frame Jacobians are Pinocchio's LOCAL_WORLD_ALIGNED frame Jacobians."""

from __future__ import annotations

import math

import numpy as np
import pinocchio as pin  # PyPI `pin` (>= 3.4 for mimic joints), part of the test extra
import pytest

import torsion

from .conftest import check_frame, close

G = [0.0, 0.0, -9.81]


def _inertial(mass, size):
    # a box's inertia with products of inertia added, small enough (at most 0.45 of the smallest
    # moment in each row) to keep it positive definite, as the URDF loader requires
    a, b, c = size
    ixx, iyy = mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12
    izz = mass * (a * a + b * b) / 12
    s = min(ixx, iyy, izz)
    return (f'<inertial><origin xyz="0 0 {c / 2}"/><mass value="{mass}"/>'
            f'<inertia ixx="{ixx}" iyy="{iyy}" izz="{izz}" ixy="{0.1 * s}" ixz="{-0.2 * s}" '
            f'iyz="{0.15 * s}"/></inertial>')


def _box_link(name, mass, size, collide=True):
    col = (f'<collision><origin xyz="0 0 {size[2] / 2}"/><geometry><box size="{size[0]} {size[1]} '
           f'{size[2]}"/></geometry></collision>') if collide else ""
    return f'<link name="{name}">{_inertial(mass, size)}{col}</link>'


def _joint(name, kind, parent, child, xyz, axis, rpy="0 0 0", mimic=None, extra=""):
    m = ""
    if mimic is not None:
        m = f'<mimic joint="{mimic[0]}" multiplier="{mimic[1]}" offset="{mimic[2]}"/>'
    lim = '<limit lower="-3" upper="3" effort="100" velocity="10"/>' if kind != "continuous" else ""
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/>{lim}{m}{extra}</joint>')


def gripper_on_arm(multiplier=-1.0, offset=0.013):
    """The bundled 7-DoF arm with a parallel gripper on its tool: a palm (fixed), a left finger
    (prismatic) and a right finger mimicking it (prismatic, opposite axis via the multiplier),
    plus a tilted revolute 'thumb' that mimics the left finger (revolute mimicking prismatic is
    allowed by URDF and Pinocchio)."""
    with open(torsion.robots.urdf_path("arm7")) as f:
        arm = f.read()
    parts = [
        _box_link("palm", 0.3, (0.08, 0.12, 0.02)),
        '<joint name="palm_joint" type="fixed"><parent link="tool"/><child link="palm"/>'
        '<origin xyz="0 0 0.03" rpy="0 0 0"/></joint>',
        _box_link("finger_l", 0.05, (0.02, 0.01, 0.06)),
        _joint("finger_l_joint", "prismatic", "palm", "finger_l", "0 0.04 0.02", "0 -1 0"),
        _box_link("finger_r", 0.06, (0.02, 0.01, 0.06)),
        _joint("finger_r_joint", "prismatic", "palm", "finger_r", "0 -0.04 0.02", "0 -1 0",
               mimic=("finger_l_joint", multiplier, offset)),
        _box_link("thumb", 0.04, (0.01, 0.01, 0.04)),
        _joint("thumb_joint", "revolute", "palm", "thumb", "0.03 0 0.02", "0.3 0.8 0.52",
               rpy="0.2 -0.1 0.4", mimic=("finger_l_joint", 2.5, -0.3)),
    ]
    return arm.replace("</robot>", "".join(parts) + "</robot>")


def linkage():
    """A fixed-base chain j1 j2 j3 j4 j5 whose middle joint j3 mimics j1 (an ancestor: the mimic
    couples dofs along one path), a branch b1 off link 2 whose joint mimics j4 (a descendant on
    another branch), and a prismatic j5."""
    parts = ['<robot name="linkage"><link name="world"/>', _box_link("l0", 1.0, (0.1, 0.1, 0.1))]
    parts.append('<joint name="fix" type="fixed"><parent link="world"/><child link="l0"/>'
                 '<origin xyz="0.1 -0.2 0.3" rpy="0.1 0.2 0.3"/></joint>')
    chain = [("j1", "revolute", "0 0 0.1", "0 0 1", None),
             ("j2", "revolute", "0 0.05 0.3", "0 1 0", None),
             ("j3", "revolute", "0.02 0 0.25", "1 0 0", ("j1", 0.7, 0.2)),
             ("j4", "revolute", "0 0 0.2", "0.6 0 0.8", None),
             ("j5", "prismatic", "0 0.1 0.15", "0 0 1", None)]
    parent = "l0"
    for k, (name, kind, xyz, axis, mimic) in enumerate(chain, start=1):
        link = f"l{k}"
        parts.append(_box_link(link, 1.0 + 0.3 * k, (0.05, 0.06, 0.2)))
        parts.append(_joint(name, kind, parent, link, xyz, axis, rpy=f"0.1 {0.05 * k} 0",
                            mimic=mimic))
        parent = link
    parts.append(_box_link("b1", 0.7, (0.04, 0.04, 0.15)))
    parts.append(_joint("jb1", "prismatic", "l2", "b1", "0.1 0 0.05", "1 0 0",
                        mimic=("j4", -0.4, 0.05)))
    parts.append("</robot>")
    return "".join(parts)


class PinMimic:
    """Pinocchio's mimic model of a URDF string and torsion's dof order."""

    def __init__(self, xml, system):
        self.model = pin.buildModelFromXML(xml, mimic=True)
        self.data = self.model.createData()
        names = system.get_movable_joint_names()
        assert self.model.nv == system.get_dof() == len(names)
        assert self.model.nq == system.get_generalized_coordinate_dim()
        self.iv = np.array([self.model.joints[self.model.getJointId(n)].idx_v for n in names])
        self.iq = np.array([self.model.joints[self.model.getJointId(n)].idx_q for n in names])

    def q(self, gc):
        q = np.zeros(self.model.nq)
        q[self.iq] = gc
        return q

    def v(self, gv):
        v = np.zeros(self.model.nv)
        v[self.iv] = gv
        return v

    def mass_matrix(self, gc):
        # a fresh Data: with mimic joints, Pinocchio 4.1's crba was seen to add onto the M of a
        # reused Data (its result then drifts call after call); it fills the upper triangle
        m = pin.crba(self.model, self.model.createData(), self.q(gc))
        m = np.triu(m) + np.triu(m, 1).T
        # cross-check with Pinocchio's RNEA: column k of M is rnea(q, 0, e_k) - rnea(q, 0, 0)
        q, z = self.q(gc), np.zeros(self.model.nv)
        by_rnea = np.column_stack([pin.rnea(self.model, self.data, q, z, e) for e in np.eye(self.model.nv)])
        by_rnea -= pin.rnea(self.model, self.data, q, z, z)[:, None]
        close(m, by_rnea, "Pinocchio crba vs rnea")
        return m[np.ix_(self.iv, self.iv)]

    def nonlinear(self, gc, gv):
        return pin.rnea(self.model, self.data, self.q(gc), self.v(gv), np.zeros(self.model.nv))[self.iv]

    def frame(self, name, gc):
        fid = self.model.getFrameId(name)
        assert fid < len(self.model.frames), name
        q = self.q(gc)
        pin.forwardKinematics(self.model, self.data, q)
        pin.updateFramePlacements(self.model, self.data)
        j = pin.computeFrameJacobian(self.model, self.data, q, fid, pin.LOCAL_WORLD_ALIGNED)
        placement = self.data.oMf[fid]
        return placement.translation, placement.rotation, j[:3, self.iv], j[3:, self.iv]


FIXTURES = {"gripper_on_arm": gripper_on_arm, "gripper_on_arm_plus": lambda: gripper_on_arm(1.0, -0.02),
            "linkage": linkage}


def build(name):
    xml = FIXTURES[name]()
    world = torsion.World()
    system = world.add_articulated_system(xml, fixed_base=True)
    return xml, world, system, PinMimic(xml, system)


def random_state(system, rng):
    return (rng.uniform(-1.0, 1.0, system.get_generalized_coordinate_dim()),
            rng.normal(scale=2.0, size=system.get_dof()))


def test_mimic_joints_own_no_dof():
    _, _, system, _ = build("gripper_on_arm")
    assert system.get_dof() == 8 and system.get_generalized_coordinate_dim() == 8
    names = system.get_movable_joint_names()
    assert names[-1] == "finger_l_joint"
    assert "finger_r_joint" not in names and "thumb_joint" not in names
    assert "finger_r_joint" in system.get_frame_names()  # still a frame
    _, _, chain, _ = build("linkage")
    assert chain.get_movable_joint_names() == ["j1", "j2", "j4", "j5"]


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_mass_matrix_and_nonlinear_terms_match_pinocchio(name):
    _, _, system, ref = build(name)
    rng = np.random.default_rng(11)
    for _ in range(5):
        gc, gv = random_state(system, rng)
        system.set_state(gc, gv)
        m = system.get_mass_matrix()
        close(m, ref.mass_matrix(gc), f"{name} M")
        assert np.array_equal(m, m.T)
        close(system.get_nonlinearities(G), ref.nonlinear(gc, gv), f"{name} h")


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_frames_and_jacobians_match_pinocchio(name):
    _, _, system, ref = build(name)
    rng = np.random.default_rng(12)
    for _ in range(3):
        gc, gv = random_state(system, rng)
        system.set_state(gc, gv)
        for f in system.get_frame_names():
            check_frame(system, f, ref.frame(f, gc), gv, name)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_forward_dynamics_inverts_rnea(name):
    _, _, system, ref = build(name)
    rng = np.random.default_rng(13)
    for _ in range(3):
        gc, gv = random_state(system, rng)
        system.set_state(gc, gv)
        acc = rng.normal(size=system.get_dof())
        tau = system.compute_inverse_dynamics(acc, G)
        close(tau, ref.mass_matrix(gc) @ acc + ref.nonlinear(gc, gv), f"{name} ID vs M a + h")
        close(system.compute_forward_dynamics(tau, G), acc, f"{name} FD(ID(a))")
        close(system.get_inverse_mass_matrix() @ system.get_mass_matrix(), np.eye(system.get_dof()),
              f"{name} M^-1 M")


def test_mimic_position_follows_master():
    _, _, system, _ = build("linkage")
    gc = np.array([0.4, -0.3, 1.1, 0.05])
    system.set_generalized_coordinate(gc)
    # j3 = 0.7 j1 + 0.2 about its own x axis: the relative rotation of l3 to l2
    r2 = system.get_frame_orientation("j2")
    r3 = system.get_frame_orientation("j3")
    rel = r2.T @ r3
    # the j3 joint frame has rpy (0.1, 0.15, 0) in l2; the joint turns about its x axis after it
    rx = lambda a: np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])  # noqa: E731
    ry = lambda a: np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])  # noqa: E731
    # the joint frame's rpy (0.1, 0.15, 0) is Rz(0) Ry(0.15) Rx(0.1) (URDF's fixed-axis rpy)
    np.testing.assert_allclose(rel, ry(0.15) @ rx(0.1) @ rx(0.7 * 0.4 + 0.2), atol=1e-12)


def test_child_tree_expresses_mimic_joints():
    """torsion.Child with mimic=(joint, multiplier, offset) gives the same model as the URDF."""
    fingers = [torsion.Child("finger_l", "prismatic", joint_name="fl", origin_xyz=(0, 0.04, 0.02),
                             axis=(0, -1, 0), limits=(-0.05, 0.05), mass=0.05,
                             inertia=(1e-5, 1e-5, 1e-5)),
               torsion.Child("finger_r", "prismatic", joint_name="fr", origin_xyz=(0, -0.04, 0.02),
                             axis=(0, -1, 0), mimic=("fl", -1.0, 0.01), mass=0.06,
                             inertia=(1e-5, 2e-5, 1e-5))]
    palm = torsion.Child("palm", "revolute", joint_name="wrist", axis=(0, 0, 1), mass=0.3,
                         inertia=(1e-3, 1e-3, 1e-3), children=fingers)
    world = torsion.World()
    system = world.add_articulated_system_from_tree(palm)
    assert system.get_movable_joint_names() == ["wrist", "fl"]
    system.set_generalized_coordinate([0.3, 0.02])
    pl = system.get_frame_position("fl") - system.get_frame_position("wrist")
    pr = system.get_frame_position("fr") - system.get_frame_position("wrist")
    r = system.get_frame_orientation("wrist")
    np.testing.assert_allclose(r.T @ pl, [0, 0.04 - 0.02, 0.02], atol=1e-12)
    np.testing.assert_allclose(r.T @ pr, [0, -0.04 - (-0.02 + 0.01), 0.02], atol=1e-12)
    with pytest.raises(ValueError, match="mimic"):
        world.add_articulated_system_from_tree(
            torsion.Child("a", "revolute", mass=1.0, inertia=(1, 1, 1), mimic=("x", 1.0)))


BAD = {
    "unknown": (("ghost", 1, 0), "prismatic", "not a joint of the URDF"),
    "itself": (("finger_r_joint", 1, 0), "prismatic", "cannot mimic itself"),
    "of a mimic": (("thumb_joint", 1, 0), "prismatic", "itself a mimic joint"),
    "of a fixed joint": (("palm_joint", 1, 0), "prismatic", "only a revolute, continuous or prismatic"),
    "fixed mimic": (("finger_l_joint", 1, 0), "fixed", "must be revolute, continuous or prismatic"),
    "nan": (("finger_l_joint", "nan", 0), "prismatic", "finite"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_mimic_raises_naming_the_joint(case):
    (target, mult, off), kind, message = BAD[case]
    xml = gripper_on_arm().replace(
        _joint("finger_r_joint", "prismatic", "palm", "finger_r", "0 -0.04 0.02", "0 -1 0",
               mimic=("finger_l_joint", -1.0, 0.013)),
        _joint("finger_r_joint", kind, "palm", "finger_r", "0 -0.04 0.02", "0 -1 0",
               mimic=(target, mult, off)))
    assert "finger_r_joint" in xml
    with pytest.raises(ValueError, match=message) as e:
        torsion.World().add_articulated_system(xml, fixed_base=True)
    if case != "nan":
        assert "finger_r_joint" in str(e.value)


def test_mimic_cycle_raises():
    xml = linkage().replace('<mimic joint="j1"', '<mimic joint="jb1"').replace(
        '<mimic joint="j4" multiplier="-0.4"', '<mimic joint="j3" multiplier="-0.4"')
    with pytest.raises(ValueError, match="cycle"):
        torsion.World().add_articulated_system(xml)


def _finger(name, mass):
    # a finger hanging from its joint: a 0.02 x 0.01 x 0.12 box below the joint origin
    return (f'<link name="{name}"><inertial><origin xyz="0 0 -0.06"/><mass value="{mass}"/>'
            f'<inertia ixx="1.2e-4" iyy="1.2e-4" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial>'
            f'<collision><origin xyz="0 0 -0.06"/><geometry><box size="0.02 0.01 0.12"/>'
            f'</geometry></collision></link>')


def hanging_gripper():
    """A fixed palm at z = 0.15 with two fingers hanging to z = 0.05; the right finger mimics
    the left one with multiplier -1 (both axes -y: the fingers close symmetrically)."""
    return ('<robot name="gripper"><link name="world"/>'
            + _box_link("palm", 0.5, (0.04, 0.2, 0.02), collide=False)
            + '<joint name="mount" type="fixed"><parent link="world"/><child link="palm"/>'
              '<origin xyz="0 0 0.15"/></joint>'
            + _finger("finger_l", 0.08) + _finger("finger_r", 0.08)
            + _joint("finger_l_joint", "prismatic", "palm", "finger_l", "0 0.08 0", "0 -1 0")
            + _joint("finger_r_joint", "prismatic", "palm", "finger_r", "0 -0.08 0", "0 -1 0",
                     mimic=("finger_l_joint", -1.0, 0.0))
            + "</robot>")


def test_gripper_grasps_and_holds_a_box_with_mirrored_fingers():
    """No ground: the box (0.3 kg) hangs between the fingers by friction alone, so the finger
    forces along y must balance (the box is at rest), and at rest the PD force on the master
    balances both fingers' contact forces, the mimic finger's entering through G^T."""
    world = torsion.World()
    world.set_time_step(1e-3)
    box = world.add_box(0.06, 0.06, 0.06, 0.3)  # 6 cm wide in y
    box.set_position([0, 0, 0.09])
    gripper = world.add_articulated_system(hanging_gripper())
    assert gripper.get_dof() == 1
    gripper.set_generalized_coordinate([0.044])  # 1 mm from the box on each side
    kp, target = 2000.0, 0.06  # the fingers meet the box at q = 0.08 - 0.005 - 0.03 = 0.045
    gripper.set_pd_gains([kp], [20.0])
    gripper.set_pd_target([target], [0.0])
    bodies = gripper.get_body_names()
    left, right = bodies.index("finger_l"), bodies.index("finger_r")
    for step in range(1000):
        world.integrate()
        if step % 100 == 99:
            pl = gripper.get_frame_position("finger_l_joint")
            pr = gripper.get_frame_position("finger_r_joint")
            assert abs(pl[1] + pr[1]) <= 1e-9 and abs(pl[0] - pr[0]) <= 1e-12
            assert abs(pl[2] - pr[2]) <= 1e-12
    q = gripper.get_generalized_coordinate()[0]
    assert 0.045 < q < 0.046  # stopped by the box (penetration below a millimetre)
    assert abs(gripper.get_generalized_velocity()[0]) < 1e-4
    # held: it slid a little while the fingers closed, then stopped, centred
    assert 0.07 < box.get_position()[2] < 0.09
    assert abs(box.get_position()[1]) < 1e-3
    assert np.linalg.norm(box.get_linear_velocity()) < 1e-3
    c = gripper.get_contacts()
    fl = c["force"][c["local_body_index"] == left].sum(axis=0)
    fr = c["force"][c["local_body_index"] == right].sum(axis=0)
    assert fl[1] > 5.0 and fr[1] < -5.0  # each finger is pushed back by the box
    assert fl[1] == pytest.approx(-fr[1], rel=1e-3)
    assert fl[2] + fr[2] == pytest.approx(-0.3 * 9.81, rel=1e-3)  # the box hangs on the fingers
    # q_l moves finger_l along -y and finger_r along +y: G^T f = fl_y - fr_y on the master
    tau = gripper.get_generalized_force()[0]
    assert tau == pytest.approx(kp * (target - q), rel=0.02)
    assert tau == pytest.approx(fl[1] - fr[1], rel=1e-3)


def test_checkpoint_of_a_mimic_robot_replays_bitwise():
    world = torsion.World()
    world.add_ground()
    box = world.add_box(0.06, 0.06, 0.1, 0.3)
    box.set_position([0, 0, 0.05])
    gripper = world.add_articulated_system(hanging_gripper())
    gripper.set_pd_gains([200.0], [5.0])
    gripper.set_pd_target([0.06], [0.0])
    world.integrate(200)
    cp = world.capture_checkpoint()
    world.integrate(200)
    ref = (gripper.get_generalized_coordinate(), gripper.get_generalized_velocity(), box.get_position())
    world.restore_checkpoint(cp)
    world.integrate(200)
    got = (gripper.get_generalized_coordinate(), gripper.get_generalized_velocity(), box.get_position())
    for a, b in zip(got, ref):
        assert np.array_equal(a, b)


def test_floating_base_with_mimic_dynamics_invert_and_match_jacobians():
    """The linkage on a floating base (world-frame base gv): ID and FD invert each other, and
    M and h agree with the frame Jacobians: v^T M v = sum over bodies of m |v_c|^2 + w^T I w
    is checked through the Jacobians of each body's frame (brute force)."""
    world = torsion.World()
    system = world.add_articulated_system(linkage(), fixed_base=False)
    assert system.get_dof() == 6 + 4
    rng = np.random.default_rng(21)
    gc = np.zeros(system.get_generalized_coordinate_dim())
    gc[:3] = rng.normal(size=3)
    quat = rng.normal(size=4)
    gc[3:7] = quat / np.linalg.norm(quat)
    gc[7:] = rng.uniform(-1, 1, 4)
    gv = rng.normal(size=10)
    system.set_state(gc, gv)
    acc = rng.normal(size=10)
    tau = system.compute_inverse_dynamics(acc, G)
    close(system.compute_forward_dynamics(tau, G), acc, "floating FD(ID(a))")
    # kinetic energy from M against the bodies' COM velocities and angular velocities, each
    # from the Jacobians (which carry the mimic columns): 2 T = v^T M v
    masses = system.get_masses()
    inertias = system.get_body_inertias_b()
    coms = system.get_body_coms_w()
    frames = system.get_frame_names()
    two_t = 0.0
    for b, joint in enumerate(system.get_joints()):
        frame = joint["joint"] if joint["joint"] in frames else "fix"  # the root's frame
        r = system.get_frame_orientation(frame)
        jp = system.get_dense_jacobian_at(b, coms[b])
        jr = system.get_dense_frame_rotational_jacobian(frame)
        w = jr @ gv
        two_t += masses[b] * np.sum((jp @ gv) ** 2) + w @ (r @ inertias[b] @ r.T) @ w
    close(gv @ system.get_mass_matrix() @ gv, two_t, "floating 2T")
