"""Analytic group Jacobians against central finite differences of object poses (1e-7)."""

from __future__ import annotations

import numpy as np
import pytest

import torsion.ik as ik
from torsion.ik import _rotations as rot

ALL_CONSTRAINTS = list(range(1, 32))


def _random_pose(rng, scale=0.3):
    q = rng.normal(size=4)
    return rng.uniform(-scale, scale, size=3), q / np.linalg.norm(q)


def mixed_scene(seed=0, constraints_base="base"):
    """base -> revolute -> prismatic -> screw -> spherical -> dependent revolute -> revolute -> tip,
    plus a joint outside the chain that depends on the first joint and carries `aux`."""
    rng = np.random.default_rng(seed)
    env = ik.Environment()
    base = env.create_dummy("base")
    base.set_transformation(*_random_pose(rng, 0.5))
    parent = base
    kinds = [ik.JointType.REVOLUTE, ik.JointType.PRISMATIC, ik.JointType.REVOLUTE,
             ik.JointType.SPHERICAL, ik.JointType.REVOLUTE, ik.JointType.REVOLUTE]
    joints = []
    for i, kind in enumerate(kinds):
        j = env.create_joint(f"j{i}", kind)
        j.set_parent(parent, keep_in_place=False)
        j.set_transformation(*_random_pose(rng), relative_to=ik.PARENT)
        if kind == ik.JointType.PRISMATIC:
            j.set_interval(False, -2.0, 4.0)
            j.position = 0.13
        elif kind == ik.JointType.SPHERICAL:
            q = rng.normal(size=4)
            j.spherical_quaternion = q / np.linalg.norm(q)
        else:
            j.position = rng.uniform(-2, 2)
        joints.append(j)
        parent = j
    joints[2].screw_pitch = 0.05  # a screw
    joints[4].set_interval(False, -10.0, 20.0)
    joints[4].set_dependency(joints[0], offset=0.1, mult=0.7)  # folded into joint 0's column
    tip = env.create_dummy("tip")
    tip.set_parent(parent, keep_in_place=False)
    tip.set_transformation(*_random_pose(rng), relative_to=ik.PARENT)
    target = env.create_dummy("target")
    target.set_transformation(*_random_pose(rng, 1.0))
    tip.linked_dummy = target
    # a joint outside the chain, dependent on joint 1 (prismatic), moving a constraint base
    side = env.create_joint("side", ik.JointType.PRISMATIC)
    side.set_parent(joints[0], keep_in_place=False)
    side.set_transformation(*_random_pose(rng), relative_to=ik.PARENT)
    side.set_interval(False, -10.0, 20.0)
    side.set_dependency(joints[1], offset=0.0, mult=-1.5)
    aux = env.create_dummy("aux")
    aux.set_parent(side, keep_in_place=False)
    aux.set_transformation(*_random_pose(rng), relative_to=ik.PARENT)
    group = env.create_ik_group("g")
    el = group.add_element(tip)
    cb = {"base": None, "world": None, "in_chain": joints[1], "aux": aux}[constraints_base]
    el.set_base(None if constraints_base == "world" else base, cb)
    return env, group, el, joints


@pytest.mark.parametrize("constraints", ALL_CONSTRAINTS)
def test_every_constraint_combination_matches_central_differences(constraints, ikh):
    env, group, el, joints = mixed_scene(seed=constraints)
    el.constraints = constraints
    J = group.jacobian()
    Jfd = ikh.fd_jacobian(env, group)
    assert J.shape == Jfd.shape
    np.testing.assert_allclose(J, Jfd, atol=1e-7, rtol=0)


@pytest.mark.parametrize("cbase", ["world", "base", "in_chain", "aux"])
def test_constraint_bases_including_moving_ones(cbase, ikh):
    env, group, el, _ = mixed_scene(seed=7, constraints_base=cbase)
    el.constraints = ik.Constraint.POSE
    np.testing.assert_allclose(group.jacobian(), ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)


def test_columns_fold_dependents_and_expand_spherical(ikh):
    env, group, el, joints = mixed_scene()
    cols = group.columns
    # joint 4 depends on joint 0: no column of its own; the spherical joint gives three
    assert [c.name for c in cols] == ["j0", "j1", "j2", "j3", "j3", "j3", "j5"]
    # a passive joint gives no column; a dependent on a passive master gives none either
    joints[0].mode = ik.JointMode.PASSIVE
    assert [c.name for c in group.columns] == ["j1", "j2", "j3", "j3", "j3", "j5"]
    el.constraints = ik.Constraint.POSE
    np.testing.assert_allclose(group.jacobian(), ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)


def test_recursive_dependency_chain_rule(ikh):
    env, group, el, joints = mixed_scene()
    # j5 -> j4 -> j0: q5 = 0.5 q4 - 0.2 = 0.5 (0.7 q0 + 0.1) - 0.2
    joints[5].set_interval(False, -10.0, 20.0)
    joints[5].set_dependency(joints[4], offset=-0.2, mult=0.5)
    joints[0].position = 0.3
    assert joints[5].position == pytest.approx(0.5 * (0.7 * 0.3 + 0.1) - 0.2, abs=1e-15)
    el.constraints = ik.Constraint.POSE
    assert [c.name for c in group.columns] == ["j0", "j1", "j2", "j3", "j3", "j3"]
    np.testing.assert_allclose(group.jacobian(), ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)


def test_several_elements_stack_rows_and_share_columns(ikh):
    env, group, el, joints = mixed_scene()
    el.constraints = ik.Constraint.POSE
    tip2 = env.create_dummy("tip2")
    tip2.set_parent(joints[2], keep_in_place=False)
    tip2.set_transformation([0.1, 0.2, 0.0], [1, 0, 0, 0], relative_to=ik.PARENT)
    tgt2 = env.create_dummy("target2")
    tip2.linked_dummy = tgt2
    el2 = group.add_element(tip2)
    el2.set_base(env.object("base"))
    el2.constraints = ik.Constraint.X | ik.Constraint.Z | ik.Constraint.GAMMA
    J = group.jacobian()
    assert J.shape == (6 + 3, 7)
    np.testing.assert_allclose(J, ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)


def test_compute_jacobian_weights_and_manipulability():
    env, group, el, joints = mixed_scene()
    el.constraints = ik.Constraint.POSE
    joints[1].ik_weight = 2.5
    assert group.compute_jacobian(0)
    J0 = group.get_jacobian()
    assert group.compute_jacobian(1)
    J1 = group.get_jacobian()
    np.testing.assert_allclose(J1[:, 1], 2.5 * J0[:, 1], rtol=1e-15)
    np.testing.assert_allclose(np.delete(J1, 1, axis=1), np.delete(J0, 1, axis=1), rtol=0)
    assert group.get_manipulability() == pytest.approx(np.sqrt(np.linalg.det(J1 @ J1.T)))


def test_planar_two_link_manipulability_closed_form():
    # x, y rows of a planar 2R arm: det J = l1 l2 sin(q2)
    l1, l2 = 0.7, 0.4
    env = ik.Environment.from_chain(
        [ik.ChainJoint(position=(0, 0, 0)), ik.ChainJoint(position=(l1, 0, 0))],
        tip_position=(l2, 0, 0), constraints=ik.Constraint.X | ik.Constraint.Y)
    for q2 in (0.3, -1.1, 2.0):
        env.forward_kinematics([0.4, q2])
        env.chain_group.compute_jacobian()
        assert env.chain_group.get_manipulability() == pytest.approx(l1 * l2 * abs(np.sin(q2)), rel=1e-12)


def test_jacobian_against_pinocchio_frame_jacobian(iiwa_env, ikh):
    import pinocchio as pin
    model = pin.buildModelFromXML(ikh.iiwa_urdf())
    data = model.createData()
    fid = model.getFrameId("link8")
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = rng.uniform(-2, 2, size=7)
        p, quat = iiwa_env.forward_kinematics(q)
        pin.forwardKinematics(model, data, q)
        pin.updateFramePlacements(model, data)
        np.testing.assert_allclose(p, data.oMf[fid].translation, atol=1e-12)
        np.testing.assert_allclose(rot.quat_to_matrix(quat), data.oMf[fid].rotation, atol=1e-12)
        J = iiwa_env.chain_group.jacobian()
        Jw = pin.computeFrameJacobian(model, data, q, fid, pin.LOCAL_WORLD_ALIGNED)
        Jl = pin.computeFrameJacobian(model, data, q, fid, pin.LOCAL)
        # rows x, y, z in the base (= world) frame; alpha, beta, gamma in the tip frame
        np.testing.assert_allclose(J[:3], Jw[:3], atol=1e-12)
        np.testing.assert_allclose(J[3:], Jl[3:], atol=1e-12)


def test_jacobian_at_q_sets_the_joints_first(iiwa_env):
    g = iiwa_env.chain_group
    q = np.linspace(-1.0, 1.2, 7)
    J_at = g.jacobian(q)
    np.testing.assert_array_equal([j.position for j in iiwa_env.chain_joints], q)
    iiwa_env.forward_kinematics(np.zeros(7))
    iiwa_env.forward_kinematics(q)
    np.testing.assert_array_equal(g.jacobian(), J_at)
    with pytest.raises(ValueError, match=r"shape \(7,\)"):
        g.jacobian(np.zeros(6))
    with pytest.raises(ValueError, match="finite"):
        g.jacobian(np.full(7, np.nan))


def test_resolution_is_bitwise_deterministic():
    results = []
    for _ in range(2):
        env, group, el, joints = mixed_scene(seed=3)
        el.constraints = ik.Constraint.POSE
        group.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.1, 20)
        group.handle()
        results.append(np.array([j.position for j in joints] +
                                list(joints[3].spherical_quaternion)).tobytes())
    assert results[0] == results[1]


def test_jacobian_into_out_array(iiwa_env):
    g = iiwa_env.chain_group
    q = np.linspace(-0.8, 0.9, 7)
    fresh = g.jacobian(q)
    out = np.full((6, 7), np.nan)
    assert g.jacobian(q, out=out) is out
    np.testing.assert_array_equal(out, fresh)
    # q as a list or an int array is converted; out must be exactly float64 C (6, 7)
    np.testing.assert_array_equal(g.jacobian(list(q)), fresh)
    np.testing.assert_array_equal(g.jacobian(np.zeros(7, dtype=int)), g.jacobian(np.zeros(7)))
    for bad in (np.zeros((7, 6)), np.zeros((6, 7), dtype=np.float32), np.zeros((7, 6)).T,
                np.zeros(42), [[0.0] * 7] * 6):
        with pytest.raises(ValueError, match="out must be"):
            g.jacobian(q, out=bad)
    ro = np.zeros((6, 7))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        g.jacobian(q, out=ro)


def test_jacobian_follows_pose_and_structure_changes(ikh):
    # the compiled kinematics refresh when a pose or the hierarchy changes between calls
    env, group, el, joints = mixed_scene(seed=4)
    el.constraints = ik.Constraint.POSE
    group.jacobian()
    env.object("base").set_transformation([0.3, -0.2, 0.1], [0.9, 0.1, -0.3, 0.2])
    np.testing.assert_allclose(group.jacobian(), ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)
    joints[2].set_transformation([0.05, 0.1, 0.2], [0.6, 0.0, 0.8, 0.0], relative_to=ik.PARENT)
    np.testing.assert_allclose(group.jacobian(), ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)
    env.object("tip").set_parent(joints[4], keep_in_place=True)  # a shorter chain
    J = group.jacobian()
    assert J.shape == (6, 6)
    np.testing.assert_allclose(J, ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)
    joints[2].screw_pitch = 0.2
    np.testing.assert_allclose(group.jacobian(), ikh.fd_jacobian(env, group), atol=1e-7, rtol=0)


def test_jacobian_call_forms_and_argument_errors(iiwa_env):
    g = iiwa_env.chain_group
    q = np.linspace(-0.5, 0.5, 7)
    ref = g.jacobian(q)
    out = np.empty((6, 7))
    for call in (lambda: g.jacobian(q, out), lambda: g.jacobian(q=q, out=out),
                 lambda: g.jacobian(out=out, q=q), lambda: type(g).jacobian(g, q, out=out)):
        out[:] = np.nan
        assert call() is out
        np.testing.assert_array_equal(out, ref)
    with pytest.raises(TypeError, match="at most 2"):
        g.jacobian(q, out, 3)
    with pytest.raises(TypeError, match="'foo'"):
        g.jacobian(foo=1)
    with pytest.raises(TypeError, match="'q'"):
        g.jacobian(q, q=q)
    assert "constraint-base frame" in ik.Group.jacobian.__doc__


def _master_slave_arm(mult, slave_interval=(-0.2, 0.4), grand=None):
    env = ik.Environment()
    base = env.create_dummy("base")
    m = env.create_joint("master", ik.JointType.REVOLUTE)
    m.set_parent(base, False)
    s = env.create_joint("slave", ik.JointType.REVOLUTE)
    s.set_parent(m, False)
    s.set_transformation([1, 0, 0], [1, 0, 0, 0], relative_to="parent")
    s.set_interval(False, *slave_interval)
    s.set_dependency(m, 0.0, mult)
    last = s
    if grand is not None:  # a dependent of the slave, unlimited
        gj = env.create_joint("grand", ik.JointType.REVOLUTE)
        gj.set_parent(s, False)
        gj.set_transformation([1, 0, 0], [1, 0, 0, 0], relative_to="parent")
        gj.set_dependency(s, 0.0, grand)
        last = gj
    tip = env.create_dummy("tip")
    tip.set_parent(last, False)
    tip.set_transformation([1, 0, 0], [1, 0, 0, 0], relative_to="parent")
    tip.linked_dummy = env.create_dummy("target")
    g = env.create_ik_group("g")
    e = g.add_element(tip)
    e.set_base(base)
    e.constraints = ik.Constraint.X | ik.Constraint.Y | ik.Constraint.GAMMA
    return env, g, m, s, tip, base


@pytest.mark.parametrize("mult, grand", [(1.0, None), (-1.5, None), (1.0, 2.0), (-0.5, -3.0)])
def test_dependent_clamped_at_its_limit_drops_out_of_the_column(mult, grand):
    # QA: J kept mult x the slave's column while the slave sat clamped at its limit and did not
    # follow the master: J differed from the tip motion by up to 1.4. Reference: differences of
    # the actual tip motion (position and the rotation angle about z, relative to the base)
    env, g, m, s, tip, base = _master_slave_arm(mult, grand=grand)

    def motion(q):
        m.position = q
        p, quat = tip.get_transformation(relative_to=base)
        return np.array([p[0], p[1], 2 * np.arctan2(quat[3], quat[0])])

    for q in (0.05, 0.5, -0.5, 1.0, -2.0):
        m.position = q
        J = g.jacobian()[:, 0]
        h = 1e-6
        fd = (motion(q + h) - motion(q - h)) / (2 * h)
        np.testing.assert_allclose(J, fd, atol=1e-6, err_msg=f"q={q}")
    # exactly at the limit: the seed's forward difference (+dq) decides
    q_at = 0.2 / mult
    m.position = q_at
    J = g.jacobian()[:, 0]
    h = 1e-7
    fd = (motion(q_at + h) - motion(q_at)) / h
    np.testing.assert_allclose(J, fd, atol=1e-5)
