"""torsion.hal: a NAOqi-style hardware abstraction layer over a simulated robot (the model)."""

from .model import *  # noqa: F401,F403  (device classes, kinds)
from .model import ACTUATOR_KINDS, CAMERA_RESOLUTIONS, SENSOR_KINDS, Model

__all__ = ["Model", "ACTUATOR_KINDS", "SENSOR_KINDS", "CAMERA_RESOLUTIONS"]
