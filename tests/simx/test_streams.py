"""Topics: a CoppeliaSim-style synchronous script gives identical results in-process and over
loopback; subscribers deliver exactly the right messages; publishers apply in order."""

from __future__ import annotations

import time

import numpy as np
import pytest

from .conftest import build_scene, open_client


def coppelia_style_script(client, steps=30):
    """What a CoppeliaSim B0 user writes: handles by path, synchronous mode, wait for each
    step's end, read a vision sensor, set joint targets from what was seen."""
    S = client.simxServiceCall()
    joints = [client.simxGetObjectHandle(f"/iiwa/joint_{i}", S)[1] for i in range(1, 8)]
    cam = client.simxGetObjectHandle("/cam", S)[1]
    done = []
    client.simxGetSimulationStepDone(client.simxDefaultSubscriber(done.append))
    client.simxSynchronous(True)
    client.simxStartSimulation(S)
    log = []
    for k in range(steps):
        _, res, img = client.simxGetVisionSensorImage(cam, False, S)
        _, _, depth = client.simxGetVisionSensorDepthBuffer(cam, True, False, S)
        brightness = np.frombuffer(img, np.uint8).mean() / 255.0
        for i, j in enumerate(joints):
            client.simxSetJointTargetPosition(j, 0.05 * i * brightness + 0.01 * k, client.simxDefaultPublisher())
        client.simxSynchronousTrigger()
        deadline = time.monotonic() + 10.0
        while not done:
            client.simxSpinOnce()
            assert time.monotonic() < deadline, "step done never arrived"
        msg = done.pop(0)
        q = [client.simxGetJointPosition(j, S)[1] for j in joints]
        log.append((msg[1]["simulationTime"], res, img, depth.tobytes(), q))
    client.simxStopSimulation(S)
    return log


def test_script_runs_identically_in_process_and_remote():
    results = []
    for mode in ("inproc", "remote"):
        c, server = open_client(build_scene(), mode)
        try:
            results.append(coppelia_style_script(c))
        finally:
            c.close()
            if server is not None:
                server.stop()
    a, b = results
    assert len(a) == 30 and a == b  # bitwise: times, images, depth buffers, joint positions
    assert a[-1][0] == pytest.approx(0.030)
    assert a[-1][4] != a[0][4]  # the arm moved


def _wait_inbox(c, n, timeout=10.0):
    deadline = time.monotonic() + timeout
    while len(c._inbox) < n:
        c._poll_messages(0.01)
        assert time.monotonic() < deadline, f"{len(c._inbox)} of {n} messages arrived"


@pytest.mark.parametrize("mode", ["inproc", "remote"])
def test_subscribers_deliver_exactly(mode):
    sc = build_scene()
    c, server = open_client(sc, mode)
    try:
        S = c.simxServiceCall()
        c.simxSynchronous(True)
        c.simxStartSimulation(S)  # running and waiting for triggers: no pass runs subscribers
        got = {k: [] for k in ("a1", "a5", "d1", "d5")}
        subs = {
            "a1": c.simxDefaultSubscriber(got["a1"].append, 1),
            "a5": c.simxDefaultSubscriber(got["a5"].append, 5),
            "d1": c.simxCreateSubscriber(got["d1"].append, 1, True),
            "d5": c.simxCreateSubscriber(got["d5"].append, 5, True),
        }
        for topic in subs.values():
            c.simxGetSimulationTime(topic)
        # one step at a time, spinning after each: everyone sees every message due
        for k in range(20):
            c.simxSynchronousTrigger()
            _wait_inbox(c, 2 if (k + 1) % 5 else 4)
            c.simxSpinOnce()
        t = lambda msgs: [round(m[1], 6) for m in msgs]  # noqa: E731
        assert all(m[0] is True for v in got.values() for m in v)
        assert t(got["a1"]) == t(got["d1"]) == [round(0.001 * i, 6) for i in range(1, 21)]
        assert t(got["a5"]) == t(got["d5"]) == [0.005, 0.01, 0.015, 0.02]
        for v in got.values():
            v.clear()
        # twenty steps in one trigger, one spin: dropMessages keeps only the newest
        c.simxSynchronousTrigger(20)
        _wait_inbox(c, 20 + 4 + 20 + 4)
        c.simxSpinOnce()
        assert t(got["a1"]) == [round(0.001 * i, 6) for i in range(21, 41)]
        assert t(got["a5"]) == [0.025, 0.03, 0.035, 0.04]
        assert t(got["d1"]) == [0.04]
        assert t(got["d5"]) == [0.04]
        # removing a subscriber stops its messages
        c.simxRemoveSubscriber(subs["a1"])
        for v in got.values():
            v.clear()
        c.simxSynchronousTrigger(5)
        _wait_inbox(c, 5 + 1 + 1)  # d1 five times, a5 and d5 once
        c.simxSpinOnce()
        assert got["a1"] == [] and len(got["d1"]) == 1 and len(got["a5"]) == 1 and len(got["d5"]) == 1
        c.simxSpinOnce()
        assert len(c._inbox) == 0
    finally:
        c.close()
        if server is not None:
            server.stop()


@pytest.mark.parametrize("mode", ["inproc", "remote"])
def test_publishers_apply_in_order(mode):
    sc = build_scene()
    seen = {"plain": [], "drop": []}
    sc.register_script_function("plain", lambda i: seen["plain"].append(i))
    sc.register_script_function("drop", lambda i: seen["drop"].append(i))
    c, server = open_client(sc, mode)
    try:
        S = c.simxServiceCall()
        pub = c.simxDefaultPublisher()
        drop = c.simxCreatePublisher(True)
        with sc.lock:  # hold the passes while queueing
            for i in range(50):
                assert c.simxCallScriptFunction("plain", 1, [i], pub) is None
                assert c.simxCallScriptFunction("drop", 1, [i], drop) is None
            if mode == "remote":
                time.sleep(0.2)  # let the messages reach the server's socket
        deadline = time.monotonic() + 10
        while len(seen["plain"]) < 50 or not seen["drop"] or seen["drop"][-1] != 49:
            assert time.monotonic() < deadline
            time.sleep(0.005)
        assert seen["plain"] == list(range(50))
        assert seen["drop"] == sorted(set(seen["drop"])) and seen["drop"][-1] == 49
        if mode == "inproc":
            assert seen["drop"] == [49]
        # publisher messages go before the trigger queued after them: the step sees the target
        j = c.simxGetObjectHandle("/iiwa/joint_2", S)[1]
        c.simxSynchronous(True)
        c.simxStartSimulation(S)
        c.simxSetJointTargetPosition(j, 0.25, pub)
        c.simxSynchronousTrigger()
        while c.simxGetSimulationTime(S)[1] < 0.001:
            assert time.monotonic() < deadline
            time.sleep(0.002)
        assert c.simxGetJointTargetPosition(j, S)[1] == 0.25
        assert sc.find("/iiwa").obj.get_pd_target()[0][1] == 0.25
    finally:
        c.close()
        if server is not None:
            server.stop()
