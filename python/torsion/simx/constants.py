"""The fixed table of CoppeliaSim constants that simx arguments may name as strings.

B0's server evaluated any string argument ("sim.handle_parent", "sim.floatparam_simulation_time_step")
as Lua. torsion never evaluates what a client sends: a string argument is looked up in this table
and anything else is refused with a ValueError. The values are CoppeliaSim's own (simConst.py of the
legacy remote API and the regular API's constants), so scripts that pass numbers keep working.
"""

from __future__ import annotations

# Special handles
HANDLE_WORLD = -1
HANDLE_ALL = -2
HANDLE_ALL_EXCEPT_EXPLICIT = -3
HANDLE_SELF = -4
HANDLE_TREE = -6
HANDLE_CHAIN = -7
HANDLE_SINGLE = -8
HANDLE_DEFAULT = -9
HANDLE_ALL_EXCEPT_SELF = -10
HANDLE_PARENT = -11
HANDLE_SCENE = -12

# Scene object types
OBJECT_SHAPE = 0
OBJECT_JOINT = 1
OBJECT_CAMERA = 3
OBJECT_DUMMY = 4
OBJECT_PROXIMITYSENSOR = 5
OBJECT_VISIONSENSOR = 9
OBJECT_FORCESENSOR = 12

# Script types
SCRIPTTYPE_CHILD = 1

# Simulation states
SIMULATION_STOPPED = 0x00
SIMULATION_PAUSED = 0x08
SIMULATION_ADVANCING = 0x10
SIMULATION_ADVANCING_RUNNING = 0x11

CONSTANTS: dict[str, int] = {
    "sim.handle_world": HANDLE_WORLD,
    "sim.handle_all": HANDLE_ALL,
    "sim.handle_all_except_explicit": HANDLE_ALL_EXCEPT_EXPLICIT,
    "sim.handle_self": HANDLE_SELF,
    "sim.handle_tree": HANDLE_TREE,
    "sim.handle_chain": HANDLE_CHAIN,
    "sim.handle_single": HANDLE_SINGLE,
    "sim.handle_default": HANDLE_DEFAULT,
    "sim.handle_all_except_self": HANDLE_ALL_EXCEPT_SELF,
    "sim.handle_parent": HANDLE_PARENT,
    "sim.handle_scene": HANDLE_SCENE,
    "sim.object_shape_type": OBJECT_SHAPE,
    "sim.object_joint_type": OBJECT_JOINT,
    "sim.object_camera_type": OBJECT_CAMERA,
    "sim.object_dummy_type": OBJECT_DUMMY,
    "sim.object_proximitysensor_type": OBJECT_PROXIMITYSENSOR,
    "sim.object_visionsensor_type": OBJECT_VISIONSENSOR,
    "sim.object_forcesensor_type": OBJECT_FORCESENSOR,
    "sim.simulation_stopped": SIMULATION_STOPPED,
    "sim.simulation_paused": SIMULATION_PAUSED,
    "sim.simulation_advancing": SIMULATION_ADVANCING,
    "sim.simulation_advancing_running": SIMULATION_ADVANCING_RUNNING,
    # bool parameters
    "sim.boolparam_dynamics_handling_enabled": 6,
    "sim.boolparam_realtime_simulation": 25,
    "sim.boolparam_headless": 34,
    "sim.boolparam_waiting_for_trigger": 45,
    # int parameters
    "sim.intparam_program_version": 1,
    "sim.intparam_dynamic_step_divider": 7,
    "sim.intparam_platform": 19,
    "sim.intparam_scene_unique_id": 20,
    "sim.intparam_core_count": 24,
    "sim.intparam_speedmodifier": 36,
    # float parameters
    "sim.floatparam_rand": 0,
    "sim.floatparam_simulation_time_step": 1,
    # string parameters
    "sim.stringparam_application_path": 0,
    "sim.stringparam_scene_path_and_name": 13,
    "sim.stringparam_scene_name": 14,
    # array parameters
    "sim.arrayparam_gravity": 0,
    "sim.arrayparam_background_color1": 3,
    "sim.arrayparam_background_color2": 4,
    "sim.arrayparam_ambient_light": 5,
    # object parameters
    "sim.objfloatparam_abs_x_velocity": 11,
    "sim.objfloatparam_abs_y_velocity": 12,
    "sim.objfloatparam_abs_z_velocity": 13,
    "sim.objfloatparam_abs_rot_velocity": 14,
    "sim.visionfloatparam_near_clipping": 1000,
    "sim.visionfloatparam_far_clipping": 1001,
    "sim.visionintparam_resolution_x": 1002,
    "sim.visionintparam_resolution_y": 1003,
    "sim.visionfloatparam_perspective_angle": 1004,
    "sim.jointintparam_motor_enabled": 2000,
    "sim.jointintparam_ctrl_enabled": 2001,
    "sim.jointfloatparam_pid_p": 2002,
    "sim.jointfloatparam_pid_d": 2004,
    "sim.jointfloatparam_velocity": 2012,
    "sim.jointfloatparam_upper_limit": 2017,
    "sim.shapeintparam_static": 3003,
    "sim.shapefloatparam_mass": 3005,
    "sim.shapestringparam_color_name": 3023,
    "sim.proxfloatparam_range": 4001,
    # script types and dialogs
    "sim.scripttype_mainscript": 0,
    "sim.scripttype_childscript": 1,
    "sim.scripttype_customizationscript": 6,
    "sim.scripttype_addonscript": 2,
    "sim.dlgstyle_message": 0,
    "sim.dlgstyle_input": 1,
    "sim.dlgstyle_ok": 2,
    "sim.dlgstyle_ok_cancel": 3,
    "sim.dlgstyle_yes_no": 4,
    "sim.dlgret_still_open": 0,
    "sim.dlgret_ok": 1,
    "sim.dlgret_cancel": 2,
    "sim.dlgret_yes": 3,
    "sim.dlgret_no": 4,
}


def lookup(value, name: str) -> int:
    """An int argument, or a string naming a constant of the table (never evaluated)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int or a constant name such as 'sim.handle_parent', got bool")
    if isinstance(value, int):
        return value
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", "replace")
    if isinstance(value, str):
        try:
            return CONSTANTS[value]
        except KeyError:
            raise ValueError(
                f"{name}: {value!r} is not a known constant (strings are looked up in "
                "torsion.simx.constants.CONSTANTS, never evaluated)"
            ) from None
    try:
        import numpy as np

        if isinstance(value, np.integer):
            return int(value)
    except ImportError:  # pragma: no cover
        pass
    raise TypeError(f"{name} must be an int or a constant name, got {type(value).__name__}")
