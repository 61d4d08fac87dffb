"""``python -m torsion serve``: loads a world file, serves it on loopback, refuses bad files."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

import torsion
from torsion import simx

PYTHON_DIR = os.path.dirname(os.path.dirname(torsion.__file__))
ENV = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_help():
    out = subprocess.run([sys.executable, "-m", "torsion", "serve", "--help"], capture_output=True, text=True,
                         env=ENV, timeout=60)
    assert out.returncode == 0 and "--world" in out.stdout and "127.0.0.1" in out.stdout


def test_serve_a_world_file(tmp_path):
    w = torsion.World()
    w.add_ground()
    s = w.add_sphere(0.1, 1.0)
    s.set_name("ball")
    s.set_position(0, 0, 1)
    fn = tmp_path / "world.xml"
    w.export_to_xml(str(fn))
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "torsion", "serve", "--world", str(fn), "--port", str(port)],
                            stdout=subprocess.PIPE, env=ENV)
    try:
        line = proc.stdout.readline().decode()
        assert f"tcp://127.0.0.1:{port}" in line
        with simx.RemoteApiClient(f"tcp://127.0.0.1:{port}", timeout=10.0) as c:
            S = c.simxServiceCall()
            ok, h = c.simxGetObjectHandle("/ball", S)
            assert ok and c.simxGetObjectPosition(h, -1, S) == [True, [0.0, 0.0, 1.0]]
            c.simxSynchronous(True)
            c.simxStartSimulation(S)
            c.simxSynchronousTrigger(100)
            deadline = time.monotonic() + 20
            while c.simxGetSimulationTime(S)[1] < 0.1 - 1e-9:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            # free fall for 0.1 s (semi-implicit Euler: z = 1 - g dt^2 n(n+1)/2)
            z = c.simxGetObjectPosition(h, -1, S)[1][2]
            assert z == pytest.approx(1.0 - 9.81 * 1e-6 * 100 * 101 / 2, abs=1e-9)
    finally:
        proc.terminate()
        proc.wait(20)
        proc.stdout.close()


def test_serve_refuses_a_bad_world(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<torsion><nonsense")
    out = subprocess.run([sys.executable, "-m", "torsion", "serve", "--world", str(bad), "--port", str(free_port())],
                         capture_output=True, text=True, env=ENV, timeout=60)
    assert out.returncode == 2 and "cannot load" in out.stderr


def test_serve_with_curve():
    import zmq

    client_keys = zmq.curve_keypair()
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "torsion", "serve", "--port", str(port), "--curve",
                             # the = form: a Z85 key may start with '-', which argparse takes for an option
                             f"--allow-client-key={client_keys[0].decode()}"], stdout=subprocess.PIPE, env=ENV)
    try:
        assert f"tcp://127.0.0.1:{port}" in proc.stdout.readline().decode()
        key = proc.stdout.readline().decode().strip().rsplit(" ", 1)[-1]
        with simx.RemoteApiClient(f"tcp://127.0.0.1:{port}", timeout=10.0, server_public_key=key,
                                  curve_keys=client_keys) as c:
            assert c.simxGetSimulationTimeStep(c.simxServiceCall()) == [True, 0.001]
    finally:
        proc.terminate()
        proc.wait(20)
        proc.stdout.close()
