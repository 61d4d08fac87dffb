"""CoppeliaSim's ZMQ remote API served by torsion (``serve --zmq-compat``), driven by the
unmodified PyPI client ``coppeliasim-zmqremoteapi-client`` on loopback.

Peer: the same client against a minimal protocol-v2 server that answers from constants (no
simulator behind it: pure protocol and transport, a lower bound for CoppeliaSim itself; about
157 us p50 measured here, ../shared/reference/remote_api.md). Goal (issue #32): getObjectPosition
p50 <= 100 us; sim.step's overhead above the physics is reported.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from torsion.bench._common import Result, optional_import
from torsion.bench.bench_simx import _FLOOR_SERVER, W, _latencies, _scene, _zmq_v2_server


def benchmarks(quick: bool) -> list[Result]:
    zmq = optional_import("zmq")
    cbor2 = optional_import("cbor2")
    peer = optional_import("coppeliasim_zmqremoteapi_client")
    if zmq is None or cbor2 is None or peer is None:
        return []
    from torsion.simx.zmq_compat import ZmqCompatServer

    results: list[Result] = []
    n = 300 if quick else 3000
    sc = _scene((64, 48))
    ball = sc.find("/ball").handle
    with ZmqCompatServer(sc, port=0) as server:
        sim = peer.RemoteAPIClient("127.0.0.1", server.port).require("sim")
        p50, p99 = _latencies(lambda: sim.getObjectPosition(ball, -1), n)
        results.append(Result("ZMQ API getObjectPosition, real client, p50", "torsion", p50, "us",
                              higher_is_better=False, note="goal <= 100 us"))
        results.append(Result("ZMQ API getObjectPosition, real client, p99", "torsion", p99, "us",
                              higher_is_better=False))

    port_box: list = []
    stop = threading.Event()
    th = threading.Thread(target=_zmq_v2_server, args=(zmq, cbor2, port_box, stop, np.zeros(W, np.float32).tobytes()),
                          daemon=True)
    th.start()
    while not port_box:
        time.sleep(0.001)
    try:
        sim = peer.RemoteAPIClient("127.0.0.1", port_box[0]).require("sim")
        p50, p99 = _latencies(lambda: sim.getObjectPosition(1, -1), n)
        note = "the same client against a constant-answer v2 server (protocol floor)"
        results.append(Result("ZMQ API getObjectPosition, real client, p50", "coppeliasim-zmq", p50, "us",
                              higher_is_better=False, note=note))
        results.append(Result("ZMQ API getObjectPosition, real client, p99", "coppeliasim-zmq", p99, "us",
                              higher_is_better=False, note=note))
    finally:
        stop.set()
        th.join(5)

    # the realistic set-up: each server in a process of its own (no GIL shared with the client)
    results += _cross_process(peer, n)

    # sim.step in a stepping loop, against World.integrate() alone on the same scene
    steps = 200 if quick else 2000
    bare = _scene((64, 48)).world
    t0 = time.perf_counter()
    for _ in range(steps):
        bare.integrate()
    bare_us = (time.perf_counter() - t0) / steps * 1e6
    with ZmqCompatServer(_scene((64, 48)), port=0) as server:
        sim = peer.RemoteAPIClient("127.0.0.1", server.port).require("sim")
        sim.setStepping(True)
        sim.startSimulation()
        t0 = time.perf_counter()
        for _ in range(steps):
            sim.step()
        per = (time.perf_counter() - t0) / steps * 1e6
    results.append(Result("ZMQ API sim.step (arm + ground + sphere), per step", "torsion-bare", bare_us, "us",
                          higher_is_better=False, note="World.integrate() alone"))
    results.append(Result("ZMQ API sim.step (arm + ground + sphere), per step", "torsion", per, "us",
                          higher_is_better=False, note=f"{per - bare_us:.0f} us above the physics"))
    return results


def _cross_process(peer, n: int) -> list[Result]:
    """getObjectPosition p50/p99 with the real client against torsion's server and against the
    constant-answer floor server, each started in its own process."""
    import socket
    import subprocess
    import sys

    out = []
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    servers = [("torsion", [sys.executable, "-m", "torsion", "serve", "--zmq-compat", "--port", str(port)]),
               ("coppeliasim-zmq", [sys.executable, "-c", _FLOOR_SERVER])]
    for engine, cmd in servers:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()
            p = port if engine == "torsion" else int(line)
            sim = peer.RemoteAPIClient("127.0.0.1", p).require("sim")
            handle = sim.createDummy(0.1) if engine == "torsion" else 1
            p50, p99 = _latencies(lambda: sim.getObjectPosition(handle, -1), n)
            note = "server in its own process" + ("" if engine == "torsion" else "; constant answers")
            out.append(Result("ZMQ API getObjectPosition, server process, p50", engine, p50, "us",
                              higher_is_better=False, note=note + ("; goal <= 100 us" if engine == "torsion" else "")))
            out.append(Result("ZMQ API getObjectPosition, server process, p99", engine, p99, "us",
                              higher_is_better=False, note=note))
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
    return out
