"""The server under bad input and many clients: it answers errors, keeps serving, loses no
step; clients time out, reconnect, and release their hold on stepping when they die."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import msgpack
import pytest
import zmq

import torsion
from torsion import simx
from torsion.simx import transport

from .conftest import build_scene

PYTHON_DIR = os.path.dirname(os.path.dirname(torsion.__file__))


def raw_request(endpoint, payload: bytes, timeout=5.0):
    ctx = zmq.Context()
    s = ctx.socket(zmq.REQ)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.RCVTIMEO, int(timeout * 1000))
    s.connect(endpoint)
    try:
        s.send(payload)
        return transport.unpack(s.recv())
    finally:
        s.close(0)
        ctx.term()


@pytest.fixture
def server():
    srv = simx.Server(build_scene(), client_timeout=0.5, max_message_bytes=64 * 1024).start()
    try:
        yield srv
    finally:
        srv.stop()


def still_serving(srv):
    with simx.RemoteApiClient(srv.endpoint, timeout=5.0) as c:
        assert c.simxGetObjectHandle("/iiwa/joint_2", c.simxServiceCall())[0] is True


def test_malformed_messages_get_errors(server):
    for payload in [b"\xc1\xc1garbage", b"", msgpack.packb({"func": "x"}), msgpack.packb([["GetObjectHandle"], []]),
                    msgpack.packb([[1, "id", "SerX", 0], []]), msgpack.packb([["GetObjectHandle", "id", "SerX", "0"], []]),
                    msgpack.packb([["GetObjectHandle", "id", "SerX", 0], "notalist"]),
                    msgpack.packb([["GetObjectHandle", "id", "SerX", 0], [msgpack.ExtType(1, b"\x05\x00bad")]])]:
        reply = raw_request(server.endpoint, payload)
        assert reply[0] is False and reply[1].startswith("ValueError: malformed"), (payload, reply)
    assert server.errors >= 8
    still_serving(server)


def test_unknown_functions_and_wrong_arguments(server):
    head = lambda f, task=0: [f, "tester0001", "SerX", task]  # noqa: E731
    reply = raw_request(server.endpoint, msgpack.packb([head("NoSuchFunction"), []]))
    assert reply == [False, "ValueError: unknown function 'NoSuchFunction'"]
    reply = raw_request(server.endpoint, msgpack.packb([head("GetObjectHandle"), []]))
    assert reply[0] is False and reply[1].startswith("TypeError: simxGetObjectHandle takes 1 argument")
    reply = raw_request(server.endpoint, msgpack.packb([head("GetObjectHandle", 7), ["/x"]]))
    assert reply[0] is False and "task 7" in reply[1]
    with simx.RemoteApiClient(server.endpoint, timeout=5.0) as c:
        S = c.simxServiceCall()
        assert c.simxGetObjectPosition("/ball", -1, S)[1].startswith("TypeError: objectHandle must be an int")
        assert c.simxSetObjectPosition(1, -1, ["a", "b", "c"], S)[1].startswith("TypeError: position")
        assert c.simxSetJointTargetPosition(1, float("nan"), S)[0] is False
        assert c.simxGetObjectPosition(1, {"a": 1}, S)[1].startswith("TypeError")
        with pytest.raises(ValueError):
            c.simxCheckCollision(1, 2, "not a topic")
    with simx.RemoteApiClient(server.endpoint, timeout=5.0, raise_on_error=True) as c:
        with pytest.raises(TypeError, match="objectHandle must be an int"):
            c.simxGetObjectPosition("/ball", -1, c.simxServiceCall())
        with pytest.raises(ValueError, match="no object"):
            c.simxGetObjectHandle("/nothing", c.simxServiceCall())
    still_serving(server)


def test_oversized_messages_are_refused(server):
    with simx.RemoteApiClient(server.endpoint, timeout=5.0) as c:
        S = c.simxServiceCall()
        reply = c.simxSetStringSignal("big", b"x" * (100 * 1024), S)
        assert reply[0] is False and "exceeds the limit of 65536 bytes" in reply[1]
        assert c.simxGetStringSignal("big", S) == [True, None]
        assert c.simxSetStringSignal("ok", b"x" * 1000, S) == [True, None]
        # a reply above the limit is refused too (the server stays up)
        server.scene.string_signals["huge"] = b"y" * (80 * 1024)
        reply = c.simxGetStringSignal("huge", S)
        assert reply[0] is False and "reply of" in reply[1]
    still_serving(server)


def test_client_times_out_and_reconnects():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(TimeoutError):
        simx.RemoteApiClient(f"tcp://127.0.0.1:{port}", timeout=0.3)
    srv = simx.Server(build_scene(), port=port).start()
    c = simx.RemoteApiClient(f"tcp://127.0.0.1:{port}", timeout=0.5)
    try:
        S = c.simxServiceCall()
        assert c.simxGetSimulationTimeStep(S) == [True, 0.001]
        srv.stop()
        with pytest.raises(TimeoutError):
            c.simxGetSimulationTimeStep(S)
        srv = simx.Server(build_scene(), port=port).start()  # a restarted server
        assert c.simxGetSimulationTimeStep(S) == [True, 0.001]
        got = []
        c.simxGetSimulationTime(c.simxDefaultSubscriber(got.append))
        deadline = time.monotonic() + 5
        while not got:  # streams work after the reconnect
            c.simxSpinOnce()
            assert time.monotonic() < deadline
    finally:
        c.close()
        srv.stop()


KILLED_CLIENT = r"""
import sys, time
from torsion import simx
c = simx.RemoteApiClient(sys.argv[1], timeout=5.0)
S = c.simxServiceCall()
c.simxSynchronous(True)
c.simxStartSimulation(S)
c.simxSynchronousTrigger(3)
print("ready", flush=True)
time.sleep(600)
"""


def test_a_killed_client_releases_synchronous_stepping(server):
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", KILLED_CLIENT, server.endpoint], stdout=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline().strip() == b"ready"
        with simx.RemoteApiClient(server.endpoint, timeout=5.0) as c:
            S = c.simxServiceCall()
            deadline = time.monotonic() + 10
            while c.simxGetSimulationTime(S)[1] < 0.003 - 1e-9:  # its own three steps (alone, it gates)
                assert time.monotonic() < deadline
                time.sleep(0.005)
            c.simxSynchronous(True)
            done = []
            c.simxGetSimulationStepDone(c.simxDefaultSubscriber(done.append))
            c.simxSynchronousTrigger(5)
            proc.kill()  # dies holding synchronous stepping, with 3 triggers of its own pending
            proc.wait(10)
            deadline = time.monotonic() + 10
            while len(done) < 5:  # stepping resumes once the server drops the dead client
                c.simxSpinOnce()
                assert time.monotonic() < deadline
            assert c.simxGetSimulationTime(S)[1] == pytest.approx(0.008)
            assert server.core.steps_run == 8  # 3 + 5: no step lost, none extra
            assert list(server.core.clients) == [c.clientId]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()


def test_fifty_clients_at_once():
    srv = simx.Server(build_scene(), client_timeout=10.0, max_clients=60).start()
    n, steps = 50, 4
    barrier = threading.Barrier(n)
    failures = []
    results = []
    times = []

    def worker(i):
        try:
            with simx.RemoteApiClient(srv.endpoint, timeout=20.0) as c:
                S = c.simxServiceCall()
                c.simxSynchronous(True)
                barrier.wait(timeout=30)
                if i == 0:
                    c.simxStartSimulation(S)
                barrier.wait(timeout=30)
                h = c.simxGetObjectHandle("/iiwa/joint_2", S)
                bad = c.simxGetObjectPosition(123456, -1, S)  # an error answered, nothing breaks
                for _ in range(steps):
                    c.simxSynchronousTrigger()
                deadline = time.monotonic() + 30
                while c.simxGetSimulationTime(S)[1] < steps * 0.001 - 1e-9:
                    assert time.monotonic() < deadline, "steps did not happen"
                    time.sleep(0.01)
                barrier.wait(timeout=30)  # everyone has seen the steps; all are still synchronous
                if i == 0:
                    times.append(c.simxGetSimulationTime(S)[1])
                    times.append(srv.core.steps_run)
                    c.simxStopSimulation(S)
                results.append((h, bad[0]))
                barrier.wait(timeout=30)
        except Exception as exc:  # reported below
            failures.append(repr(exc))
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not failures, failures[:3]
        assert len(results) == n
        assert all(h == [True, results[0][0][1]] and bad is False for h, bad in results)
        assert times == [pytest.approx(steps * 0.001), steps]  # each step waited for all 50 triggers; none lost
        with pytest.raises(ConnectionError, match="too many clients"):
            small = simx.Server(build_scene(), max_clients=1).start()
            try:
                with simx.RemoteApiClient(small.endpoint, timeout=5.0):
                    simx.RemoteApiClient(small.endpoint, timeout=5.0)
            finally:
                small.stop()
    finally:
        srv.stop()


def test_in_process_core_refuses_bad_calls_too():
    from torsion.simx.functions import Core

    core = Core(build_scene())
    assert core.call("x", "simxNoSuch", []) == [False, "ValueError: unknown function 'simxNoSuch'"]
    assert core.call("x", "simxGetObjectHandle", "notalist")[0] is False
    assert core.call("x", 5, [])[0] is False


def test_a_failing_script_function_is_an_error_reply(server):
    server.scene.register_script_function("boom", lambda: 1 / 0)
    with simx.RemoteApiClient(server.endpoint, timeout=5.0) as c:
        reply = c.simxExecuteScriptString("boom", c.simxServiceCall())
        assert reply == [False, "RuntimeError: ZeroDivisionError: division by zero"]
        with pytest.raises(TypeError, match="cannot be sent"):
            c.simxSetObjectSelection([2**70], c.simxServiceCall())
        with pytest.raises(TypeError, match="cannot be sent"):
            c.simxSetObjectPosition(1, -1, [object(), 0, 0], c.simxDefaultPublisher())
    still_serving(server)


def test_missing_remote_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "zmq", None)
    with pytest.raises(ImportError, match=r"torsion\[remote\]"):
        transport._deps()


def test_server_binds_loopback_by_default():
    with simx.Server(build_scene()) as srv:
        assert srv.endpoint.startswith("tcp://127.0.0.1:")
    with pytest.raises(ValueError):
        simx.Server(build_scene(), port=70000)


def test_queues_are_bounded(monkeypatch):
    from torsion.simx import functions

    monkeypatch.setattr(functions, "MAX_QUEUED_MESSAGES", 10)
    monkeypatch.setattr(functions, "MAX_SUBSCRIPTIONS_PER_CLIENT", 3)
    core = functions.Core(build_scene())
    for i in range(15):
        core.publish("c1", "SubX", "simxSetInt32Signal", ["s", i])
    assert core.dropped == 5
    core.run_pass()
    assert core.scene.int_signals["s"] == 9  # the first ten, in order
    for _ in range(3):
        assert core.subscribe("c1", "Pub1", "simxGetSimulationTime", [], 1) == [True]
    reply = core.subscribe("c1", "Pub1", "simxGetSimulationTime", [], 1)
    assert reply[0] is False and "at most 3" in reply[1]


@pytest.mark.parametrize("mode", ["inproc", "remote"])
def test_every_function_refuses_garbage(mode):
    """Each simx function with arguments of the wrong kind answers [False, "Type: ..."]."""
    from torsion.simx.functions import SIGNATURES, STREAM_ONLY

    from .conftest import open_client

    c, srv = open_client(build_scene(), mode)
    try:
        S = c.simxServiceCall()
        for name, args in SIGNATURES.items():
            if not args or name in STREAM_ONLY:
                continue
            for bad in ({"bad": 1}, float("nan"), None, [[]]):
                reply = getattr(c, name)(*([bad] * len(args)), S)
                assert reply[0] is False, (name, bad, reply)
                assert reply[1].split(":")[0] in ("ValueError", "TypeError", "IndexError", "RuntimeError"), (name, reply)
        assert c.simxGetObjectHandle("/iiwa/joint_2", S)[0] is True  # still serving
    finally:
        c.close()
        if srv is not None:
            srv.stop()


def test_curve_encryption_and_client_keys():
    good, bad, server_keys = zmq.curve_keypair(), zmq.curve_keypair(), zmq.curve_keypair()
    srv = simx.Server(build_scene(), curve_keys=server_keys, authorized_clients=[good[0]]).start()
    try:
        with simx.RemoteApiClient(srv.endpoint, timeout=5.0, server_public_key=server_keys[0], curve_keys=good) as c:
            S = c.simxServiceCall()
            assert c.simxGetObjectHandle("/ball", S)[0] is True
            got = []
            c.simxGetSimulationTime(c.simxDefaultSubscriber(got.append))
            deadline = time.monotonic() + 5
            while not got:  # streams pass through CURVE too
                c.simxSpinOnce()
                assert time.monotonic() < deadline
        with pytest.raises(TimeoutError):  # a key the server does not accept
            simx.RemoteApiClient(srv.endpoint, timeout=0.5, server_public_key=server_keys[0], curve_keys=bad)
        with pytest.raises(TimeoutError):  # no encryption at all
            simx.RemoteApiClient(srv.endpoint, timeout=0.5)
        with pytest.raises(ValueError):
            simx.RemoteApiClient(srv.endpoint, server_public_key="short")
    finally:
        srv.stop()
    with pytest.raises(ValueError):
        simx.Server(build_scene(), authorized_clients=[good[0]])


def test_a_busy_port_is_a_clear_error():
    with simx.Server(build_scene()) as srv:
        with pytest.raises(RuntimeError, match="cannot bind"):
            simx.Server(build_scene(), port=srv.port)


def test_a_b0_encoded_request_is_understood(server):
    """b0RemoteApi.py packs a call as msgpack [[funcName, clientId, topic, task], args] with the
    name without its simx prefix; the server answers B0's [success, ret...]."""
    reply = raw_request(server.endpoint, msgpack.packb([["GetObjectHandle", "b0client01", "b0RemoteApiSerX", 0], ["/iiwa/joint_2"]]))
    assert reply == [True, server.scene.find("/iiwa/joint_2").handle]
    reply = raw_request(server.endpoint, msgpack.packb([["GetObjectPosition", "b0client01", "b0RemoteApiSerX", 0],
                                                        [reply[1], "sim.handle_parent"]]))
    assert reply[0] is True and reply[1] == pytest.approx([0, 0, 0.2025])


def test_b0_style_trigger_and_stream_registration(server):
    """b0RemoteApi.py sends SynchronousTrigger and the step-stream registrations with a dummy [0]."""
    cid = "b0client02"
    head = lambda f, task, topic="b0RemoteApiSerX": [f, cid, topic, task]  # noqa: E731
    assert raw_request(server.endpoint, msgpack.packb([head("Synchronous", 0), [True]])) == [True]
    assert raw_request(server.endpoint, msgpack.packb([head("GetSimulationStepDone", 2, "b0RemoteApiPub2" + cid), [0]])) == [True]
    assert raw_request(server.endpoint, msgpack.packb([head("StartSimulation", 0), []])) == [True, 1]
    ctx = zmq.Context()
    push = ctx.socket(zmq.PUSH)
    push.setsockopt(zmq.LINGER, 1000)
    try:
        push.connect(f"tcp://127.0.0.1:{server.pull_port}")
        push.send(msgpack.packb([head("SynchronousTrigger", 1, "b0RemoteApiSubX"), [0]]))
    finally:
        push.close()
        ctx.term()
    deadline = time.monotonic() + 10
    while server.core.steps_run < 1:
        assert time.monotonic() < deadline
        time.sleep(0.005)
    assert server.core.steps_run == 1  # one trigger, one step


def test_spinning_server_serves_and_stops():
    """spin=True (what `python -m torsion serve` does on its main thread) in a thread: calls,
    publisher messages and synchronous steps go through between its non-blocking polls, and stop()
    ends it."""
    srv = simx.Server(build_scene(), spin=True).start()
    try:
        with simx.RemoteApiClient(srv.endpoint, timeout=10.0) as c:
            S = c.simxServiceCall()
            ok, h = c.simxGetObjectHandle("/ball", S)
            assert ok
            for _ in range(50):
                assert c.simxGetObjectPosition(h, -1, S)[0]
            c.simxSetFloatSignal("a", 1.5, c.simxDefaultPublisher())
            c.simxSynchronous(True)
            c.simxStartSimulation(S)
            c.simxSynchronousTrigger(3)
            deadline = time.monotonic() + 20
            while c.simxGetSimulationTime(S)[1] < 0.003 - 1e-9:
                assert time.monotonic() < deadline
            assert c.simxGetFloatSignal("a", S) == [True, 1.5]
    finally:
        srv.stop()
    assert srv._thread is None
    with pytest.raises(TypeError, match="spin must be True, False or None"):
        simx.Server(build_scene(), spin="yes")
