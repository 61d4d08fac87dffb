"""Objects, the hierarchy, transformations, joints settings and the errors bad input raises."""

from __future__ import annotations

import numpy as np
import pytest

import torsion.ik as ik
from torsion.ik import _rotations as rot


def rand_pose(rng):
    q = rng.normal(size=4)
    return rng.uniform(-1, 1, 3), q / np.linalg.norm(q)


def mat(p, q):
    m = np.eye(4)
    m[:3, :3] = rot.quat_to_matrix(q)
    m[:3, 3] = p
    return m


def test_transformations_compose_through_the_hierarchy_with_joint_motion():
    rng = np.random.default_rng(0)
    env = ik.Environment()
    a = env.create_dummy("a")
    j = env.create_joint("j", ik.JointType.REVOLUTE)
    s = env.create_joint("s", ik.JointType.PRISMATIC)
    b = env.create_dummy("b")
    j.set_parent(a, False)
    s.set_parent(j, False)
    b.set_parent(s, False)
    for o in (a, j, s, b):
        o.set_transformation(*rand_pose(rng), relative_to=ik.PARENT)
    j.screw_pitch = 0.1
    j.position = 0.7
    s.position = 0.3
    Ma, Mj, Ms, Mb = (o.get_matrix(ik.PARENT) for o in (a, j, s, b))
    Rz = mat([0, 0, 0.1 * 0.7], [np.cos(0.35), 0, 0, np.sin(0.35)])  # rotation + screw lead
    Tz = mat([0, 0, 0.3], [1, 0, 0, 0])
    np.testing.assert_allclose(j.get_joint_matrix(), Rz, atol=1e-15)
    world_b = Ma @ Mj @ Rz @ Ms @ Tz @ Mb
    np.testing.assert_allclose(b.get_matrix(), world_b, atol=1e-14)
    # a joint's own transformation excludes its motion
    np.testing.assert_allclose(j.get_matrix(), Ma @ Mj, atol=1e-14)
    # relative to another object: relative to its full frame (with its motion)
    np.testing.assert_allclose(b.get_matrix(relative_to=j), Ms @ Tz @ Mb, atol=1e-13)
    # set relative to another object, read back
    p, q = rand_pose(rng)
    b.set_transformation(p, q, relative_to=a)
    pb, qb = b.get_transformation(relative_to=a)
    np.testing.assert_allclose(pb, p, atol=1e-13)
    assert rot.quat_angle(qb, q) < 1e-7
    m = mat(*rand_pose(rng))
    b.set_matrix(m)
    np.testing.assert_allclose(b.get_matrix(), m, atol=1e-13)


def test_set_parent_keep_in_place_or_keep_local():
    rng = np.random.default_rng(1)
    env = ik.Environment()
    a, b, c = env.create_dummy("a"), env.create_dummy("b"), env.create_dummy("c")
    for o in (a, b, c):
        o.set_transformation(*rand_pose(rng))
    world_c = c.get_matrix()
    c.set_parent(a, keep_in_place=True)
    np.testing.assert_allclose(c.get_matrix(), world_c, atol=1e-13)
    assert c.parent == a
    local = c.get_matrix(ik.PARENT)
    c.set_parent(b, keep_in_place=False)
    np.testing.assert_allclose(c.get_matrix(ik.PARENT), local, atol=1e-15)
    np.testing.assert_allclose(c.get_matrix(), b.get_matrix() @ local, atol=1e-13)
    c.set_parent(None)
    assert c.parent is None


def test_hierarchy_cycles_are_refused():
    env = ik.Environment()
    a, b, c = env.create_dummy("a"), env.create_dummy("b"), env.create_dummy("c")
    b.set_parent(a)
    c.set_parent(b)
    with pytest.raises(ValueError, match="cycle"):
        a.set_parent(c)
    with pytest.raises(ValueError, match="cycle"):
        a.set_parent(a)


def test_dependency_loops_and_bad_dependencies_are_refused():
    env = ik.Environment()
    j1, j2, j3 = (env.create_joint(f"j{i}") for i in range(3))
    j2.set_dependency(j1)
    j3.set_dependency(j2)
    with pytest.raises(ValueError, match="loop"):
        j1.set_dependency(j3)
    with pytest.raises(ValueError, match="loop"):
        j1.set_dependency(j1)
    s = env.create_joint("s", ik.JointType.SPHERICAL)
    with pytest.raises(ValueError, match="spherical"):
        s.set_dependency(j1)
    master, off, mult = j3.get_dependency()
    assert master == j2 and (off, mult) == (0.0, 1.0)
    j3.set_dependency(None)
    assert j3.get_dependency()[0] is None


def test_joint_positions_clamp_and_wrap():
    env = ik.Environment()
    r = env.create_joint("r")
    assert r.get_interval() == (True, -np.pi, 2 * np.pi)
    r.position = 3 * np.pi / 2
    assert r.position == pytest.approx(-np.pi / 2)
    r.set_interval(False, -1.0, 1.5)
    r.position = 2.0
    assert r.position == 0.5
    r.position = -3.0
    assert r.position == -1.0
    p = env.create_joint("p", ik.JointType.PRISMATIC)
    p.position = 0.7
    assert p.position == 0.5
    with pytest.raises(ValueError, match="cyclic"):
        p.set_interval(True)
    r.set_interval(True)
    r.screw_pitch = 0.01  # a screw is not cyclic
    assert r.get_interval()[0] is False


def test_spherical_joint_matrix_and_quaternion():
    env = ik.Environment()
    s = env.create_joint("s", ik.JointType.SPHERICAL)
    q = rot.quat_from_rpy(0.3, -0.2, 1.1)
    s.spherical_quaternion = q
    np.testing.assert_allclose(s.spherical_quaternion, q, atol=1e-15)
    s.set_spherical_matrix(rot.quat_to_matrix(rot.quat_from_rpy(0.1, 0.2, 0.3)))
    np.testing.assert_allclose(s.get_joint_matrix()[:3, :3],
                               rot.quat_to_matrix(rot.quat_from_rpy(0.1, 0.2, 0.3)), atol=1e-14)
    with pytest.raises(ValueError, match="spherical"):
        s.position = 0.3
    with pytest.raises(ValueError, match="rotation"):
        s.set_spherical_matrix(np.ones((3, 3)))


def test_linked_dummies_link_both_ways():
    env = ik.Environment()
    a, b, c = env.create_dummy("a"), env.create_dummy("b"), env.create_dummy("c")
    a.linked_dummy = b
    assert b.linked_dummy == a
    a.linked_dummy = c
    assert b.linked_dummy is None and c.linked_dummy == a
    a.linked_dummy = None
    assert c.linked_dummy is None
    j = env.create_joint("j")
    with pytest.raises(ValueError, match="dummy"):
        a.linked_dummy = j


def test_names_lookup_and_erase():
    env = ik.Environment()
    a = env.create_dummy("a")
    b = env.create_dummy("b")
    b.set_parent(a)
    a.set_transformation([1, 2, 3], [1, 0, 0, 0])
    b.set_transformation([0, 0, 1], [1, 0, 0, 0], relative_to=ik.PARENT)
    assert env.does_object_exist("a") and env.object("b") == b
    with pytest.raises(ValueError, match="already exists"):
        env.create_dummy("a")
    a.erase()
    assert not env.does_object_exist("a")
    np.testing.assert_allclose(b.get_transformation()[0], [1, 2, 4])  # stays in place
    assert b.parent is None
    with pytest.raises(ValueError, match="invalid object handle"):
        a.get_transformation()
    with pytest.raises(ValueError, match="no object named"):
        env.object("a")
    assert [o.name for o in env.objects()] == ["b"]


def test_bad_arguments_raise_clear_errors():
    env = ik.Environment()
    d = env.create_dummy("d")
    j = env.create_joint("j")
    with pytest.raises(ValueError, match=r"position must have shape \(3,\)"):
        d.set_transformation([0, 0], [1, 0, 0, 0])
    with pytest.raises(ValueError, match=r"quaternion_wxyz must have shape \(4,\)"):
        d.set_transformation([0, 0, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="finite"):
        d.set_transformation([0, np.inf, 0], [1, 0, 0, 0])
    with pytest.raises(ValueError, match="non-zero"):
        d.set_transformation([0, 0, 0], [0, 0, 0, 0])
    with pytest.raises(ValueError, match="position must be finite"):
        j.position = np.nan
    with pytest.raises(ValueError, match="invalid joint type"):
        env.create_joint("x", 99)
    with pytest.raises(ValueError, match="invalid joint handle"):
        env._env.set_joint_position(d.handle, 0.0)
    with pytest.raises(ValueError, match="max_step_size"):
        j.max_step_size = -1
    with pytest.raises(ValueError, match="invalid joint mode"):
        j.mode = 7
    g = env.create_ik_group("g")
    with pytest.raises(ValueError, match="tip must be a Dummy"):
        g.add_element(j)
    el = g.add_element(d)
    with pytest.raises(ValueError, match="invalid constraints"):
        el.constraints = 64
    with pytest.raises(ValueError, match="linear_precision"):
        el.precision = (-1, 0.1)
    with pytest.raises(IndexError, match="element index"):
        g.element(3)
    with pytest.raises(ValueError, match="invalid method"):
        g.set_calculation(9)
    with pytest.raises(ValueError, match="max_iterations"):
        g.set_calculation(0, 0.1, 0)
    with pytest.raises(ValueError, match="invalid IK group handle"):
        env._env.handle_group(77)
    with pytest.raises(RuntimeError, match="compute_jacobian"):
        g.get_jacobian()
    other = ik.Environment()
    with pytest.raises(ValueError, match="another IK environment"):
        d.set_parent(other.create_dummy("x"))
    with pytest.raises(ValueError, match="relative_to"):
        d.get_transformation(relative_to=5)


def test_environments_are_independent():
    e1, e2 = ik.Environment(), ik.Environment()
    a1 = e1.create_dummy("a")
    a2 = e2.create_dummy("a")
    a1.set_transformation([1, 0, 0], [1, 0, 0, 0])
    np.testing.assert_array_equal(a2.get_transformation()[0], [0, 0, 0])
    assert a1.handle == a2.handle == 0 and a1 != a2


def test_elements_by_index_or_tip_and_their_settings():
    env = ik.Environment()
    t1, t2, base = env.create_dummy("t1"), env.create_dummy("t2"), env.create_dummy("base")
    g = env.create_ik_group("g")
    g.add_element(t1)
    e2 = g.add_element(t2)
    assert g.element(t2).index == e2.index == 1
    e2.set_base(base, t1)
    assert e2.base == base and e2.constraints_base == t1
    e2.weights = (0.5, 2.0)
    assert e2.weights == (0.5, 2.0, 1.0)
    e2.enabled = False
    assert not e2.enabled
    assert env.ik_group("g") == g and env.does_ik_group_exist("g")
    assert env._env.element_info(g.handle_id, t2.handle | ik.HANDLEFLAG_TIPDUMMY)["tip"] == t2.handle
