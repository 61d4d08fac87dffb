"""The simx facade: call cost in-process, loopback round trips, a 640x480 depth buffer, and what a
synchronous step costs above the physics.

Peer: CoppeliaSim's own remote-API client stack, the unmodified PyPI client
``coppeliasim-zmqremoteapi-client`` (ZMQ protocol v2, REQ/REP + CBOR), talking on loopback to a
minimal protocol-v2 server written here (it answers from constants: no simulator behind it, so
the peer's figures are pure protocol and transport cost, a lower bound for CoppeliaSim itself).
torsion's figures include the scene lookup behind each call. Goals (issue #28): loopback small
call p50 <= 100 us and p99 <= 1 ms, for a server run as users run it (``python -m torsion serve``,
a process of its own: the "server in its own process" rows, measured against the peer's server
in its own process, alternated); the same with the server in a thread of the client's process
(sharing its GIL) is reported too; 640x480 depth buffer <= 1 ms.
"""

from __future__ import annotations

import math
import threading
import time

import numpy as np

import torsion
from torsion.bench._common import Result, optional_import, time_per_call_us

W, H = 640, 480


def _scene(resolution=(W, H)):
    from torsion import simx

    w = torsion.World()
    w.add_ground()
    s = w.add_sphere(0.1, 1.0)
    s.set_name("ball")
    s.set_position(1.0, 0.0, 0.5)
    r = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    r.set_name("iiwa")
    sc = simx.Scene(w)
    sc.add_vision_sensor("cam", pose=[1.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0], resolution=resolution, near=0.1, far=5.0,
                         angle=math.radians(60.0))
    return sc


def _latencies(fn, n: int) -> tuple[float, float]:
    fn()
    lat = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        lat.append(time.perf_counter() - t0)
    lat.sort()
    return lat[len(lat) // 2] * 1e6, lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e6


def _zmq_v2_server(zmq, cbor2, port_box, stop, depth_bytes):
    """A minimal ZMQ remote API v2 server: require/info handshake, two functions, constants."""
    ctx = zmq.Context()
    s = ctx.socket(zmq.REP)
    s.setsockopt(zmq.LINGER, 0)
    port_box.append(s.bind_to_random_port("tcp://127.0.0.1"))
    info = {"getObjectPosition": {"func": {}}, "getVisionSensorDepth": {"func": {}}, "handle_world": {"const": -1}}
    try:
        while not stop.is_set():
            if not s.poll(50):
                continue
            req = cbor2.loads(s.recv())
            f = req.get("func")
            if f == "zmqRemoteApi.require":
                ret = []
            elif f == "zmqRemoteApi.info":
                ret = [info]
            elif f == "sim.getObjectPosition":
                ret = [[1.0, 0.0, 0.5]]
            elif f == "sim.getVisionSensorDepth":
                ret = [depth_bytes, [W, H]]
            else:
                s.send(cbor2.dumps({"err": f"unknown {f}"}))
                continue
            s.send(cbor2.dumps({"ret": ret}))
    finally:
        s.close(0)
        ctx.term()


_FLOOR_SERVER = """
import sys, threading, zmq, cbor2
from torsion.bench.bench_simx import _zmq_v2_server
box, stop = [], threading.Event()
threading.Thread(target=_zmq_v2_server, args=(zmq, cbor2, box, stop, b""), daemon=True).start()
while not box:
    pass
print(box[0], flush=True)
sys.stdin.read()
stop.set()
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_process(cmd):
    """A server subprocess and the first line it prints (once it listens)."""
    import subprocess

    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline()


def _stop_process(proc) -> None:
    proc.terminate()
    try:
        proc.communicate(timeout=30)
    except Exception:  # pragma: no cover - a server that ignores SIGTERM
        proc.kill()
        proc.communicate(timeout=30)


def _torsion_process_round(simx, n: int) -> tuple[float, float]:
    """p50, p99 (us) of simxGetObjectPosition against ``python -m torsion serve`` in its own process."""
    import sys

    port = _free_port()
    proc, _line = _server_process([sys.executable, "-m", "torsion", "serve", "--port", str(port)])
    try:
        with simx.RemoteApiClient(f"tcp://127.0.0.1:{port}", timeout=10.0) as c:
            S = c.simxServiceCall()
            ok, dummy = c.simxCreateDummy(0.1, [255, 0, 0], S)
            reply = c.simxGetObjectPosition(dummy, -1, S)
            if not ok or reply != [True, [0.0, 0.0, 0.0]]:  # time real answers, not error replies
                raise RuntimeError(f"the simx server process answered {dummy!r}, {reply!r}")
            return _latencies(lambda: c.simxGetObjectPosition(dummy, -1, S), n)
    finally:
        _stop_process(proc)


def _peer_process_round(peer, n: int) -> tuple[float, float]:
    """p50, p99 (us) of the PyPI client's getObjectPosition against the constant-answer v2 server
    in its own process."""
    import sys

    proc, line = _server_process([sys.executable, "-c", _FLOOR_SERVER])
    try:
        sim = peer.RemoteAPIClient("127.0.0.1", int(line)).require("sim")
        return _latencies(lambda: sim.getObjectPosition(1, -1), n)
    finally:
        _stop_process(proc)


def _cross_process(simx, peer, n: int, rounds: int) -> list[Result]:
    """Loopback small call with each server in its own process, peer and torsion alternated."""
    runs: dict[str, list] = {"coppeliasim-zmq": [], "torsion": []}
    for _ in range(rounds):
        runs["coppeliasim-zmq"].append(_peer_process_round(peer, n))
        runs["torsion"].append(_torsion_process_round(simx, n))
    out = []
    for engine, rs in runs.items():
        p50s, p99s = [r[0] for r in rs], [r[1] for r in rs]
        where = ("python -m torsion serve" if engine == "torsion"
                 else "unmodified PyPI client 2.0.4 vs a constant-answer v2 server")
        out.append(Result("loopback small call p50, server in its own process", engine, float(np.median(p50s)), "us",
                          higher_is_better=False, note=f"{where}; median of {rounds} alternated runs "
                          f"({', '.join(f'{x:.0f}' for x in p50s)})" + ("; goal <= 100 us" if engine == "torsion" else "")))
        out.append(Result("loopback small call p99, server in its own process", engine, float(np.median(p99s)), "us",
                          higher_is_better=False, note=f"runs {', '.join(f'{x:.0f}' for x in p99s)}"
                          + ("; goal <= 1000 us" if engine == "torsion" else "")))
    return out


def benchmarks(quick: bool) -> list[Result]:
    from torsion import simx

    results: list[Result] = []
    n = 300 if quick else 3000
    min_time = 0.05 if quick else 0.3

    # in-process call cost vs the torsion call it wraps
    sc = _scene((64, 48))
    ball = sc.find("/ball")
    with simx.RemoteApiClient(sc) as c:
        S = c.simxServiceCall()
        us = time_per_call_us(lambda: c.simxGetObjectPosition(ball.handle, -1, S), min_time=min_time)
        results.append(Result("simxGetObjectPosition in-process, per call", "torsion", us, "us/call", higher_is_better=False,
                              note="B0 reply list, handle lookup, checks"))
        direct = time_per_call_us(lambda: ball.obj.get_position().tolist(), min_time=min_time)
        results.append(Result("simxGetObjectPosition in-process, per call", "torsion-direct", direct, "us/call",
                              higher_is_better=False, note="World API get_position(): the floor"))

    # loopback round trips, the server in a thread of this process (shares the client's GIL)
    sc = _scene()
    ball = sc.find("/ball").handle
    cam = sc.find("/cam").handle
    sc.render(cam)  # the depth image is cached until the world changes: measure the transport
    with simx.Server(sc) as server, simx.RemoteApiClient(server.endpoint, timeout=10.0) as c:
        S = c.simxServiceCall()
        p50, p99 = _latencies(lambda: c.simxGetObjectPosition(ball, -1, S), n)
        note = "simx.Server(...).start(): a thread sharing the client's GIL (no spinning)"
        results.append(Result("loopback small call p50, server thread in the client", "torsion", p50, "us",
                              higher_is_better=False, note=note))
        results.append(Result("loopback small call p99, server thread in the client", "torsion", p99, "us",
                              higher_is_better=False, note=note))
        d50, d99 = _latencies(lambda: c.simxGetVisionSensorDepthBuffer(cam, True, False, S), max(50, n // 10))
        results.append(Result(f"loopback {W}x{H} depth buffer (float32), p50", "torsion", d50, "us", higher_is_better=False,
                              note="goal <= 1000 us; NumPy array as raw bytes"))
    t0 = time.perf_counter()
    sc.world.integrate()  # invalidates the cache
    sc.render(cam)
    render_ms = (time.perf_counter() - t0) * 1e3
    results.append(Result(f"{W}x{H} vision sensor render (ray-cast camera, all cores)", "torsion", render_ms, "ms",
                          higher_is_better=False, note="once per step when read; not transport"))

    zmq = optional_import("zmq")
    cbor2 = optional_import("cbor2")
    peer = optional_import("coppeliasim_zmqremoteapi_client")
    if zmq is not None and cbor2 is not None and peer is not None:
        depth_bytes = np.zeros(W * H, np.float32).tobytes()
        port_box: list = []
        stop = threading.Event()
        th = threading.Thread(target=_zmq_v2_server, args=(zmq, cbor2, port_box, stop, depth_bytes), daemon=True)
        th.start()
        while not port_box:
            time.sleep(0.001)
        try:
            client = peer.RemoteAPIClient("127.0.0.1", port_box[0])
            sim = client.require("sim")
            p50, p99 = _latencies(lambda: sim.getObjectPosition(1, -1), n)
            note = "unmodified PyPI client 2.0.4 vs a constant-answer v2 server"
            results.append(Result("loopback small call p50, server thread in the client", "coppeliasim-zmq", p50, "us", higher_is_better=False, note=note))
            results.append(Result("loopback small call p99, server thread in the client", "coppeliasim-zmq", p99, "us", higher_is_better=False, note=note))
            d50, _ = _latencies(lambda: sim.getVisionSensorDepth(1), max(50, n // 10))
            results.append(Result(f"loopback {W}x{H} depth buffer (float32), p50", "coppeliasim-zmq", d50, "us", higher_is_better=False,
                                  note="CBOR byte string"))
        finally:
            stop.set()
            th.join(5)

    # the deployment the goal is about: the server in a process of its own (python -m torsion
    # serve), against the peer's floor server likewise in its own process; alternated so that
    # both meet the same load
    if zmq is not None and cbor2 is not None and peer is not None:
        results += _cross_process(simx, peer, n, rounds=2 if quick else 3)

    # a synchronous step's cost above the physics
    steps = 200 if quick else 2000
    sc = _scene((64, 48))
    bare_world = _scene((64, 48)).world
    t0 = time.perf_counter()
    for _ in range(steps):
        bare_world.integrate()
    bare = (time.perf_counter() - t0) / steps * 1e6
    results.append(Result("synchronous step (arm + ground + sphere), per step", "torsion-bare", bare, "us", higher_is_better=False,
                          note="World.integrate() alone"))

    def sync_loop(c):
        S = c.simxServiceCall()
        done = []
        c.simxGetSimulationStepDone(c.simxDefaultSubscriber(done.append))
        c.simxSynchronous(True)
        c.simxStartSimulation(S)
        t0 = time.perf_counter()
        for _ in range(steps):
            c.simxSynchronousTrigger()
            while not done:
                c.simxSpinOnce()
            done.pop()
        dt = (time.perf_counter() - t0) / steps * 1e6
        c.simxStopSimulation(S)
        return dt

    with simx.RemoteApiClient(sc) as c:
        per = sync_loop(c)
    results.append(Result("synchronous step (arm + ground + sphere), per step", "torsion", per, "us", higher_is_better=False,
                          note=f"in-process trigger + stepDone: {per - bare:.1f} us above the physics"))
    sc = _scene((64, 48))
    with simx.Server(sc) as server, simx.RemoteApiClient(server.endpoint, timeout=10.0) as c:
        per_r = sync_loop(c)
    results.append(Result("synchronous step over loopback, per step", "torsion", per_r, "us", higher_is_better=False,
                          note=f"trigger + stepDone stream: {per_r - bare:.1f} us above the physics"))
    with simx.Server(_scene((64, 48))) as server, simx.RemoteApiClient(server.endpoint, timeout=10.0) as c:
        S = c.simxServiceCall()
        c.simxSynchronous(True)
        c.simxStartSimulation(S)
        t0 = time.perf_counter()
        c.simxSynchronousTrigger(steps)
        while c.simxGetSimulationTime(S)[1] < steps * 0.001 - 1e-9:
            time.sleep(0.0005)
        per_n = (time.perf_counter() - t0) / steps * 1e6
    results.append(Result("synchronous step over loopback, per step", "torsion-N-step", per_n, "us", higher_is_better=False,
                          note=f"one {steps}-step trigger (PyRep#6's ask)"))
    return results
