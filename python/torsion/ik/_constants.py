"""The Coppelia Kinematics Routines' constants (semantics.md §B1), as Python enums."""

from __future__ import annotations

from enum import IntEnum, IntFlag

HANDLE_WORLD = -1
HANDLE_ALL = -2
HANDLE_PARENT = -11
HANDLEFLAG_TIPDUMMY = 0x00400000


class ObjectType(IntEnum):
    JOINT = 1
    DUMMY = 4


class JointType(IntEnum):
    REVOLUTE = 10
    PRISMATIC = 11
    SPHERICAL = 12


class JointMode(IntEnum):
    PASSIVE = 0
    IK = 2
    DEPENDENT = 4
    FORCE = 5


class Constraint(IntFlag):
    X = 1
    Y = 2
    Z = 4
    ALPHA_BETA = 8
    GAMMA = 16
    POSITION = 7
    ORIENTATION = 24
    POSE = 31


class Method(IntEnum):
    PSEUDO_INVERSE = 0
    DAMPED_LEAST_SQUARES = 1
    JACOBIAN_TRANSPOSE = 2
    UNDAMPED_PSEUDO_INVERSE = 3


class Result(IntEnum):
    NOT_PERFORMED = 0
    SUCCESS = 1
    FAIL = 2


class CalcFlag(IntFlag):
    NONE = 0
    NOT_PERFORMED = 1
    CANNOT_INVERT = 2
    NOT_WITHIN_TOLERANCE = 16
    STEPS_TOO_BIG = 32
    LIMIT_HIT = 64
    INVALID_CALLBACK_DATA = 128


class GroupFlag(IntFlag):
    NONE = 0
    ENABLED = 1
    IGNORE_MAX_STEPS = 2
    RESTORE_ON_BAD_LIN_TOL = 4
    RESTORE_ON_BAD_ANG_TOL = 8
    STOP_ON_LIMIT_HIT = 16
    AVOID_LIMITS = 64
