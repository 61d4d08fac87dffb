"""RobotClient: the robot software's side of the HAL (what NAOqi's DCM does on a real robot).

It attaches to the shared memory segment of a port (served by a :class:`HALInterface`, usually
inside :class:`torsion.hal.Simulation`), writes actuator commands and stiffness, and reads sensor
values. It works from the HAL's own process or from any other process on the machine.

    client = torsion.hal.RobotClient(port=9559)
    client.start()                                  # start values; the HAL stops returning NaN
    client.set_actuator("HeadYaw", 0.3, stiffness=1.0)
    client.wait_cycle(timeout=1.0)                  # the simulator applied it and measured
    angle = client.read_sensor("HeadYaw")

If the HAL goes away (the simulator restarts), calls raise :class:`HALDisconnected` until a HAL
serves the port again; :meth:`wait_cycle` waits across the restart, reattaches, and writes the
client's last commands into the new HAL so the robot carries on where it was.
"""

from __future__ import annotations

import math
import os
import time
from typing import Iterable, Mapping, Optional

import numpy as np

from .._core import _hal_read_sensors, _hal_wait_change, _hal_write_commands
from . import shm as _shm
from .model import CAMERA_RESOLUTIONS

__all__ = ["RobotClient", "HALDisconnected"]


class HALDisconnected(RuntimeError):
    """No HAL serves the port (it was never started, or it closed)."""


class RobotClient:
    """Robot-side handle on the HAL of ``port``. Nothing is attached until :meth:`start`."""

    def __init__(self, port: int = 9559):
        _shm.segment_name(port)  # checks the port
        self.port = int(port)
        self._seg: Optional[_shm.Segment] = None
        self._started = False
        self._values: Optional[np.ndarray] = None  # the client's own copy of its commands
        self._stiffness: Optional[np.ndarray] = None
        self._camera = (0, 0, 0, 0)  # (index, width, height, colour space) once requested
        self._last_written = 0
        self._dir: dict = {}

    # ------------------------------------------------------------------ connection
    def _attach(self) -> bool:
        seg = _shm.Segment.attach(self.port)
        if seg is None:
            return False
        d = seg.directory
        if self._seg is not None:
            self._seg.close()
        self._seg = seg
        self._dir = d
        self._act_index = {a["name"]: i for i, a in enumerate(d["actuators"])}
        self._act_kind = [a["kind"] for a in d["actuators"]]
        self._sens_slot = {s["name"]: (s["offset"], s["size"]) for s in d["sensors"]}
        self._cam_index = {c["name"]: i for i, c in enumerate(d["cameras"])}
        self._instance = seg.instance()
        return True

    def _connected(self) -> _shm.Segment:
        """The live segment, reattaching (and re-sending our commands) after a HAL restart."""
        seg = self._seg
        if seg is not None and seg.is_open():
            return seg
        before = [a["name"] for a in self._dir["actuators"]] if self._seg is not None else None
        if not self._attach():
            raise HALDisconnected(f"no HAL serves port {self.port} (shared memory "
                                  f"/dev/shm/{_shm.segment_name(self.port)} is absent or closed)")
        if self._started and before is not None and before != [a["name"] for a in self._dir["actuators"]]:
            # the port now serves another robot: our commands mean nothing to it
            self._started = False
            self._values = self._stiffness = None
            raise RuntimeError(f"the HAL on port {self.port} now serves another robot "
                               f"({self._dir['robot']!r}, other actuators); call start() again")
        if self._started:
            self._claim()
            if self._values is not None and len(self._values) == len(self._act_index):
                self._write(self._values, self._stiffness)
            if self._camera[1]:
                self._write_camera_request(*self._camera)
        return self._seg

    @property
    def connected(self) -> bool:
        return self._seg is not None and self._seg.is_open()

    def actuator_names(self) -> list:
        self._connected()
        return list(self._act_index)

    def sensor_names(self) -> list:
        self._connected()
        return list(self._sens_slot) + list(self._cam_index)

    def _claim(self) -> None:
        h = self._seg.header
        holder = int(h[_shm.H_ROBOT_PID])
        if holder not in (0, os.getpid()) and _shm.pid_alive(holder):
            raise RuntimeError(f"HAL port {self.port}: process {holder} already drives this robot "
                               "(one robot side per HAL)")
        h[_shm.H_ROBOT_PID] = os.getpid()

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        """Attach to the HAL and start the robot side: every actuator takes its start value and
        start stiffness (the HAL's fetches stop returning NaN). A client that stopped may start
        again; commands then continue from the values the HAL holds. RuntimeError (HALDisconnected)
        when no HAL serves the port, or when another live process drives the robot."""
        seg = self._connected()
        self._claim()
        d = self._dir
        held_v, held_s = seg.cmd[0].copy(), seg.cmd[1].copy()
        start_v = np.array([a["start"] for a in d["actuators"]], dtype=float)
        start_s = np.array([math.nan if a["start_stiffness"] is None else a["start_stiffness"]
                            for a in d["actuators"]], dtype=float)
        # a robot side restarting after another one keeps the commands the HAL already holds
        fresh = np.isnan(held_v)
        values = np.where(fresh, start_v, held_v)
        stiffness = np.where(np.isnan(held_s), start_s, held_s)
        self._values, self._stiffness = values, stiffness
        self._last_written = int(seg.cmd_head[_shm.C_COUNTER])
        self._write(values, stiffness)
        seg.header[_shm.H_ROBOT_GEN] += 1
        self._started = True

    def stop(self) -> None:
        """Stop the robot side and detach. The HAL keeps the last commands. Idempotent."""
        if self._seg is not None:
            try:
                if self._seg.is_open() and int(self._seg.header[_shm.H_ROBOT_PID]) == os.getpid():
                    self._seg.header[_shm.H_ROBOT_PID] = 0
            finally:
                self._seg.close()
                self._seg = None
        self._started = False

    close = stop

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def __del__(self):
        try:
            self.stop()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def _require_started(self) -> _shm.Segment:
        if not self._started:
            raise RuntimeError("call RobotClient.start() first")
        return self._connected()

    # ------------------------------------------------------------------ commands
    def _write(self, values: np.ndarray, stiffness: np.ndarray) -> int:
        seg = self._seg
        counter = _hal_write_commands(seg.cmd_head, seg.cmd, values, stiffness)
        self._last_written = counter
        return counter

    def _check(self, name, value, stiffness):
        if not isinstance(name, str):
            raise TypeError(f"actuator name must be a str, got {type(name).__name__}")
        i = self._act_index.get(name)
        if i is None:
            raise ValueError(f"unknown actuator {name!r}; have {list(self._act_index)}")
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"actuator {name!r} value must be a real number, got {type(value).__name__}")
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"actuator {name!r} value must be finite, got {value!r}")
        if stiffness is not None:
            if self._act_kind[i] == "led":
                raise ValueError(f"actuator {name!r} is an LED: it has no stiffness")
            if isinstance(stiffness, bool) or not isinstance(stiffness, (int, float, np.integer, np.floating)):
                raise TypeError(f"actuator {name!r} stiffness must be a real number, got {type(stiffness).__name__}")
            stiffness = float(stiffness)
            if not (0.0 <= stiffness <= 1.0):
                raise ValueError(f"actuator {name!r} stiffness must be in [0, 1], got {stiffness!r}")
        return i, value, stiffness

    def set_actuator(self, name: str, value: float, stiffness: Optional[float] = None) -> int:
        """Command one actuator (its unit: rad, rad/s, N m, 0..1) and optionally its stiffness
        (0..1). Returns the command counter (see wait_cycle)."""
        return self.set_actuators({name: (value, stiffness)})

    def set_actuators(self, commands: Mapping) -> int:
        """Command several actuators in one consistent write: {name: value} or {name: (value,
        stiffness)} (stiffness None keeps it). Nothing is written when any entry is bad. Returns
        the command counter."""
        self._require_started()
        if not isinstance(commands, Mapping):
            raise TypeError(f"commands must be a mapping of actuator name to value, got {type(commands).__name__}")
        # a control loop's usual command, a plain finite float for a known name, takes the fast
        # path (one dict look-up, one list store: ~0.1 us); anything else goes through _check
        index, isfinite = self._act_index, math.isfinite
        values = self._values.tolist()
        stiffness = None  # copied from self._stiffness when a command changes one
        for name, cmd in commands.items():
            if type(cmd) is float:
                i = index.get(name) if type(name) is str else None
                if i is not None and isfinite(cmd):
                    values[i] = cmd
                    continue
                value, stiff = cmd, None
            elif isinstance(cmd, (tuple, list)):
                if len(cmd) != 2:
                    raise ValueError(f"actuator {name!r}: a command is a value or (value, stiffness), got {cmd!r}")
                value, stiff = cmd
            else:
                value, stiff = cmd, None
            i, value, stiff = self._check(name, value, stiff)
            values[i] = value
            if stiff is not None:
                if stiffness is None:
                    stiffness = self._stiffness.copy()
                stiffness[i] = stiff
        v = np.array(values, dtype=float)
        st = self._stiffness if stiffness is None else stiffness
        counter = self._write(v, st)
        self._values, self._stiffness = v, st
        return counter

    def set_actuator_array(self, values, stiffness=None) -> int:
        """Command every actuator at once, in directory order (``actuator_names()``): values and
        optionally stiffness (NaN for an LED), float arrays of that length (torsion addition: the
        fast path of a control loop; checked as a whole: finite values, stiffness in [0, 1]).
        Returns the command counter."""
        self._require_started()
        n = len(self._act_index)
        v = np.array(values, dtype=float)  # a copy: kept as this client's last values
        if v.shape != (n,):
            raise ValueError(f"values must have shape ({n},) (one per actuator), got {v.shape}")
        if stiffness is None:
            counter = self._write(v, self._stiffness)  # refuses non-finite values, writing nothing
            self._values = v
            return counter
        st = np.asarray(stiffness, dtype=float)
        if st.shape != (n,):
            raise ValueError(f"stiffness must have shape ({n},), got {st.shape}")
        led = self._led_mask()
        bad = ~led & ~((st >= 0.0) & (st <= 1.0))
        if bad.any():
            raise ValueError(f"stiffness must be in [0, 1], got {st[bad].tolist()} at {np.flatnonzero(bad).tolist()}")
        st = np.where(led, np.nan, st)
        counter = self._write(v, st)  # refuses non-finite values, writing nothing
        self._values, self._stiffness = v, st
        return counter

    def _led_mask(self) -> np.ndarray:
        return np.array([k == "led" for k in self._act_kind])

    def set_stiffness(self, value: float, names: Optional[Iterable[str]] = None) -> int:
        """Set the stiffness (0..1) of the named actuators (default: every actuator that has one)."""
        self._require_started()
        names = [n for n, i in self._act_index.items() if self._act_kind[i] != "led"] if names is None else list(names)
        return self.set_actuators({n: (self._values[self._act_index[n]] if n in self._act_index else math.nan, value)
                                   for n in names})

    def request_camera(self, name: str, resolution=(160, 120), colorspace: int = _shm.COLORSPACE_RGB) -> None:
        """Select the active camera and the image size and colour space it should deliver (what
        NAOqi's video device asks the simulator for). resolution: (width, height) from NAOqi's list
        or a RES_* index."""
        self._require_started()
        if name not in self._cam_index:
            raise ValueError(f"unknown camera {name!r}; have {list(self._cam_index)}")
        if isinstance(resolution, (int, np.integer)) and not isinstance(resolution, bool):
            if not 0 <= int(resolution) < len(CAMERA_RESOLUTIONS):
                raise ValueError(f"resolution index must be in [0, {len(CAMERA_RESOLUTIONS) - 1}], got {resolution}")
            resolution = CAMERA_RESOLUTIONS[int(resolution)]
        try:
            w, h = (int(x) for x in resolution)
        except (TypeError, ValueError):
            raise ValueError(f"resolution must be (width, height) or a RES_* index, got {resolution!r}") from None
        cam = self._dir["cameras"][self._cam_index[name]]
        if (w, h) not in CAMERA_RESOLUTIONS or w > cam["width"]:
            allowed = [r for r in CAMERA_RESOLUTIONS if r[0] <= cam["width"]]
            raise ValueError(f"camera {name!r}: resolution must be one of {allowed}, got {(w, h)}")
        if colorspace not in (_shm.COLORSPACE_RGB, _shm.COLORSPACE_DEPTH):
            raise ValueError(f"colorspace must be 0 (RGB) or 1 (depth), got {colorspace!r}")
        self._camera = (self._cam_index[name], w, h, colorspace)
        self._write_camera_request(*self._camera)

    def _write_camera_request(self, idx, w, h, space):
        seg = self._seg
        head = seg.cmd_head
        seg.write_begin(head)
        seg.cmd_head_i[_shm.C_CAM], seg.cmd_head_i[_shm.C_CAM_W] = idx, w
        seg.cmd_head_i[_shm.C_CAM_H], seg.cmd_head_i[_shm.C_CAM_SPACE] = h, space
        seg.write_end(head)

    # ------------------------------------------------------------------ sensors
    def read_sensor(self, name: str):
        """The sensor's latest value: a float for one-value sensors (rad, rad/s, N m, kg, 0..1, m),
        a float64 array for the IMU (7) and sonars (their echoes), and for a camera its latest image
        (uint8 (H, W, 3) RGB or float32 (H, W) depth; None before the first image). NaN before
        the simulator has measured anything."""
        seg = self._connected()
        if not isinstance(name, str):
            raise TypeError(f"sensor name must be a str, got {type(name).__name__}")
        if name in self._cam_index:
            return self._read_image(seg, self._cam_index[name])
        slot = self._sens_slot.get(name)
        if slot is None:
            raise ValueError(f"unknown sensor {name!r}; have {list(self._sens_slot) + list(self._cam_index)}")
        off, size = slot
        sens = seg.sens
        out = seg.read(seg.sens_head, lambda: sens[off:off + size].copy())
        return float(out[0]) if size == 1 and name not in self._multi() else out

    def _multi(self):
        return {s["name"] for s in self._dir["sensors"] if s["kind"] in ("inertial", "sonar")}

    def read_sensors(self, names: Optional[Iterable[str]] = None) -> dict:
        """Several sensors read from one consistent snapshot (same simulator cycle): {name: value}
        (default: every non-camera sensor). Cameras are read alongside (their own snapshot)."""
        seg = self._connected()
        names = list(self._sens_slot) if names is None else list(names)
        sens = seg.sens
        snap = seg.read(seg.sens_head, lambda: sens.copy())
        multi = self._multi()
        out = {}
        for n in names:
            if not isinstance(n, str):
                raise TypeError(f"sensor name must be a str, got {type(n).__name__}")
            if n in self._cam_index:
                out[n] = self._read_image(seg, self._cam_index[n])
                continue
            slot = self._sens_slot.get(n)
            if slot is None:
                raise ValueError(f"unknown sensor {n!r}; have {list(self._sens_slot) + list(self._cam_index)}")
            off, size = slot
            out[n] = float(snap[off]) if size == 1 and n not in multi else snap[off:off + size].copy()
        return out

    def read_sensor_array(self, out: Optional[np.ndarray] = None) -> tuple:
        """(values, cycle, applied command counter, simulation time): the whole sensor block in one
        consistent copy, in the directory's slot order (torsion addition for fast loops)."""
        seg = self._connected()
        sens, head, headf = seg.sens, seg.sens_head, seg.sens_head_f
        if out is None:
            out = np.empty_like(sens)
        try:  # the fast path: one sequence-locked copy in C++ (out a float64 array of the block's size)
            got = _hal_read_sensors(head, sens, out)
        except (TypeError, ValueError):
            got = None
        if got is not None:
            return (out, *got)

        def copy():
            np.copyto(out, sens)
            return int(head[_shm.S_CYCLE]), int(head[_shm.S_APPLIED]), float(headf[_shm.S_TIME])

        cycle, applied, t = seg.read(head, copy)
        return out, cycle, applied, t

    def _read_image(self, seg, idx):
        head, data = seg.cam_heads[idx], seg.cam_data[idx]

        def copy():
            w, h, space = int(head[_shm.K_W]), int(head[_shm.K_H]), int(head[_shm.K_SPACE])
            if int(head[_shm.K_FRAME]) == 0:
                return None
            n = w * h * (4 if space == _shm.COLORSPACE_DEPTH else 3)
            raw = data[:n].copy()
            if space == _shm.COLORSPACE_DEPTH:
                return raw.view(np.float32).reshape(h, w)
            return raw.reshape(h, w, 3)

        return seg.read(head, copy)

    # ------------------------------------------------------------------ synchronisation
    def cycle(self) -> tuple:
        """(cycle, applied command counter) the simulator last published."""
        seg = self._connected()
        head = seg.sens_head
        return seg.read(head, lambda: (int(head[_shm.S_CYCLE]), int(head[_shm.S_APPLIED])))

    def wait_cycle(self, timeout: float = 1.0, counter: Optional[int] = None) -> bool:
        """Wait until the simulator has completed a cycle that applied command ``counter`` (default:
        this client's last write), so the sensors reflect it. Waits across a HAL restart
        (reattaching and re-sending the commands). False on timeout."""
        if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout >= 0):
            raise ValueError(f"timeout must be a finite number >= 0 (s), got {timeout!r}")
        start = time.monotonic()
        deadline = start + timeout
        while True:
            head = None
            try:
                seg = self._connected()
                want = self._last_written if counter is None else counter
                head = seg.sens_head
                applied = int(head[_shm.S_APPLIED])
                if applied >= want:
                    return True
            except HALDisconnected:
                pass
            now = time.monotonic()
            if now >= deadline:
                return False
            if head is None:  # no HAL on the port: look again in a while
                time.sleep(min(1e-3, deadline - now))
                continue
            # wait for the simulator's next sensor write (the applied counter moves), the GIL
            # released: spinning for the first SPIN_SECONDS (a HAL cycle's physics takes about that
            # long: a sleep would add the kernel's wake-up latency, ~0.1 ms, to every hand-over),
            # then sleeping in steps of up to 1 ms so that a slow simulator costs little CPU; back
            # here at least every 50 ms to notice a HAL restart (and Ctrl-C)
            _hal_wait_change(head, _shm.S_APPLIED, applied, max(0.0, _shm.SPIN_SECONDS - (now - start)),
                             min(deadline - now, 0.05))

    def __repr__(self) -> str:
        state = "started" if self._started else ("attached" if self._seg is not None else "detached")
        return f"<torsion.hal.RobotClient port {self.port} ({state})>"
