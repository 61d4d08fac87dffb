"""torsion.hal: a NAOqi-style hardware abstraction layer over a simulated robot.

The simulator side is :class:`HALInterface` (the simulator SDK's ``Sim::HALInterface``, every
method in snake_case) over a :class:`Model` (the robot's actuators and sensors); :class:`Simulation`
runs it against a :class:`torsion.World`. The robot side, what robot software uses, is
:class:`RobotClient`, in this process or another one: the two talk through a shared memory
segment keyed by the port (docs/hal.md has its layout).

    import torsion
    from torsion import hal

    world = torsion.World(); world.add_ground()
    sim = hal.Simulation(world, hal.Model.bundled("nao"), port=9559)
    robot = hal.RobotClient(9559); robot.start()
    robot.set_actuator("HeadYaw", 0.5, stiffness=1.0)
    sim.step()
    print(robot.read_sensor("HeadYaw"), robot.read_sensor("InertialSensor"))
"""

from .client import HALDisconnected, RobotClient
from .interface import (
    COLORSPACE_DEPTH,
    COLORSPACE_RGB,
    RES_80_60,
    RES_160_120,
    RES_320_240,
    RES_640_480,
    RES_1280_960,
    HALInterface,
)
from .model import *  # noqa: F401,F403  (device classes, kinds)
from .model import ACTUATOR_KINDS, CAMERA_RESOLUTIONS, SENSOR_KINDS, Model
from .simulation import Simulation

__all__ = [
    "Model", "HALInterface", "RobotClient", "Simulation", "HALDisconnected",
    "ACTUATOR_KINDS", "SENSOR_KINDS", "CAMERA_RESOLUTIONS",
    "RES_80_60", "RES_160_120", "RES_320_240", "RES_640_480", "RES_1280_960",
    "COLORSPACE_RGB", "COLORSPACE_DEPTH",
]
