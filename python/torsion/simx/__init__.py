"""torsion.simx: CoppeliaSim's B0 remote API (the ``simx*`` functions) over a torsion World.

    with torsion.simx.RemoteApiClient(world) as client:           # in-process, no sockets
        ok, h = client.simxGetObjectHandle("/iiwa/joint_2", client.simxServiceCall())
    with torsion.simx.RemoteApiClient("tcp://127.0.0.1:23050") as client:   # over ZeroMQ
        ...

Layers: ``scene`` (handles, paths, poses, sensors, stepping; no protocol), ``functions`` (the simx
function table over a Scene), ``client`` (the RemoteApiClient with topics, publishers and
subscribers), ``transport`` (ZeroMQ + msgpack server and connection; the ``remote`` extra).
"""

from __future__ import annotations

from . import constants
from .scene import Scene

__all__ = ["RemoteApiClient", "Scene", "Server", "constants", "serve"]


def __getattr__(name):
    if name == "RemoteApiClient":
        from .client import RemoteApiClient

        return RemoteApiClient
    if name in ("Server", "serve"):
        from . import transport

        return getattr(transport, name)
    raise AttributeError(f"module 'torsion.simx' has no attribute {name!r}")
