"""Articulated systems built in code (torsion.Child, RaiSim's Child overload) and external forces
given in a body's frame.

The tree is checked against a Pinocchio model built directly from the same Child values with
Pinocchio's own API (no URDF in between); the body-frame forces against Newton-Euler by hand."""

from __future__ import annotations

import math

import numpy as np
import pinocchio as pin  # PyPI `pin`, part of the test extra
import pytest

import torsion
from torsion import Child, CollisionShape

RTOL = 1e-9


def close(a, b, what, rtol=RTOL):
    a, b = np.asarray(a), np.asarray(b)
    scale = max(1.0, float(np.max(np.abs(b))))
    err = float(np.max(np.abs(a - b)))
    assert err <= rtol * scale, f"{what}: max abs error {err:.3e}"


def inertia_matrix(i):
    i = np.asarray(i, float)
    if i.shape == (3, 3):
        return i
    if i.shape == (3,):
        return np.diag(i)
    ixx, iyy, izz, ixy, ixz, iyz = i
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def arm_tree():
    tip = Child("tip", origin_xyz=(0.03, 0, -0.1), origin_rpy=(0, 0.5, 0), mass=0.3, com=(0.01, 0, 0),
                inertia=(1e-3, 2e-3, 1.5e-3))
    l2 = Child("l2", joint_type="prismatic", origin_xyz=(0, 0.05, -0.2), axis=(0, 0, 1), limits=(-0.3, 0.3),
               mass=0.7, com=(0, 0.02, -0.05), inertia=(4e-3, 3e-3, 2e-3), children=[tip],
               collisions=[CollisionShape("box", size=(0.05, 0.05, 0.1))])
    l3 = Child("l3", joint_type="continuous", joint_name="elbow", origin_xyz=(0.1, 0, 0), axis=(0, 1, 0),
               mass=0.5, com=(0.1, 0, 0), inertia=np.diag([1e-3, 5e-3, 5e-3]), damping=0.1,
               collisions=[CollisionShape("capsule", radius=0.02, length=0.2, rpy=(0, math.pi / 2, 0))])
    l1 = Child("l1", joint_type="revolute", origin_xyz=(0, 0, 0.1), origin_rpy=(0.3, 0, 0.2), axis=(1, 1, 0),
               mass=1.2, com=(0.05, 0, -0.1), inertia=(0.02, 0.03, 0.01, 0.001, -0.002, 0.0015),
               children=[l2, l3], effort=20.0)
    return Child("base", joint_type="fixed", origin_xyz=(0.1, -0.2, 1.0), origin_rpy=(0.1, 0.2, 0.3),
                 mass=2.0, inertia=(0.1, 0.1, 0.1), children=[l1])


def pinocchio_from_tree(root):
    """A Pinocchio model of the tree, built with Pinocchio's API from the Child fields."""
    model = pin.Model()

    def se3(xyz, rpy):
        return pin.SE3(pin.rpy.rpyToMatrix(*map(float, rpy)), np.asarray(xyz, float))

    def visit(c, parent_jid, parent_pl):
        pl = parent_pl * se3(c.origin_xyz, c.origin_rpy)
        inertia = pin.Inertia(float(c.mass), np.asarray(c.com, float), inertia_matrix(c.inertia))
        name = c.joint_name or c.name + "_joint"
        if c.joint_type == "fixed":
            jid, body_pl = parent_jid, pl
        else:
            axis = np.asarray(c.axis, float) / np.linalg.norm(c.axis)
            jm = (pin.JointModelPrismaticUnaligned(axis) if c.joint_type == "prismatic"
                  else pin.JointModelRevoluteUnaligned(axis))
            jid, body_pl = model.addJoint(parent_jid, jm, pl, name), pin.SE3.Identity()
        model.appendBodyToJoint(jid, inertia, body_pl)
        model.addFrame(pin.Frame(name, jid, 0, body_pl, pin.FrameType.OP_FRAME))
        for k in c.children:
            visit(k, jid, body_pl)

    visit(root, 0, pin.SE3.Identity())
    return model


def test_tree_matches_pinocchio():
    root = arm_tree()
    w = torsion.World()
    s = w.add_articulated_system_from_tree(root)
    assert s.get_movable_joint_names() == ["l1_joint", "l2_joint", "elbow"]
    assert s.get_dof() == 3 and s.get_generalized_coordinate_dim() == 3
    model = pinocchio_from_tree(root)
    data = model.createData()
    assert model.nq == 3
    assert s.get_total_mass() == pytest.approx(2.0 + 1.2 + 0.7 + 0.3 + 0.5, rel=1e-12)  # every link
    np.testing.assert_array_equal(s.get_joint_limits()[1], [-0.3, 0.3])
    assert s.get_effort_limits()[0] == 20.0
    assert s.get_joint_damping()[2] == 0.1
    assert len(s.get_collision_bodies()) == 2
    rng = np.random.default_rng(7)
    for _ in range(5):
        q = rng.uniform(-1, 1, 3)
        v = rng.normal(size=3)
        s.set_state(q, v)
        m = pin.crba(model, data, q)
        m = np.triu(m) + np.triu(m, 1).T
        close(s.get_mass_matrix(), m, "M")
        close(s.get_nonlinearities([0, 0, -9.81]), pin.rnea(model, data, q, v, np.zeros(3)), "h")
        pin.framesForwardKinematics(model, data, q)
        for name in ("l1_joint", "l2_joint", "elbow", "tip_joint"):
            f = data.oMf[model.getFrameId(name)]
            close(s.get_frame_position(name), f.translation, f"{name} position")
            close(s.get_frame_orientation(name), f.rotation, f"{name} orientation")


def test_floating_tree_has_a_free_base_and_moves():
    leg = Child("leg", joint_type="revolute", axis=(0, 1, 0), origin_xyz=(0, 0, -0.1), mass=0.5,
                com=(0, 0, -0.1), inertia=(1e-3, 1e-3, 1e-4),
                collisions=[CollisionShape("sphere", radius=0.03, xyz=(0, 0, -0.2))])
    trunk = Child("trunk", joint_type="floating", mass=3.0, inertia=(0.02, 0.03, 0.03),
                  collisions=[CollisionShape("box", size=(0.3, 0.2, 0.1))], children=[leg])
    w = torsion.World()
    s = w.add_articulated_system_from_tree(trunk)
    assert s.get_generalized_coordinate_dim() == 8 and s.get_dof() == 7
    gc = s.get_generalized_coordinate()
    gc[2] = 2.0
    s.set_generalized_coordinate(gc)
    w.integrate(100)  # free fall from rest: z = z0 + g dt^2 n (n + 1) / 2 for the whole body
    n, dt = 100, w.get_time_step()
    assert s.get_generalized_coordinate()[2] == pytest.approx(2.0 - 9.81 * dt * dt * n * (n + 1) / 2, rel=1e-9)


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(joint_type="hinge"), "joint_type"),
        (dict(mass=float("nan")), "mass"),
        (dict(mass=-1.0), "mass"),
        (dict(axis=(0, 0, 0)), "axis"),
        (dict(limits=(1.0, -1.0)), "limits"),
        (dict(effort=0.0), "effort"),
        (dict(inertia=(1, 2)), "inertia"),
        (dict(com=(0, 0)), "com"),
        (dict(collisions=[CollisionShape("cone", radius=1.0)]), "kind"),
        (dict(collisions=[CollisionShape("box", size=(1, -1, 1))]), "size"),
        (dict(collisions=[CollisionShape("sphere")]), "radius"),
        (dict(joint_type="floating"), "only the root"),
        # NumPy's cast kept a complex value's real part and read text as numbers
        (dict(com=np.array([0.1 + 1j, 0.0, 0.0])), "com must hold real numbers"),
        (dict(inertia=np.array([1.0, 1.0, 1j])), "inertia must hold real numbers"),
        (dict(axis=["0", "0", "1"]), "axis must hold real numbers"),
        (dict(com=np.array([0.0, None, 0.0], dtype=object)), "com must hold real numbers"),
    ],
)
def test_tree_bad_input(bad, match):
    child = Child("c", **{"joint_type": "revolute", **bad})
    root = Child("root", joint_type="floating", mass=1.0, inertia=(1, 1, 1), children=[child])
    with pytest.raises(ValueError, match=match):
        torsion.World().add_articulated_system_from_tree(root)


def test_tree_bad_structure():
    w = torsion.World()
    twin = Child("a", joint_type="revolute")
    with pytest.raises(ValueError, match="used twice"):
        w.add_articulated_system_from_tree(Child("r", joint_type="floating", children=[twin, Child("a")]))
    with pytest.raises(ValueError, match="world"):
        w.add_articulated_system_from_tree(Child("world"))
    with pytest.raises(ValueError, match="torsion.Child"):
        w.add_articulated_system_from_tree("<robot/>")
    loop = Child("loop", joint_type="revolute")
    loop.children.append(loop)
    with pytest.raises(ValueError, match="cycle"):
        w.add_articulated_system_from_tree(Child("r", children=[loop]))


def quat_matrix(q):
    w_, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w_ * z), 2 * (x * z + w_ * y)],
        [2 * (x * y + w_ * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w_ * x)],
        [2 * (x * z - w_ * y), 2 * (y * z + w_ * x), 1 - 2 * (x * x + y * y)],
    ])


MASS, COM = 2.0, np.array([0.1, -0.05, 0.02])
INERTIA = (0.02, 0.05, 0.04, 0.003, -0.001, 0.002)


def free_box():
    w = torsion.World()
    w.set_gravity([0, 0, 0])
    s = w.add_articulated_system_from_tree(Child("box", joint_type="floating", mass=MASS, com=COM, inertia=INERTIA))
    q = np.array([0.8, -0.3, 0.4, 0.33])
    q /= np.linalg.norm(q)
    s.set_generalized_coordinate(np.r_[1.0, 2.0, 3.0, q])
    return w, s, quat_matrix(q)


def newton_euler(rot, force_w, moment_about_com_w, dt):
    """gv after one step from rest: (velocity of the body origin, angular velocity), world."""
    c_w = rot @ COM
    i_w = rot @ inertia_matrix(INERTIA) @ rot.T
    dv_com = dt * force_w / MASS
    dw = dt * np.linalg.solve(i_w, moment_about_com_w)
    return np.r_[dv_com - np.cross(dw, c_w), dw]


def test_force_in_body_frame_at_body_point():
    w, s, rot = free_box()
    f_b, p_b = np.array([3.0, -1.0, 2.0]), np.array([0.2, 0.1, -0.1])
    s.set_external_force(0, f_b, p_b, force_frame="body", point_frame="body")
    w.integrate()
    f_w = rot @ f_b
    expected = newton_euler(rot, f_w, np.cross(rot @ (p_b - COM), f_w), w.get_time_step())
    close(s.get_generalized_velocity(), expected, "body-frame force", rtol=1e-12)


def test_force_frames_mix_and_default_point():
    dt = 1e-3
    # world force at a body point
    w, s, rot = free_box()
    f_w, p_b = np.array([0.5, 2.0, -1.0]), np.array([-0.1, 0.3, 0.05])
    s.set_external_force("box", f_w, p_b, point_frame="body")
    w.integrate()
    close(s.get_generalized_velocity(), newton_euler(rot, f_w, np.cross(rot @ (p_b - COM), f_w), dt), "world force")
    # body force at a world point
    w, s, rot = free_box()
    f_b = np.array([1.0, 0.0, -2.0])
    p_w = np.array([1.0, 2.0, 3.0]) + rot @ np.array([0.1, 0.1, 0.1])
    s.set_external_force(0, f_b, p_w, force_frame="body")
    w.integrate()
    f_w = rot @ f_b
    arm = p_w - (np.array([1.0, 2.0, 3.0]) + rot @ COM)
    close(s.get_generalized_velocity(), newton_euler(rot, f_w, np.cross(arm, f_w), dt), "world point")
    # body force at the default point (the COM): no rotation
    w, s, rot = free_box()
    s.set_external_force(0, f_b, force_frame="body")
    w.integrate()
    close(s.get_generalized_velocity(), newton_euler(rot, rot @ f_b, np.zeros(3), dt), "COM")


def test_torque_in_body_frame():
    w, s, rot = free_box()
    t_b = np.array([0.5, -0.2, 0.3])
    s.set_external_torque(0, t_b, frame="body")
    w.integrate()
    close(s.get_generalized_velocity(), newton_euler(rot, np.zeros(3), rot @ t_b, w.get_time_step()), "torque")


def test_force_frame_bad_input():
    _, s, _ = free_box()
    with pytest.raises(ValueError, match="force_frame"):
        s.set_external_force(0, [1, 0, 0], force_frame="parent")
    with pytest.raises(ValueError, match="point_frame"):
        s.set_external_force(0, [1, 0, 0], [0, 0, 0], point_frame="")
    with pytest.raises(ValueError, match="frame"):
        s.set_external_torque(0, [1, 0, 0], frame="BODY")
    with pytest.raises(ValueError, match="force"):
        s.set_external_force(0, [1, 0, float("nan")], force_frame="body")


def test_massless_link_keeps_its_inertia():
    # a rotor with its mass lumped into the arm: mass 0, inertia 0.2 about its axis. The tree
    # dropped the inertia (<inertial> was written only for mass > 0), unlike the same URDF text.
    # Analytic M about the two z axes: arm 0.01 + 1 * 0.5**2 = 0.26, rotor 0.2 on both.
    def arm(joint_type, inertia=(0.2, 0.2, 0.2)):
        return Child("arm", joint_type="revolute", axis=(0, 0, 1), mass=1.0, com=(0.5, 0, 0),
                     inertia=(0.01, 0.01, 0.01),
                     children=[Child("rotor", joint_type=joint_type, axis=(0, 0, 1),
                                     origin_xyz=(0.5, 0, 0), mass=0.0, inertia=inertia)])

    w = torsion.World()
    close(w.add_articulated_system_from_tree(arm("continuous")).get_mass_matrix(),
          [[0.46, 0.2], [0.2, 0.2]], "M with a massless rotor")
    close(w.add_articulated_system_from_tree(arm("fixed")).get_mass_matrix(), [[0.46]],
          "M with a massless disk welded on")
    # checked like any inertia: products too large for the moments are refused
    with pytest.raises(ValueError, match="inertia of link 'rotor' is not positive semi-definite"):
        w.add_articulated_system_from_tree(arm("continuous", (0.2, 0.2, 0.2, 0.3, 0, 0)))
