"""torsion.ik: inverse kinematics with the semantics of the Coppelia Kinematics Routines.

A C++ core (analytic Jacobians, the routines' resolution loop, configuration search, the
kinematic-content file format) behind a Pythonic API:

    env = torsion.ik.Environment.from_chain([...])          # or build objects one by one
    r = env.solve(target_position, target_quaternion_wxyz)  # r.q, r.success, r.position_error

    env = torsion.ik.Environment()
    j = env.create_joint("j1", torsion.ik.JointType.REVOLUTE)
    tip, target = env.create_dummy("tip"), env.create_dummy("target")
    tip.linked_dummy = target
    g = env.create_ik_group("g"); g.add_element(tip); g.handle()

Jacobians are analytic (C++), checked against central finite differences to 1e-7; the original
routines fill J by forward differences with dq = 0.01, so their J differs from the exact one by
O(0.01) terms (curvature). The orientation error is the exact log map of tip^-1 * target (the
routines: Euler angles of a 0.01 interpolation step / 0.01, equal to first order).

torsion.ik.compat keeps the seed's function names and argument order (ikCreateEnvironment, ...).
Units: m and rad; quaternions (w, x, y, z). Errors raise ValueError / IndexError / RuntimeError
with the routines' messages. Several environments can be used at once; one environment must not
be used from two threads at the same time.
"""

from ._api import (
    PARENT,
    ChainJoint,
    Dummy,
    Element,
    Environment,
    Group,
    HandleResult,
    Joint,
    Object,
    SolveResult,
)
from ._constants import (
    HANDLE_ALL,
    HANDLE_PARENT,
    HANDLE_WORLD,
    HANDLEFLAG_TIPDUMMY,
    CalcFlag,
    Constraint,
    GroupFlag,
    JointMode,
    JointType,
    Method,
    ObjectType,
    Result,
)

__all__ = [
    "PARENT", "ChainJoint", "Dummy", "Element", "Environment", "Group", "HandleResult", "Joint",
    "Object", "SolveResult", "HANDLE_ALL", "HANDLE_PARENT", "HANDLE_WORLD", "HANDLEFLAG_TIPDUMMY",
    "CalcFlag", "Constraint", "GroupFlag", "JointMode", "JointType", "Method", "ObjectType",
    "Result", "compat",
]

from . import compat  # noqa: E402  (after the API it wraps)
