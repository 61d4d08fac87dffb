"""The simx function table over a Scene, and the stepping core shared by both clients.

``SIGNATURES`` lists every simx function of the B0 API with its arguments, in the seed's order
and names. ``Core`` executes them: ``call`` runs a function now (a service call) and returns B0's
reply ``[True, ret...]`` or ``[False, "ErrorType: message"]``; ``publish`` queues a
fire-and-forget message applied at the next server pass, in order; ``subscribe`` registers a
command that re-runs every ``publishInterval`` qualifying passes (each step while the simulation
runs, each idle pass while it is stopped or paused) and hands its reply to a sink. Transports
and the in-process client only move these calls around; nothing here evaluates a string.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from . import constants as C
from .scene import (
    Scene,
    SceneError,
    _int_list,
    euler_to_matrix,
    fnum,
    inum,
    make_T,
    matrix_to_euler,
    matrix_to_quat_xyzw,
    platform_id,
    quat_xyzw_to_matrix,
    vec,
)

# simx name -> argument names (without the final topic); the client-side helpers are separate.
SIGNATURES: "OrderedDict[str, tuple[str, ...]]" = OrderedDict(
    [
        ("simxAddDrawingObject_cubes", ("size", "color", "coords")),
        ("simxAddDrawingObject_points", ("size", "color", "coords")),
        ("simxAddDrawingObject_segments", ("lineSize", "color", "segments")),
        ("simxAddDrawingObject_spheres", ("size", "color", "coords")),
        ("simxAddDrawingObject_triangles", ("color", "triangles")),
        ("simxAddStatusbarMessage", ("msg",)),
        ("simxAuxiliaryConsoleClose", ("consoleHandle",)),
        ("simxAuxiliaryConsoleOpen", ("title", "maxLines", "mode", "position", "size", "textColor", "backgroundColor")),
        ("simxAuxiliaryConsolePrint", ("consoleHandle", "text")),
        ("simxAuxiliaryConsoleShow", ("consoleHandle", "showState")),
        ("simxCallScriptFunction", ("funcAtScriptName", "scriptType", "funcArgs")),
        ("simxCheckCollision", ("entity1", "entity2")),
        ("simxCheckDistance", ("entity1", "entity2", "threshold")),
        ("simxCheckProximitySensor", ("handle", "entity")),
        ("simxCheckVisionSensor", ("handle", "entity")),
        ("simxClearFloatSignal", ("sigName",)),
        ("simxClearInt32Signal", ("sigName",)),
        ("simxClearStringSignal", ("sigName",)),
        ("simxCloseScene", ()),
        ("simxCopyPasteObjects", ("objectHandles", "options")),
        ("simxCreateDummy", ("size", "color")),
        ("simxDisplayDialog", ("titleText", "mainText", "dialogType", "inputText")),
        ("simxEndDialog", ("handle",)),
        ("simxEvaluateToInt", ("str",)),
        ("simxEvaluateToStr", ("str",)),
        ("simxExecuteScriptString", ("code",)),
        ("simxGetArrayParam", ("paramId",)),
        ("simxGetBoolParam", ("paramId",)),
        ("simxGetCollectionHandle", ("collectionName",)),
        ("simxGetCollisionHandle", ("nameOfObject",)),
        ("simxGetDialogInput", ("handle",)),
        ("simxGetDialogResult", ("handle",)),
        ("simxGetDistanceHandle", ("nameOfObject",)),
        ("simxGetFloatParam", ("paramId",)),
        ("simxGetFloatSignal", ("sigName",)),
        ("simxGetInt32Param", ("paramId",)),
        ("simxGetInt32Signal", ("sigName",)),
        ("simxGetJointForce", ("jointHandle",)),
        ("simxGetJointMaxForce", ("jointHandle",)),
        ("simxGetJointPosition", ("jointHandle",)),
        ("simxGetJointTargetPosition", ("jointHandle",)),
        ("simxGetJointTargetVelocity", ("jointHandle",)),
        ("simxGetObjectAlias", ("objectHandle", "options")),
        ("simxGetObjectChild", ("objectHandle", "index")),
        ("simxGetObjectFloatParam", ("objectHandle", "parameterID")),
        ("simxGetObjectHandle", ("objectPath",)),
        ("simxGetObjectInt32Param", ("objectHandle", "parameterID")),
        ("simxGetObjectMatrix", ("objectHandle", "relObjHandle")),
        ("simxGetObjectOrientation", ("objectHandle", "relObjHandle")),
        ("simxGetObjectParent", ("objectHandle",)),
        ("simxGetObjectPose", ("objectHandle", "relObjHandle")),
        ("simxGetObjectPosition", ("objectHandle", "relObjHandle")),
        ("simxGetObjectQuaternion", ("objectHandle", "relObjHandle")),
        ("simxGetObjectSelection", ()),
        ("simxGetObjectStringParam", ("objectHandle", "parameterID")),
        ("simxGetObjectVelocity", ("handle",)),
        ("simxGetObjects", ("objectType",)),
        ("simxGetObjectsInTree", ("treeBaseHandle", "objectType", "options")),
        ("simxGetServerTimeInMs", ()),
        ("simxGetSimulationState", ()),
        ("simxGetSimulationStepDone", ()),
        ("simxGetSimulationStepStarted", ()),
        ("simxGetSimulationTime", ()),
        ("simxGetSimulationTimeStep", ()),
        ("simxGetStringParam", ("paramId",)),
        ("simxGetStringSignal", ("sigName",)),
        ("simxGetVisionSensorDepthBuffer", ("objectHandle", "toMeters", "asByteArray")),
        ("simxGetVisionSensorImage", ("objectHandle", "greyScale")),
        ("simxLoadModelFromBuffer", ("buffer",)),
        ("simxLoadModelFromFile", ("filename",)),
        ("simxLoadScene", ("filename",)),
        ("simxPauseSimulation", ()),
        ("simxReadCollision", ("handle",)),
        ("simxReadDistance", ("handle",)),
        ("simxReadForceSensor", ("handle",)),
        ("simxReadProximitySensor", ("handle",)),
        ("simxReadVisionSensor", ("handle",)),
        ("simxRemoveDrawingObject", ("handle",)),
        ("simxRemoveObjects", ("objectHandles", "options")),
        ("simxSetArrayParam", ("paramId", "paramVal")),
        ("simxSetBoolParam", ("paramId", "paramVal")),
        ("simxSetFloatParam", ("paramId", "paramVal")),
        ("simxSetFloatSignal", ("sigName", "sigValue")),
        ("simxSetInt32Param", ("paramId", "paramVal")),
        ("simxSetInt32Signal", ("sigName", "sigValue")),
        ("simxSetJointForce", ("jointHandle", "forceOrTorque")),
        ("simxSetJointMaxForce", ("jointHandle", "forceOrTorque")),
        ("simxSetJointPosition", ("jointHandle", "position")),
        ("simxSetJointTargetPosition", ("jointHandle", "targetPos")),
        ("simxSetJointTargetVelocity", ("jointHandle", "targetPos")),
        ("simxSetObjectFloatParam", ("objectHandle", "parameterID", "parameter")),
        ("simxSetObjectInt32Param", ("objectHandle", "parameterID", "parameter")),
        ("simxSetObjectMatrix", ("objectHandle", "relObjHandle", "matr")),
        ("simxSetObjectOrientation", ("objectHandle", "relObjHandle", "euler")),
        ("simxSetObjectParent", ("objectHandle", "parentHandle", "assembly", "keepInPlace")),
        ("simxSetObjectPose", ("objectHandle", "relObjHandle", "pose")),
        ("simxSetObjectPosition", ("objectHandle", "relObjHandle", "position")),
        ("simxSetObjectQuaternion", ("objectHandle", "relObjHandle", "quat")),
        ("simxSetObjectSelection", ("selection",)),
        ("simxSetObjectStringParam", ("objectHandle", "parameterID", "parameter")),
        ("simxSetStringParam", ("paramId", "paramVal")),
        ("simxSetStringSignal", ("sigName", "sigValue")),
        ("simxSetVisionSensorImage", ("objectHandle", "greyScale", "img")),
        ("simxStartSimulation", ()),
        ("simxStopSimulation", ()),
    ]
)

# functions that register a stream instead of returning a value (the step streams)
STREAM_ONLY = ("simxGetSimulationStepDone", "simxGetSimulationStepStarted")

# the client helpers of the seed (no topic argument; handled by the client)
CLIENT_FUNCTIONS = (
    "simxServiceCall", "simxDefaultPublisher", "simxDefaultSubscriber", "simxCreatePublisher",
    "simxCreateSubscriber", "simxRemovePublisher", "simxRemoveSubscriber", "simxSpinOnce",
    "simxSpin", "simxSleep", "simxGetTimeInMs", "simxSynchronous", "simxSynchronousTrigger",
)

MAX_TRIGGER_STEPS = 1_000_000
MAX_QUEUED_MESSAGES = 100_000  # publisher messages waiting for the next pass, all clients
MAX_SUBSCRIPTIONS_PER_CLIENT = 1000


def _bool(v, name: str) -> bool:
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)) and v in (0, 1):
        return bool(v)
    raise TypeError(f"{name} must be a bool, got {type(v).__name__}")


def _str(v, name: str) -> str:
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("utf-8", "replace")
    if not isinstance(v, str):
        raise TypeError(f"{name} must be a string, got {type(v).__name__}")
    return v


def _bytes(v, name: str) -> bytes:
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, np.ndarray) and v.dtype == np.uint8:
        return v.tobytes()
    raise TypeError(f"{name} must be bytes, got {type(v).__name__}")


def _kind(exc: Exception) -> str:
    for k in (IndexError, TypeError, ValueError, RuntimeError):
        if isinstance(exc, k):
            return k.__name__
    return "ValueError"  # OverflowError and other arithmetic range errors


def _flt(v) -> list[float]:
    return np.asarray(v, dtype=np.float64).tolist()


@dataclass
class _Subscription:
    client: str
    topic: str
    func: str
    args: list
    interval: int
    counter: int = 0


@dataclass
class _ClientState:
    sync: bool = False
    pending: int = 0  # synchronous triggers not yet consumed
    last_seen: float = field(default_factory=time.monotonic)


class Core:
    """Executes simx functions on a Scene and runs its server passes (see the module doc).

    ``sink(client_id, topic, reply)`` receives every subscriber message; it is called with the
    core's lock held and must not block (queue the message).
    """

    IDLE_PASS_PERIOD = 0.05  # s between idle passes while stopped or paused (as CoppeliaSim's 50 ms)

    def __init__(self, scene: Scene, sink: Optional[Callable[[str, str, list], None]] = None, *, file_root: Optional[str] = None):
        self.scene = scene
        self.sinks: dict[str, Callable[[str, list], None]] = {}  # client id -> deliver(topic, reply)
        self.sink = sink or self._route
        self.lock = scene.lock
        self.file_root = os.path.realpath(file_root) if file_root else None
        self._queue: list[tuple] = []  # (client, topic, func, args, drop)
        self._subs: list[_Subscription] = []
        self.clients: dict[str, _ClientState] = {}
        self._last_idle = 0.0
        self._free_t0: Optional[tuple[float, float]] = None  # (wall, sim time) of free running
        self.steps_run = 0
        # simx name -> (argument count, implementation)
        self._table = {n: (len(a), getattr(self, "_" + n[4:])) for n, a in SIGNATURES.items() if n not in STREAM_ONLY}
        self.dropped = 0  # publisher messages refused because the queue was full

    def _route(self, cid: str, topic: str, reply: list) -> None:
        fn = self.sinks.get(cid)
        if fn is not None:
            fn(topic, reply)

    # -- clients ---------------------------------------------------------------------------

    def client(self, cid: str) -> _ClientState:
        st = self.clients.get(cid)
        if st is None:
            st = self.clients[cid] = _ClientState()
        st.last_seen = time.monotonic()
        return st

    def disconnect(self, cid: str) -> None:
        """Forget a client: its subscriptions, queued messages and hold on synchronous stepping."""
        with self.lock:
            self.clients.pop(cid, None)
            self._subs = [s for s in self._subs if s.client != cid]
            self._queue = [m for m in self._queue if m[0] != cid]
            self._free_t0 = None

    def sync_clients(self) -> list[str]:
        return [c for c, st in self.clients.items() if st.sync]

    # -- calls -----------------------------------------------------------------------------

    def call(self, cid: str, name: str, args) -> list:
        """Run one simx function now: B0's reply [True, ret...] or [False, "Type: message"]."""
        with self.lock:
            try:
                return [True] + self._dispatch(cid, name, args)
            except SceneError as exc:
                return [False, f"ValueError: {exc}"]
            except (ValueError, TypeError, IndexError, RuntimeError, OverflowError) as exc:
                return [False, f"{_kind(exc)}: {exc}"]
            except Exception as exc:  # e.g. a registered script function's own error: never fatal
                return [False, f"RuntimeError: {type(exc).__name__}: {exc}"]

    def _dispatch(self, cid: str, name: str, args) -> list:
        if not isinstance(name, str):
            raise TypeError(f"function name must be a string, got {type(name).__name__}")
        if not isinstance(args, (list, tuple)):
            raise TypeError(f"arguments must be a list, got {type(args).__name__}")
        st = self.client(cid)
        if name == "simxSynchronous":
            if len(args) != 1:
                raise TypeError(f"simxSynchronous takes 1 argument (enable), got {len(args)}")
            st.sync = _bool(args[0], "enable")
            if not st.sync:
                st.pending = 0
            self._free_t0 = None
            return []
        if name == "simxSynchronousTrigger":
            # b0RemoteApi.py sends [0]; torsion's N-step trigger sends [N]
            steps = 1 if not args or (args[0] == 0 and not isinstance(args[0], bool)) else inum(args[0], "steps")
            if not 1 <= steps <= MAX_TRIGGER_STEPS:
                raise ValueError(f"steps must be in 1..{MAX_TRIGGER_STEPS}, got {steps}")
            if st.sync:
                st.pending += steps
            return []
        entry = self._table.get(name)
        if entry is None:
            if name in STREAM_ONLY:
                raise ValueError(f"{name} is a stream: call it with a subscriber topic")
            raise ValueError(f"unknown function {name!r}")
        if len(args) != entry[0]:
            sig = SIGNATURES[name]
            raise TypeError(f"{name} takes {len(sig)} arguments ({', '.join(sig) or 'none'}), got {len(args)}")
        return entry[1](*args)

    def publish(self, cid: str, topic: str, name: str, args, drop: bool = False) -> None:
        """Queue a fire-and-forget call, applied at the next pass (in order; with ``drop`` only
        the newest message of that topic)."""
        with self.lock:
            self.client(cid)
            if drop:
                self._queue = [m for m in self._queue if not (m[0] == cid and m[1] == topic)]
            if len(self._queue) >= MAX_QUEUED_MESSAGES:
                self.dropped += 1  # a flood: fire-and-forget messages beyond the bound are lost
                return
            self._queue.append((cid, topic, name, args))

    def subscribe(self, cid: str, topic: str, name: str, args, interval: int) -> list:
        """Register a streamed command (B0 tasks 2 and 4): [True] or [False, message]."""
        with self.lock:
            try:
                interval = inum(interval, "publishInterval")
                if interval < 1:
                    raise ValueError(f"publishInterval must be >= 1, got {interval}")
                if not isinstance(name, str) or (name not in SIGNATURES):
                    raise ValueError(f"unknown function {name!r}")
                sig = SIGNATURES[name]
                if name in STREAM_ONLY and isinstance(args, (list, tuple)) and list(args) == [0]:
                    args = []  # b0RemoteApi.py registers the step streams with a dummy [0]
                if not isinstance(args, (list, tuple)) or len(args) != len(sig):
                    raise TypeError(f"{name} takes {len(sig)} arguments, got {len(args) if isinstance(args, (list, tuple)) else args!r}")
                self.client(cid)
                if sum(1 for s in self._subs if s.client == cid) >= MAX_SUBSCRIPTIONS_PER_CLIENT:
                    raise ValueError(f"a client may register at most {MAX_SUBSCRIPTIONS_PER_CLIENT} streamed commands")
                self._subs.append(_Subscription(cid, topic, name, list(args), interval))
                return [True]
            except (ValueError, TypeError) as exc:
                return [False, f"{type(exc).__name__}: {exc}"]

    def unsubscribe(self, cid: str, topic: str) -> None:
        with self.lock:
            self._subs = [s for s in self._subs if not (s.client == cid and s.topic == topic)]

    def drop_publisher(self, cid: str, topic: str) -> None:
        with self.lock:
            self._queue = [m for m in self._queue if not (m[0] == cid and m[1] == topic)]

    # -- passes ----------------------------------------------------------------------------

    def run_pass(self, now: Optional[float] = None) -> int:
        """One server pass: apply queued publisher messages in order, run the steps that are due
        (synchronous triggers, or free running), then the subscribers. Returns steps run."""
        now = time.monotonic() if now is None else now
        with self.lock:
            queue, self._queue = self._queue, []
            for cid, topic, name, args in queue:
                if cid not in self.clients:
                    continue
                reply = self.call(cid, name, args)
                if not reply[0]:
                    self.scene.status_messages.append(f"[simx] publisher message {name} failed: {reply[1]}")
            steps = 0
            sc = self.scene
            while sc.state == C.SIMULATION_ADVANCING_RUNNING and self._step_due(now):
                self._emit_step(STREAM_ONLY[1])
                if sc.step():
                    steps += 1
                    self.steps_run += 1
                self._emit_step(STREAM_ONLY[0])
                self._run_subs()
                if steps >= 10000:
                    break
            if steps == 0 and sc.state != C.SIMULATION_ADVANCING_RUNNING and now - self._last_idle >= self.IDLE_PASS_PERIOD:
                self._last_idle = now
                self._run_subs()
            return steps

    def _step_due(self, now: float) -> bool:
        syncs = [self.clients[c] for c in self.sync_clients()]
        if syncs:
            if all(s.pending > 0 for s in syncs):
                for s in syncs:
                    s.pending -= 1
                return True
            return False
        sc = self.scene
        if not sc.realtime:
            # as fast as possible, but one step per pass so that calls interleave
            if self._free_t0 == ("fast", now):
                return False
            self._free_t0 = ("fast", now)
            return True
        if self._free_t0 is None or self._free_t0[0] == "fast":
            self._free_t0 = (now, sc.sim_time())
            return False
        wall0, sim0 = self._free_t0
        return sc.sim_time() - sim0 + sc.time_step <= now - wall0

    def waiting_for_trigger(self) -> bool:
        syncs = [self.clients[c] for c in self.sync_clients()]
        return bool(syncs) and not all(s.pending > 0 for s in syncs)

    def _emit_step(self, name: str) -> None:
        sc = self.scene
        payload = {"simulationTime": sc.sim_time(), "simulationState": sc.state, "simulationTimeStep": sc.time_step}
        for s in self._subs:
            if s.func == name:
                s.counter += 1
                if s.counter % s.interval == 0:
                    self.sink(s.client, s.topic, [True, dict(payload)])

    def _run_subs(self) -> None:
        for s in list(self._subs):
            if s.func in STREAM_ONLY:
                continue
            s.counter += 1
            if s.counter % s.interval == 0:
                self.sink(s.client, s.topic, self.call(s.client, s.func, s.args))

    def expire(self, timeout: float, now: Optional[float] = None) -> list[str]:
        """Disconnect clients silent for more than ``timeout`` s; returns their ids."""
        now = time.monotonic() if now is None else now
        with self.lock:
            gone = [c for c, st in self.clients.items() if now - st.last_seen > timeout]
            for c in gone:
                self.disconnect(c)
            return gone

    # -- file access ---------------------------------------------------------------------

    def _file(self, value, name: str) -> str:
        path = _str(value, name)
        if not path or "\x00" in path:
            raise ValueError(f"{name} must be a non-empty path")
        if self.file_root is not None:
            full = os.path.realpath(os.path.join(self.file_root, path))
            if os.path.commonpath([full, self.file_root]) != self.file_root:
                raise ValueError(f"{name}: {path!r} is outside the server's file root")
            return full
        return path

    # ==========================================================================================
    # the functions (name = simx name without the prefix; return the items after success)

    # drawing objects
    def _AddDrawingObject_cubes(self, size, color, coords):
        return [self.scene.add_drawing("cubes", fnum(size, "size", nonneg=True), color, coords, 3)]

    def _AddDrawingObject_points(self, size, color, coords):
        return [self.scene.add_drawing("points", float(inum(size, "size")), color, coords, 3)]

    def _AddDrawingObject_segments(self, lineSize, color, segments):
        return [self.scene.add_drawing("segments", float(inum(lineSize, "lineSize")), color, segments, 6)]

    def _AddDrawingObject_spheres(self, size, color, coords):
        return [self.scene.add_drawing("spheres", fnum(size, "size", nonneg=True), color, coords, 3)]

    def _AddDrawingObject_triangles(self, color, triangles):
        return [self.scene.add_drawing("triangles", 0.0, color, triangles, 9)]

    def _RemoveDrawingObject(self, handle):
        h = inum(handle, "handle")
        if self.scene.drawings.pop(h, None) is None:
            raise ValueError(f"handle: no drawing object {h}")
        return []

    # headless UI
    def _AddStatusbarMessage(self, msg):
        self.scene.status_messages.append(_str(msg, "msg"))
        return []

    def _AuxiliaryConsoleOpen(self, title, maxLines, mode, position, size, textColor, backgroundColor):
        sc = self.scene
        rec = {
            "title": _str(title, "title"), "max_lines": inum(maxLines, "maxLines"), "mode": inum(mode, "mode"),
            "position": _int_list(position, "position"), "size": _int_list(size, "size"),
            "text_color": _int_list(textColor, "textColor"), "background_color": _int_list(backgroundColor, "backgroundColor"),
            "lines": [], "visible": True,
        }
        if rec["max_lines"] < 1:
            raise ValueError(f"maxLines must be >= 1, got {rec['max_lines']}")
        h = sc._next_ui
        sc._next_ui += 1
        sc.consoles[h] = rec
        return [h]

    def _AuxiliaryConsolePrint(self, consoleHandle, text):
        rec = self.scene.consoles.get(inum(consoleHandle, "consoleHandle"))
        t = _str(text, "text")
        if rec is None:
            return [0]
        if t == "":
            rec["lines"].clear()
        else:
            rec["lines"].extend(t.split("\n") if "\n" in t else [t])
            del rec["lines"][: max(0, len(rec["lines"]) - rec["max_lines"])]
        return [1]

    def _AuxiliaryConsoleShow(self, consoleHandle, showState):
        rec = self.scene.consoles.get(inum(consoleHandle, "consoleHandle"))
        state = _bool(showState, "showState")
        if rec is None:
            return [0]
        rec["visible"] = state
        return [1]

    def _AuxiliaryConsoleClose(self, consoleHandle):
        return [1 if self.scene.consoles.pop(inum(consoleHandle, "consoleHandle"), None) is not None else 0]

    def _DisplayDialog(self, titleText, mainText, dialogType, inputText):
        sc = self.scene
        rec = {"title": _str(titleText, "titleText"), "text": _str(mainText, "mainText"),
               "type": C.lookup(dialogType, "dialogType"), "input": _str(inputText, "inputText"), "result": 0}
        h = sc._next_ui
        sc._next_ui += 1
        sc.dialogs[h] = rec
        return [h]

    def _dialog(self, handle):
        h = inum(handle, "handle")
        d = self.scene.dialogs.get(h)
        if d is None:
            raise ValueError(f"handle: no dialog {h}")
        return d

    def _EndDialog(self, handle):
        self._dialog(handle)
        del self.scene.dialogs[int(handle)]
        return []

    def _GetDialogInput(self, handle):
        return [self._dialog(handle)["input"]]

    def _GetDialogResult(self, handle):
        return [self._dialog(handle)["result"]]

    # scripts: dispatch to registered Python functions only
    def _script(self, key: str):
        fns = self.scene.script_functions
        fn = fns.get(key) or fns.get(key.split("@", 1)[0])
        if fn is None:
            raise RuntimeError(
                f"no Python function is registered as {key!r}: torsion never evaluates script code; "
                "the server's owner registers functions with Scene.register_script_function(name, fn)"
            )
        return fn

    def _CallScriptFunction(self, funcAtScriptName, scriptType, funcArgs):
        name = _str(funcAtScriptName, "funcAtScriptName")
        C.lookup(scriptType, "scriptType")
        fn = self._script(name)
        out = fn(*funcArgs) if isinstance(funcArgs, (list, tuple)) else fn(funcArgs)
        return list(out) if isinstance(out, tuple) else ([] if out is None else [out])

    def _ExecuteScriptString(self, code):
        out = self._script(_str(code, "code"))()
        return list(out) if isinstance(out, tuple) else ([] if out is None else [out])

    def _EvaluateToInt(self, str_):
        s = _str(str_, "str").strip()
        if s in C.CONSTANTS:
            return [C.CONSTANTS[s]]
        try:
            return [int(s, 10)]
        except ValueError:
            pass
        out = self._script(s)()
        if isinstance(out, bool) or not isinstance(out, (int, np.integer)):
            raise TypeError(f"the function registered as {s!r} returned {type(out).__name__}, not an int")
        return [int(out)]

    def _EvaluateToStr(self, str_):
        s = _str(str_, "str")
        out = self._script(s)()
        if not isinstance(out, str):
            raise TypeError(f"the function registered as {s!r} returned {type(out).__name__}, not a string")
        return [out]

    # collision and distance
    def _CheckCollision(self, entity1, entity2):
        return [self.scene.check_collision(entity1, entity2)]

    def _CheckDistance(self, entity1, entity2, threshold):
        return list(self.scene.check_distance(entity1, entity2, threshold))

    def _GetCollisionHandle(self, nameOfObject):
        name = _str(nameOfObject, "nameOfObject").replace("@silentError", "")
        h = self.scene._named_handles.get("collision:" + name)
        if h is None:
            raise ValueError(f"nameOfObject: no collision object {name!r}")
        return [h]

    def _GetDistanceHandle(self, nameOfObject):
        name = _str(nameOfObject, "nameOfObject").replace("@silentError", "")
        h = self.scene._named_handles.get("distance:" + name)
        if h is None:
            raise ValueError(f"nameOfObject: no distance object {name!r}")
        return [h]

    def _ReadCollision(self, handle):
        h = inum(handle, "handle")
        rec = self.scene.collision_objects.get(h)
        if rec is None:
            raise ValueError(f"handle: no collision object {h}")
        _, e1, e2 = rec
        hit = self.scene.check_collision(e1, e2)
        return [hit, [int(e1), int(C.lookup(e2, "entity2"))] if hit else [-1, -1]]

    def _ReadDistance(self, handle):
        h = inum(handle, "handle")
        rec = self.scene.distance_objects.get(h)
        if rec is None:
            raise ValueError(f"handle: no distance object {h}")
        _, e1, e2 = rec
        flag, d, _, _ = self.scene.check_distance(e1, e2, 0.0)
        return [flag, d]

    def _GetCollectionHandle(self, collectionName):
        name = _str(collectionName, "collectionName").replace("@silentError", "")
        h = self.scene._named_handles.get("collection:" + name)
        if h is not None:
            return [h]
        if name in self.scene.int_signals:
            return [self.scene.int_signals[name]]
        raise ValueError(f"collectionName: no collection (nor int signal) named {name!r}")

    # sensors
    def _CheckProximitySensor(self, handle, entity):
        return self.scene.read_proximity(handle, entity)[:3]

    def _ReadProximitySensor(self, handle):
        return self.scene.read_proximity(handle)

    def _CheckVisionSensor(self, handle, entity):
        return self.scene.check_vision(handle, entity)

    def _ReadVisionSensor(self, handle):
        return self.scene.read_vision(handle)

    def _GetVisionSensorImage(self, objectHandle, greyScale):
        res, img = self.scene.vision_image(objectHandle, _bool(greyScale, "greyScale"))
        return [res, img]

    def _SetVisionSensorImage(self, objectHandle, greyScale, img):
        self.scene.set_vision_image(objectHandle, _bool(greyScale, "greyScale"), _bytes(img, "img"))
        return []

    def _GetVisionSensorDepthBuffer(self, objectHandle, toMeters, asByteArray):
        res, depth = self.scene.vision_depth(objectHandle, _bool(toMeters, "toMeters"))
        return [res, depth.tobytes() if _bool(asByteArray, "asByteArray") else depth]

    def _ReadForceSensor(self, handle):
        state, f, t = self.scene.read_force_sensor(handle)
        return [state, f, t]

    # signals
    def _SetInt32Signal(self, sigName, sigValue):
        v = inum(sigValue, "sigValue")
        if not -(2**31) <= v < 2**31:
            raise ValueError(f"sigValue must fit in 32 bits, got {v}")
        self.scene.int_signals[_str(sigName, "sigName")] = v
        return []

    def _GetInt32Signal(self, sigName):
        return [self.scene.int_signals.get(_str(sigName, "sigName"))]

    def _ClearInt32Signal(self, sigName):
        self.scene.int_signals.pop(_str(sigName, "sigName"), None)
        return []

    def _SetFloatSignal(self, sigName, sigValue):
        self.scene.float_signals[_str(sigName, "sigName")] = fnum(sigValue, "sigValue")
        return []

    def _GetFloatSignal(self, sigName):
        return [self.scene.float_signals.get(_str(sigName, "sigName"))]

    def _ClearFloatSignal(self, sigName):
        self.scene.float_signals.pop(_str(sigName, "sigName"), None)
        return []

    def _SetStringSignal(self, sigName, sigValue):
        self.scene.string_signals[_str(sigName, "sigName")] = _bytes(sigValue, "sigValue")
        return []

    def _GetStringSignal(self, sigName):
        return [self.scene.string_signals.get(_str(sigName, "sigName"))]

    def _ClearStringSignal(self, sigName):
        self.scene.string_signals.pop(_str(sigName, "sigName"), None)
        return []

    # global parameters
    def _GetBoolParam(self, paramId):
        p = C.lookup(paramId, "paramId")
        sc = self.scene
        if p == 6:
            return [sc.dynamics_enabled]
        if p == 25:
            return [sc.realtime]
        if p == 34:
            return [True]
        if p == 45:
            return [self.waiting_for_trigger()]
        raise ValueError(f"paramId: bool parameter {p} is not supported (6, 25, 34, 45 are)")

    def _SetBoolParam(self, paramId, paramVal):
        p = C.lookup(paramId, "paramId")
        v = _bool(paramVal, "paramVal")
        if p == 6:
            self.scene.dynamics_enabled = v
        elif p == 25:
            self.scene.realtime = v
            self._free_t0 = None
        else:
            raise ValueError(f"paramId: bool parameter {p} cannot be set (6 and 25 can)")
        return []

    def _GetInt32Param(self, paramId):
        p = C.lookup(paramId, "paramId")
        if p == 1:
            import torsion

            parts = [int(x) for x in torsion.__version__.split(".")[:3] if x.isdigit()] + [0, 0, 0]
            return [parts[0] * 10000 + parts[1] * 100 + parts[2]]
        if p == 7:
            return [1]
        if p == 19:
            return [platform_id()]
        if p == 20:
            return [self.scene.world.get_lifetime_identity() & 0x7FFFFFFF]
        if p == 24:
            return [os.cpu_count() or 1]
        raise ValueError(f"paramId: int parameter {p} is not supported (1, 7, 19, 20, 24 are)")

    def _SetInt32Param(self, paramId, paramVal):
        p = C.lookup(paramId, "paramId")
        inum(paramVal, "paramVal")
        raise ValueError(f"paramId: int parameter {p} cannot be set")

    def _GetFloatParam(self, paramId):
        p = C.lookup(paramId, "paramId")
        if p == 0:
            return [self.scene.rand()]
        if p == 1:
            return [self.scene.time_step]
        raise ValueError(f"paramId: float parameter {p} is not supported (0, 1 are)")

    def _SetFloatParam(self, paramId, paramVal):
        p = C.lookup(paramId, "paramId")
        v = fnum(paramVal, "paramVal")
        if p == 1:
            if not v > 0:
                raise ValueError(f"paramVal: the time step must be > 0, got {v}")
            self.scene.world.set_time_step(v)
            self._free_t0 = None
            return []
        raise ValueError(f"paramId: float parameter {p} cannot be set (1 can)")

    def _GetStringParam(self, paramId):
        p = C.lookup(paramId, "paramId")
        if p == 0:
            return ["torsion"]
        if p == 13:
            return [self.scene.scene_path]
        if p == 14:
            return [os.path.basename(self.scene.scene_path)]
        raise ValueError(f"paramId: string parameter {p} is not supported (0, 13, 14 are)")

    def _SetStringParam(self, paramId, paramVal):
        p = C.lookup(paramId, "paramId")
        _str(paramVal, "paramVal")
        raise ValueError(f"paramId: string parameter {p} cannot be set")

    def _GetArrayParam(self, paramId):
        p = C.lookup(paramId, "paramId")
        sc = self.scene
        if p == 0:
            return [_flt(sc.world.get_gravity())]
        if p == 3:
            return [list(sc.background_color1)]
        if p == 4:
            return [list(sc.background_color2)]
        if p == 5:
            return [list(sc.ambient_light)]
        raise ValueError(f"paramId: array parameter {p} is not supported (0, 3, 4, 5 are)")

    def _SetArrayParam(self, paramId, paramVal):
        p = C.lookup(paramId, "paramId")
        v = vec(paramVal, 3, "paramVal")
        sc = self.scene
        if p == 0:
            sc.world.set_gravity(v)
        elif p in (3, 4, 5):
            if np.any(v < 0) or np.any(v > 1):
                raise ValueError(f"paramVal: colours are 3 values in 0..1, got {v.tolist()}")
            setattr(sc, {3: "background_color1", 4: "background_color2", 5: "ambient_light"}[p], v.tolist())
            sc._vision_cache.clear()
        else:
            raise ValueError(f"paramId: array parameter {p} cannot be set (0, 3, 4, 5 can)")
        return []

    # object parameters
    def _GetObjectInt32Param(self, objectHandle, parameterID):
        v = self.scene.object_param(objectHandle, C.lookup(parameterID, "parameterID"))
        return [int(v)]

    def _GetObjectFloatParam(self, objectHandle, parameterID):
        return [float(self.scene.object_param(objectHandle, C.lookup(parameterID, "parameterID")))]

    def _GetObjectStringParam(self, objectHandle, parameterID):
        return [str(self.scene.object_param(objectHandle, C.lookup(parameterID, "parameterID")))]

    def _SetObjectInt32Param(self, objectHandle, parameterID, parameter):
        self.scene.object_param(objectHandle, C.lookup(parameterID, "parameterID"), inum(parameter, "parameter"))
        return [1]

    def _SetObjectFloatParam(self, objectHandle, parameterID, parameter):
        self.scene.object_param(objectHandle, C.lookup(parameterID, "parameterID"), fnum(parameter, "parameter"))
        return [1]

    def _SetObjectStringParam(self, objectHandle, parameterID, parameter):
        self.scene.object_param(objectHandle, C.lookup(parameterID, "parameterID"), _str(parameter, "parameter"))
        return [1]

    # joints
    def _GetJointPosition(self, jointHandle):
        return [self.scene.joint_position(jointHandle)]

    def _SetJointPosition(self, jointHandle, position):
        self.scene.set_joint_position(jointHandle, position)
        return []

    def _GetJointTargetPosition(self, jointHandle):
        return [self.scene.joint_target_position(jointHandle)]

    def _SetJointTargetPosition(self, jointHandle, targetPos):
        self.scene.set_joint_target_position(jointHandle, targetPos)
        return []

    def _GetJointTargetVelocity(self, jointHandle):
        return [self.scene.joint_target_velocity(jointHandle)]

    def _SetJointTargetVelocity(self, jointHandle, targetPos):
        self.scene.set_joint_target_velocity(jointHandle, targetPos)
        return []

    def _GetJointForce(self, jointHandle):
        return [self.scene.joint_force(jointHandle)]

    def _GetJointMaxForce(self, jointHandle):
        return [self.scene.joint_max_force(jointHandle)]

    def _SetJointMaxForce(self, jointHandle, forceOrTorque):
        self.scene.set_joint_max_force(jointHandle, forceOrTorque)
        return []

    def _SetJointForce(self, jointHandle, forceOrTorque):
        # deprecated alias of simxSetJointMaxForce (the seed says so)
        self.scene.set_joint_max_force(jointHandle, forceOrTorque)
        return []

    # objects and hierarchy
    def _GetObjectHandle(self, objectPath):
        return [self.scene.find(objectPath).handle]

    def _GetObjectAlias(self, objectHandle, options):
        n = self.scene.node(objectHandle, "objectHandle")
        o = inum(options, "options")
        if o == -1:
            return [n.alias]
        if 0 <= o <= 5:
            return [self.scene.path_of(n)]
        raise ValueError(f"options must be -1 (alias) or 0..5 (path), got {o}")

    def _GetObjectParent(self, objectHandle):
        n = self.scene.node(objectHandle, "objectHandle")
        return [n.parent.handle if n.parent is not None else -1]

    def _GetObjectChild(self, objectHandle, index):
        n = self.scene.node(objectHandle, "objectHandle")
        i = inum(index, "index")
        return [n.children[i].handle if 0 <= i < len(n.children) else -1]

    def _GetObjects(self, objectType):
        t = C.lookup(objectType, "objectType")
        sc = self.scene
        return [[h for h in sc.handles() if t == C.HANDLE_ALL or sc._nodes[h].object_type == t]]

    def _GetObjectsInTree(self, treeBaseHandle, objectType, options):
        sc = self.scene
        base = C.lookup(treeBaseHandle, "treeBaseHandle")
        t = C.lookup(objectType, "objectType")
        o = inum(options, "options")
        sc.sync()
        if base == C.HANDLE_SCENE:
            nodes = sc.roots() if o & 2 else sc.tree(None)
        else:
            bn = sc.node(base, "treeBaseHandle")
            if o & 2:
                nodes = ([] if o & 1 else [bn]) + list(bn.children)
            else:
                nodes = sc.tree(bn)[1:] if o & 1 else sc.tree(bn)
        return [[n.handle for n in nodes if t == C.HANDLE_ALL or n.object_type == t]]

    def _GetObjectSelection(self):
        return [list(self.scene.selection)]

    def _SetObjectSelection(self, selection):
        hs = [self.scene.node(h, "selection").handle for h in _int_list(selection, "selection")]
        self.scene.selection = list(dict.fromkeys(hs))
        return [1]

    def _SetObjectParent(self, objectHandle, parentHandle, assembly, keepInPlace):
        if _bool(assembly, "assembly"):
            raise ValueError("assembly: torsion has no assembly transformations; pass False")
        self.scene.set_parent(objectHandle, parentHandle, _bool(keepInPlace, "keepInPlace"))
        return [1]

    def _CreateDummy(self, size, color):
        col = _int_list(color, "color")
        if len(col) != 3:
            raise ValueError(f"color must be 3 values (0-255), got {len(col)}")
        return [self.scene.add_dummy(size, col)]

    def _CopyPasteObjects(self, objectHandles, options):
        return [self.scene.copy_paste(objectHandles, inum(options, "options"))]

    def _RemoveObjects(self, objectHandles, options):
        return [self.scene.remove(objectHandles, inum(options, "options"))]

    def _LoadScene(self, filename):
        self.scene.load_scene(self._file(filename, "filename"))
        return [1]

    def _CloseScene(self):
        self.scene.close_scene()
        return []

    def _LoadModelFromFile(self, filename):
        return [self.scene.load_model(self._file(filename, "filename"))]

    def _LoadModelFromBuffer(self, buffer):
        return [self.scene.load_model_from_buffer(_bytes(buffer, "buffer"))]

    # poses
    def _GetObjectPosition(self, objectHandle, relObjHandle):
        return [_flt(self.scene.get_T(objectHandle, relObjHandle)[:3, 3])]

    def _GetObjectOrientation(self, objectHandle, relObjHandle):
        return [matrix_to_euler(self.scene.get_T(objectHandle, relObjHandle)[:3, :3])]

    def _GetObjectQuaternion(self, objectHandle, relObjHandle):
        return [matrix_to_quat_xyzw(self.scene.get_T(objectHandle, relObjHandle)[:3, :3])]

    def _GetObjectPose(self, objectHandle, relObjHandle):
        t = self.scene.get_T(objectHandle, relObjHandle)
        return [_flt(t[:3, 3]) + matrix_to_quat_xyzw(t[:3, :3])]

    def _GetObjectMatrix(self, objectHandle, relObjHandle):
        return [_flt(self.scene.get_T(objectHandle, relObjHandle)[:3, :].reshape(-1))]

    def _SetObjectPosition(self, objectHandle, relObjHandle, position):
        sc = self.scene
        p = vec(position, 3, "position")
        t = sc.get_T(objectHandle, relObjHandle)
        t[:3, 3] = p
        sc.set_T(objectHandle, relObjHandle, t)
        return []

    def _SetObjectOrientation(self, objectHandle, relObjHandle, euler):
        sc = self.scene
        r = euler_to_matrix(vec(euler, 3, "euler"))
        t = sc.get_T(objectHandle, relObjHandle)
        t[:3, :3] = r
        sc.set_T(objectHandle, relObjHandle, t)
        return []

    def _SetObjectQuaternion(self, objectHandle, relObjHandle, quat):
        sc = self.scene
        r = quat_xyzw_to_matrix(vec(quat, 4, "quat"))
        t = sc.get_T(objectHandle, relObjHandle)
        t[:3, :3] = r
        sc.set_T(objectHandle, relObjHandle, t)
        return []

    def _SetObjectPose(self, objectHandle, relObjHandle, pose):
        p = vec(pose, 7, "pose")
        self.scene.set_T(objectHandle, relObjHandle, make_T(p[:3], quat_xyzw_to_matrix(p[3:])))
        return []

    def _SetObjectMatrix(self, objectHandle, relObjHandle, matr):
        m = vec(matr, 12, "matr").reshape(3, 4)
        r = m[:, :3]
        if not np.allclose(r.T @ r, np.eye(3), atol=1e-6) or np.linalg.det(r) < 0:
            raise ValueError("matr: the 3x3 part must be a rotation (orthonormal, det +1)")
        u, _, vt = np.linalg.svd(r)
        self.scene.set_T(objectHandle, relObjHandle, make_T(m[:, 3], u @ vt))
        return []

    def _GetObjectVelocity(self, handle):
        v, w = self.scene.velocity(handle)
        return [v, w]

    # simulation
    def _StartSimulation(self):
        self._free_t0 = None
        return [self.scene.start()]

    def _StopSimulation(self):
        return [self.scene.stop()]

    def _PauseSimulation(self):
        return [self.scene.pause()]

    def _GetSimulationState(self):
        return [self.scene.state]

    def _GetSimulationTime(self):
        return [self.scene.sim_time()]

    def _GetSimulationTimeStep(self):
        return [self.scene.time_step]

    def _GetServerTimeInMs(self):
        return [self.scene.server_time_ms()]


# the evaluation functions take an argument named like a builtin; keep the table's names
Core._EvaluateToInt.__doc__ = "simxEvaluateToInt(str): a constant of the table, an int literal, or a registered function."
