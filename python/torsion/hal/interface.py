"""HALInterface: the simulator's side of the robot's hardware abstraction layer (``Sim::HALInterface``).

The simulator fetches what the robot software commanded (actuator values and stiffness) and sends
what the simulated sensors measure. Values travel through the port's shared memory segment (shm.py),
so the robot side (:class:`torsion.hal.RobotClient`) may run in this process or another one.

Every fetch returns NaN until the robot side has started (``RobotClient.start()``), as the seed
says: the simulator then uses the actuator's start value. Every send checks its device and value
and raises ValueError (TypeError for a device of another kind) for an unknown device, a wrong size
or a non-finite value; it returns True when the value was stored.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from .._core import _hal_read_commands, _hal_write_sensors
from . import shm as _shm
from .model import (
    CAMERA_RESOLUTIONS,
    Actuator,
    CameraSensor,
    Model,
    Sensor,
)

__all__ = ["HALInterface", "RES_80_60", "RES_160_120", "RES_320_240", "RES_640_480", "RES_1280_960",
           "COLORSPACE_RGB", "COLORSPACE_DEPTH", "build_directory"]

# NAOqi's CameraResolution and CameraColorSpace (alnaosim_camera_definitions.h)
RES_80_60, RES_160_120, RES_320_240, RES_640_480, RES_1280_960 = range(5)
COLORSPACE_RGB, COLORSPACE_DEPTH = _shm.COLORSPACE_RGB, _shm.COLORSPACE_DEPTH
# the deprecated camera call takes RGB at these sizes only
_DEPRECATED_RESOLUTIONS = ((160, 120), (320, 240), (640, 480))


def build_directory(model: Model) -> dict:
    """The JSON directory stored in the segment: what a RobotClient needs to know about the model."""
    acts, sens, cams = [], [], []
    offset = 0
    for a in model.actuators():
        acts.append({"name": a.name, "kind": a.kind, "start": a.start_value,
                     "start_stiffness": getattr(a, "start_stiffness", None),
                     "min": getattr(a, "min_value", None), "max": getattr(a, "max_value", None)})
    for s in model.sensors():
        if isinstance(s, CameraSensor):
            cams.append({"name": s.name, "width": s.width, "height": s.height,
                         "default": [s.default_width, s.default_height]})
            continue
        sens.append({"name": s.name, "kind": s.kind, "offset": offset, "size": s.size})
        offset += s.size
    return {"robot": model.name, "actuators": acts, "sensors": sens, "cameras": cams}


def _finite(value, what: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be a real number, got {type(value).__name__}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{what} must be finite, got {v!r}")
    return v


def _as_float(x, what):
    # the deprecated vector<const float*> forms: accept a 0-d or 1-element array as "a pointer to a float"
    if isinstance(x, np.ndarray):
        if x.size != 1:
            raise ValueError(f"{what} must be a number (or a 1-element array), got an array of shape {x.shape}")
        x = x.reshape(-1)[0]
    return _finite(x, what)


class HALInterface:
    """The HAL of one robot on one port: ``HALInterface(model, port=9559)``.

    Creating it creates the port's shared memory segment (RuntimeError when a live HAL already
    holds the port); :meth:`close` (or leaving a ``with`` block) removes it. Devices are passed as
    the model's device objects or by name.
    """

    def __init__(self, model: Model, port: int = 9559):
        if not isinstance(model, Model):
            raise TypeError(f"model must be a torsion.hal.Model, got {type(model).__name__}")
        self.model = model
        self.port = port
        self._act_index = {a.name: i for i, a in enumerate(model.actuators())}
        directory = build_directory(model)
        self._sens_slot = {s["name"]: (s["offset"], s["size"]) for s in directory["sensors"]}
        self._cameras = [model.sensor(c["name"]) for c in directory["cameras"]]
        self._cam_index = {c.name: i for i, c in enumerate(self._cameras)}
        n_sens = sum(s["size"] for s in directory["sensors"])
        cam_bytes = [c.width * c.height * 4 for c in self._cameras]  # room for depth (float32)
        self._seg = _shm.Segment.create(port, directory, len(self._act_index), n_sens, cam_bytes)
        self._n_sens = n_sens

    # ------------------------------------------------------------------ life cycle
    @property
    def closed(self) -> bool:
        return self._seg is None

    def close(self) -> None:
        """Mark the segment closed (clients see it) and remove it. Idempotent."""
        if self._seg is not None:
            self._seg.close()
            self._seg = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):  # the segment must not outlive its HAL
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def _segment(self) -> _shm.Segment:
        if self._seg is None:
            raise RuntimeError(f"the HAL on port {self.port} is closed")
        return self._seg

    @property
    def segment_name(self) -> str:
        return _shm.segment_name(self.port)

    # ------------------------------------------------------------------ device resolution
    def _actuator(self, actuator, kind: str) -> int:
        if isinstance(actuator, Actuator):
            if actuator.kind != kind:
                raise TypeError(f"expected a {kind} actuator, got the {actuator.kind} actuator {actuator.name!r}")
            name = actuator.name
        elif isinstance(actuator, str):
            name = actuator
        else:
            raise TypeError(f"actuator must be a {kind} actuator or its name, got {type(actuator).__name__}")
        self.model.actuator(name, kind)  # ValueError naming the kind when unknown
        return self._act_index[name]

    def _sensor(self, sensor, kind: str) -> Sensor:
        if isinstance(sensor, Sensor):
            if sensor.kind != kind:
                raise TypeError(f"expected a {kind} sensor, got the {sensor.kind} sensor {sensor.name!r}")
            name = sensor.name
        elif isinstance(sensor, str):
            name = sensor
        else:
            raise TypeError(f"sensor must be a {kind} sensor or its name, got {type(sensor).__name__}")
        return self.model.sensor(name, kind)

    # ------------------------------------------------------------------ fetch (robot -> simulator)
    def _fetch(self, actuator, kind: str, row: int) -> float:
        i = self._actuator(actuator, kind)
        return float(self._segment().cmd[row, i])  # one aligned 8-byte load: never torn

    def fetch_angle_actuator_value(self, angle_actuator) -> float:
        """Last commanded angle (rad); NaN until the robot side has started."""
        return self._fetch(angle_actuator, "angle", 0)

    def fetch_coupled_actuator_value(self, coupled_actuator) -> float:
        """Last commanded coupled value (0..1); NaN until the robot side has started."""
        return self._fetch(coupled_actuator, "coupled", 0)

    def fetch_torque_actuator_value(self, torque_actuator) -> float:
        """Last commanded torque (N m; the seed says "Newton per meter"); NaN until started."""
        return self._fetch(torque_actuator, "torque", 0)

    def fetch_angle_speed_actuator_value(self, angle_speed_actuator) -> float:
        """Last commanded joint speed (rad/s); NaN until started."""
        return self._fetch(angle_speed_actuator, "angle_speed", 0)

    def fetch_wheel_torque_actuator_value(self, wheel_torque_actuator) -> float:
        """Last commanded wheel torque (N m); NaN until started."""
        return self._fetch(wheel_torque_actuator, "wheel_torque", 0)

    def fetch_wheel_velocity_actuator_value(self, wheel_velocity_actuator) -> float:
        """Last commanded wheel velocity (rad/s); NaN until started."""
        return self._fetch(wheel_velocity_actuator, "wheel_velocity", 0)

    def fetch_led_actuator_value(self, led_actuator) -> float:
        """Last commanded LED intensity (0..1); NaN until started."""
        return self._fetch(led_actuator, "led", 0)

    def fetch_angle_actuator_stiffness(self, angle_actuator) -> float:
        """Last stiffness (0..1) of an angle actuator; NaN until started."""
        return self._fetch(angle_actuator, "angle", 1)

    def fetch_coupled_actuator_stiffness(self, coupled_actuator) -> float:
        return self._fetch(coupled_actuator, "coupled", 1)

    def fetch_torque_actuator_stiffness(self, torque_actuator) -> float:
        return self._fetch(torque_actuator, "torque", 1)

    def fetch_angle_speed_actuator_stiffness(self, angle_speed_actuator) -> float:
        return self._fetch(angle_speed_actuator, "angle_speed", 1)

    def fetch_wheel_torque_actuator_stiffness(self, wheel_torque_actuator) -> float:
        return self._fetch(wheel_torque_actuator, "wheel_torque", 1)

    def fetch_wheel_velocity_actuator_stiffness(self, wheel_velocity_actuator) -> float:
        return self._fetch(wheel_velocity_actuator, "wheel_velocity", 1)

    def fetch_actuator_arrays(self, out: Optional[np.ndarray] = None) -> tuple:
        """Every actuator's command at once, consistent (one sequence-locked copy): (values,
        stiffness, counter). values and stiffness are float64 arrays in model.actuators() order
        (NaN until started); counter counts the robot side's command writes. ``out``, a (2, n)
        float64 array, receives the copy instead of a new one. (torsion addition: the bridge's
        bulk fetch.)"""
        seg = self._segment()
        if out is None:
            out = np.empty_like(seg.cmd)
        head = seg.cmd_head
        cmd = seg.cmd
        try:  # the fast path: one sequence-locked copy in C++ (out a float64 (2, n) array)
            counter = _hal_read_commands(head, cmd, out)
        except (TypeError, ValueError):
            counter = None
        if counter is not None:
            return out[0], out[1], counter

        def copy():
            np.copyto(out, cmd)
            return int(head[_shm.C_COUNTER])

        counter = seg.read(head, copy, timeout=0.5, writer_dead=self._robot_dead)
        return out[0], out[1], counter

    def _robot_dead(self) -> bool:
        pid = int(self._segment().header[_shm.H_ROBOT_PID])
        return pid == 0 or not _shm.pid_alive(pid)

    # ------------------------------------------------------------------ send (simulator -> robot)
    def _store(self, name: str, values) -> bool:
        seg = self._segment()
        off, size = self._sens_slot[name]
        head = seg.sens_head
        seg.write_begin(head)
        seg.sens[off:off + size] = values
        seg.write_end(head)
        return True

    def _send_scalar(self, sensor, kind: str, value, lo: float = -math.inf, hi: float = math.inf,
                     unit: str = "") -> bool:
        s = self._sensor(sensor, kind)
        v = _finite(value, f"{kind} sensor {s.name!r} value")
        if v < lo or v > hi:
            raise ValueError(f"{kind} sensor {s.name!r} value must be in [{lo}, {hi}]{unit}, got {v!r}")
        return self._store(s.name, v)

    def send_angle_sensor_value(self, angle_sensor, value: float) -> bool:
        """Joint angle (rad)."""
        return self._send_scalar(angle_sensor, "angle", value, unit=" rad")

    def send_coupled_sensor_value(self, coupled_sensor, value: float) -> bool:
        """Coupled value (no unit, nominally 0..1)."""
        return self._send_scalar(coupled_sensor, "coupled", value)

    def send_torque_sensor_value(self, torque_sensor, value: float) -> bool:
        """Joint torque (N m)."""
        return self._send_scalar(torque_sensor, "torque", value)

    def send_angle_speed_sensor_value(self, angle_speed_sensor, value: float) -> bool:
        """Joint speed (rad/s)."""
        return self._send_scalar(angle_speed_sensor, "angle_speed", value)

    def send_wheel_velocity_sensor_value(self, wheel_velocity_sensor, value: float) -> bool:
        """Wheel velocity (rad/s)."""
        return self._send_scalar(wheel_velocity_sensor, "wheel_velocity", value)

    def send_fsr_sensor_value(self, fsr_sensor, value: float) -> bool:
        """Load on a force sensing resistor, in kg (>= 0)."""
        return self._send_scalar(fsr_sensor, "fsr", value, lo=0.0, unit=" kg")

    def send_bumper_sensor_value(self, bumper_sensor, value: float) -> bool:
        """Bumper state, 0..1."""
        return self._send_scalar(bumper_sensor, "bumper", value, lo=0.0, hi=1.0)

    def send_tactile_sensor_value(self, tactile_sensor, value: float) -> bool:
        """Tactile sensor state, 0..1."""
        return self._send_scalar(tactile_sensor, "tactile", value, lo=0.0, hi=1.0)

    def send_depth_infrared_sensor_value(self, depth_infrared_sensor, value: float) -> bool:
        """Distance seen by a single-ray depth sensor (m, >= 0)."""
        return self._send_scalar(depth_infrared_sensor, "depth_infrared", value, lo=0.0, unit=" m")

    def send_inertial_sensor_values(self, inertial_sensor, values: Sequence) -> bool:
        """The IMU's 7 values in order AngleX, AngleY (rad), AccX, AccY, AccZ (m/s^2), GyrX, GyrY
        (rad/s). Elements may be numbers or 1-element arrays (the seed's deprecated
        ``std::vector<const float*>`` form)."""
        s = self._sensor(inertial_sensor, "inertial")
        vals = self._vector(values, f"inertial sensor {s.name!r} values")
        if len(vals) != 7:
            raise ValueError(f"inertial sensor {s.name!r} values must have 7 entries (AngleX, AngleY, AccX, AccY, "
                             f"AccZ, GyrX, GyrY), got {len(vals)}")
        return self._store(s.name, vals)

    def send_sonar_sensor_values(self, sonar_sensor, values: Sequence) -> bool:
        """Sonar echoes (m, >= 0), nearest first: as many as the sonar has (10, or 1). A 1-echo
        sonar also accepts 10 values and keeps the first (the seed's remark). Elements may be
        numbers or 1-element arrays (the deprecated form)."""
        s = self._sensor(sonar_sensor, "sonar")
        vals = self._vector(values, f"sonar sensor {s.name!r} values")
        if len(vals) != s.echoes and not (s.echoes == 1 and len(vals) == 10):
            want = "1 or 10" if s.echoes == 1 else "10"
            raise ValueError(f"sonar sensor {s.name!r} values must have {want} entries, got {len(vals)}")
        if (vals < 0).any():
            raise ValueError(f"sonar sensor {s.name!r} values must be >= 0 m, got {vals.tolist()}")
        return self._store(s.name, vals[: s.echoes])

    def send_sonar_sensor_value(self, sonar_sensor, value: float) -> bool:
        """One echo (m); the sonar's other echoes are set to 0."""
        s = self._sensor(sonar_sensor, "sonar")
        v = _finite(value, f"sonar sensor {s.name!r} value")
        if v < 0:
            raise ValueError(f"sonar sensor {s.name!r} value must be >= 0 m, got {v!r}")
        vals = np.zeros(s.echoes)
        vals[0] = v
        return self._store(s.name, vals)

    @staticmethod
    def _vector(values, what) -> np.ndarray:
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise TypeError(f"{what} must be a sequence of numbers, got {type(values).__name__}")
        if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "fiu":
            arr = values.astype(float)
            if not np.isfinite(arr).all():
                raise ValueError(f"{what} must be finite, got {arr.tolist()}")
            return arr
        return np.array([_as_float(x, f"{what}[{i}]") for i, x in enumerate(values)], dtype=float)

    # ------------------------------------------------------------------ cameras
    def _camera(self, camera) -> CameraSensor:
        return self._sensor(camera, "camera")  # type: ignore[return-value]

    def _requested(self) -> tuple:
        """(camera index, width, height, colour space) the robot side asked for."""
        seg = self._segment()
        head = seg.cmd_head_i

        def copy():
            return (int(head[_shm.C_CAM]), int(head[_shm.C_CAM_W]), int(head[_shm.C_CAM_H]),
                    int(head[_shm.C_CAM_SPACE]))

        idx, w, h, space = seg.read(seg.cmd_head, copy, timeout=0.5, writer_dead=self._robot_dead)
        if not 0 <= idx < len(self._cameras):
            idx = 0
        cam = self._cameras[idx] if self._cameras else None
        if cam is not None and ((w, h) not in CAMERA_RESOLUTIONS or w > cam.width):
            w, h = cam.default_width, cam.default_height
        return idx, w, h, space

    def active_camera(self) -> str:
        """Name of the camera the robot side has selected (the model's first camera until it
        selects one). Deprecated in the seed."""
        if not self._cameras:
            raise RuntimeError(f"the model {self.model.name!r} has no camera")
        return self._cameras[self._requested()[0]].name

    def requested_camera(self) -> tuple:
        """(camera name, width, height, colour space) the robot side asked for (torsion addition:
        the bridge renders that)."""
        if not self._cameras:
            raise RuntimeError(f"the model {self.model.name!r} has no camera")
        idx, w, h, space = self._requested()
        return self._cameras[idx].name, w, h, space

    def camera_buffer_size(self, camera=None, with_dimensions: bool = False):
        """Buffer size in bytes, width * height * 3 (RGB), of the size the robot side currently
        requests from ``camera`` (its default resolution until it asks). Without ``camera``: the
        active camera (the seed's deprecated form). ``with_dimensions=True`` returns (size, width,
        height), the seed's ``cameraBufferSize(camera, &size, &width, &height)``."""
        if camera is None:
            if not self._cameras:
                raise RuntimeError(f"the model {self.model.name!r} has no camera")
            cam = self._cameras[self._requested()[0]]
        else:
            cam = self._camera(camera)
        idx, w, h, _space = self._requested()
        if self._cameras[idx].name != cam.name:
            w, h = cam.default_width, cam.default_height
        size = w * h * 3
        return (size, w, h) if with_dimensions else size

    def camera_buffer_dimensions(self, camera) -> tuple:
        """(size, width, height): the seed's out-parameter form of cameraBufferSize."""
        return self.camera_buffer_size(camera, with_dimensions=True)

    def send_camera_sensor_value(self, camera_sensor, img, resolution=None, colorspace: int = COLORSPACE_RGB,
                                 time: float = math.nan) -> bool:
        """Send an image. RGB: uint8, shape (H, W, 3) or flat bytes of W*H*3; depth
        (colorspace=COLORSPACE_DEPTH): float32 metres, shape (H, W) or flat. The resolution is one of
        NAOqi's (RES_* index or (width, height)) up to the camera's largest; without it, the
        array's shape gives it, or, for a flat buffer, the size the robot side requests
        (camera_buffer_size). Without resolution and colour space this is the seed's deprecated
        form, which takes RGB at 160x120, 320x240 or 640x480."""
        cam = self._camera(camera_sensor)
        if colorspace not in (COLORSPACE_RGB, COLORSPACE_DEPTH):
            raise ValueError(f"colorspace must be COLORSPACE_RGB (0) or COLORSPACE_DEPTH (1), got {colorspace!r}")
        depth = colorspace == COLORSPACE_DEPTH
        if isinstance(img, (bytes, bytearray, memoryview)):
            arr = np.frombuffer(img, dtype=np.float32 if depth else np.uint8)
        elif isinstance(img, np.ndarray):
            want = np.float32 if depth else np.uint8
            if img.dtype != want:
                raise TypeError(f"camera {cam.name!r}: a {'depth' if depth else 'RGB'} image must be {np.dtype(want)}, "
                                f"got {img.dtype}")
            arr = img
        else:
            raise TypeError(f"camera {cam.name!r}: img must be a numpy array or a bytes-like buffer, got "
                            f"{type(img).__name__}")
        channels = 1 if depth else 3
        if resolution is None:
            if arr.ndim >= 2:
                w, h = arr.shape[1], arr.shape[0]
            else:
                _size, w, h = self.camera_buffer_size(cam, with_dimensions=True)
        elif isinstance(resolution, (int, np.integer)) and not isinstance(resolution, bool):
            if not 0 <= int(resolution) < len(CAMERA_RESOLUTIONS):
                raise ValueError(f"camera {cam.name!r}: resolution index must be in [0, {len(CAMERA_RESOLUTIONS) - 1}], "
                                 f"got {resolution}")
            w, h = CAMERA_RESOLUTIONS[int(resolution)]
        else:
            try:
                w, h = (int(x) for x in resolution)
            except (TypeError, ValueError):
                raise ValueError(f"camera {cam.name!r}: resolution must be a RES_* index or (width, height), "
                                 f"got {resolution!r}") from None
        if (w, h) not in CAMERA_RESOLUTIONS or w > cam.width:
            allowed = [r for r in CAMERA_RESOLUTIONS if r[0] <= cam.width]
            raise ValueError(f"camera {cam.name!r}: resolution must be one of {allowed}, got {(w, h)}")
        if resolution is None and not depth and (w, h) not in _DEPRECATED_RESOLUTIONS and arr.ndim < 2:
            raise ValueError(f"camera {cam.name!r}: an RGB buffer without a resolution must be 160x120, 320x240 "
                             f"or 640x480, got {(w, h)}")
        expect_shape = (h, w, 3) if not depth else (h, w)
        if arr.ndim >= 2 and arr.shape != expect_shape:
            raise ValueError(f"camera {cam.name!r}: image must have shape {expect_shape}, got {arr.shape}")
        if arr.size != w * h * channels:
            raise ValueError(f"camera {cam.name!r}: buffer must hold {w * h * channels} "
                             f"{'float32' if depth else 'bytes'} ({w}x{h}{'' if depth else 'x3'}), got {arr.size}")
        if depth and not np.isfinite(arr).all():
            raise ValueError(f"camera {cam.name!r}: depth values must be finite")
        self._store_image(self._cam_index[cam.name], arr, w, h, colorspace, time)
        return True

    def _store_image(self, idx: int, arr: np.ndarray, w: int, h: int, space: int, t: float) -> None:
        seg = self._segment()
        head, data = seg.cam_heads[idx], seg.cam_data[idx]
        raw = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
        seg.write_begin(head)
        data[: raw.size] = raw
        head[_shm.K_FRAME] += 1
        head[_shm.K_W], head[_shm.K_H], head[_shm.K_SPACE] = w, h, space
        seg.cam_heads_f[idx][_shm.K_TIME] = t
        seg.write_end(head)

    # ------------------------------------------------------------------ bulk send (bridge)
    def sensor_slots(self) -> dict:
        """{sensor name: (offset, size)} in the sensor block (cameras excluded)."""
        return dict(self._sens_slot)

    def send_sensor_array(self, values: np.ndarray, cycle: int, applied_counter: int, sim_time: float) -> None:
        """Publish every sensor value at once (one sequence-locked write) with the cycle number,
        the command counter the cycle applied and the simulation time (torsion addition: the
        bridge's bulk send; values are not checked, the bridge computes them)."""
        seg = self._segment()
        if not (isinstance(values, np.ndarray) and values.dtype == np.float64 and values.shape == seg.sens.shape
                and values.flags.c_contiguous):
            values = np.ascontiguousarray(np.broadcast_to(np.asarray(values, dtype=np.float64), seg.sens.shape))
        _hal_write_sensors(seg.sens_head, seg.sens, values, cycle, applied_counter, sim_time)

    def robot_started(self) -> bool:
        """Whether the robot side has started (its commands replaced the NaNs)."""
        return int(self._segment().header[_shm.H_ROBOT_GEN]) > 0

    def __repr__(self) -> str:
        state = "closed" if self._seg is None else f"/dev/shm/{self.segment_name}"
        return f"<torsion.hal.HALInterface {self.model.name!r} port {self.port} ({state})>"
