"""torsion.ik.compat: the seed's names, argument order, bool returns and last error."""

from __future__ import annotations

import numpy as np
import pytest

from torsion.ik import compat as c


@pytest.fixture(autouse=True)
def fresh_registry():
    while c.ikEraseEnvironment()[0]:
        pass
    c.ikGetLastError()
    yield
    while c.ikEraseEnvironment()[0]:
        pass


def build_two_link():
    ok, env = c.ikCreateEnvironment()
    assert ok
    _, base = c.ikCreateDummy("base")
    _, j1 = c.ikCreateJoint("j1", c.ik_jointtype_revolute)
    _, j2 = c.ikCreateJoint("j2", c.ik_jointtype_revolute)
    _, tip = c.ikCreateDummy("tip")
    _, target = c.ikCreateDummy("target")
    assert c.ikSetObjectParent(j1, base, True)
    assert c.ikSetObjectParent(j2, j1, True)
    assert c.ikSetObjectTransformation(j2, c.ik_handle_parent, [0.5, 0, 0, 1, 0, 0, 0])
    assert c.ikSetObjectParent(tip, j2, True)
    assert c.ikSetObjectTransformation(tip, c.ik_handle_parent, [0.4, 0, 0, 1, 0, 0, 0])
    assert c.ikSetLinkedDummy(tip, target)
    _, g = c.ikCreateIkGroup("g")
    ok, idx = c.ikAddIkElement(g, tip)
    assert ok and idx == 0
    assert c.ikSetIkElementBase(g, 0, base)
    assert c.ikSetIkElementConstraints(g, 0, c.ik_constraint_x | c.ik_constraint_y)
    return env, dict(base=base, j1=j1, j2=j2, tip=tip, target=target, g=g)


def test_a_ported_two_link_script():
    _, h = build_two_link()
    assert c.ikSetJointPosition(h["j1"], 0.3) and c.ikSetJointPosition(h["j2"], 0.6)
    assert c.ikSetObjectTransformation(h["target"], c.ik_handle_world, [0.6, 0.5, 0, 1, 0, 0, 0])
    assert c.ikSetIkGroupCalculation(h["g"], c.ik_method_damped_least_squares, 0.05, 50)
    assert c.ikGetIkGroupCalculation(h["g"]) == (True, 1, 0.05, 50)
    ok, result = c.ikHandleIkGroup(h["g"])
    assert ok and result == c.ik_result_success
    ok, tr = c.ikGetObjectTransformation(h["tip"], c.ik_handle_world)
    assert ok and tr.shape == (7,)
    assert np.hypot(tr[0] - 0.6, tr[1] - 0.5) <= 0.0005
    ok, m = c.ikGetObjectMatrix(h["tip"], -1)
    assert ok and m.shape == (12,)
    np.testing.assert_allclose(m[[3, 7, 11]], tr[:3])
    ok, success = c.ikComputeJacobian(h["g"], 0)
    assert ok and success
    J, size = c.ikGetJacobian(h["g"])
    assert size == (2, 2) and J.shape == (2, 2)
    ok, manip = c.ikGetManipulability(h["g"])
    q2 = c.ikGetJointPosition(h["j2"])[1]
    assert manip == pytest.approx(0.5 * 0.4 * abs(np.sin(q2)), rel=1e-12)
    assert c.ikHandleIkGroup() == (True, c.ik_result_success)  # ik_handle_all by default


def test_getters_and_setters_round_trip():
    _, h = build_two_link()
    j, g = h["j1"], h["g"]
    assert c.ikSetJointInterval(j, False, [-1.0, 2.0])
    ok, cyclic, interval = c.ikGetJointInterval(j)
    assert ok and not cyclic and list(interval) == [-1.0, 2.0]
    assert c.ikSetJointMaxStepSize(j, 0.2) and c.ikGetJointMaxStepSize(j) == (True, 0.2)
    assert c.ikSetJointIkWeight(j, 0.4) and c.ikGetJointIkWeight(j) == (True, 0.4)
    assert c.ikSetJointScrewPitch(j, 0.01) and c.ikGetJointScrewPitch(j) == (True, 0.01)
    assert c.ikSetJointMode(j, c.ik_jointmode_passive) and c.ikGetJointMode(j) == (True, 0)
    assert c.ikSetJointDependency(h["j2"], j, 0.1, 2.0)
    assert c.ikGetJointDependency(h["j2"]) == (True, j, 0.1, 2.0)
    assert c.ikSetIkGroupFlags(g, 1 | 4) and c.ikGetIkGroupFlags(g) == (True, 5)
    assert c.ikSetIkElementPrecision(g, 0, 0.01, 0.2)
    assert c.ikGetIkElementPrecision(g, 0) == (True, 0.01, 0.2)
    assert c.ikSetIkElementWeights(g, 0, 0.5, 0.6)
    assert c.ikGetIkElementWeights(g, 0) == (True, 0.5, 0.6)
    assert c.ikSetIkElementEnabled(g, 0, False) and c.ikGetIkElementEnabled(g, 0) == (True, False)
    tipflag = h["tip"] | c.ik_handleflag_tipdummy
    assert c.ikGetIkElementBase(g, tipflag) == (True, h["base"], -1)
    assert c.ikGetIkElementConstraints(g, 0) == (True, 3)
    assert c.ikGetLinkedDummy(h["tip"]) == (True, h["target"])
    assert c.ikGetObjectParent(h["tip"]) == (True, h["j2"])
    assert c.ikGetObjectHandle("j2") == (True, h["j2"])
    assert c.ikGetIkGroupHandle("g") == (True, g)
    assert c.ikDoesObjectExist("tip") and not c.ikDoesObjectExist("nope")
    assert c.ikDoesIkGroupExist("g") and not c.ikDoesIkGroupExist("nope")
    assert c.ikGetObjects(0) == (True, h["base"], "base", False, -1)
    assert c.ikGetObjects(1) == (True, h["j1"], "j1", True, c.ik_jointtype_revolute)
    assert c.ikGetObjects(99)[0] is False
    _, sph = c.ikCreateJoint("s", c.ik_jointtype_spherical)
    assert c.ikSetSphericalJointQuaternion(sph, [0, 1, 0, 0])
    ok, t = c.ikGetJointTransformation(sph)
    np.testing.assert_allclose(t, [0, 0, 0, 0, 1, 0, 0])
    assert c.ikSetSphericalJointMatrix(sph, np.eye(3))
    ok, m = c.ikGetJointMatrix(sph)
    np.testing.assert_allclose(m, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0])
    assert c.ikSetObjectMatrix(h["target"], -1, [1, 0, 0, 0.1, 0, 1, 0, 0.2, 0, 0, 1, 0.3])
    np.testing.assert_allclose(c.ikGetObjectTransformation(h["target"], -1)[1][:3], [0.1, 0.2, 0.3])
    assert c.ikEraseObject(sph) and not c.ikDoesObjectExist("s")
    c.ikReleaseBuffer(None)


def test_failures_return_false_and_keep_the_message():
    build_two_link()
    assert c.ikSetJointPosition(12345, 0.0) is False
    assert "invalid object handle: 12345" in c.ikGetLastError()
    assert c.ikGetLastError() == ""  # cleared
    assert c.ikGetObjectTransformation(999, -1) == (False, None)
    assert "invalid object handle" in c.ikGetLastError()
    assert c.ikSetObjectTransformation(0, -1, [1, 2, 3]) is False
    assert "shape (7,)" in c.ikGetLastError()
    ok, _ = c.ikCreateJoint("bad", 3)
    assert not ok and "invalid joint type" in c.ikGetLastError()
    assert c.ikGetJacobian(0) == (None, None)
    assert "compute_jacobian" in c.ikGetLastError()
    assert c.ikGetConfigForTipPose(0, 2, [1], 0.1, 10) == (-1, None)
    assert "jointCnt" in c.ikGetLastError()
    assert c.ikSetObjectParent(1, 2, True) is False  # j1 under j2: a cycle
    assert "cycle" in c.ikGetLastError()


def test_environments_create_switch_erase():
    ok, e1 = c.ikCreateEnvironment()
    c.ikCreateDummy("only_in_e1")
    ok, e2 = c.ikCreateEnvironment()  # switches to it
    assert not c.ikDoesObjectExist("only_in_e1")
    assert c.ikSwitchEnvironment(e1) and c.ikDoesObjectExist("only_in_e1")
    assert c.ikSwitchEnvironment(e2 + 100) is False
    assert "invalid environment handle" in c.ikGetLastError()
    assert c.ikSwitchEnvironment(e2)
    assert c.ikEraseEnvironment() == (True, e1)
    assert c.ikEraseEnvironment() == (True, -1)
    assert c.ikCreateDummy("x") == (False, None)
    assert "no current environment" in c.ikGetLastError()


def test_save_load_and_config_search():
    _, h = build_two_link()
    assert c.ikSetJointInterval(h["j1"], False, [-3.0, 6.0])
    assert c.ikSetObjectTransformation(h["target"], -1, [0.3, 0.6, 0, 1, 0, 0, 0])
    ok, data = c.ikSave()
    assert ok and isinstance(data, bytes)
    c.ikCreateEnvironment()
    assert c.ikLoad(data)
    assert c.ikLoad(data) is False and "empty" in c.ikGetLastError()
    ok, g = c.ikGetIkGroupHandle("g")
    assert c.ikSetIkGroupCalculation(g, 1, 0.05, 50)
    ret, cfg = c.ikGetConfigForTipPose(g, 2, [h["j1"], h["j2"]], 0.8, 200)
    assert ret == 1 and cfg.shape == (2,)
    x = 0.5 * np.cos(cfg[0]) + 0.4 * np.cos(cfg[0] + cfg[1])
    y = 0.5 * np.sin(cfg[0]) + 0.4 * np.sin(cfg[0] + cfg[1])
    assert np.hypot(x - 0.3, y - 0.6) <= 0.0005 + 1e-6  # float32 round trip of the target
    ret, cfg = c.ikGetConfigForTipPose(g, 2, [h["j1"], h["j2"]], 0.8, 20,
                                       validationCallback=lambda q: False)
    assert ret == 0 and cfg is None


def test_out_of_range_ints_fail_with_the_last_error_naming_the_argument():
    # QA: ikSetIkGroupCalculation(g, 0, 0.1, inf) and ikSetIkGroupFlags(g, inf) raised
    # OverflowError, and handles like 2**70 reported pybind11's generic TypeError; the compat
    # contract is False + ikGetLastError()
    assert c.ikCreateEnvironment()[0]
    ok, g = c.ikCreateIkGroup("g")
    assert ok
    assert c.ikSetIkGroupCalculation(g, 0, 0.1, float("inf")) is False
    assert "maxIterations must be an int" in c.ikGetLastError()
    assert c.ikSetIkGroupFlags(g, float("inf")) is False
    assert "flags must be an int" in c.ikGetLastError()
    assert c.ikGetObjectParent(2**70) == (False, None)
    assert "objectHandle must fit in a 32-bit int" in c.ikGetLastError()
    assert c.ikSetIkGroupFlags(g, 2**40) is False
    assert "flags must fit in a 32-bit int" in c.ikGetLastError()
    assert c.ikSetIkGroupCalculation(g, 0, 0.1, 5) is True  # in-range values still work
