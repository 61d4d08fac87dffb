"""The robot model of the HAL: which actuators and sensors a robot has, and what each is bound to.

A :class:`Model` is built from a URDF file (the robot's links and joints) and a device description
(a JSON file next to it, format in docs/hal.md) that binds every actuator to joints and every
sensor to joints or to a place on a link. It is the Python form of the simulator SDK's
``Sim::Model`` (semantics.md C2): typed look-ups by name (``model.angle_actuator("HeadYaw")``),
typed lists (``model.angle_actuators()``), and the names of every device of a kind
(``model.actuator_names("angle")``).

Units are SI: angles in rad, speeds in rad/s, torques in N m, lengths in m, camera field of view
in degrees, sonar cone (full apex angle) in degrees.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

__all__ = [
    "ACTUATOR_KINDS",
    "SENSOR_KINDS",
    "CAMERA_RESOLUTIONS",
    "Model",
    "Actuator",
    "Sensor",
    "AngleActuator",
    "CoupledActuator",
    "TorqueActuator",
    "AngleSpeedActuator",
    "WheelTorqueActuator",
    "WheelVelocityActuator",
    "LEDActuator",
    "AngleSensor",
    "CoupledSensor",
    "TorqueSensor",
    "AngleSpeedSensor",
    "WheelVelocitySensor",
    "CameraSensor",
    "FSRSensor",
    "BumperSensor",
    "TactileSensor",
    "DepthInfraredSensor",
    "InertialSensor",
    "SonarSensor",
]

#: Actuator kinds, in the order of the seed's fetch methods.
ACTUATOR_KINDS = ("angle", "coupled", "torque", "angle_speed", "wheel_torque", "wheel_velocity", "led")
#: Sensor kinds, in the order of the seed's send methods.
SENSOR_KINDS = ("angle", "coupled", "torque", "angle_speed", "wheel_velocity", "camera", "fsr", "bumper",
                "tactile", "depth_infrared", "inertial", "sonar")
#: Camera resolutions NAOqi knows (alnaosim_camera_definitions.h), (width, height) in pixels.
CAMERA_RESOLUTIONS = ((80, 60), (160, 120), (320, 240), (640, 480), (1280, 960))

DEVICES_FORMAT = "torsion.hal.devices"
DEVICES_VERSION = 1


# ----------------------------------------------------------------------------------------- devices
@dataclass(frozen=True)
class Actuator:
    """Base of every actuator: its unique name and the value used until the robot side starts."""

    name: str
    start_value: float
    kind = ""


@dataclass(frozen=True)
class AngleActuator(Actuator):
    """Position-controlled joint (rad). At stiffness s the joint is driven by a PD of gains
    (s kp, s kd) towards the commanded angle; s = 0 leaves it limp."""

    joint: str = ""
    min_value: float = -math.inf
    max_value: float = math.inf
    max_speed: float = math.inf  # rad/s
    max_torque: float = math.inf  # N m
    kp: float = 0.0  # N m/rad at stiffness 1
    kd: float = 0.0  # N m s/rad at stiffness 1
    start_stiffness: float = 1.0  # used until the robot side starts
    kind = "angle"


@dataclass(frozen=True)
class CoupledActuator(Actuator):
    """One value in [0, 1] driving several joints: joint i is driven to ratio_i * value (rad) by a
    PD of gains (s kp, s kd). max_speed is in Hz (full strokes per second), as in the SDK."""

    joints: tuple = ()  # ((joint name, ratio), ...)
    min_value: float = 0.0
    max_value: float = 1.0
    max_speed: float = math.inf
    kp: float = 0.0
    kd: float = 0.0
    start_stiffness: float = 1.0
    kind = "coupled"

    def controlled_joints_and_ratios(self) -> tuple:
        return self.joints


@dataclass(frozen=True)
class TorqueActuator(Actuator):
    """Feedforward joint torque (N m), limited to stiffness * max_torque in magnitude."""

    joint: str = ""
    max_torque: float = math.inf
    start_stiffness: float = 1.0
    kind = "torque"


@dataclass(frozen=True)
class AngleSpeedActuator(Actuator):
    """Velocity-controlled joint (rad/s): a damping term s * kd * (v_ref - v)."""

    joint: str = ""
    max_speed: float = math.inf
    kd: float = 0.0
    start_stiffness: float = 1.0
    kind = "angle_speed"


@dataclass(frozen=True)
class WheelTorqueActuator(Actuator):
    """Wheel torque (N m), limited to stiffness * max_torque in magnitude."""

    joint: str = ""
    max_torque: float = math.inf
    start_stiffness: float = 1.0
    kind = "wheel_torque"


@dataclass(frozen=True)
class WheelVelocityActuator(Actuator):
    """Wheel velocity (rad/s), clamped to +-max_velocity, held by a damping term s * kd * (v_ref - v)."""

    joint: str = ""
    max_velocity: float = math.inf
    kd: float = 0.0
    start_stiffness: float = 1.0
    kind = "wheel_velocity"


@dataclass(frozen=True)
class LEDActuator(Actuator):
    """An LED's intensity in [0, 1]; it has no stiffness. The simulation stores the value."""

    color: str = "white"
    groups: tuple = ()
    kind = "led"


@dataclass(frozen=True)
class Sensor:
    """Base of every sensor: its unique name (among sensors)."""

    name: str
    kind = ""
    size = 1  # float64 values in the sensor block


@dataclass(frozen=True)
class AngleSensor(Sensor):
    """Joint angle encoder (rad)."""

    joint: str = ""
    kind = "angle"


@dataclass(frozen=True)
class CoupledSensor(Sensor):
    """Coupled joints' value: the mean of q_i / ratio_i (no unit)."""

    joints: tuple = ()
    kind = "coupled"


@dataclass(frozen=True)
class TorqueSensor(Sensor):
    """Actuator torque of a joint during the last physics step (N m)."""

    joint: str = ""
    kind = "torque"


@dataclass(frozen=True)
class AngleSpeedSensor(Sensor):
    """Joint velocity (rad/s)."""

    joint: str = ""
    kind = "angle_speed"


@dataclass(frozen=True)
class WheelVelocitySensor(Sensor):
    """Wheel velocity (rad/s)."""

    joint: str = ""
    kind = "wheel_velocity"


@dataclass(frozen=True)
class _Placed(Sensor):
    """A sensor placed on a link: position xyz (m) and orientation rpy (rad, URDF convention) in
    the link's frame. Its own frame looks along +x (+y left, +z up)."""

    link: str = ""
    xyz: tuple = (0.0, 0.0, 0.0)
    rpy: tuple = (0.0, 0.0, 0.0)

    def rotation(self) -> np.ndarray:
        return rpy_matrix(self.rpy)


@dataclass(frozen=True)
class CameraSensor(_Placed):
    """A camera looking along +x of its frame: pinhole with horizontal field of view hfov (deg).
    Images are RGB (uint8, width * height * 3) or depth (float32 metres per pixel) at one of
    CAMERA_RESOLUTIONS up to (width, height), the largest it supports."""

    hfov: float = 60.97
    width: int = 640
    height: int = 480
    default_width: int = 160
    default_height: int = 120
    period: float = 1.0 / 15.0  # s between two images
    clip_near: float = 0.01
    clip_far: float = 10.0
    kind = "camera"
    size = 0  # images travel in their own buffers

    def buffer_size(self, width: Optional[int] = None, height: Optional[int] = None) -> int:
        return (width or self.width) * (height or self.height) * 3


@dataclass(frozen=True)
class FSRSensor(_Placed):
    """Force sensing resistor under a foot, at xyz on the sole (link frame). Value in kg: the
    normal contact force it carries divided by g. A link's FSRs share the normal forces of the
    contacts on that link (bilinear weights over the rectangle of four FSRs)."""

    kind = "fsr"


@dataclass(frozen=True)
class _Region(_Placed):
    """A contact switch: fires (1.0) when a contact on the link lies inside the box of centre xyz
    and lengths size (link frame), else 0.0."""

    size_xyz: tuple = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class BumperSensor(_Region):
    kind = "bumper"


@dataclass(frozen=True)
class TactileSensor(_Region):
    kind = "tactile"


@dataclass(frozen=True)
class DepthInfraredSensor(_Placed):
    """A single ray along +x of its frame: distance to the first surface in [min_range,
    max_range] (m); max_range when nothing is seen."""

    min_range: float = 0.0
    max_range: float = 1.5
    kind = "depth_infrared"


@dataclass(frozen=True)
class InertialSensor(_Placed):
    """IMU: AngleX, AngleY (roll and pitch of its frame, rad), AccX, AccY, AccZ (proper
    acceleration in its frame, m/s^2: +9.81 on AccZ at rest), GyrX, GyrY (angular velocity in its
    frame, rad/s)."""

    kind = "inertial"
    size = 7


@dataclass(frozen=True)
class SonarSensor(_Placed):
    """Ultrasound sensor looking along +x of its frame with a cone of full apex angle cone (deg),
    sampled by rays on `rings` rings. `echoes` values (1 or 10, m): the nearest distance of each
    object the cone sees, nearest first, then 0s; max_range first when nothing is seen."""

    cone: float = 60.0
    min_range: float = 0.25
    max_range: float = 2.55
    echoes: int = 10
    rings: int = 4
    kind = "sonar"

    @property
    def size(self) -> int:  # type: ignore[override]
        return self.echoes

    def ray_directions(self) -> np.ndarray:
        """(N, 3) unit directions in the sensor frame: the axis, then rings of 8 k rays at k / rings
        of the half angle (each ring has rays at azimuths 0, 90, 180 and 270 degrees)."""
        half = math.radians(self.cone) / 2.0
        dirs = [(1.0, 0.0, 0.0)]
        for k in range(1, self.rings + 1):
            a = half * k / self.rings
            n = 8 * k
            for j in range(n):
                phi = 2.0 * math.pi * j / n
                dirs.append((math.cos(a), math.sin(a) * math.cos(phi), math.sin(a) * math.sin(phi)))
        return np.array(dirs)


_ACTUATOR_CLASSES = {c.kind: c for c in (AngleActuator, CoupledActuator, TorqueActuator, AngleSpeedActuator,
                                           WheelTorqueActuator, WheelVelocityActuator, LEDActuator)}
_SENSOR_CLASSES = {c.kind: c for c in (AngleSensor, CoupledSensor, TorqueSensor, AngleSpeedSensor,
                                       WheelVelocitySensor, CameraSensor, FSRSensor, BumperSensor,
                                       TactileSensor, DepthInfraredSensor, InertialSensor, SonarSensor)}


def rpy_matrix(rpy) -> np.ndarray:
    """URDF roll-pitch-yaw (rad) to a rotation matrix: Rz(yaw) Ry(pitch) Rx(roll)."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


# ------------------------------------------------------------------------------------------ URDF
@dataclass(frozen=True)
class UrdfJoint:
    name: str
    type: str
    parent: str
    child: str
    lower: float
    upper: float
    effort: float
    velocity: float
    mimic: Optional[str]


def _urdf_float(el, attr, default, where):
    if el is None or el.get(attr) is None:
        return default
    try:
        v = float(el.get(attr))
    except ValueError:
        raise ValueError(f"urdf: {where}: {attr} must be a number, got {el.get(attr)!r}") from None
    return v


def read_urdf(path) -> tuple[str, list, dict]:
    """(robot name, link names, {joint name: UrdfJoint}) of a URDF file."""
    try:
        root = ET.parse(str(path)).getroot()
    except (OSError, ET.ParseError) as exc:
        raise ValueError(f"urdf: cannot read {path}: {exc}") from None
    if root.tag != "robot":
        raise ValueError(f"urdf: {path}: root element must be <robot>, got <{root.tag}>")
    links = [el.get("name") for el in root.findall("link")]
    joints = {}
    for el in root.findall("joint"):
        name = el.get("name")
        lim = el.find("limit")
        mimic = el.find("mimic")
        where = f"joint {name!r}"
        jtype = el.get("type", "")
        lower = _urdf_float(lim, "lower", -math.inf, where)
        upper = _urdf_float(lim, "upper", math.inf, where)
        if jtype == "continuous":
            lower, upper = -math.inf, math.inf
        joints[name] = UrdfJoint(
            name=name, type=jtype,
            parent=el.find("parent").get("link") if el.find("parent") is not None else "",
            child=el.find("child").get("link") if el.find("child") is not None else "",
            lower=lower, upper=upper,
            effort=_urdf_float(lim, "effort", math.inf, where) or math.inf,
            velocity=_urdf_float(lim, "velocity", math.inf, where) or math.inf,
            mimic=mimic.get("joint") if mimic is not None else None,
        )
    return root.get("name", ""), links, joints


# -------------------------------------------------------------------------------- device parsing
_COMMON = {"name", "kind"}
_ACTUATOR_FIELDS = {
    "angle": {"joint", "start", "min", "max", "max_speed", "max_torque", "kp", "kd", "start_stiffness"},
    "coupled": {"joints", "start", "min", "max", "max_speed", "kp", "kd", "start_stiffness"},
    "torque": {"joint", "start", "max_torque", "start_stiffness"},
    "angle_speed": {"joint", "start", "max_speed", "kd", "start_stiffness"},
    "wheel_torque": {"joint", "start", "max_torque", "start_stiffness"},
    "wheel_velocity": {"joint", "start", "max_velocity", "kd", "start_stiffness"},
    "led": {"start", "color", "groups"},
}
_PLACED = {"link", "xyz", "rpy"}
_SENSOR_FIELDS = {
    "angle": {"joint"}, "torque": {"joint"}, "angle_speed": {"joint"}, "wheel_velocity": {"joint"},
    "coupled": {"joints"},
    "camera": _PLACED | {"hfov", "width", "height", "default_width", "default_height", "period", "clip_near",
                         "clip_far"},
    "fsr": _PLACED, "bumper": _PLACED | {"size"}, "tactile": _PLACED | {"size"},
    "depth_infrared": _PLACED | {"min_range", "max_range"},
    "inertial": _PLACED,
    "sonar": _PLACED | {"cone", "min_range", "max_range", "echoes", "rings"},
}


class _Reader:
    """Reads one device entry, checking every field and naming the entry in errors."""

    def __init__(self, entry, where, allowed):
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: must be a JSON object, got {type(entry).__name__}")
        unknown = sorted(set(entry) - allowed - _COMMON)
        if unknown:
            raise ValueError(f"{where}: unknown field(s) {unknown}; allowed: {sorted(allowed | _COMMON)}")
        self.entry, self.where = entry, where

    def num(self, key, default=None, lo=-math.inf, hi=math.inf, positive=False):
        if key not in self.entry:
            if default is None:
                raise ValueError(f"{self.where}: missing field {key!r}")
            return float(default)
        v = self.entry[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError(f"{self.where}: {key} must be a number, got {v!r}")
        v = float(v)
        if not math.isfinite(v) or v < lo or v > hi or (positive and v <= 0):
            rng = "> 0" if positive else f"in [{lo}, {hi}]"
            raise ValueError(f"{self.where}: {key} must be finite and {rng}, got {v!r}")
        return v

    def int(self, key, default, choices=None, lo=1):
        v = self.entry.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (choices and v not in choices):
            want = f"one of {choices}" if choices else f"an integer >= {lo}"
            raise ValueError(f"{self.where}: {key} must be {want}, got {v!r}")
        return v

    def str(self, key, default=None):
        if key not in self.entry:
            if default is None:
                raise ValueError(f"{self.where}: missing field {key!r}")
            return default
        v = self.entry[key]
        if not isinstance(v, str) or not v:
            raise ValueError(f"{self.where}: {key} must be a non-empty string, got {v!r}")
        return v

    def vec3(self, key, default=(0.0, 0.0, 0.0), positive=False):
        v = self.entry.get(key, default)
        if (not isinstance(v, (list, tuple)) or len(v) != 3
                or any(isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) for x in v)
                or (positive and any(x <= 0 for x in v))):
            want = "3 finite numbers > 0" if positive else "3 finite numbers"
            raise ValueError(f"{self.where}: {key} must be {want}, got {v!r}")
        return tuple(float(x) for x in v)


def _parse_actuator(entry, where, links, joints, used_joints):
    kind = entry.get("kind") if isinstance(entry, dict) else None
    if kind not in _ACTUATOR_FIELDS:
        raise ValueError(f"{where}: kind must be one of {list(ACTUATOR_KINDS)}, got {kind!r}")
    r = _Reader(entry, where, _ACTUATOR_FIELDS[kind])
    name = r.str("name")
    where = f"{where} ({name!r})"
    r.where = where

    def joint_of(key="joint"):
        j = r.str(key)
        _check_joint(j, where, joints, actuated=True)
        return j

    if kind == "angle":
        j = joint_of()
        uj = joints[j]
        lo, hi = r.num("min", uj.lower if math.isfinite(uj.lower) else -math.pi), r.num(
            "max", uj.upper if math.isfinite(uj.upper) else math.pi)
        if lo > hi:
            raise ValueError(f"{where}: min ({lo}) must not exceed max ({hi})")
        start = r.num("start", 0.0 if lo <= 0.0 <= hi else lo, lo=lo, hi=hi)
        dev = AngleActuator(name=name, start_value=start, joint=j, min_value=lo, max_value=hi,
                            max_speed=r.num("max_speed", uj.velocity if math.isfinite(uj.velocity) else 10.0, positive=True),
                            max_torque=r.num("max_torque", uj.effort if math.isfinite(uj.effort) else 10.0, positive=True),
                            kp=r.num("kp", 50.0, lo=0.0), kd=r.num("kd", 0.5, lo=0.0),
                            start_stiffness=r.num("start_stiffness", 1.0, lo=0.0, hi=1.0))
        controlled = [j]
    elif kind == "coupled":
        pairs = _joint_ratios(entry, where, joints, actuated=True)
        dev = CoupledActuator(name=name, start_value=r.num("start", 0.0, lo=0.0, hi=1.0), joints=pairs,
                              min_value=0.0, max_value=1.0, max_speed=r.num("max_speed", 1.0, positive=True),
                              kp=r.num("kp", 5.0, lo=0.0), kd=r.num("kd", 0.05, lo=0.0),
                              start_stiffness=r.num("start_stiffness", 1.0, lo=0.0, hi=1.0))
        controlled = [p[0] for p in pairs]
    elif kind in ("torque", "wheel_torque"):
        j = joint_of()
        uj = joints[j]
        cls = TorqueActuator if kind == "torque" else WheelTorqueActuator
        mt = r.num("max_torque", uj.effort if math.isfinite(uj.effort) else 10.0, positive=True)
        dev = cls(name=name, start_value=r.num("start", 0.0, lo=-mt, hi=mt), joint=j, max_torque=mt,
                  start_stiffness=r.num("start_stiffness", 1.0, lo=0.0, hi=1.0))
        controlled = []  # feedforward adds to whatever else drives the joint
    elif kind == "angle_speed":
        j = joint_of()
        uj = joints[j]
        ms = r.num("max_speed", uj.velocity if math.isfinite(uj.velocity) else 10.0, positive=True)
        dev = AngleSpeedActuator(name=name, start_value=r.num("start", 0.0, lo=-ms, hi=ms), joint=j, max_speed=ms,
                                 kd=r.num("kd", 1.0, lo=0.0),
                                 start_stiffness=r.num("start_stiffness", 1.0, lo=0.0, hi=1.0))
        controlled = [j]
    elif kind == "wheel_velocity":
        j = joint_of()
        uj = joints[j]
        mv = r.num("max_velocity", uj.velocity if math.isfinite(uj.velocity) else 10.0, positive=True)
        dev = WheelVelocityActuator(name=name, start_value=r.num("start", 0.0, lo=-mv, hi=mv), joint=j,
                                    max_velocity=mv, kd=r.num("kd", 1.0, lo=0.0),
                                    start_stiffness=r.num("start_stiffness", 1.0, lo=0.0, hi=1.0))
        controlled = [j]
    else:  # led
        groups = entry.get("groups", [])
        if not isinstance(groups, list) or not all(isinstance(g, str) and g for g in groups):
            raise ValueError(f"{where}: groups must be a list of non-empty strings, got {groups!r}")
        color = r.str("color", "white")
        if color not in ("red", "green", "blue", "white"):
            raise ValueError(f"{where}: color must be one of red, green, blue, white, got {color!r}")
        dev = LEDActuator(name=name, start_value=r.num("start", 0.0, lo=0.0, hi=1.0), color=color,
                          groups=tuple(groups))
        controlled = []
    for j in controlled:
        if j in used_joints:
            raise ValueError(f"{where}: joint {j!r} is already driven by the actuator {used_joints[j]!r} "
                             "(one position or velocity actuator per joint; torque actuators add to it)")
        used_joints[j] = name
    return dev


def _check_joint(j, where, joints, actuated):
    if j not in joints:
        raise ValueError(f"{where}: unknown joint {j!r}; the URDF has {sorted(joints)}")
    uj = joints[j]
    if uj.type not in ("revolute", "continuous", "prismatic"):
        raise ValueError(f"{where}: joint {j!r} is {uj.type!r}; devices bind revolute, continuous or prismatic joints")
    if actuated and uj.mimic:
        raise ValueError(f"{where}: joint {j!r} mimics {uj.mimic!r}; actuate {uj.mimic!r} instead")


def _joint_ratios(entry, where, joints, actuated):
    pairs = entry.get("joints")
    if not isinstance(pairs, list) or not pairs:
        raise ValueError(f"{where}: joints must be a non-empty list of [joint, ratio] pairs, got {pairs!r}")
    out = []
    for p in pairs:
        if (not isinstance(p, (list, tuple)) or len(p) != 2 or not isinstance(p[0], str)
                or isinstance(p[1], bool) or not isinstance(p[1], (int, float))
                or not math.isfinite(p[1]) or p[1] == 0):
            raise ValueError(f"{where}: each joints entry must be [joint name, non-zero finite ratio], got {p!r}")
        _check_joint(p[0], where, joints, actuated)
        out.append((p[0], float(p[1])))
    if len({p[0] for p in out}) != len(out):
        raise ValueError(f"{where}: a joint appears twice in joints")
    return tuple(out)


def _parse_sensor(entry, where, links, joints):
    kind = entry.get("kind") if isinstance(entry, dict) else None
    if kind not in _SENSOR_FIELDS:
        raise ValueError(f"{where}: kind must be one of {list(SENSOR_KINDS)}, got {kind!r}")
    r = _Reader(entry, where, _SENSOR_FIELDS[kind])
    name = r.str("name")
    where = f"{where} ({name!r})"
    r.where = where
    if kind in ("angle", "torque", "angle_speed", "wheel_velocity"):
        j = r.str("joint")
        _check_joint(j, where, joints, actuated=False)
        return _SENSOR_CLASSES[kind](name=name, joint=j)
    if kind == "coupled":
        return CoupledSensor(name=name, joints=_joint_ratios(entry, where, joints, actuated=False))
    link = r.str("link")
    if link not in links:
        raise ValueError(f"{where}: unknown link {link!r}; the URDF has {sorted(links)}")
    placed = dict(name=name, link=link, xyz=r.vec3("xyz"), rpy=r.vec3("rpy"))
    if kind == "camera":
        w, h = r.int("width", 640), r.int("height", 480)
        if (w, h) not in CAMERA_RESOLUTIONS:
            raise ValueError(f"{where}: (width, height) must be one of {list(CAMERA_RESOLUTIONS)}, got {(w, h)}")
        dw, dh = r.int("default_width", min(160, w)), r.int("default_height", min(120, h))
        if (dw, dh) not in CAMERA_RESOLUTIONS or dw > w:
            raise ValueError(f"{where}: (default_width, default_height) must be one of {list(CAMERA_RESOLUTIONS)} "
                             f"up to {(w, h)}, got {(dw, dh)}")
        near = r.num("clip_near", 0.01, positive=True)
        far = r.num("clip_far", 10.0, positive=True)
        if far <= near:
            raise ValueError(f"{where}: clip_far ({far}) must exceed clip_near ({near})")
        return CameraSensor(**placed, hfov=r.num("hfov", 60.97, lo=1.0, hi=170.0), width=w, height=h,
                            default_width=dw, default_height=dh, period=r.num("period", 1.0 / 15.0, positive=True),
                            clip_near=near, clip_far=far)
    if kind in ("fsr", "inertial"):
        return _SENSOR_CLASSES[kind](**placed)
    if kind in ("bumper", "tactile"):
        return _SENSOR_CLASSES[kind](**placed, size_xyz=r.vec3("size", positive=True))
    if kind == "depth_infrared":
        lo, hi = r.num("min_range", 0.0, lo=0.0), r.num("max_range", 1.5, positive=True)
        if hi <= lo:
            raise ValueError(f"{where}: max_range ({hi}) must exceed min_range ({lo})")
        return DepthInfraredSensor(**placed, min_range=lo, max_range=hi)
    # sonar
    lo, hi = r.num("min_range", 0.25, lo=0.0), r.num("max_range", 2.55, positive=True)
    if hi <= lo:
        raise ValueError(f"{where}: max_range ({hi}) must exceed min_range ({lo})")
    return SonarSensor(**placed, cone=r.num("cone", 60.0, lo=0.0, hi=170.0), min_range=lo, max_range=hi,
                       echoes=r.int("echoes", 10, choices=(1, 10)), rings=r.int("rings", 4, lo=0))


# ------------------------------------------------------------------------------------------ Model
class Model:
    """A robot's actuators and sensors over its URDF (``Sim::Model``).

    Build it with :meth:`from_files` (a URDF and a device description, docs/hal.md) or
    :meth:`bundled` (``"nao"``, ``"wheeled"``). Devices keep the order of the description file.
    Actuator names are unique among actuators and sensor names among sensors (a joint's angle
    actuator and angle sensor share the joint's name, as in NAOqi).
    """

    def __init__(self, urdf_path, robot_name: str, links: list, joints: dict, actuators: list, sensors: list,
                 description: dict):
        self.urdf_path = str(urdf_path)
        self.name = robot_name
        self.links = tuple(links)
        self.joints = dict(joints)  # URDF joints by name
        self._actuators = {a.name: a for a in actuators}
        self._sensors = {s.name: s for s in sensors}
        self.description = description  # the parsed JSON, for the shared-memory directory
        self.root_link = _root_link(links, joints)

    # -- construction
    @classmethod
    def from_files(cls, urdf, devices) -> "Model":
        """Model of the robot in ``urdf`` with the devices of the JSON file ``devices``. ValueError
        naming the entry and field for a malformed description or a reference to an unknown
        joint or link."""
        robot_name, links, joints = read_urdf(urdf)
        try:
            text = Path(devices).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"devices: cannot read {devices}: {exc}") from None
        try:
            desc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"devices: {devices} is not valid JSON: {exc}") from None
        return cls.from_description(urdf, desc, robot_name=robot_name, links=links, joints=joints)

    @classmethod
    def from_description(cls, urdf, desc: dict, robot_name=None, links=None, joints=None) -> "Model":
        """Like from_files, with the device description given as a dict (the parsed JSON)."""
        if links is None:
            robot_name, links, joints = read_urdf(urdf)
        if not isinstance(desc, dict):
            raise ValueError(f"devices: the top level must be a JSON object, got {type(desc).__name__}")
        unknown = sorted(set(desc) - {"format", "version", "robot", "actuators", "sensors"})
        if unknown:
            raise ValueError(f"devices: unknown top-level field(s) {unknown}")
        if desc.get("format") != DEVICES_FORMAT:
            raise ValueError(f"devices: format must be {DEVICES_FORMAT!r}, got {desc.get('format')!r}")
        if desc.get("version") != DEVICES_VERSION:
            raise ValueError(f"devices: version must be {DEVICES_VERSION}, got {desc.get('version')!r}")
        acts_in, sens_in = desc.get("actuators", []), desc.get("sensors", [])
        if not isinstance(acts_in, list) or not isinstance(sens_in, list):
            raise ValueError("devices: actuators and sensors must be JSON arrays")
        used: dict = {}
        actuators = [_parse_actuator(e, f"devices: actuators[{i}]", links, joints, used) for i, e in enumerate(acts_in)]
        sensors = [_parse_sensor(e, f"devices: sensors[{i}]", links, joints) for i, e in enumerate(sens_in)]
        for what, devs in (("actuator", actuators), ("sensor", sensors)):
            seen = set()
            for d in devs:
                if d.name in seen:
                    raise ValueError(f"devices: two {what}s are named {d.name!r}")
                seen.add(d.name)
        return cls(urdf, desc.get("robot") or robot_name, links, joints, actuators, sensors, desc)

    @classmethod
    def bundled(cls, name: str) -> "Model":
        """Model of a bundled robot that has a device description: "nao" or "wheeled"."""
        from .. import robots

        here = Path(robots.__file__).resolve().parent
        devices = here / f"{name}.devices.json"
        if not isinstance(name, str) or not devices.is_file():
            have = sorted(p.name[: -len(".devices.json")] for p in here.glob("*.devices.json"))
            raise ValueError(f"unknown HAL robot {name!r}; bundled robots with devices: {have}")
        return cls.from_files(robots.urdf_path(name), devices)

    # -- listing
    def actuator_names(self, kind: Optional[str] = None) -> list:
        """Names of the actuators (of one kind: one of ACTUATOR_KINDS), in description order."""
        if kind is not None and kind not in ACTUATOR_KINDS:
            raise ValueError(f"kind must be None or one of {list(ACTUATOR_KINDS)}, got {kind!r}")
        return [a.name for a in self._actuators.values() if kind is None or a.kind == kind]

    def sensor_names(self, kind: Optional[str] = None) -> list:
        """Names of the sensors (of one kind: one of SENSOR_KINDS), in description order."""
        if kind is not None and kind not in SENSOR_KINDS:
            raise ValueError(f"kind must be None or one of {list(SENSOR_KINDS)}, got {kind!r}")
        return [s.name for s in self._sensors.values() if kind is None or s.kind == kind]

    def actuators(self) -> list:
        return list(self._actuators.values())

    def sensors(self) -> list:
        return list(self._sensors.values())

    def actuator(self, name: str, kind: Optional[str] = None) -> Actuator:
        """The actuator called ``name`` (of ``kind`` if given); ValueError otherwise."""
        a = self._actuators.get(name) if isinstance(name, str) else None
        if a is None or (kind is not None and a.kind != kind):
            what = f"{kind} actuator" if kind else "actuator"
            raise ValueError(f"unknown {what} {name!r}; have {self.actuator_names(kind)}")
        return a

    def sensor(self, name: str, kind: Optional[str] = None) -> Sensor:
        """The sensor called ``name`` (of ``kind`` if given); ValueError otherwise."""
        s = self._sensors.get(name) if isinstance(name, str) else None
        if s is None or (kind is not None and s.kind != kind):
            what = f"{kind} sensor" if kind else "sensor"
            raise ValueError(f"unknown {what} {name!r}; have {self.sensor_names(kind)}")
        return s

    def __repr__(self) -> str:
        return f"<torsion.hal.Model {self.name!r}: {len(self._actuators)} actuators, {len(self._sensors)} sensors>"


def _root_link(links, joints) -> str:
    children = {j.child for j in joints.values()}
    roots = [l for l in links if l not in children]
    return roots[0] if roots else (links[0] if links else "")


def _add_typed_lookups():
    """model.angle_actuator(name) / model.angle_actuators() and the same for every kind (the
    SDK's typed getters)."""
    for kind in ACTUATOR_KINDS:
        def one(self, name, _k=kind):
            return self.actuator(name, _k)

        def many(self, _k=kind):
            return [a for a in self._actuators.values() if a.kind == _k]

        one.__doc__ = f"The {kind} actuator called name (ValueError if there is none)."
        many.__doc__ = f"Every {kind} actuator, in description order."
        setattr(Model, f"{kind}_actuator", one)
        setattr(Model, f"{kind}_actuators", many)
    for kind in SENSOR_KINDS:
        def one_s(self, name, _k=kind):
            return self.sensor(name, _k)

        def many_s(self, _k=kind):
            return [s for s in self._sensors.values() if s.kind == _k]

        one_s.__doc__ = f"The {kind} sensor called name (ValueError if there is none)."
        many_s.__doc__ = f"Every {kind} sensor, in description order."
        setattr(Model, f"{kind}_sensor", one_s)
        setattr(Model, f"{kind}_sensors", many_s)


_add_typed_lookups()

DeviceRef = Union[str, Actuator, Sensor]
