"""The Coppelia Kinematics Routines API, under the seed's names and argument order.

For porting code. Differences forced by Python, applied uniformly:
- Output arguments become return values: a function that returns bool and fills outputs returns
  ``(ok, out1, out2, ...)`` (outputs are None when ok is False); one without outputs returns ok.
- On failure the function returns False (or -1 for ikGetConfigForTipPose) and keeps the error
  message for ikGetLastError(), exactly as the routines do. torsion.ik raises instead.
- C7Vector transformations are (7,) arrays [x, y, z, qw, qx, qy, qz] (torsion's quaternion
  order); C4X4Matrix values are the 12 numbers of the 3x4 [R | p] matrix, row-major; C3X3Matrix
  is (3, 3) or 9 numbers; C4Vector quaternions are (w, x, y, z).
- The "current environment" lives here (a module-level registry), not in the C++ core: every
  torsion.ik.Environment is independent.
- ikReleaseBuffer is a no-op (Python owns memory). ikSave (not in the seed's list, but the
  routines' counterpart of ikLoad) returns the kinematic content as bytes.
"""

from __future__ import annotations

import functools
import inspect
import math
import operator

import numpy as np

from . import _rotations as rot
from ._api import Environment as _Environment

# ---- constants, with the seed's names ----
ik_handle_world = -1
ik_handle_all = -2
ik_handle_parent = -11
ik_handleflag_tipdummy = 0x00400000
ik_objecttype_joint = 1
ik_objecttype_dummy = 4
ik_jointmode_passive = 0
ik_jointmode_ik = 2
ik_jointmode_dependent = 4
ik_jointmode_force = 5
ik_jointtype_revolute = 10
ik_jointtype_prismatic = 11
ik_jointtype_spherical = 12
ik_constraint_x = 1
ik_constraint_y = 2
ik_constraint_z = 4
ik_constraint_alpha_beta = 8
ik_constraint_gamma = 16
ik_constraint_position = 7
ik_constraint_orientation = 24
ik_constraint_pose = 31
ik_method_pseudo_inverse = 0
ik_method_damped_least_squares = 1
ik_method_jacobian_transpose = 2
ik_method_undamped_pseudo_inverse = 3
ik_result_not_performed = 0
ik_result_success = 1
ik_result_fail = 2
ik_calc_notperformed = 1
ik_calc_cannotinvert = 2
ik_calc_notwithintolerance = 16
ik_calc_stepstoobig = 32
ik_calc_limithit = 64
ik_calc_invalidcallbackdata = 128
ik_group_enabled = 1
ik_group_ignoremaxsteps = 2
ik_group_restoreonbadlintol = 4
ik_group_restoreonbadangtol = 8
ik_group_stoponlimithit = 16
ik_group_avoidlimits = 64

# ---- state of this compatibility layer ----
_envs: dict[int, _Environment] = {}
_next_env = 0
_current = -1
_last_error = ""


class _Failed(Exception):
    pass


def _wrapper() -> _Environment:
    if _current not in _envs:
        raise _Failed("no current environment: call ikCreateEnvironment first")
    return _envs[_current]


def _env():
    """The current environment's core (refused while it is busy in a compute call)."""
    return _wrapper()._env


def _check_int_args(sig: inspect.Signature, args, kwargs) -> None:
    """The int parameters (handles, counts, flags) are C ints in the core: a value out of that
    range (2**70) or a float that is no int (inf) is a ValueError naming the parameter, not
    pybind11's generic TypeError or an OverflowError escaping the convention."""
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return  # the call itself reports the wrong arguments
    for name, value in bound.arguments.items():
        if sig.parameters[name].annotation not in ("int", int) or isinstance(value, bool):
            continue
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            raise ValueError(f"{name} must be an int, got {value!r}")
        try:
            i = operator.index(value) if not isinstance(value, float) else int(value)
        except TypeError:
            continue  # not a number: the function's own conversion reports it
        if not -2**31 <= i < 2**31:
            raise ValueError(f"{name} must fit in a 32-bit int, got {i}")


def _api(n_outputs: int = 0, fail=False):
    """Turn exceptions into the routines' (False, None...) + last-error convention."""

    def wrap(fn):
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def inner(*args, **kwargs):
            global _last_error
            try:
                _check_int_args(sig, args, kwargs)
                return fn(*args, **kwargs)
            except (_Failed, ValueError, IndexError, RuntimeError, TypeError, OverflowError) as err:
                _last_error = str(err)
                if fail is not False:
                    return fail
                return False if n_outputs == 0 else (False,) + (None,) * n_outputs

        return inner

    return wrap


def _pose7(p, q) -> np.ndarray:
    return np.concatenate([p, q])


def _split7(transf):
    t = np.asarray(transf, dtype=float)
    if t.shape != (7,):
        raise ValueError(f"transf must have shape (7,) [x, y, z, qw, qx, qy, qz], got shape {t.shape}")
    return t[:3], t[3:]


def _split12(matrix):
    m = np.asarray(matrix, dtype=float)
    if m.shape in ((12,), (3, 4)):
        m = m.reshape(3, 4)
    elif m.shape == (4, 4):
        m = m[:3]
    else:
        raise ValueError(f"matrix must have 12 values (3x4 row-major), got shape {m.shape}")
    if not np.all(np.isfinite(m)):
        raise ValueError("matrix must be finite")
    r = m[:, :3]
    if np.abs(r @ r.T - np.eye(3)).max() > 1e-6 or np.linalg.det(r) < 0:
        raise ValueError("matrix rotation part must be a rotation matrix")
    return m[:, 3], rot.matrix_to_quat(r)


# ---- environments ----
@_api(1)
def ikCreateEnvironment(protectedEnvironment: bool = False):
    """-> (ok, environmentHandle). Creates an environment and switches to it."""
    global _next_env, _current
    h = _next_env
    _next_env += 1
    _envs[h] = _Environment()
    _current = h
    return True, h


@_api(1)
def ikEraseEnvironment():
    """-> (ok, switchedEnvironmentHandle or -1). Erases the current environment."""
    global _current
    _env()
    del _envs[_current]
    _current = max(_envs) if _envs else -1
    return True, _current


@_api()
def ikSwitchEnvironment(handle: int, allowAlsoProtectedEnvironment: bool = False):
    global _current
    if handle not in _envs:
        raise _Failed(f"invalid environment handle: {handle}")
    _current = handle
    return True


def ikGetLastError() -> str:
    """Retrieves and clears the last error string."""
    global _last_error
    s, _last_error = _last_error, ""
    return s


def ikReleaseBuffer(buffer) -> None:
    """No-op: Python owns the buffers this module returns."""


@_api()
def ikLoad(data: bytes, dataLength: int | None = None):
    """Loads kinematic content (bytes) into the current, empty environment."""
    b = bytes(data)
    if dataLength is not None:
        if dataLength < 0 or dataLength > len(b):
            raise ValueError(f"dataLength must be in [0, {len(b)}], got {dataLength}")
        b = b[:dataLength]
    _wrapper()._compute("load", b)
    return True


@_api(1)
def ikSave():
    """-> (ok, bytes): the current environment as kinematic content."""
    return True, _wrapper()._compute("save")


# ---- objects ----
@_api(1)
def ikCreateDummy(dummyName: str | None = None):
    return True, _env().create_dummy(dummyName or "")


@_api(1)
def ikCreateJoint(jointName: str | None, jointType: int):
    return True, _env().create_joint(jointName or "", int(jointType))


@_api()
def ikDoesObjectExist(objectName: str):
    return _env().does_object_exist(objectName)


@_api()
def ikEraseObject(objectHandle: int):
    _env().erase_object(objectHandle)
    return True


@_api(1)
def ikGetObjectHandle(objectName: str):
    return True, _env().object_handle(objectName)


@_api(4)
def ikGetObjects(index: int):
    """-> (ok, objectHandle, objectName, isJoint, jointType)."""
    e = _env()
    if index < 0 or index >= e.object_count():
        raise IndexError(f"object index {index} out of range")
    h, name, is_joint, jt = e.object_info(index)
    return True, h, name, is_joint, jt


@_api(1)
def ikGetObjectParent(objectHandle: int):
    return True, _env().object_parent(objectHandle)


@_api()
def ikSetObjectParent(objectHandle: int, parentObjectHandle: int, keepInPlace: bool):
    _env().set_object_parent(objectHandle, parentObjectHandle, bool(keepInPlace))
    return True


@_api(1)
def ikGetObjectTransformation(objectHandle: int, relativeToObjectHandle: int):
    """-> (ok, (7,) [x, y, z, qw, qx, qy, qz])."""
    return True, _pose7(*_env().object_pose(objectHandle, relativeToObjectHandle))


@_api()
def ikSetObjectTransformation(objectHandle: int, relativeToObjectHandle: int, transf):
    p, q = _split7(transf)
    _env().set_object_pose(objectHandle, relativeToObjectHandle, p, q)
    return True


@_api(1)
def ikGetObjectMatrix(objectHandle: int, relativeToObjectHandle: int):
    """-> (ok, (12,) row-major 3x4 [R | p])."""
    return True, rot.pose_to_matrix12(*_env().object_pose(objectHandle, relativeToObjectHandle))


@_api()
def ikSetObjectMatrix(objectHandle: int, relativeToObjectHandle: int, matrix):
    p, q = _split12(matrix)
    _env().set_object_pose(objectHandle, relativeToObjectHandle, p, q)
    return True


@_api(1)
def ikGetLinkedDummy(dummyHandle: int):
    return True, _env().linked_dummy(dummyHandle)


@_api()
def ikSetLinkedDummy(dummyHandle: int, linkedDummyHandle: int):
    _env().set_linked_dummy(dummyHandle, linkedDummyHandle)
    return True


# ---- joints ----
@_api(3)
def ikGetJointDependency(jointHandle: int):
    """-> (ok, dependencyJointHandle, offset, mult)."""
    m, off, mult = _env().joint_dependency(jointHandle)
    return True, m, off, mult


@_api()
def ikSetJointDependency(jointHandle: int, dependencyJointHandle: int, offset: float = 0.0,
                         mult: float = 1.0):
    _env().set_joint_dependency(jointHandle, dependencyJointHandle, float(offset), float(mult))
    return True


@_api(1)
def ikGetJointIkWeight(jointHandle: int):
    return True, _env().joint_ik_weight(jointHandle)


@_api()
def ikSetJointIkWeight(jointHandle: int, ikWeight: float):
    _env().set_joint_ik_weight(jointHandle, float(ikWeight))
    return True


@_api(2)
def ikGetJointInterval(jointHandle: int):
    """-> (ok, cyclic, [min, range])."""
    cyc, lo, rng = _env().joint_interval(jointHandle)
    return True, cyc, np.array([lo, rng])


@_api()
def ikSetJointInterval(jointHandle: int, cyclic: bool, intervalMinAndRange=None):
    e = _env()
    if intervalMinAndRange is None:
        _, lo, rng = e.joint_interval(jointHandle)
    else:
        v = np.asarray(intervalMinAndRange, dtype=float)
        if v.shape != (2,):
            raise ValueError(f"intervalMinAndRange must have shape (2,), got shape {v.shape}")
        lo, rng = float(v[0]), float(v[1])
    e.set_joint_interval(jointHandle, bool(cyclic), lo, rng)
    return True


@_api(1)
def ikGetJointMatrix(jointHandle: int):
    """-> (ok, (12,)): the joint's intrinsic transformation as a 3x4 matrix."""
    return True, rot.pose_to_matrix12(*_env().joint_intrinsic(jointHandle))


@_api(1)
def ikGetJointTransformation(jointHandle: int):
    """-> (ok, (7,)): the joint's intrinsic transformation."""
    return True, _pose7(*_env().joint_intrinsic(jointHandle))


@_api(1)
def ikGetJointMaxStepSize(jointHandle: int):
    return True, _env().joint_max_step_size(jointHandle)


@_api()
def ikSetJointMaxStepSize(jointHandle: int, maxStepSize: float):
    _env().set_joint_max_step_size(jointHandle, float(maxStepSize))
    return True


@_api(1)
def ikGetJointMode(jointHandle: int):
    return True, _env().joint_mode(jointHandle)


@_api()
def ikSetJointMode(jointHandle: int, jointMode: int):
    _env().set_joint_mode(jointHandle, int(jointMode))
    return True


@_api(1)
def ikGetJointPosition(jointHandle: int):
    return True, _env().joint_position(jointHandle)


@_api()
def ikSetJointPosition(jointHandle: int, position: float):
    _env().set_joint_position(jointHandle, float(position))
    return True


@_api(1)
def ikGetJointScrewPitch(jointHandle: int):
    return True, _env().joint_screw_pitch(jointHandle)


@_api()
def ikSetJointScrewPitch(jointHandle: int, pitch: float):
    _env().set_joint_screw_pitch(jointHandle, float(pitch))
    return True


@_api()
def ikSetSphericalJointMatrix(jointHandle: int, rotMatrix):
    m = np.asarray(rotMatrix, dtype=float)
    if m.shape == (9,):
        m = m.reshape(3, 3)
    if m.shape != (3, 3):
        raise ValueError(f"rotMatrix must have shape (3, 3) or (9,), got shape {m.shape}")
    if not np.all(np.isfinite(m)) or np.abs(m @ m.T - np.eye(3)).max() > 1e-6:
        raise ValueError("rotMatrix must be a finite rotation matrix")
    _env().set_spherical_quaternion(jointHandle, rot.matrix_to_quat(m))
    return True


@_api()
def ikSetSphericalJointQuaternion(jointHandle: int, quaternion):
    _env().set_spherical_quaternion(jointHandle, quaternion)
    return True


# ---- IK groups and elements ----
@_api(1)
def ikCreateIkGroup(ikGroupName: str | None = None):
    return True, _env().create_group(ikGroupName or "")


@_api()
def ikDoesIkGroupExist(ikGroupName: str):
    return _env().does_group_exist(ikGroupName)


@_api(1)
def ikGetIkGroupHandle(ikGroupName: str):
    return True, _env().group_handle(ikGroupName)


@_api(3)
def ikGetIkGroupCalculation(ikGroupHandle: int):
    """-> (ok, method, damping, maxIterations)."""
    m, d, it = _env().group_calculation(ikGroupHandle)
    return True, m, d, it


@_api()
def ikSetIkGroupCalculation(ikGroupHandle: int, method: int, damping: float, maxIterations: int):
    _env().set_group_calculation(ikGroupHandle, int(method), float(damping), int(maxIterations))
    return True


@_api(1)
def ikGetIkGroupFlags(ikGroupHandle: int):
    return True, _env().group_flags(ikGroupHandle)


@_api()
def ikSetIkGroupFlags(ikGroupHandle: int, flags: int):
    _env().set_group_flags(ikGroupHandle, int(flags))
    return True


@_api(1)
def ikAddIkElement(ikGroupHandle: int, tipHandle: int):
    """-> (ok, ikElementIndex)."""
    return True, _env().add_element(ikGroupHandle, tipHandle)


@_api(2)
def ikGetIkElementBase(ikGroupHandle: int, ikElementIndex: int):
    """-> (ok, baseHandle, constraintsBaseHandle)."""
    i = _env().element_info(ikGroupHandle, ikElementIndex)
    return True, i["base"], i["constraints_base"]


@_api()
def ikSetIkElementBase(ikGroupHandle: int, ikElementIndex: int, baseHandle: int,
                       constraintsBaseHandle: int = -1):
    _env().set_element_base(ikGroupHandle, ikElementIndex, baseHandle, constraintsBaseHandle)
    return True


@_api(1)
def ikGetIkElementConstraints(ikGroupHandle: int, ikElementIndex: int):
    return True, _env().element_info(ikGroupHandle, ikElementIndex)["constraints"]


@_api()
def ikSetIkElementConstraints(ikGroupHandle: int, ikElementIndex: int, constraints: int):
    _env().set_element_constraints(ikGroupHandle, ikElementIndex, int(constraints))
    return True


@_api(1)
def ikGetIkElementEnabled(ikGroupHandle: int, ikElementIndex: int):
    return True, _env().element_info(ikGroupHandle, ikElementIndex)["enabled"]


@_api()
def ikSetIkElementEnabled(ikGroupHandle: int, ikElementIndex: int, enabled: bool):
    _env().set_element_enabled(ikGroupHandle, ikElementIndex, bool(enabled))
    return True


@_api(2)
def ikGetIkElementPrecision(ikGroupHandle: int, ikElementIndex: int):
    """-> (ok, linearPrecision, angularPrecision)."""
    i = _env().element_info(ikGroupHandle, ikElementIndex)
    return True, i["linear_precision"], i["angular_precision"]


@_api()
def ikSetIkElementPrecision(ikGroupHandle: int, ikElementIndex: int, linearPrecision: float,
                            angularPrecision: float):
    _env().set_element_precision(ikGroupHandle, ikElementIndex, float(linearPrecision),
                                 float(angularPrecision))
    return True


@_api(2)
def ikGetIkElementWeights(ikGroupHandle: int, ikElementIndex: int):
    """-> (ok, linearWeight, angularWeight)."""
    i = _env().element_info(ikGroupHandle, ikElementIndex)
    return True, i["linear_weight"], i["angular_weight"]


@_api()
def ikSetIkElementWeights(ikGroupHandle: int, ikElementIndex: int, linearWeight: float,
                          angularWeight: float):
    e = _env()
    elem = e.element_info(ikGroupHandle, ikElementIndex)["weight"]
    e.set_element_weights(ikGroupHandle, ikElementIndex, float(linearWeight),
                          float(angularWeight), elem)
    return True


# ---- computing ----
@_api(1)
def ikHandleIkGroup(ikGroupHandle: int = ik_handle_all):
    """-> (ok, result): result is ik_result_not_performed, _success or _fail."""
    r, _flags = _wrapper()._compute("handle_group", ikGroupHandle)
    return True, r


@_api(1)
def ikComputeJacobian(ikGroupHandle: int, options: int = 0):
    """-> (ok, success). options bit0: scale the columns by the joint IK weights."""
    return True, _wrapper()._compute("compute_jacobian", ikGroupHandle, int(options))


@_api(1)
def ikGetJacobian(ikGroupHandle: int):
    """-> (jacobian (rows, columns) or None, matrixSize (rows, columns) or None)."""
    j, _e = _env().jacobian(ikGroupHandle)
    return j, j.shape


ikGetJacobian = _api(fail=(None, None))(ikGetJacobian.__wrapped__)


@_api(1)
def ikGetManipulability(ikGroupHandle: int):
    """-> (ok, sqrt(det(J J^T))) of the Jacobian from ikComputeJacobian."""
    j, _e = _env().jacobian(ikGroupHandle)
    return True, float(np.sqrt(max(0.0, np.linalg.det(j @ j.T))))


@_api(1)
def ikGetConfigForTipPose(ikGroupHandle: int, jointCnt: int, jointHandles, thresholdDist: float,
                          maxIterations: int, metric=None, validationCallback=None,
                          jointOptions=None, lowLimits=None, ranges=None):
    """-> (1 found / 0 not found / -1 error, retConfig (jointCnt,) or None).

    validationCallback(config: ndarray) -> bool. The environment's own random stream is used
    (deterministic for a given call sequence). Only the listed joints move during the search
    (the others are passive for it) and a disabled group is enabled for it, as in the seed."""
    hs = [int(h) for h in jointHandles]
    if jointCnt != len(hs):
        raise ValueError(f"jointCnt ({jointCnt}) must equal len(jointHandles) ({len(hs)})")
    found, q = _wrapper()._compute(
        "config_for_tip_pose", ikGroupHandle, hs, float(thresholdDist), int(maxIterations), metric, validationCallback,
        None if jointOptions is None else [int(v) for v in jointOptions], lowLimits, ranges)
    return found, q


ikGetConfigForTipPose = _api(fail=(-1, None))(ikGetConfigForTipPose.__wrapped__)
