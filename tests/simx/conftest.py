"""Shared fixtures of the simx tests: a small scene, and a client in-process or over loopback.

Every server runs in a thread on a free port and is stopped at teardown; every client is closed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pytest

import torsion
from torsion import simx

pytest.importorskip("zmq")
pytest.importorskip("msgpack")


def build_scene() -> simx.Scene:
    """Ground, a sphere (r 0.1 at (1, 0, 0.5)), a static box (0.2 at (0, 1, 0.1)), the bundled
    7-DoF arm named 'iiwa', a vision sensor above the sphere looking down, a proximity ray
    sensor above the sphere, and two registered script functions."""
    w = torsion.World()
    w.add_ground()
    s = w.add_sphere(0.1, 1.0)
    s.set_name("ball")
    s.set_position(1.0, 0.0, 0.5)
    b = w.add_box(0.2, 0.2, 0.2, 1.0)
    b.set_name("crate")
    b.set_position(0.0, 1.0, 0.1)
    b.set_body_type(torsion.BodyType.STATIC)
    r = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    r.set_name("iiwa")
    sc = simx.Scene(w)
    down = [1.0, 0.0, 0.0, 0.0]  # xyzw: 180 degrees about x, the sensor's +Z points down
    sc.add_vision_sensor("cam", pose=[1.0, 0.0, 2.0] + down, resolution=(16, 12), near=0.1, far=5.0,
                         angle=math.radians(40.0))
    sc.add_proximity_sensor("prox", pose=[1.0, 0.0, 1.0] + down, kind="ray", range=2.0)
    sc.register_script_function("answer", lambda: 42)
    sc.register_script_function("greeting", lambda: "hello")
    sc.register_script_function("add@/iiwa", lambda a, b: (a + b, a * b))
    return sc


@dataclass
class Env:
    c: object
    scene: simx.Scene
    mode: str
    server: object = None
    h: dict = field(default_factory=dict)

    @property
    def S(self):
        return self.c.simxServiceCall()


def open_client(scene, mode, **kw):
    if mode == "inproc":
        return simx.RemoteApiClient(scene, **kw), None
    server = simx.Server(scene, client_timeout=5.0).start()
    try:
        return simx.RemoteApiClient(server.endpoint, timeout=5.0, **kw), server
    except BaseException:
        server.stop()
        raise


@pytest.fixture(params=["inproc", "remote"])
def env(request):
    sc = build_scene()
    c, server = open_client(sc, request.param)
    e = Env(c, sc, request.param, server)
    for key, path in [("robot", "/iiwa"), ("joint", "/iiwa/joint_2"), ("link", "/iiwa/link_2"), ("ball", "/ball"),
                      ("crate", "/crate"), ("cam", "/cam"), ("prox", "/prox"), ("ground", "/Ground"),
                      ("base_fs", "/iiwa/world_joint")]:
        e.h[key] = sc.find(path).handle
    try:
        yield e
    finally:
        c.close()
        if server is not None:
            server.stop()


def ok(reply, n):
    """The items after B0's success flag, checking the shape [True, item1..itemn] (a reply
    without items is [True, None], as b0RemoteApi.py pads it)."""
    assert isinstance(reply, list), reply
    assert reply[0] is True, reply
    if n == 0:
        assert reply == [True, None], reply
        return None
    assert len(reply) == n + 1, reply
    return reply[1:] if n != 1 else reply[1]


def vec3(v):
    assert isinstance(v, list) and len(v) == 3 and all(isinstance(x, float) for x in v), v
    return np.array(v)
