"""CoppeliaSim's own ZMQ remote API client (PyPI coppeliasim-zmqremoteapi-client 2.0.4, sync and
asyncio, unmodified) against torsion's protocol-v2 server.

Every server runs in a thread on a free port and is stopped at teardown. The real client has no
receive timeout, so every call that could hang runs in a daemon thread joined with a timeout.
"""

from __future__ import annotations

import asyncio
import math
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import torsion
from torsion import simx
from torsion.simx.zmq_compat import ZmqCompatServer

from .conftest import build_scene

zmq = pytest.importorskip("zmq")
cbor2 = pytest.importorskip("cbor2")
client_mod = pytest.importorskip("coppeliasim_zmqremoteapi_client")
from coppeliasim_zmqremoteapi_client import RemoteAPIClient  # noqa: E402
from coppeliasim_zmqremoteapi_client.asyncio import RemoteAPIClient as AsyncRemoteAPIClient  # noqa: E402

DT = 0.001


def within(fn, timeout=20.0):
    """Run fn() in a daemon thread; its result, or a test failure if it does not return in time."""
    out = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            out["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"no reply within {timeout} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


@pytest.fixture
def served(tmp_path):
    """The scene served on a free port; clients may load files from tmp_path (the file root),
    which holds the bundled slider's URDF."""
    shutil.copy(torsion.robots.urdf_path("slider"), tmp_path / "slider.urdf")
    scene = build_scene()
    server = ZmqCompatServer(scene, port=0, client_timeout=5.0, file_root=str(tmp_path)).start()
    try:
        yield scene, server
    finally:
        server.stop()


def connect(server):
    client = RemoteAPIClient("127.0.0.1", server.port)
    return client, within(lambda: client.require("sim"))


def test_discovery_poses_hierarchy_and_errors(served):
    scene, server = served
    client, sim = connect(server)

    def body():
        assert sim.handle_world == -1 and sim.handle_parent == -11 and sim.simulation_stopped == 0
        joint = sim.getObject("/iiwa/joint_2")
        assert joint == scene.find("/iiwa/joint_2").handle
        ball = sim.getObject("/ball")
        # poses equal the scene model's, in every form
        t = scene.get_T(ball, -1)
        assert np.allclose(sim.getObjectPosition(ball, sim.handle_world), t[:3, 3], atol=0, rtol=0)
        q = sim.getObjectQuaternion(ball, sim.handle_world)
        pose = sim.getObjectPose(ball)
        m = sim.getObjectMatrix(ball)
        assert len(q) == 4 and len(pose) == 7 and len(m) == 12
        assert pose[:3] == sim.getObjectPosition(ball) and pose[3:] == q
        assert np.allclose(np.array(m).reshape(3, 4)[:, 3], t[:3, 3])
        # setters: CoppeliaSim 4.7's order (handle, value, rel) and the older (handle, rel, value)
        sim.setObjectPosition(ball, [1.0, 0.5, 0.7], sim.handle_world)
        assert np.allclose(sim.getObjectPosition(ball), [1.0, 0.5, 0.7])
        sim.setObjectPosition(ball, sim.handle_world, [1.0, 0.25, 0.7])
        assert np.allclose(sim.getObjectPosition(ball), [1.0, 0.25, 0.7])
        sim.setObjectOrientation(ball, [0.1, 0.2, 0.3])
        assert np.allclose(sim.getObjectOrientation(ball), [0.1, 0.2, 0.3])
        # relative to the parent: a link of the robot against its parent link
        link = sim.getObject("/iiwa/link_2")
        parent = sim.getObjectParent(link)
        assert parent != -1
        rel = np.array(sim.getObjectMatrix(link, sim.handle_parent)).reshape(3, 4)
        tp, tl = scene.get_T(parent, -1), scene.get_T(link, -1)
        assert np.allclose(rel, (np.linalg.inv(tp) @ tl)[:3, :], atol=1e-12)
        assert sim.getObjectChild(parent, 0) != -1
        tree = sim.getObjectsInTree(sim.getObject("/iiwa"))
        assert joint in tree and link in tree
        path = sim.getObjectAlias(joint, 2)
        assert path.startswith("/iiwa/") and path.endswith("/joint_2") and sim.getObject(path) == joint
        # errors come back as the client's exceptions; the server keeps serving
        with pytest.raises(Exception, match="no object"):
            sim.getObject("/nowhere")
        assert sim.getObject("/nowhere", {"noError": True}) == -1
        with pytest.raises(Exception, match="getObjectPosition"):
            sim.getObjectPosition("not a handle")
        with pytest.raises(Exception, match="never evaluates"):
            sim.executeScriptString("print(1)@lua")
        assert sim.callScriptFunction("answer", 1) == 42
        assert sim.callScriptFunction("add@/iiwa", 1, 2, 3) == (5, 6)
        return True

    assert within(body)


def test_stepping_loop_matches_the_simx_facade_bitwise(served):
    """A CoppeliaSim-style synchronous loop: stepping on, joint targets, step, read back. The
    same commands through the in-process simx client give bitwise the same joint positions."""
    scene, server = served
    client, sim = connect(server)
    targets = [0.3 * math.sin(0.1 * k) for k in range(40)]

    def remote():
        assert sim.setStepping(True) == 0
        sim.startSimulation()
        assert sim.getSimulationState() == sim.simulation_advancing_running
        j = sim.getObject("/iiwa/joint_2")
        out = []
        for k, target in enumerate(targets):
            t0 = sim.getSimulationTime()
            sim.setJointTargetPosition(j, target)
            sim.step()
            assert sim.getSimulationTime() == pytest.approx(t0 + DT, abs=1e-12)
            out.append(sim.getJointPosition(j))
        return out

    got = within(remote, 60)

    ref_scene = build_scene()
    with simx.RemoteApiClient(ref_scene) as c:
        S = c.simxServiceCall()
        c.simxSynchronous(True)
        c.simxStartSimulation(S)
        j = c.simxGetObjectHandle("/iiwa/joint_2", S)[1]
        want = []
        for target in targets:
            c.simxSetJointTargetPosition(j, target, S)
            c.simxSynchronousTrigger()
            want.append(c.simxGetJointPosition(j, S)[1])
    assert got == want
    assert got[-1] != got[0]


def test_vision_proximity_signals_params_and_objects(served):
    scene, server = served
    client, sim = connect(server)
    dt = scene.time_step

    def body():
        cam = sim.getObject("/cam")
        img, res = sim.getVisionSensorImg(cam)
        assert res == [16, 12] and isinstance(img, bytes) and len(img) == 16 * 12 * 3
        assert img == scene.vision_image(cam, False)[1]
        grey, res = sim.getVisionSensorImg(cam, 1)
        assert len(grey) == 16 * 12
        depth, res = sim.getVisionSensorDepth(cam, 1)
        d = np.frombuffer(depth, dtype=np.float32)
        assert np.array_equal(d, scene.vision_depth(cam, True)[1])
        # the ball (top at z 0.6) is under the camera at z 2: no pixel's ray meets the top exactly
        # (an even resolution), the nearest lies a little beyond 1.4 m
        assert 1.4 <= d.min() < 1.42
        window, wres = sim.getVisionSensorImg(cam, 0, 0, [2, 3], [4, 5])
        assert wres == [4, 5] and len(window) == 4 * 5 * 3
        full = np.frombuffer(img, dtype=np.uint8).reshape(12, 16, 3)
        assert window == full[3:8, 2:6].tobytes()
        # proximity ray 1 m up, pointing down at the ball's top (z 0.6): 0.4 m
        result, dist, point, obj, normal = sim.readProximitySensor(sim.getObject("/prox"))
        assert result == 1 and dist == pytest.approx(0.4, abs=1e-9) and obj == sim.getObject("/ball")
        # signals
        assert sim.getInt32Signal("count") is None
        sim.setInt32Signal("count", 7)
        assert sim.getInt32Signal("count") == 7
        sim.clearInt32Signal("count")
        assert sim.getInt32Signal("count") is None
        sim.setFloatSignal("gain", 2.5)
        assert sim.getFloatSignal("gain") == 2.5
        sim.setStringSignal("mode", "walk")
        assert sim.getStringSignal("mode") == "walk"
        # parameters
        assert sim.getFloatParam(sim.floatparam_simulation_time_step) == dt
        sim.setFloatParam(sim.floatparam_simulation_time_step, 0.002)
        assert sim.getSimulationTimeStep() == 0.002
        sim.setArrayParam(sim.arrayparam_gravity, [0.0, 0.0, -3.0])
        assert sim.getArrayParam(sim.arrayparam_gravity) == [0.0, 0.0, -3.0]
        assert isinstance(sim.getBoolParam(sim.boolparam_realtime_simulation), bool)
        # collision and distance
        ball, crate = sim.getObject("/ball"), sim.getObject("/crate")
        assert sim.checkCollision(ball, crate) == (0, [-1, -1])
        res, data, pair = sim.checkDistance(ball, crate, 0)
        assert res == 1 and len(data) == 7 and pair == [ball, crate]
        assert data[6] == pytest.approx(np.linalg.norm(np.array(data[:3]) - np.array(data[3:6])))
        # objects: dummies, drawing objects, models, removal
        dummy = sim.createDummy(0.05)
        sim.setObjectPosition(dummy, [0.0, 0.0, 3.0])
        assert sim.getObjectPosition(dummy) == [0.0, 0.0, 3.0]
        drawing = sim.addDrawingObject(sim.drawing_points, 3, 0, -1, 100, [1, 0, 0])
        assert sim.addDrawingObjectItem(drawing, [0.0, 0.0, 1.0]) == 1
        assert scene.drawings[drawing].items.tolist() == [[0.0, 0.0, 1.0]]
        model = sim.loadModel("slider.urdf")  # relative to the server's file root
        assert sim.getObjectAlias(model) == "slider"
        sim.removeObjects([dummy, model])
        with pytest.raises(Exception):
            sim.getObjectPosition(dummy)
        return True

    assert within(body, 60)


def test_asyncio_client_and_its_socket_pool(served):
    scene, server = served

    async def main():
        async with AsyncRemoteAPIClient("127.0.0.1", server.port) as client:
            sim = await client.require("sim")
            ball = await sim.getObject("/ball")
            # concurrent calls: the client opens a REQ socket per call in flight, one uuid
            positions = await asyncio.gather(*(sim.getObjectPosition(ball, -1) for _ in range(6)))
            await sim.setStepping(True)
            await sim.startSimulation()
            for _ in range(5):
                await sim.step()
            return positions, await sim.getSimulationTime()

    positions, t = within(lambda: asyncio.run(main()), 60)
    assert all(p == [1.0, 0.0, 0.5] for p in positions)
    assert t == pytest.approx(5 * scene.time_step, abs=1e-12)


def test_two_stepping_clients_gate_each_step(served):
    scene, server = served
    c1, sim1 = connect(server)
    c2, sim2 = connect(server)

    def body():
        sim1.setStepping(True)
        sim2.setStepping(True)
        sim1.startSimulation()
        done = threading.Event()

        def first():
            sim1.step()
            done.set()

        t = threading.Thread(target=first, daemon=True)
        t.start()
        # client 1 waits for client 2: no step while only one of them asked
        assert not done.wait(0.3)
        assert sim2.getSimulationTime() == 0.0
        sim2.step()
        assert done.wait(10)
        t.join(10)
        return sim2.getSimulationTime()

    assert within(body, 30) == pytest.approx(scene.time_step, abs=1e-12)


_DYING_CLIENT = """
import sys, time
from coppeliasim_zmqremoteapi_client import RemoteAPIClient
sim = RemoteAPIClient("127.0.0.1", int(sys.argv[1])).require("sim")
sim.setStepping(True)
sim.startSimulation()
sim.step()
print("stepping", flush=True)
time.sleep(60)
"""


def test_a_client_dying_mid_stepping_does_not_stall_the_other():
    scene = build_scene()
    dt = scene.time_step  # read before the server's threads share the world
    with ZmqCompatServer(scene, port=0, client_timeout=1.0) as server:
        proc = subprocess.Popen([sys.executable, "-c", _DYING_CLIENT, str(server.port)], stdout=subprocess.PIPE,
                                text=True)
        try:
            client, sim = connect(server)
            sim.setStepping(True)

            def wait_stepping():
                return proc.stdout.readline().strip()

            assert within(wait_stepping, 30) == "stepping"
            proc.kill()
            proc.wait(10)

            def steps():
                for _ in range(20):
                    sim.step()
                return sim.getSimulationTime()

            # the dead client's hold is released once its silence exceeds client_timeout (1 s):
            # the steps happen (within() fails the test if they stall)
            t = within(steps, 60)
            assert t >= 20 * dt - 1e-12
        finally:
            proc.kill()
            proc.wait(10)
            proc.stdout.close()


def _raw(server, payload: bytes, timeout=5.0):
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.REQ)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.RCVTIMEO, int(timeout * 1000))
    s.connect(f"tcp://127.0.0.1:{server.port}")
    try:
        s.send(payload)
        return cbor2.loads(s.recv())
    finally:
        s.close(0)


def test_malformed_requests_get_err_replies_and_the_server_keeps_serving(served):
    scene, server = served
    uuid = "test-raw"
    cases = [
        (b"\xff\xfe\x00garbage", "not CBOR"),
        (cbor2.dumps([1, 2, 3]), "CBOR map"),
        (cbor2.dumps({"func": "sim.getObject", "args": ["/ball"]}), None),  # no uuid: protocol v1
        (cbor2.dumps({"func": "sim.noSuchFunction", "args": [], "uuid": uuid}), "unknown function"),
        (cbor2.dumps({"func": "os.system", "args": ["true"], "uuid": uuid}), "unknown function"),
        (cbor2.dumps({"func": 12, "args": [], "uuid": uuid}), "malformed"),
        (cbor2.dumps({"func": "sim.getObjectPosition", "args": [[1, 2]], "uuid": uuid}), "getObjectPosition"),
        (cbor2.dumps({"func": "sim.setJointTargetPosition", "args": [1, "x"], "uuid": uuid}), "sim.setJointTargetPosition"),
        (cbor2.dumps({"eval": "sim.getObject('/ball')", "uuid": uuid}), "never evaluates"),
        (cbor2.dumps({"func": "sim.getObject", "args": ["/ball", {"noError": "x" * 10}], "argsL": 99, "uuid": uuid}),
         None),
    ]
    for payload, expect in cases:
        reply = _raw(server, payload)
        assert isinstance(reply, dict), reply
        if expect is None:
            assert "ret" in reply or reply.get("success") is False, reply
        else:
            assert expect in reply["err"], reply
    # a message larger than the limit is dropped by ZeroMQ; the server still answers the next one
    ok = _raw(server, cbor2.dumps({"func": "sim.getObject", "args": ["/ball"], "argsL": 1, "uuid": uuid}))
    assert ok == {"ret": [scene.find("/ball").handle]}
    assert server.errors >= 7


def test_serve_zmq_compat_from_the_command_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "torsion", "serve", "--zmq-compat", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        line = within(proc.stdout.readline, 60)
        assert f"127.0.0.1:{port}" in line and "protocol 2" in line
        client = RemoteAPIClient("127.0.0.1", port)
        sim = within(lambda: client.require("sim"))
        assert within(sim.getSimulationState) == 0
        dummy = within(lambda: sim.createDummy(0.1))
        assert within(lambda: sim.getObjectPosition(dummy)) == [0.0, 0.0, 0.0]
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def test_server_arguments_are_checked():
    with pytest.raises(ValueError, match="port"):
        ZmqCompatServer(port=70000)
    with pytest.raises(ValueError, match="client_timeout"):
        ZmqCompatServer(port=0, client_timeout=0)
    with ZmqCompatServer(port=0) as server:
        with pytest.raises(RuntimeError, match="cannot bind"):
            ZmqCompatServer(port=server.port)
