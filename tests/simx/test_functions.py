"""Every simx function of the seed, in-process and over loopback, with B0's return shape.

CASES maps each simx name to a check: it calls the function on a fresh scene (conftest.build_scene)
through the ``env`` client and checks the reply's shape ([True, item...]) and its values against
what the scene knows or geometry says. test_every_function_has_a_case pins the table to the seed.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np
import pytest

import torsion
from torsion import simx
from torsion.simx.functions import CLIENT_FUNCTIONS, SIGNATURES, STREAM_ONLY

from .conftest import ok, vec3

SEED = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "seeds", "000_07541f2492b0ae58.txt")


def err(reply, kind="ValueError"):
    assert isinstance(reply, list) and reply[0] is False and len(reply) == 2, reply
    assert reply[1].startswith(kind + ":"), reply
    return reply[1]


def top_depth():
    """Depth (along the view axis) of the cam's nearest sphere pixel: the pixel centres nearest
    the axis are half a pixel off it in both directions (16 x 12, 40 degrees)."""
    f = 8.0 / math.tan(math.radians(20.0))
    s = math.hypot(0.5 / f, 0.5 / f)
    # (z s)^2 + (1.5 - z)^2 = 0.1^2, the smaller root
    a, b, c = s * s + 1.0, -3.0, 1.5**2 - 0.01
    return (-b - math.sqrt(b * b - 4 * a * c)) / (2 * a)


def step(e, n=1):
    """Run n synchronous steps through the client (start the simulation if needed)."""
    c = e.c
    c.simxSynchronous(True)
    if c.simxGetSimulationState(e.S)[1] != simx.constants.SIMULATION_ADVANCING_RUNNING:
        ok(c.simxStartSimulation(e.S), 1)
    done = []
    sub = c.simxDefaultSubscriber(done.append)
    c.simxGetSimulationStepDone(sub)
    c.simxSynchronousTrigger(n) if n > 1 else c.simxSynchronousTrigger()
    deadline = time.monotonic() + 10.0
    while len(done) < n:
        c.simxSpinOnce()
        assert time.monotonic() < deadline, "no step done"
    c.simxRemoveSubscriber(sub)
    return done


# ---------------------------------------------------------------------------------------------
# drawing objects and UI


def c_drawing(e, name, args, per):
    r = getattr(e.c, name)(*args, e.S)
    h = ok(r, 1)
    assert isinstance(h, int)
    d = e.scene.drawings[h]
    assert d.items.shape[1] == per
    assert err(getattr(e.c, name)(*args[:-1], [1.0] * (per + 1), e.S))
    return h


CASES = {}


def case(name):
    def deco(fn):
        CASES[name] = fn
        return fn

    return deco


@case("simxAddDrawingObject_cubes")
def _(e):
    c_drawing(e, "simxAddDrawingObject_cubes", [0.05, [255, 0, 0], [0, 0, 1, 1, 1, 1]], 3)


@case("simxAddDrawingObject_points")
def _(e):
    c_drawing(e, "simxAddDrawingObject_points", [3, [0, 255, 0], [0, 0, 1]], 3)


@case("simxAddDrawingObject_segments")
def _(e):
    c_drawing(e, "simxAddDrawingObject_segments", [2, [0, 0, 255], [0, 0, 0, 1, 1, 1]], 6)


@case("simxAddDrawingObject_spheres")
def _(e):
    c_drawing(e, "simxAddDrawingObject_spheres", [0.1, [1, 2, 3], np.zeros(6)], 3)


@case("simxAddDrawingObject_triangles")
def _(e):
    c_drawing(e, "simxAddDrawingObject_triangles", [[9, 9, 9], list(range(9))], 9)


@case("simxRemoveDrawingObject")
def _(e):
    h = ok(e.c.simxAddDrawingObject_points(1, [0, 0, 0], [0, 0, 0], e.S), 1)
    ok(e.c.simxRemoveDrawingObject(h, e.S), 0)
    assert h not in e.scene.drawings
    err(e.c.simxRemoveDrawingObject(h, e.S))


@case("simxAddStatusbarMessage")
def _(e):
    ok(e.c.simxAddStatusbarMessage("hello bar", e.S), 0)
    assert e.scene.status_messages[-1] == "hello bar"
    err(e.c.simxAddStatusbarMessage(12, e.S), "TypeError")


def _console(e):
    return ok(e.c.simxAuxiliaryConsoleOpen("log", 2, 1, [0, 0], [100, 100], [255, 255, 255], [0, 0, 0], e.S), 1)


@case("simxAuxiliaryConsoleOpen")
def _(e):
    h = _console(e)
    assert e.scene.consoles[h]["title"] == "log"
    err(e.c.simxAuxiliaryConsoleOpen("log", 0, 1, [0, 0], [1, 1], [0, 0, 0], [0, 0, 0], e.S))


@case("simxAuxiliaryConsolePrint")
def _(e):
    h = _console(e)
    for t in ("a", "b", "c"):
        assert ok(e.c.simxAuxiliaryConsolePrint(h, t, e.S), 1) == 1
    assert e.scene.consoles[h]["lines"] == ["b", "c"]  # maxLines 2
    assert ok(e.c.simxAuxiliaryConsolePrint(h, "", e.S), 1) == 1
    assert e.scene.consoles[h]["lines"] == []
    assert ok(e.c.simxAuxiliaryConsolePrint(h + 100, "x", e.S), 1) == 0


@case("simxAuxiliaryConsoleShow")
def _(e):
    h = _console(e)
    assert ok(e.c.simxAuxiliaryConsoleShow(h, False, e.S), 1) == 1
    assert e.scene.consoles[h]["visible"] is False
    assert ok(e.c.simxAuxiliaryConsoleShow(h + 100, True, e.S), 1) == 0


@case("simxAuxiliaryConsoleClose")
def _(e):
    h = _console(e)
    assert ok(e.c.simxAuxiliaryConsoleClose(h, e.S), 1) == 1
    assert ok(e.c.simxAuxiliaryConsoleClose(h, e.S), 1) == 0


def _dialog(e):
    return ok(e.c.simxDisplayDialog("title", "text", "sim.dlgstyle_input", "initial", e.S), 1)


@case("simxDisplayDialog")
def _(e):
    h = _dialog(e)
    assert e.scene.dialogs[h]["type"] == 1
    err(e.c.simxDisplayDialog("t", "m", "os.exit()", "", e.S))  # never evaluated


@case("simxGetDialogInput")
def _(e):
    h = _dialog(e)
    assert ok(e.c.simxGetDialogInput(h, e.S), 1) == "initial"
    e.scene.answer_dialog(h, 1, "typed")
    assert ok(e.c.simxGetDialogInput(h, e.S), 1) == "typed"


@case("simxGetDialogResult")
def _(e):
    h = _dialog(e)
    assert ok(e.c.simxGetDialogResult(h, e.S), 1) == 0  # still open
    e.scene.answer_dialog(h, 3)
    assert ok(e.c.simxGetDialogResult(h, e.S), 1) == 3


@case("simxEndDialog")
def _(e):
    h = _dialog(e)
    ok(e.c.simxEndDialog(h, e.S), 0)
    err(e.c.simxGetDialogResult(h, e.S))


# ---------------------------------------------------------------------------------------------
# scripts: registered functions only


@case("simxCallScriptFunction")
def _(e):
    assert ok(e.c.simxCallScriptFunction("add@/iiwa", "sim.scripttype_childscript", [2, 5], e.S), 2) == [7, 10]
    m = err(e.c.simxCallScriptFunction("os.system@/iiwa", 1, [], e.S), "RuntimeError")
    assert "never evaluates" in m


@case("simxExecuteScriptString")
def _(e):
    assert ok(e.c.simxExecuteScriptString("answer", e.S), 1) == 42
    err(e.c.simxExecuteScriptString("sim.stopSimulation()", e.S), "RuntimeError")


@case("simxEvaluateToInt")
def _(e):
    assert ok(e.c.simxEvaluateToInt("sim.handle_parent", e.S), 1) == -11
    assert ok(e.c.simxEvaluateToInt("17", e.S), 1) == 17
    assert ok(e.c.simxEvaluateToInt("answer", e.S), 1) == 42
    err(e.c.simxEvaluateToInt("1+1", e.S), "RuntimeError")


@case("simxEvaluateToStr")
def _(e):
    assert ok(e.c.simxEvaluateToStr("greeting", e.S), 1) == "hello"
    err(e.c.simxEvaluateToStr('string.rep("a", 3)', e.S), "RuntimeError")


# ---------------------------------------------------------------------------------------------
# collision and distance


@case("simxCheckCollision")
def _(e):
    c = e.c
    assert ok(c.simxCheckCollision(e.h["ball"], e.h["crate"], e.S), 1) is False
    assert ok(c.simxCheckCollision(e.h["ball"], "sim.handle_all", e.S), 1) is False
    ok(c.simxSetObjectPosition(e.h["ball"], -1, [0.0, 1.0, 0.25], e.S), 0)  # resting on the crate
    assert ok(c.simxCheckCollision(e.h["ball"], e.h["crate"], e.S), 1) is True
    assert ok(c.simxCheckCollision(e.h["ball"], "sim.handle_all", e.S), 1) is True
    err(c.simxCheckCollision(e.h["ball"], 999, e.S))


@case("simxCheckDistance")
def _(e):
    flag, d, p1, p2 = ok(e.c.simxCheckDistance(e.h["ball"], e.h["crate"], 0, e.S), 4)
    # sphere centre (1, 0, 0.5) r 0.1; box [-0.1, 0.1] x [0.9, 1.1] x [0, 0.2]: nearest box point (0.1, 0.9, 0.2)
    expect = np.linalg.norm(np.array([1.0, 0.0, 0.5]) - [0.1, 0.9, 0.2]) - 0.1
    assert flag == 1 and d == pytest.approx(expect, abs=1e-6)
    assert np.linalg.norm(vec3(p1) - vec3(p2)) == pytest.approx(expect, abs=1e-6)
    assert vec3(p2) == pytest.approx([0.1, 0.9, 0.2], abs=1e-6)
    flag, d, _, _ = ok(e.c.simxCheckDistance(e.h["ball"], e.h["crate"], 0.5, e.S), 4)
    assert flag == 0  # farther than the threshold
    flag, d, _, _ = ok(e.c.simxCheckDistance(e.h["ball"], "sim.handle_all", 0, e.S), 4)
    assert flag == 1 and d == pytest.approx(0.4, abs=1e-9)  # the ground


@case("simxGetCollisionHandle")
def _(e):
    h = e.scene.add_collision_object("ball_crate", e.h["ball"], e.h["crate"])
    assert ok(e.c.simxGetCollisionHandle("ball_crate", e.S), 1) == h
    err(e.c.simxGetCollisionHandle("missing@silentError", e.S))


@case("simxReadCollision")
def _(e):
    h = e.scene.add_collision_object("ball_crate", e.h["ball"], e.h["crate"])
    state, pair = ok(e.c.simxReadCollision(h, e.S), 2)
    assert state is False and pair == [-1, -1]
    e.c.simxSetObjectPosition(e.h["ball"], -1, [0.0, 1.0, 0.25], e.S)
    state, pair = ok(e.c.simxReadCollision(h, e.S), 2)
    assert state is True and pair == [e.h["ball"], e.h["crate"]]


@case("simxGetDistanceHandle")
def _(e):
    h = e.scene.add_distance_object("ball_ground", e.h["ball"], e.h["ground"])
    assert ok(e.c.simxGetDistanceHandle("ball_ground", e.S), 1) == h
    err(e.c.simxGetDistanceHandle("nope", e.S))


@case("simxReadDistance")
def _(e):
    h = e.scene.add_distance_object("ball_ground", e.h["ball"], e.h["ground"])
    flag, d = ok(e.c.simxReadDistance(h, e.S), 2)
    assert flag == 1 and d == pytest.approx(0.4, abs=1e-9)


@case("simxGetCollectionHandle")
def _(e):
    h = e.scene.add_collection("things", [e.h["ball"], e.h["crate"]])
    assert ok(e.c.simxGetCollectionHandle("things", e.S), 1) == h
    ok(e.c.simxSetInt32Signal("legacy", 77, e.S), 0)
    assert ok(e.c.simxGetCollectionHandle("legacy", e.S), 1) == 77  # falls back to the int signal
    err(e.c.simxGetCollectionHandle("none", e.S))


# ---------------------------------------------------------------------------------------------
# sensors


@case("simxCheckProximitySensor")
def _(e):
    state, d, p = ok(e.c.simxCheckProximitySensor(e.h["prox"], "sim.handle_all", e.S), 3)
    # sensor at z 1 looking down; sphere top at z 0.6
    assert state == 1 and d == pytest.approx(0.4, abs=1e-9)
    assert vec3(p) == pytest.approx([0, 0, 0.4], abs=1e-9)
    state, _, _ = ok(e.c.simxCheckProximitySensor(e.h["prox"], e.h["crate"], e.S), 3)
    assert state == 0


@case("simxReadProximitySensor")
def _(e):
    state, d, p, h, n = ok(e.c.simxReadProximitySensor(e.h["prox"], e.S), 5)
    assert (state, h) == (1, e.h["ball"])
    assert vec3(n) == pytest.approx([0, 0, -1], abs=1e-9)  # the sphere's up normal, seen from a sensor whose z points down
    err(e.c.simxReadProximitySensor(e.h["ball"], e.S))


@case("simxCheckVisionSensor")
def _(e):
    state, d, p = ok(e.c.simxCheckVisionSensor(e.h["cam"], e.h["ball"], e.S), 3)
    assert state == 1
    assert d == pytest.approx(top_depth(), abs=1e-6)  # sphere top at z 0.6, sensor at z 2
    # the point, back in the world (sensor at (1, 0, 2), rotated 180 degrees about x), is on the sphere
    world = np.array([1.0 + p[0], -p[1], 2.0 - p[2]])
    assert np.linalg.norm(world - [1.0, 0.0, 0.5]) == pytest.approx(0.1, abs=1e-6)
    state, _, _ = ok(e.c.simxCheckVisionSensor(e.h["cam"], e.h["crate"], e.S), 3)
    assert state == 0


@case("simxReadVisionSensor")
def _(e):
    state, packet = ok(e.c.simxReadVisionSensor(e.h["cam"], e.S), 2)
    assert state == 1 and len(packet) == 15
    near, far = 0.1, 5.0
    # depth min (the sphere top) and max (the ground), normalised between the clipping planes
    assert packet[4] == pytest.approx((top_depth() - near) / (far - near), abs=1e-6)
    assert packet[9] == pytest.approx((2.0 - near) / (far - near), abs=1e-5)


@case("simxGetVisionSensorImage")
def _(e):
    res, img = ok(e.c.simxGetVisionSensorImage(e.h["cam"], False, e.S), 2)
    assert res == [16, 12] and isinstance(img, bytes) and len(img) == 16 * 12 * 3
    res, grey = ok(e.c.simxGetVisionSensorImage(e.h["cam"], True, e.S), 2)
    assert len(grey) == 16 * 12
    rgb = np.frombuffer(img, np.uint8).reshape(12, 16, 3)
    assert not np.array_equal(rgb[6, 8], rgb[0, 0])  # the sphere in the middle, ground at the corner


@case("simxSetVisionSensorImage")
def _(e):
    img = bytes(range(256)) * 2 + bytes(16 * 12 * 3 - 512)
    ok(e.c.simxSetVisionSensorImage(e.h["cam"], False, img, e.S), 0)
    assert ok(e.c.simxGetVisionSensorImage(e.h["cam"], False, e.S), 2)[1] == img
    err(e.c.simxSetVisionSensorImage(e.h["cam"], True, b"\x00" * 5, e.S))
    step(e)  # the applied image lasts until the next step
    assert ok(e.c.simxGetVisionSensorImage(e.h["cam"], False, e.S), 2)[1] != img


@case("simxGetVisionSensorDepthBuffer")
def _(e):
    res, d = ok(e.c.simxGetVisionSensorDepthBuffer(e.h["cam"], True, False, e.S), 2)
    assert res == [16, 12] and isinstance(d, np.ndarray) and d.dtype == np.float32 and d.shape == (192,)
    assert float(d.max()) == pytest.approx(2.0, abs=1e-6) and float(d.min()) == pytest.approx(top_depth(), abs=1e-6)
    res, b = ok(e.c.simxGetVisionSensorDepthBuffer(e.h["cam"], False, True, e.S), 2)
    assert isinstance(b, bytes) and len(b) == 192 * 4
    d01 = np.frombuffer(b, np.float32)
    assert d01 == pytest.approx((d - 0.1) / 4.9, abs=1e-6)


@case("simxReadForceSensor")
def _(e):
    state, f, t = ok(e.c.simxReadForceSensor(e.h["base_fs"], e.S), 3)
    assert state == 0  # no data before steps
    step(e, 3)
    state, f, t = ok(e.c.simxReadForceSensor(e.h["base_fs"], e.S), 3)
    assert state == 1
    robot = e.scene.find("/iiwa").obj
    # the support holds the robot's weight (plus its slight motion under gravity)
    assert vec3(f)[2] == pytest.approx(robot.get_total_mass() * 9.81, rel=0.05)
    err(e.c.simxReadForceSensor(e.h["ball"], e.S))


# ---------------------------------------------------------------------------------------------
# signals


@pytest.mark.parametrize("kind", ["Int32", "Float", "String"])
def test_signals(env, kind):
    c, S = env.c, env.S
    value = {"Int32": -5, "Float": 2.5, "String": b"\x00\xffbytes"}[kind]
    assert ok(getattr(c, f"simxGet{kind}Signal")("sig", S), 1) is None
    ok(getattr(c, f"simxSet{kind}Signal")("sig", value, S), 0)
    assert ok(getattr(c, f"simxGet{kind}Signal")("sig", S), 1) == value
    ok(getattr(c, f"simxClear{kind}Signal")("sig", S), 0)
    assert ok(getattr(c, f"simxGet{kind}Signal")("sig", S), 1) is None
    err(getattr(c, f"simxSet{kind}Signal")(3, value, S), "TypeError")


for _k in ("Int32", "Float", "String"):
    for _op in ("Set", "Get", "Clear"):
        CASES[f"simx{_op}{_k}Signal"] = "test_signals"


# ---------------------------------------------------------------------------------------------
# parameters


@case("simxGetBoolParam")
def _(e):
    assert ok(e.c.simxGetBoolParam("sim.boolparam_dynamics_handling_enabled", e.S), 1) is True
    assert ok(e.c.simxGetBoolParam(34, e.S), 1) is True  # headless
    err(e.c.simxGetBoolParam(999, e.S))
    err(e.c.simxGetBoolParam("os.execute('x')", e.S))


@case("simxSetBoolParam")
def _(e):
    ok(e.c.simxSetBoolParam("sim.boolparam_realtime_simulation", False, e.S), 0)
    assert e.scene.realtime is False
    err(e.c.simxSetBoolParam(34, False, e.S))
    err(e.c.simxSetBoolParam(6, "yes", e.S), "TypeError")


@case("simxGetInt32Param")
def _(e):
    major, minor, patch = (int(x) for x in torsion.__version__.split(".")[:3])
    assert ok(e.c.simxGetInt32Param("sim.intparam_program_version", e.S), 1) == major * 10000 + minor * 100 + patch
    assert ok(e.c.simxGetInt32Param(24, e.S), 1) == (os.cpu_count() or 1)


@case("simxSetInt32Param")
def _(e):
    err(e.c.simxSetInt32Param(1, 5, e.S))  # read-only
    err(e.c.simxSetInt32Param(1, 5.5, e.S), "TypeError")


@case("simxGetFloatParam")
def _(e):
    assert ok(e.c.simxGetFloatParam("sim.floatparam_simulation_time_step", e.S), 1) == 0.001
    r = ok(e.c.simxGetFloatParam(0, e.S), 1)
    assert 0.0 <= r < 1.0


@case("simxSetFloatParam")
def _(e):
    ok(e.c.simxSetFloatParam("sim.floatparam_simulation_time_step", 0.004, e.S), 0)
    assert e.scene.world.get_time_step() == 0.004
    assert ok(e.c.simxGetSimulationTimeStep(e.S), 1) == 0.004
    err(e.c.simxSetFloatParam(1, -1.0, e.S))
    err(e.c.simxSetFloatParam(1, float("nan"), e.S))


@case("simxGetStringParam")
def _(e):
    assert ok(e.c.simxGetStringParam("sim.stringparam_application_path", e.S), 1) == "torsion"
    assert ok(e.c.simxGetStringParam(13, e.S), 1) == ""


@case("simxSetStringParam")
def _(e):
    err(e.c.simxSetStringParam(13, "x", e.S))


@case("simxGetArrayParam")
def _(e):
    assert ok(e.c.simxGetArrayParam("sim.arrayparam_gravity", e.S), 1) == [0.0, 0.0, -9.81]


@case("simxSetArrayParam")
def _(e):
    ok(e.c.simxSetArrayParam("sim.arrayparam_gravity", [0, 0, -1.62], e.S), 0)
    assert e.scene.world.get_gravity().tolist() == [0.0, 0.0, -1.62]
    err(e.c.simxSetArrayParam(0, [0, 0], e.S))


@case("simxGetObjectInt32Param")
def _(e):
    assert ok(e.c.simxGetObjectInt32Param(e.h["cam"], "sim.visionintparam_resolution_x", e.S), 1) == 16
    assert ok(e.c.simxGetObjectInt32Param(e.h["crate"], "sim.shapeintparam_static", e.S), 1) == 1
    assert ok(e.c.simxGetObjectInt32Param(e.h["joint"], "sim.jointintparam_ctrl_enabled", e.S), 1) == 1
    err(e.c.simxGetObjectInt32Param(e.h["cam"], 99999, e.S))


@case("simxSetObjectInt32Param")
def _(e):
    assert ok(e.c.simxSetObjectInt32Param(e.h["cam"], 1002, 20, e.S), 1) == 1
    res, img = ok(e.c.simxGetVisionSensorImage(e.h["cam"], True, e.S), 2)
    assert res == [20, 12] and len(img) == 240
    err(e.c.simxSetObjectInt32Param(e.h["cam"], 1002, 0, e.S))


@case("simxGetObjectFloatParam")
def _(e):
    assert ok(e.c.simxGetObjectFloatParam(e.h["ball"], "sim.shapefloatparam_mass", e.S), 1) == 1.0
    assert ok(e.c.simxGetObjectFloatParam(e.h["cam"], 1001, e.S), 1) == 5.0
    assert ok(e.c.simxGetObjectFloatParam(e.h["ball"], 13, e.S), 1) == 0.0  # abs z velocity


@case("simxSetObjectFloatParam")
def _(e):
    assert ok(e.c.simxSetObjectFloatParam(e.h["ball"], 3005, 2.5, e.S), 1) == 1
    assert e.scene.find("/ball").obj.get_mass() == 2.5
    ok(e.c.simxSetObjectFloatParam(e.h["joint"], "sim.jointfloatparam_pid_p", 123.0, e.S), 1)
    assert ok(e.c.simxGetObjectFloatParam(e.h["joint"], 2002, e.S), 1) == 123.0
    err(e.c.simxSetObjectFloatParam(e.h["cam"], 1000, 10.0, e.S))  # near beyond far


@case("simxGetObjectStringParam")
def _(e):
    assert ok(e.c.simxGetObjectStringParam(e.h["ball"], 3023, e.S), 1) == ""


@case("simxSetObjectStringParam")
def _(e):
    ok(e.c.simxSetObjectStringParam(e.h["ball"], "sim.shapestringparam_color_name", "1,0,0", e.S), 1)
    assert ok(e.c.simxGetObjectStringParam(e.h["ball"], 3023, e.S), 1) == "1,0,0"
    res, img = ok(e.c.simxGetVisionSensorImage(e.h["cam"], False, e.S), 2)
    px = np.frombuffer(img, np.uint8).reshape(12, 16, 3)[6, 8]
    assert px[0] > 100 and px[1] == 0 and px[2] == 0  # the sphere is red now
    err(e.c.simxSetObjectStringParam(e.h["ball"], 3023, "red", e.S))


# ---------------------------------------------------------------------------------------------
# joints


@case("simxGetJointPosition")
def _(e):
    assert ok(e.c.simxGetJointPosition(e.h["joint"], e.S), 1) == 0.0
    err(e.c.simxGetJointPosition(e.h["link"], e.S))


@case("simxSetJointPosition")
def _(e):
    ok(e.c.simxSetJointPosition(e.h["joint"], 0.7, e.S), 0)
    assert ok(e.c.simxGetJointPosition(e.h["joint"], e.S), 1) == 0.7
    assert e.scene.find("/iiwa").obj.get_generalized_coordinate()[1] == 0.7
    err(e.c.simxSetJointPosition(e.h["joint"], float("inf"), e.S))


@case("simxGetJointTargetPosition")
def _(e):
    assert ok(e.c.simxGetJointTargetPosition(e.h["joint"], e.S), 1) == 0.0


@case("simxSetJointTargetPosition")
def _(e):
    ok(e.c.simxSetJointTargetPosition(e.h["joint"], 0.4, e.S), 0)
    assert ok(e.c.simxGetJointTargetPosition(e.h["joint"], e.S), 1) == 0.4
    step(e, 400)
    assert ok(e.c.simxGetJointPosition(e.h["joint"], e.S), 1) == pytest.approx(0.4, abs=0.01)


@case("simxGetJointTargetVelocity")
def _(e):
    assert ok(e.c.simxGetJointTargetVelocity(e.h["joint"], e.S), 1) == 0.0


@case("simxSetJointTargetVelocity")
def _(e):
    j1 = e.scene.find("/iiwa/joint_1").handle  # the vertical axis: no gravity load
    ok(e.c.simxSetJointTargetVelocity(j1, 0.5, e.S), 0)
    assert ok(e.c.simxGetJointTargetVelocity(j1, e.S), 1) == 0.5
    assert ok(e.c.simxGetObjectInt32Param(j1, 2001, e.S), 1) == 0  # velocity control now
    step(e, 200)
    v = ok(e.c.simxGetObjectFloatParam(j1, "sim.jointfloatparam_velocity", e.S), 1)
    assert v == pytest.approx(0.5, abs=0.05)


@case("simxGetJointForce")
def _(e):
    assert ok(e.c.simxGetJointForce(e.h["joint"], e.S), 1) is None  # no value before a step
    ok(e.c.simxSetJointTargetPosition(e.h["joint"], 0.5, e.S), 0)
    step(e, 400)
    tau = ok(e.c.simxGetJointForce(e.h["joint"], e.S), 1)
    robot = e.scene.find("/iiwa").obj
    assert tau == robot.get_generalized_force()[1]
    # held still, the joint carries the gravity torque of the links beyond it
    g_torque = robot.get_nonlinearities(e.scene.world.get_gravity())[1]
    assert abs(g_torque) > 10.0
    assert tau == pytest.approx(g_torque, rel=0.02)


@case("simxGetJointMaxForce")
def _(e):
    robot = e.scene.find("/iiwa").obj
    assert ok(e.c.simxGetJointMaxForce(e.h["joint"], e.S), 1) == robot.get_effort_limits()[1]


@case("simxSetJointMaxForce")
def _(e):
    ok(e.c.simxSetJointMaxForce(e.h["joint"], 5.0, e.S), 0)
    assert ok(e.c.simxGetJointMaxForce(e.h["joint"], e.S), 1) == 5.0
    ok(e.c.simxSetJointTargetPosition(e.h["joint"], 1.0, e.S), 0)
    step(e, 20)
    assert abs(ok(e.c.simxGetJointForce(e.h["joint"], e.S), 1)) <= 5.0 + 1e-9
    err(e.c.simxSetJointMaxForce(e.h["joint"], -1.0, e.S))


@case("simxSetJointForce")
def _(e):
    ok(e.c.simxSetJointForce(e.h["joint"], 7.0, e.S), 0)  # deprecated alias of SetJointMaxForce
    assert ok(e.c.simxGetJointMaxForce(e.h["joint"], e.S), 1) == 7.0


# ---------------------------------------------------------------------------------------------
# objects, hierarchy, poses


@case("simxGetObjectHandle")
def _(e):
    assert ok(e.c.simxGetObjectHandle("/iiwa/joint_2", e.S), 1) == e.h["joint"]
    assert ok(e.c.simxGetObjectHandle("joint_2", e.S), 1) == e.h["joint"]  # a bare alias: anywhere
    assert ok(e.c.simxGetObjectHandle("/iiwa/joint_1/link_1/joint_2", e.S), 1) == e.h["joint"]
    err(e.c.simxGetObjectHandle("/iiwa/joint_9", e.S))
    err(e.c.simxGetObjectHandle(5, e.S), "TypeError")


@case("simxGetObjectAlias")
def _(e):
    assert ok(e.c.simxGetObjectAlias(e.h["joint"], -1, e.S), 1) == "joint_2"
    path = ok(e.c.simxGetObjectAlias(e.h["joint"], 1, e.S), 1)
    assert path == "/iiwa/joint_1/link_1/joint_2"
    assert ok(e.c.simxGetObjectHandle(path, e.S), 1) == e.h["joint"]


@case("simxGetObjectParent")
def _(e):
    link1 = e.scene.find("/iiwa/link_1").handle
    assert ok(e.c.simxGetObjectParent(e.h["joint"], e.S), 1) == link1
    assert ok(e.c.simxGetObjectParent(e.h["robot"], e.S), 1) == -1


@case("simxGetObjectChild")
def _(e):
    assert ok(e.c.simxGetObjectChild(e.h["joint"], 0, e.S), 1) == e.h["link"]
    assert ok(e.c.simxGetObjectChild(e.h["joint"], 1, e.S), 1) == -1


@case("simxGetObjects")
def _(e):
    joints = ok(e.c.simxGetObjects("sim.object_joint_type", e.S), 1)
    assert len(joints) == 7 and e.h["joint"] in joints
    allh = ok(e.c.simxGetObjects("sim.handle_all", e.S), 1)
    assert set(allh) == set(e.scene.handles())
    assert ok(e.c.simxGetObjects(simx.constants.OBJECT_VISIONSENSOR, e.S), 1) == [e.h["cam"]]


@case("simxGetObjectsInTree")
def _(e):
    tree = ok(e.c.simxGetObjectsInTree(e.h["robot"], "sim.handle_all", 0, e.S), 1)
    assert tree[0] == e.h["robot"] and len(tree) == 1 + 1 + 7 * 2 + 1  # base, 2 force sensors, 7 joints + 7 links
    joints = ok(e.c.simxGetObjectsInTree(e.h["robot"], "sim.object_joint_type", 1, e.S), 1)
    assert len(joints) == 7
    first = ok(e.c.simxGetObjectsInTree(e.h["robot"], "sim.handle_all", 3, e.S), 1)
    assert first == [e.scene.find("/iiwa/world_joint").handle, e.scene.find("/iiwa/joint_1").handle]
    roots = ok(e.c.simxGetObjectsInTree("sim.handle_scene", "sim.handle_all", 2, e.S), 1)
    assert set(roots) == {e.h[k] for k in ("ground", "ball", "crate", "robot", "cam", "prox")}


@case("simxGetObjectSelection")
def _(e):
    assert ok(e.c.simxGetObjectSelection(e.S), 1) == []


@case("simxSetObjectSelection")
def _(e):
    assert ok(e.c.simxSetObjectSelection([e.h["ball"], e.h["joint"]], e.S), 1) == 1
    assert ok(e.c.simxGetObjectSelection(e.S), 1) == [e.h["ball"], e.h["joint"]]
    err(e.c.simxSetObjectSelection([12345], e.S))


@case("simxCreateDummy")
def _(e):
    h = ok(e.c.simxCreateDummy(0.05, [255, 0, 0], e.S), 1)
    assert e.scene.node(h).object_type == simx.constants.OBJECT_DUMMY
    assert ok(e.c.simxGetObjectPosition(h, -1, e.S), 1) == [0.0, 0.0, 0.0]
    err(e.c.simxCreateDummy(0.05, [255, 0], e.S))


@case("simxSetObjectParent")
def _(e):
    d = ok(e.c.simxCreateDummy(0.01, [0, 0, 0], e.S), 1)
    ok(e.c.simxSetObjectPosition(d, -1, [1, 2, 3], e.S), 0)
    assert ok(e.c.simxSetObjectParent(d, e.h["link"], False, True, e.S), 1) == 1
    assert ok(e.c.simxGetObjectParent(d, e.S), 1) == e.h["link"]
    assert vec3(ok(e.c.simxGetObjectPosition(d, -1, e.S), 1)) == pytest.approx([1, 2, 3], abs=1e-12)
    # the dummy now rides on the link
    ok(e.c.simxSetJointPosition(e.h["joint"], 0.5, e.S), 0)
    assert vec3(ok(e.c.simxGetObjectPosition(d, e.h["link"], e.S), 1)) == pytest.approx(
        e.scene.get_T(d, e.h["link"])[:3, 3])
    assert vec3(ok(e.c.simxGetObjectPosition(d, -1, e.S), 1)) != pytest.approx([1, 2, 3], abs=1e-3)
    err(e.c.simxSetObjectParent(e.h["link"], -1, False, True, e.S))
    err(e.c.simxSetObjectParent(d, e.h["link"], True, False, e.S))


@case("simxGetObjectPosition")
def _(e):
    assert ok(e.c.simxGetObjectPosition(e.h["ball"], -1, e.S), 1) == [1.0, 0.0, 0.5]
    assert ok(e.c.simxGetObjectPosition(e.h["ball"], e.h["crate"], e.S), 1) == [1.0, -1.0, 0.4]
    # joint_2 sits 0.2025 above link_1's frame; its parent is link_1
    assert vec3(ok(e.c.simxGetObjectPosition(e.h["joint"], "sim.handle_parent", e.S), 1)) == pytest.approx([0, 0, 0.2025])
    err(e.c.simxGetObjectPosition(e.h["ball"], "sim.nope", e.S))


@case("simxSetObjectPosition")
def _(e):
    ball = e.scene.find("/ball").obj
    ball.set_linear_velocity([1.0, 0.0, 0.0])
    ok(e.c.simxSetObjectPosition(e.h["ball"], e.h["crate"], [0, 0, 1], e.S), 0)
    assert ball.get_position().tolist() == [0.0, 1.0, 1.1]
    assert ball.get_linear_velocity().tolist() == [0.0, 0.0, 0.0]  # dynamics reset
    err(e.c.simxSetObjectPosition(e.h["ball"], -1, [0, 0], e.S))
    err(e.c.simxSetObjectPosition(e.h["link"], -1, [0, 0, 0], e.S))


@case("simxGetObjectOrientation")
def _(e):
    assert ok(e.c.simxGetObjectOrientation(e.h["ball"], -1, e.S), 1) == [0.0, 0.0, 0.0]
    a, b, g = ok(e.c.simxGetObjectOrientation(e.h["cam"], -1, e.S), 1)
    assert abs(a) == pytest.approx(math.pi) and b == pytest.approx(0) and g == pytest.approx(0)


@case("simxSetObjectOrientation")
def _(e):
    eul = [0.3, -0.2, 1.1]
    ok(e.c.simxSetObjectOrientation(e.h["ball"], -1, eul, e.S), 0)
    assert ok(e.c.simxGetObjectOrientation(e.h["ball"], -1, e.S), 1) == pytest.approx(eul)
    assert ok(e.c.simxGetObjectPosition(e.h["ball"], -1, e.S), 1) == pytest.approx([1.0, 0.0, 0.5])


@case("simxGetObjectQuaternion")
def _(e):
    assert ok(e.c.simxGetObjectQuaternion(e.h["ball"], -1, e.S), 1) == [0.0, 0.0, 0.0, 1.0]


@case("simxSetObjectQuaternion")
def _(e):
    q = [0.0, 0.0, math.sin(0.25), math.cos(0.25)]  # 0.5 rad about z
    ok(e.c.simxSetObjectQuaternion(e.h["ball"], -1, q, e.S), 0)
    assert ok(e.c.simxGetObjectQuaternion(e.h["ball"], -1, e.S), 1) == pytest.approx(q)
    assert ok(e.c.simxGetObjectOrientation(e.h["ball"], -1, e.S), 1) == pytest.approx([0, 0, 0.5])
    err(e.c.simxSetObjectQuaternion(e.h["ball"], -1, [0, 0, 0, 0], e.S))


@case("simxGetObjectPose")
def _(e):
    assert ok(e.c.simxGetObjectPose(e.h["ball"], -1, e.S), 1) == [1.0, 0.0, 0.5, 0.0, 0.0, 0.0, 1.0]


@case("simxSetObjectPose")
def _(e):
    pose = [0.1, 0.2, 0.3, 0.0, math.sin(0.1), 0.0, math.cos(0.1)]
    ok(e.c.simxSetObjectPose(e.h["prox"], e.h["ball"], pose, e.S), 0)
    assert ok(e.c.simxGetObjectPose(e.h["prox"], e.h["ball"], e.S), 1) == pytest.approx(pose)


@case("simxGetObjectMatrix")
def _(e):
    m = ok(e.c.simxGetObjectMatrix(e.h["ball"], -1, e.S), 1)
    assert m == [1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5]


@case("simxSetObjectMatrix")
def _(e):
    c, s = math.cos(0.4), math.sin(0.4)
    m = [c, -s, 0, 2, s, c, 0, 3, 0, 0, 1, 4]
    ok(e.c.simxSetObjectMatrix(e.h["cam"], -1, m, e.S), 0)
    assert ok(e.c.simxGetObjectMatrix(e.h["cam"], -1, e.S), 1) == pytest.approx(m)
    err(e.c.simxSetObjectMatrix(e.h["cam"], -1, [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], e.S))


@case("simxGetObjectVelocity")
def _(e):
    ball = e.scene.find("/ball").obj
    ball.set_velocity([0.5, 0, 0], [0, 0, 2.0])
    lin, ang = ok(e.c.simxGetObjectVelocity(e.h["ball"], e.S), 2)
    assert lin == [0.5, 0.0, 0.0] and ang == [0.0, 0.0, 2.0]
    d = ok(e.c.simxCreateDummy(0.01, [0, 0, 0], e.S), 1)
    ok(e.c.simxSetObjectParent(d, e.h["ball"], False, False, e.S), 1)
    ok(e.c.simxSetObjectPosition(d, e.h["ball"], [1, 0, 0], e.S), 0)
    lin, ang = ok(e.c.simxGetObjectVelocity(d, e.S), 2)
    assert lin == pytest.approx([0.5, 2.0, 0.0])  # v + w x r


@case("simxCopyPasteObjects")
def _(e):
    (h,) = ok(e.c.simxCopyPasteObjects([e.h["ball"]], 0, e.S), 1)
    assert h != e.h["ball"]
    assert ok(e.c.simxGetObjectPosition(h, -1, e.S), 1) == [1.0, 0.0, 0.5]
    assert e.scene.world.get_object_count() == 5
    err(e.c.simxCopyPasteObjects([e.h["joint"]], 0, e.S))


@case("simxRemoveObjects")
def _(e):
    assert ok(e.c.simxRemoveObjects([e.h["ball"]], 0, e.S), 1) == 1
    err(e.c.simxGetObjectPosition(e.h["ball"], -1, e.S))
    assert e.scene.world.get_object_count() == 3
    n = ok(e.c.simxRemoveObjects([e.h["robot"]], 1, e.S), 1)
    assert n == 17
    err(e.c.simxGetObjectHandle("/iiwa/joint_2", e.S))
    err(e.c.simxRemoveObjects([e.h["crate"] + 10000], 0, e.S))


@case("simxLoadModelFromFile")
def _(e):
    path = torsion.robots.urdf_path("slider")
    if e.mode == "remote":
        e.server.core.file_root = os.path.dirname(path)
    h = ok(e.c.simxLoadModelFromFile(path, e.S), 1)
    alias = ok(e.c.simxGetObjectAlias(h, -1, e.S), 1)
    assert e.scene.node(h).kind == "robot" and alias
    assert ok(e.c.simxGetObjectHandle(f"/{alias}", e.S), 1) == h
    err(e.c.simxLoadModelFromFile("/nonexistent/model.urdf", e.S))


@case("simxLoadModelFromBuffer")
def _(e):
    with open(torsion.robots.urdf_path("arm7"), "rb") as f:
        text = f.read()
    h = ok(e.c.simxLoadModelFromBuffer(text, e.S), 1)
    assert ok(e.c.simxGetObjectAlias(h, -1, e.S), 1) == "arm7"
    assert ok(e.c.simxGetObjectHandle("/arm7/joint_3", e.S), 1) > h
    err(e.c.simxLoadModelFromBuffer(b"not urdf", e.S))


@case("simxLoadScene")
def _(e, tmp_path=None):
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        w = torsion.World()
        w.add_ground()
        s = w.add_sphere(0.2, 1.0)
        s.set_name("loaded")
        s.set_position(0, 0, 3)
        fn = os.path.join(d, "scene.xml")
        w.export_to_xml(fn)
        if e.mode == "remote":
            e.server.core.file_root = d
            assert ok(e.c.simxLoadScene("scene.xml", e.S), 1) == 1
            err(e.c.simxLoadScene("../escape.xml", e.S))
        else:
            assert ok(e.c.simxLoadScene(fn, e.S), 1) == 1
    h = ok(e.c.simxGetObjectHandle("/loaded", e.S), 1)
    assert ok(e.c.simxGetObjectPosition(h, -1, e.S), 1) == [0.0, 0.0, 3.0]
    err(e.c.simxGetObjectHandle("/iiwa", e.S))
    err(e.c.simxLoadScene("scene.txt", e.S))


@case("simxCloseScene")
def _(e):
    ok(e.c.simxCloseScene(e.S), 0)
    assert ok(e.c.simxGetObjects("sim.handle_all", e.S), 1) == []
    assert e.scene.world.get_object_count() == 0
    err(e.c.simxGetObjectPosition(e.h["cam"], -1, e.S))


# ---------------------------------------------------------------------------------------------
# simulation


@case("simxStartSimulation")
def _(e):
    assert ok(e.c.simxStartSimulation(e.S), 1) == 1
    assert ok(e.c.simxStartSimulation(e.S), 1) == 0  # already running


@case("simxPauseSimulation")
def _(e):
    assert ok(e.c.simxPauseSimulation(e.S), 1) == 0  # not running
    ok(e.c.simxStartSimulation(e.S), 1)
    assert ok(e.c.simxPauseSimulation(e.S), 1) == 1
    assert ok(e.c.simxGetSimulationState(e.S), 1) == 8


@case("simxStopSimulation")
def _(e):
    ball = e.scene.find("/ball").obj
    step(e, 50)
    assert ball.get_position()[2] < 0.5
    assert ok(e.c.simxStopSimulation(e.S), 1) == 1
    assert ball.get_position().tolist() == [1.0, 0.0, 0.5]  # the scene is restored at stop
    assert ok(e.c.simxStopSimulation(e.S), 1) == 0


@case("simxGetSimulationState")
def _(e):
    assert ok(e.c.simxGetSimulationState(e.S), 1) == 0
    step(e)
    assert ok(e.c.simxGetSimulationState(e.S), 1) == 17  # sim.simulation_advancing_running


@case("simxGetSimulationTime")
def _(e):
    assert ok(e.c.simxGetSimulationTime(e.S), 1) == 0.0
    step(e, 10)
    assert ok(e.c.simxGetSimulationTime(e.S), 1) == pytest.approx(0.01)


@case("simxGetSimulationTimeStep")
def _(e):
    assert ok(e.c.simxGetSimulationTimeStep(e.S), 1) == 0.001


@case("simxGetServerTimeInMs")
def _(e):
    t0 = ok(e.c.simxGetServerTimeInMs(e.S), 1)
    assert isinstance(t0, int) and t0 >= 0
    time.sleep(0.02)
    assert ok(e.c.simxGetServerTimeInMs(e.S), 1) >= t0 + 19  # milliseconds of the server's clock


@case("simxGetSimulationStepDone")
def _(e):
    msgs = step(e, 3)
    assert [m[1]["simulationTime"] for m in msgs] == pytest.approx([0.001, 0.002, 0.003])
    assert all(m[0] is True and m[1]["simulationState"] == 17 and m[1]["simulationTimeStep"] == 0.001 for m in msgs)
    with pytest.raises(ValueError):
        e.c.simxGetSimulationStepDone(e.S)


@case("simxGetSimulationStepStarted")
def _(e):
    started = []
    sub = e.c.simxDefaultSubscriber(started.append)
    e.c.simxGetSimulationStepStarted(sub)
    step(e, 2)
    deadline = time.monotonic() + 5
    while len(started) < 2:
        e.c.simxSpinOnce()
        assert time.monotonic() < deadline
    assert [m[1]["simulationTime"] for m in started] == pytest.approx([0.0, 0.001])


# ---------------------------------------------------------------------------------------------
# client-side helpers


@case("simxServiceCall")
def _(e):
    assert isinstance(e.c.simxServiceCall(), str)
    with pytest.raises(ValueError):
        e.c.simxGetSimulationTime("no such topic")


@case("simxDefaultPublisher")
def _(e):
    pub = e.c.simxDefaultPublisher()
    assert e.c.simxSetInt32Signal("p", 1, pub) is None  # fire and forget
    e.c.simxSynchronous(True)
    e.c.simxSynchronousTrigger()  # a pass applies the queue (the simulation is stopped: no step)
    deadline = time.monotonic() + 5
    while ok(e.c.simxGetInt32Signal("p", e.S), 1) != 1:
        assert time.monotonic() < deadline
        time.sleep(0.005)


@case("simxCreatePublisher")
def _(e):
    pub = e.c.simxCreatePublisher(True)
    assert pub != e.c.simxDefaultPublisher()
    assert e.c.simxSetInt32Signal("q", 5, pub) is None
    deadline = time.monotonic() + 5
    while ok(e.c.simxGetInt32Signal("q", e.S), 1) != 5:
        assert time.monotonic() < deadline
        time.sleep(0.005)


@case("simxRemovePublisher")
def _(e):
    pub = e.c.simxCreatePublisher()
    e.c.simxRemovePublisher(pub)
    with pytest.raises(ValueError):
        e.c.simxSetInt32Signal("q", 5, pub)
    with pytest.raises(ValueError):
        e.c.simxRemovePublisher(e.c.simxDefaultPublisher())


@case("simxDefaultSubscriber")
def _(e):
    got = []
    sub = e.c.simxDefaultSubscriber(got.append)
    assert e.c.simxGetSimulationTime(sub) is None
    deadline = time.monotonic() + 5
    while not got:  # idle passes re-run it while the simulation is stopped
        e.c.simxSpinOnce()
        assert time.monotonic() < deadline
    assert got[0] == [True, 0.0]
    with pytest.raises(ValueError):
        e.c.simxDefaultSubscriber(got.append, 0)


@case("simxCreateSubscriber")
def _(e):
    got = []
    sub = e.c.simxCreateSubscriber(got.append, 1, True)
    e.c.simxGetObjectPosition(e.h["ball"], -1, sub)
    deadline = time.monotonic() + 5
    while not got:
        e.c.simxSpinOnce()
        assert time.monotonic() < deadline
    assert got[0] == [True, [1.0, 0.0, 0.5]]
    with pytest.raises(ValueError):
        e.c.simxGetObjectPosition(e.h["ball"], -1, "nonsense")


@case("simxRemoveSubscriber")
def _(e):
    got = []
    sub = e.c.simxDefaultSubscriber(got.append)
    e.c.simxGetSimulationTime(sub)
    e.c.simxRemoveSubscriber(sub)
    time.sleep(0.15)  # three idle-pass periods
    e.c.simxSpinOnce()
    assert got == []
    with pytest.raises(ValueError):
        e.c.simxRemoveSubscriber(sub)


@case("simxSpinOnce")
def _(e):
    got = []
    sub = e.c.simxDefaultSubscriber(got.append)
    e.c.simxGetSimulationStepDone(sub)
    e.c.simxSynchronous(True)
    e.c.simxStartSimulation(e.S)
    e.c.simxSynchronousTrigger()
    time.sleep(0.1)
    assert got == []  # callbacks run only inside simxSpinOnce
    deadline = time.monotonic() + 5
    while not got:
        e.c.simxSpinOnce()
        assert time.monotonic() < deadline
    assert len(got) == 1


@case("simxSpin")
def _(e):
    got = []

    def cb(msg):
        got.append(msg)
        if len(got) == 3:
            e.c.close()  # simxSpin returns when the client closes

    sub = e.c.simxDefaultSubscriber(cb)
    e.c.simxGetSimulationTime(sub)
    e.c.simxSpin()
    assert len(got) == 3


@case("simxSleep")
def _(e):
    t0 = time.monotonic()
    e.c.simxSleep(20)
    assert time.monotonic() - t0 >= 0.019
    with pytest.raises(ValueError):
        e.c.simxSleep(-1)


@case("simxGetTimeInMs")
def _(e):
    a = e.c.simxGetTimeInMs()
    time.sleep(0.01)
    assert e.c.simxGetTimeInMs() >= a + 9


@case("simxSynchronous")
def _(e):
    e.c.simxSynchronous(True)
    ok(e.c.simxStartSimulation(e.S), 1)
    assert ok(e.c.simxGetBoolParam("sim.boolparam_waiting_for_trigger", e.S), 1) is True
    time.sleep(0.1)
    assert ok(e.c.simxGetSimulationTime(e.S), 1) == 0.0  # no step without a trigger
    e.c.simxSynchronous(False)
    deadline = time.monotonic() + 5
    while ok(e.c.simxGetSimulationTime(e.S), 1) == 0.0:  # free running (real time) again
        assert time.monotonic() < deadline
        time.sleep(0.005)


@case("simxSynchronousTrigger")
def _(e):
    msgs = step(e, 1)
    assert len(msgs) == 1
    msgs = step(e, 25)  # the N-step trigger
    assert msgs[-1][1]["simulationTime"] == pytest.approx(0.026)
    with pytest.raises(ValueError):
        e.c.simxSynchronousTrigger(0)


# ---------------------------------------------------------------------------------------------


def _seed_names():
    names = []
    with open(SEED, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("synopsis |"):
            sig = lines[i + 1]
            names.append(sig.split("(")[0].split()[-1])
    return names


def test_every_function_has_a_case():
    names = set(SIGNATURES) | set(CLIENT_FUNCTIONS) | set(STREAM_ONLY)
    if os.path.exists(SEED):
        seed = _seed_names()
        assert len(seed) == 118
        assert names == set(seed)
    assert set(CASES) == names


def test_client_signatures_match_the_seed():
    import inspect

    for name, args in SIGNATURES.items():
        if name in STREAM_ONLY:
            continue
        params = list(inspect.signature(getattr(simx.RemoteApiClient, name)).parameters)
        assert params == ["self", *args, "topic"], name


@pytest.mark.parametrize("name", sorted(k for k, v in CASES.items() if callable(v)))
def test_function(env, name):
    CASES[name](env)
