"""CoppeliaSim's ZMQ remote API (protocol v2) over a torsion scene.

``python -m torsion serve --zmq-compat [--port 23000] [--host 127.0.0.1]`` lets the unmodified
``coppeliasim-zmqremoteapi-client`` (sync or asyncio) script torsion:

    from coppeliasim_zmqremoteapi_client import RemoteAPIClient
    sim = RemoteAPIClient(port=23000).require("sim")
    sim.setStepping(True); sim.startSimulation()
    h = sim.getObject("/arm/joint_2"); sim.setJointTargetPosition(h, 0.3); sim.step()

The protocol (../shared/reference/remote_api.md, section 2): each request is one CBOR map
``{func, args, argsL, uuid[, ver, lang, timeout]}``; the reply is ``{ret: [...]}`` or ``{err:
str}``, which the client raises as an exception. ``zmqRemoteApi.require`` / ``zmqRemoteApi.info``
answer discovery: ``info('sim')`` maps every function of :data:`SIM` to ``{func: {}}`` and every
constant of :data:`torsion.simx.constants.CONSTANTS` to ``{const: value}``.

The server is a ROUTER socket, so several clients, and the asyncio client's pool of REQ sockets
(one uuid, several identities), are served at once. State is kept per client uuid (stepping) and
per socket identity (a ``sim.step`` waiting for its step). The functions run on the same scene
model and the same executor (:class:`torsion.simx.functions.Core`) as the simx facade, so a call
here and the corresponding simx call do the same thing.

Stepping: ``sim.setStepping(True)`` makes the client gate the simulation; while any client is
stepping, the world advances only when every stepping client has asked for a step
(``sim.step()``), whose reply is sent once that step has run. With no stepping client a running
simulation advances as fast as the server can step it. A stepping client silent for
``client_timeout`` seconds, or whose socket is gone when its step reply is sent, releases its
hold, so a client that dies mid-stepping never stalls the others.

Never evaluated: requests with an ``eval`` field, ``sim.executeScriptString`` and any string
argument are refused or looked up in fixed tables; ``sim.callScriptFunction`` reaches only Python
functions the server's owner registered (``scene.register_script_function``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Callable, Optional

import numpy as np

from . import constants as C
from .functions import Core
from .scene import Scene, inum
from .transport import ServerThread, scene_for_cli

PROTOCOL_VERSION = 2
DEFAULT_PORT = 23000
_NIL = "_*NIL*_"

# CoppeliaSim's drawing object types (sim.drawing_*): type -> (torsion kind, values per item)
DRAWING_TYPES = {0: ("points", 3), 1: ("segments", 6), 2: ("triangles", 9), 6: ("cubes", 3), 7: ("spheres", 3)}
EXTRA_CONSTANTS = {
    "sim.drawing_points": 0,
    "sim.drawing_lines": 1,
    "sim.drawing_triangles": 2,
    "sim.drawing_cubepts": 6,
    "sim.drawing_spherepts": 7,
    "sim.drawing_cyclic": 0x00100,
    "sim.drawing_itemsizes": 0x00800,
}


class SimError(Exception):
    """An error reported to the client as ``{err: message}``."""


def _deps():
    try:
        import cbor2
        import zmq
    except ImportError as exc:  # pragma: no cover - the remote extra is in the test extra
        raise ImportError(
            f"the ZMQ remote API server needs pyzmq and cbor2 ({exc.name} is missing): "
            'pip install "torsion[remote]"'
        ) from None
    return zmq, cbor2


def _opt(args: list, i: int, default):
    """Argument i, or the default when absent or nil (the client sends trailing nils as absent)."""
    if i < len(args) and args[i] is not None and args[i] != _NIL:
        return args[i]
    return default


def _need(args: list, n: int, func: str, names: str) -> None:
    if len(args) < n:
        raise SimError(f"{func}: expected at least {n} argument(s) ({names}), got {len(args)}")


class _Call:
    """Runs one simx function on the core and returns its values (after the success flag)."""

    def __init__(self, core: Core):
        self.core = core

    def __call__(self, cid: str, name: str, *args) -> list:
        reply = self.core.call(cid, name, list(args))
        if not reply[0]:
            raise SimError(reply[1])
        return reply[1:]


def _one(values: list):
    return values[0]


# ------------------------------------------------------------------------------------------------
# the sim.* functions: each takes (call, cid, args) and returns the list of return values


def _pose_getter(simx: str) -> Callable:
    def get(call, cid, args):
        _need(args, 1, "sim." + simx, "objectHandle")
        return [_one(call(cid, "simx" + simx, args[0], _opt(args, 1, C.HANDLE_WORLD)))]

    return get


def _pose_setter(simx: str, n: int) -> Callable:
    """CoppeliaSim 4.7 order (handle, value, relativeTo=world); the older (handle, relativeTo,
    value) is still accepted, told apart by the second argument being a number."""

    def set_(call, cid, args):
        _need(args, 2, "sim." + simx, "objectHandle, value")
        if isinstance(args[1], (int, str)) and not isinstance(args[1], bool) and len(args) >= 3:
            rel, value = args[1], args[2]
        else:
            value, rel = args[1], _opt(args, 2, C.HANDLE_WORLD)
        if not isinstance(value, (list, tuple)) or len(value) != n:
            raise SimError(f"sim.{simx[0].lower() + simx[1:]}: the value must be a list of {n} numbers, got {value!r}")
        call(cid, "simx" + simx, args[0], rel, list(value))
        return []

    return set_


def _get_object(call, cid, args):
    _need(args, 1, "sim.getObject", "path")
    options = _opt(args, 1, {})
    if not isinstance(options, dict):
        raise SimError(f"sim.getObject: options must be a map, got {type(options).__name__}")
    path = args[0]
    index = options.get("index", 0)
    if isinstance(path, str) and index:
        path = f"{path}[{inum(index, 'index')}]"
    try:
        return [_one(call(cid, "simxGetObjectHandle", path))]
    except SimError:
        if options.get("noError"):
            return [-1]
        raise


def _image_window(img: np.ndarray, args: list, i: int):
    """The sub-window (pos, size) of CoppeliaSim's image getters; size [0, 0] is the whole image."""
    pos = _opt(args, i, [0, 0])
    size = _opt(args, i + 1, [0, 0])
    h, w = img.shape[:2]
    try:
        x, y = (int(v) for v in pos)
        sx, sy = (int(v) for v in size)
    except (TypeError, ValueError):
        raise SimError(f"pos and size must be two ints each, got {pos!r}, {size!r}") from None
    if (sx, sy) == (0, 0):
        sx, sy = w - x, h - y
    if x < 0 or y < 0 or sx <= 0 or sy <= 0 or x + sx > w or y + sy > h:
        raise SimError(f"window pos {pos} size {size} lies outside the {w}x{h} image")
    return img[y:y + sy, x:x + sx], [sx, sy]


def _get_vision_img(call, cid, args):
    _need(args, 1, "sim.getVisionSensorImg", "sensorHandle")
    options = inum(_opt(args, 1, 0), "options")
    grey = bool(options & 1)
    res, data = call(cid, "simxGetVisionSensorImage", args[0], grey)
    w, h = res
    img = np.frombuffer(data, dtype=np.uint8).reshape((h, w) if grey else (h, w, 3))
    img, res = _image_window(img, args, 3)
    return [np.ascontiguousarray(img).tobytes(), res]


def _get_vision_depth(call, cid, args):
    _need(args, 1, "sim.getVisionSensorDepth", "sensorHandle")
    options = inum(_opt(args, 1, 0), "options")
    res, data = call(cid, "simxGetVisionSensorDepthBuffer", args[0], bool(options & 1), True)
    w, h = res
    depth = np.frombuffer(data, dtype=np.float32).reshape(h, w)
    depth, res = _image_window(depth, args, 2)
    return [np.ascontiguousarray(depth).tobytes(), res]


def _check_collision(call, cid, args):
    _need(args, 2, "sim.checkCollision", "entity1, entity2")
    hit = bool(_one(call(cid, "simxCheckCollision", args[0], args[1])))
    pair = [int(C.lookup(args[0], "entity1")), int(C.lookup(args[1], "entity2"))] if hit else [-1, -1]
    return [1 if hit else 0, pair]


def _check_distance(call, cid, args):
    _need(args, 2, "sim.checkDistance", "entity1, entity2")
    flag, d, p1, p2 = call(cid, "simxCheckDistance", args[0], args[1], _opt(args, 2, 0.0))
    pair = [int(C.lookup(args[0], "entity1")), int(C.lookup(args[1], "entity2"))]
    return [int(flag), [*map(float, p1), *map(float, p2), float(d)], pair if flag else [-1, -1]]


def _create_dummy(call, cid, args):
    _need(args, 1, "sim.createDummy", "size")
    return [_one(call(cid, "simxCreateDummy", args[0], [0, 0, 0]))]


def _remove_objects(call, cid, args):
    _need(args, 1, "sim.removeObjects", "objectHandles")
    call(cid, "simxRemoveObjects", args[0], 0)
    return []


def _add_drawing_object(core: Core):
    def add(call, cid, args):
        _need(args, 2, "sim.addDrawingObject", "objectType, size")
        t = inum(args[0], "objectType")
        kind = DRAWING_TYPES.get(t & 0xFF)
        if kind is None:
            raise SimError(f"sim.addDrawingObject: objectType {t & 0xFF} is not supported "
                           f"(points 0, lines 1, triangles 2, cubepts 6, spherepts 7 are)")
        color = _opt(args, 5, [1.0, 1.0, 0.0])
        try:
            rgb = [int(round(255 * float(c))) for c in list(color)[:3]]
        except (TypeError, ValueError):
            raise SimError(f"sim.addDrawingObject: color must be 3 numbers in 0..1, got {color!r}") from None
        return [core.scene.add_drawing(kind[0], args[1], rgb, [], kind[1])]

    return add


def _add_drawing_item(core: Core):
    def add(call, cid, args):
        _need(args, 1, "sim.addDrawingObjectItem", "drawingObjectHandle")
        with core.lock:
            h = inum(args[0], "drawingObjectHandle")
            d = core.scene.drawings.get(h)
            if d is None:
                raise SimError(f"sim.addDrawingObjectItem: no drawing object {h}")
            data = _opt(args, 1, None)
            if data is None:
                d.items = d.items[:0]  # nil clears the object, as CoppeliaSim does
                return [1]
            per = d.items.shape[1]
            try:
                item = np.asarray(list(data)[:per], dtype=np.float64)
            except (TypeError, ValueError):
                raise SimError(f"sim.addDrawingObjectItem: itemData must be numbers, got {data!r}") from None
            if item.shape != (per,) or not np.all(np.isfinite(item)):
                raise SimError(f"sim.addDrawingObjectItem: itemData must hold {per} finite numbers, got {data!r}")
            d.items = np.vstack([d.items, item[None, :]])
            return [1]

    return add


def _create_vision_sensor(core: Core):
    def create(call, cid, args):
        _need(args, 3, "sim.createVisionSensor", "options, intParams, floatParams")
        ints, floats = args[1], args[2]
        if not isinstance(ints, (list, tuple)) or len(ints) < 2 or not isinstance(floats, (list, tuple)) or len(floats) < 3:
            raise SimError("sim.createVisionSensor: intParams must start with resolution x, y and "
                           "floatParams with near clipping, far clipping, view angle")
        return [core.scene.add_vision_sensor(resolution=(ints[0], ints[1]), near=floats[0], far=floats[1],
                                             angle=floats[2])]

    return create


def _signal(kind: str, op: str):
    name = f"simx{op}{kind}Signal"

    def sig(call, cid, args):
        _need(args, 1 if op != "Set" else 2, f"sim.{op.lower()}{kind}Signal", "signalName" + (", value" if op == "Set" else ""))
        if op == "Set":
            value = args[1]
            if kind == "String" and isinstance(value, str):
                value = value.encode("utf-8")
            call(cid, name, args[0], value)
            return []
        if op == "Clear":
            call(cid, name, args[0])
            return []
        value = _one(call(cid, name, args[0]))
        if kind == "String" and isinstance(value, (bytes, bytearray)):
            try:
                value = bytes(value).decode("utf-8")
            except UnicodeDecodeError:
                value = bytes(value)
        return [value]

    return sig


def _param(kind: str, op: str):
    name = f"simx{op}{kind}Param"

    def param(call, cid, args):
        if op == "Set":
            _need(args, 2, f"sim.set{kind}Param", "parameter, value")
            call(cid, name, args[0], args[1])
            return []
        _need(args, 1, f"sim.get{kind}Param", "parameter")
        return [_one(call(cid, name, args[0]))]

    return param


def _simple(simx: str, n_args: int, names: str, returns: bool = True, defaults: tuple = ()):
    """A sim function that is a simx function with the same arguments (trailing ones defaulted)."""

    def fn(call, cid, args):
        _need(args, n_args - len(defaults), f"sim.{simx[4].lower() + simx[5:]}", names)
        full = [*args[: n_args - len(defaults)]] + [_opt(args, n_args - len(defaults) + i, d) for i, d in enumerate(defaults)]
        values = call(cid, simx, *full)
        return values if returns else []

    return fn


def _call_script_function(call, cid, args):
    """sim.callScriptFunction(functionName, scriptHandle, ...): torsion has no scripts, so the
    script handle (or path) only has to be well-formed; the name must be a registered function."""
    _need(args, 2, "sim.callScriptFunction", "functionName, scriptHandle")
    if isinstance(args[1], bool) or not isinstance(args[1], (int, str)):
        raise SimError(f"sim.callScriptFunction: scriptHandle must be an int or a path, got {args[1]!r}")
    return list(call(cid, "simxCallScriptFunction", args[0], C.SCRIPTTYPE_CHILD, list(args[2:])))


def _refused(what: str):
    def refuse(call, cid, args):
        raise SimError(f"{what} is refused: torsion never evaluates code sent by a client "
                       "(register Python functions with scene.register_script_function and use sim.callScriptFunction)")

    return refuse


def build_sim_table(core: Core) -> dict[str, Callable]:
    """The sim.* functions served, by name (without the "sim." prefix)."""
    t: dict[str, Callable] = {
        "getObject": _get_object,
        "getObjectHandle": _simple("simxGetObjectHandle", 1, "path"),
        "getObjectAlias": _simple("simxGetObjectAlias", 2, "objectHandle", defaults=(-1,)),
        "getObjectParent": _simple("simxGetObjectParent", 1, "objectHandle"),
        "getObjectChild": _simple("simxGetObjectChild", 2, "objectHandle, index"),
        "getObjectsInTree": _simple("simxGetObjectsInTree", 3, "treeBaseHandle", defaults=(C.HANDLE_ALL, 0)),
        "getObjectSelection": _simple("simxGetObjectSelection", 0, ""),
        "setObjectSelection": _simple("simxSetObjectSelection", 1, "objectHandles", returns=False),
        "getObjectVelocity": _simple("simxGetObjectVelocity", 1, "objectHandle"),
        "getJointPosition": _simple("simxGetJointPosition", 1, "jointHandle"),
        "setJointPosition": _simple("simxSetJointPosition", 2, "jointHandle, position", returns=False),
        "getJointTargetPosition": _simple("simxGetJointTargetPosition", 1, "jointHandle"),
        "setJointTargetPosition": _simple("simxSetJointTargetPosition", 2, "jointHandle, targetPosition", returns=False),
        "getJointTargetVelocity": _simple("simxGetJointTargetVelocity", 1, "jointHandle"),
        "setJointTargetVelocity": _simple("simxSetJointTargetVelocity", 2, "jointHandle, targetVelocity", returns=False),
        "getJointForce": _simple("simxGetJointForce", 1, "jointHandle"),
        "getJointMaxForce": _simple("simxGetJointMaxForce", 1, "jointHandle"),
        "setJointMaxForce": _simple("simxSetJointMaxForce", 2, "jointHandle, forceOrTorque", returns=False),
        "setJointTargetForce": _simple("simxSetJointMaxForce", 2, "jointHandle, forceOrTorque", returns=False),
        "readProximitySensor": _simple("simxReadProximitySensor", 1, "sensorHandle"),
        "checkProximitySensor": _simple("simxCheckProximitySensor", 2, "sensorHandle, entityHandle"),
        "getVisionSensorImg": _get_vision_img,
        "getVisionSensorDepth": _get_vision_depth,
        "createVisionSensor": _create_vision_sensor(core),
        "readForceSensor": _simple("simxReadForceSensor", 1, "forceSensorHandle"),
        "checkCollision": _check_collision,
        "checkDistance": _check_distance,
        "startSimulation": _simple("simxStartSimulation", 0, ""),
        "stopSimulation": _simple("simxStopSimulation", 0, ""),
        "pauseSimulation": _simple("simxPauseSimulation", 0, ""),
        "getSimulationState": _simple("simxGetSimulationState", 0, ""),
        "getSimulationTime": _simple("simxGetSimulationTime", 0, ""),
        "getSimulationTimeStep": _simple("simxGetSimulationTimeStep", 0, ""),
        "getSystemTime": lambda call, cid, args: [time.time()],
        "loadScene": _simple("simxLoadScene", 1, "filename", returns=False),
        "closeScene": _simple("simxCloseScene", 0, "", returns=False),
        "loadModel": _simple("simxLoadModelFromFile", 1, "filename"),
        "removeObjects": _remove_objects,
        "removeObject": lambda call, cid, args: _remove_objects(call, cid, [[args[0]]] if args else []),
        "createDummy": _create_dummy,
        "copyPasteObjects": _simple("simxCopyPasteObjects", 2, "objectHandles", defaults=(0,)),
        "addDrawingObject": _add_drawing_object(core),
        "addDrawingObjectItem": _add_drawing_item(core),
        "removeDrawingObject": _simple("simxRemoveDrawingObject", 1, "drawingObjectHandle", returns=False),
        "addLog": lambda call, cid, args: (core.scene.status_messages.append(str(_opt(args, 1, ""))), [])[1],
        "callScriptFunction": _call_script_function,
        "executeScriptString": _refused("sim.executeScriptString"),
    }
    for name in ("Position", "Orientation", "Quaternion", "Pose", "Matrix"):
        t[f"getObject{name}"] = _pose_getter(f"GetObject{name}")
    for name, n in (("Position", 3), ("Orientation", 3), ("Quaternion", 4), ("Pose", 7), ("Matrix", 12)):
        t[f"setObject{name}"] = _pose_setter(f"SetObject{name}", n)
    for kind in ("Int32", "Float", "String"):
        for op in ("Get", "Set", "Clear"):
            t[f"{op.lower()}{kind}Signal"] = _signal(kind, op)
    for kind in ("Bool", "Int32", "Float", "String", "Array"):
        t[f"get{kind}Param"] = _param(kind, "Get")
        t[f"set{kind}Param"] = _param(kind, "Set")
    # the stepping functions are the server's own (per-client state and deferred replies)
    t["setStepping"] = None
    t["step"] = None
    return t


def _constants() -> dict[str, int]:
    out = {k[4:]: v for k, v in C.CONSTANTS.items() if k.startswith("sim.")}
    out.update({k[4:]: v for k, v in EXTRA_CONSTANTS.items()})
    return out


class _Client:
    """What the server keeps per client uuid."""

    __slots__ = ("level", "timeout")

    def __init__(self, timeout: float):
        self.level = 0  # stepping level: > 0 while the client gates the simulation
        self.timeout = timeout


class ZmqCompatServer(ServerThread):
    """Serve a Scene (or World) over CoppeliaSim's ZMQ remote API, protocol v2.

    ``start()`` runs it in a thread and ``stop()`` ends it (also a context manager);
    ``serve_forever()`` runs it in the calling thread.

    host: interface to bind, 127.0.0.1 unless another is asked for explicitly.
    port: the ROUTER port (CoppeliaSim's default 23000; 0 picks a free one, see ``port``).
    client_timeout: seconds of silence after which a client's stepping hold is released (at most
        the ``timeout`` its first request announces; the PyPI client announces 600).
    max_message_bytes: larger requests are dropped by ZeroMQ before they are read.
    """

    def __init__(self, scene=None, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *,
                 client_timeout: float = 30.0, max_message_bytes: int = 64 << 20,
                 file_root: Optional[str] = None):
        zmq, cbor2 = _deps()
        scene = self._checked(scene, host, port, client_timeout, max_message_bytes)
        self.scene = scene
        self.core = Core(scene, file_root=file_root if file_root is not None else os.getcwd())
        self._call = _Call(self.core)
        self.functions = build_sim_table(self.core)
        self.constants = _constants()
        self.client_timeout = float(client_timeout)
        self._zmq, self._cbor = zmq, cbor2
        self._ctx = zmq.Context()
        self._router = self._ctx.socket(zmq.ROUTER)
        self._router.setsockopt(zmq.LINGER, 0)
        self._router.setsockopt(zmq.MAXMSGSIZE, int(max_message_bytes))
        self._router.setsockopt(zmq.ROUTER_MANDATORY, 1)  # a reply to a vanished peer raises
        try:
            if port:
                self._router.bind(f"tcp://{host}:{port}")
                self.port = port
            else:
                self.port = self._router.bind_to_random_port(f"tcp://{host}")
        except zmq.ZMQError as exc:
            self._router.close(0)
            self._ctx.term()
            raise RuntimeError(f"cannot bind tcp://{host}:{port}: {exc}") from exc
        self.host = host
        self.endpoint = f"tcp://{host}:{self.port}"
        self._clients: dict[str, _Client] = {}
        self._waiting: list[tuple[bytes, str, int]] = []  # (identity, uuid, step to wait for)
        self._init_thread()
        self.errors = 0  # requests answered with {err} (malformed, unknown, refused)

    _thread_name = "zmq-remote-api"
    #: how long after a request the server polls without blocking for the next one (s): a client
    #: usually sends it within a round trip, and waking from a blocking poll costs the kernel's
    #: wake-up latency on every call (quiet machine, real client, server in its own process: p50
    #: 122-133 -> 77-90 us; a server thread in the client's process shares its GIL, and gains less)
    SPIN_SECONDS = 2e-3

    def serve_forever(self) -> None:
        zmq = self._zmq
        poller = zmq.Poller()
        poller.register(self._router, zmq.POLLIN)
        last_expire = time.monotonic()
        last_message = -1.0
        try:
            while not self._stop.is_set():
                running = self.scene.state == C.SIMULATION_ADVANCING_RUNNING
                free = running and not self.core.sync_clients()
                # right after a request, poll without blocking (SPIN_SECONDS)
                busy = free or time.monotonic() - last_message < self.SPIN_SECONDS
                if dict(poller.poll(0 if busy else 10)):
                    for _ in range(1000):
                        try:
                            frames = self._router.recv_multipart(zmq.NOBLOCK)
                        except zmq.Again:
                            break
                        self._on_message(frames)
                    last_message = time.monotonic()
                self.core.run_pass()
                self._release_waiters()
                now = time.monotonic()
                if now - last_expire > min(0.25, self.client_timeout / 4):
                    last_expire = now
                    self._expire(now)
        finally:
            self._router.close(0)
            self._ctx.term()

    # -- messages ---------------------------------------------------------------------------------
    def _send(self, identity: bytes, reply: dict) -> bool:
        try:
            payload = self._cbor.dumps(reply)
        except (TypeError, ValueError, OverflowError) as exc:
            payload = self._cbor.dumps({"err": f"the reply cannot be encoded: {exc}"})
        try:
            self._router.send_multipart([identity, b"", payload])
            return True
        except self._zmq.ZMQError:  # the peer is gone (ROUTER_MANDATORY)
            return False

    def _on_message(self, frames: list) -> None:
        if len(frames) != 3 or frames[1] != b"":
            return  # not a REQ envelope: nothing to answer
        identity, raw = frames[0], frames[2]
        try:
            req = self._cbor.loads(raw)
        except Exception as exc:  # cbor2 raises its own decode errors, ValueError, RecursionError...
            self.errors += 1
            self._send(identity, {"err": f"malformed request: not CBOR ({type(exc).__name__}: {exc})"})
            return
        if not isinstance(req, dict):
            self.errors += 1
            self._send(identity, {"err": f"malformed request: a CBOR map was expected, got {type(req).__name__}"})
            return
        if "eval" in req:
            self.errors += 1
            self._send(identity, {"err": "eval is refused: torsion never evaluates code sent by a client"})
            return
        uuid = req.get("uuid")
        if not isinstance(uuid, str):
            self.errors += 1
            self._send(identity, {"success": False, "error": "The client ZeroMQ remote API version does not "
                                  f"match this server's (protocol {PROTOCOL_VERSION}, which needs a uuid)"})
            return
        client = self._clients.get(uuid)
        if client is None:
            announced = req.get("timeout")
            t = float(announced) if isinstance(announced, (int, float)) and announced > 0 else self.client_timeout
            client = self._clients[uuid] = _Client(min(t, self.client_timeout))
        self.core.client(uuid)  # marks the client seen
        func, args = req.get("func"), req.get("args", [])
        if args is None:
            args = []
        if not isinstance(func, str) or not isinstance(args, (list, tuple)):
            self.errors += 1
            self._send(identity, {"err": "malformed request: func must be a string and args a list"})
            return
        argsl = req.get("argsL")
        args = list(args)
        if isinstance(argsl, int) and 0 <= argsl <= len(args):
            args = args[:argsl]
        args = [None if a == _NIL else a for a in args]
        try:
            reply = self._dispatch(identity, uuid, client, func, args)
        except SimError as exc:
            self.errors += 1
            reply = {"err": str(exc)}
        except (ValueError, TypeError, IndexError, KeyError, RuntimeError, OverflowError) as exc:
            self.errors += 1
            reply = {"err": f"{func}: {type(exc).__name__}: {exc}"}
        if reply is not None:
            self._send(identity, reply)

    def _dispatch(self, identity: bytes, uuid: str, client: _Client, func: str, args: list) -> Optional[dict]:
        if func == "zmqRemoteApi.require":
            if args and args[0] != "sim":
                raise SimError(f"module {args[0]!r} is not available: torsion serves 'sim'")
            return {"ret": []}
        if func == "zmqRemoteApi.info":
            if args and args[0] != "sim":
                raise SimError(f"no object {args[0]!r}: torsion serves 'sim'")
            info = {name: {"func": {}} for name in self.functions}
            info.update({name: {"const": v} for name, v in self.constants.items()})
            return {"ret": [info]}
        if func in ("_*executed*_", "_*end*_"):
            if func == "_*end*_":
                self._forget(uuid)
            return {"ret": []}
        if not func.startswith("sim."):
            raise SimError(f"unknown function {func!r}: torsion serves the sim.* functions of zmqRemoteApi.info")
        name = func[4:]
        if name not in self.functions:
            raise SimError(f"unknown function {func!r}: docs/api_map.md lists the sim.* functions torsion maps")
        if name == "setStepping":
            enable = bool(_opt(args, 0, True))
            with self.core.lock:
                previous = client.level
                client.level = previous + 1 if enable else max(previous - 1, 0)
                st = self.core.client(uuid)
                st.sync = client.level > 0
                if not st.sync:
                    st.pending = 0
            return {"ret": [previous]}
        if name == "step":
            with self.core.lock:
                if self.scene.state != C.SIMULATION_ADVANCING_RUNNING:
                    return {"ret": []}  # stopped or paused: nothing to wait for
                st = self.core.client(uuid)
                if st.sync:
                    st.pending += 1
                self._waiting.append((identity, uuid, self.core.steps_run + 1))
            return None  # replied once the step has run
        try:
            values = self.functions[name](self._call, uuid, args)
        except SimError as exc:
            msg = str(exc)
            raise SimError(msg if msg.startswith(func) else f"{func}: {msg}") from None
        return {"ret": [_plain(v) for v in values]}

    def _release_waiters(self) -> None:
        if not self._waiting:
            return
        done = self.core.steps_run
        running = self.scene.state == C.SIMULATION_ADVANCING_RUNNING
        keep = []
        for identity, uuid, target in self._waiting:
            if uuid not in self._clients:
                continue  # forgotten (timed out): its socket no longer expects anything
            if done >= target or not running:
                if not self._send(identity, {"ret": []}):
                    self._forget(uuid)  # died while waiting for its step: release its hold
            else:
                keep.append((identity, uuid, target))
        self._waiting = keep

    def _expire(self, now: float) -> None:
        for uuid, client in list(self._clients.items()):
            st = self.core.clients.get(uuid)
            if st is None or now - st.last_seen > client.timeout:
                if any(w[1] == uuid for w in self._waiting):
                    continue  # waiting for a step it asked for: not silent
                self._forget(uuid)

    def _forget(self, uuid: str) -> None:
        self._clients.pop(uuid, None)
        self.core.disconnect(uuid)
        self._waiting = [w for w in self._waiting if w[1] != uuid]


def _plain(value):
    """A reply value as CBOR can carry it: numpy scalars and arrays become Python numbers and
    lists, tuples lists; bytes stay bytes (images)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def main(argv=None) -> int:
    """``python -m torsion serve --zmq-compat [--world FILE.xml] [--host H] [--port 23000]``."""
    p = argparse.ArgumentParser(prog="python -m torsion serve --zmq-compat",
                                description="serve a torsion world over CoppeliaSim's ZMQ remote API (protocol v2)")
    p.add_argument("--zmq-compat", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--world", help="torsion world XML (or URDF) to load; an empty world otherwise")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1, loopback only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}, as CoppeliaSim)")
    p.add_argument("--client-timeout", type=float, default=30.0,
                   help="seconds of silence before a client's stepping hold is released")
    p.add_argument("--files", default=None, help="directory clients may load scenes and models from (default: cwd)")
    args = p.parse_args(argv)
    scene = scene_for_cli(args.world)
    if scene is None:
        return 2
    try:
        server = ZmqCompatServer(scene, args.host, args.port, client_timeout=args.client_timeout, file_root=args.files)
    except (RuntimeError, ValueError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"torsion ZMQ remote API server (protocol {PROTOCOL_VERSION}) on {server.endpoint} (Ctrl-C to stop)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0
