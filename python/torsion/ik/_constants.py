"""The Coppelia Kinematics Routines' constants (semantics.md §B1), as Python enums.

The numbers are written once, in C++ (cpp/ik/constants.hpp); the core exports them as
torsion._core.ik.CONSTANTS and this module builds its enums from that dict, so the two sides
cannot drift apart."""

from __future__ import annotations

from enum import IntEnum, IntFlag

from .._core import ik as _core_ik

_C = _core_ik.CONSTANTS

HANDLE_WORLD: int = _C["HANDLE_WORLD"]
HANDLE_ALL: int = _C["HANDLE_ALL"]
HANDLE_PARENT: int = _C["HANDLE_PARENT"]
HANDLEFLAG_TIPDUMMY: int = _C["HANDLEFLAG_TIPDUMMY"]


def _enum(kind, name: str):
    return kind(name, _C[name], module=__name__, qualname=name)


ObjectType = _enum(IntEnum, "ObjectType")
JointType = _enum(IntEnum, "JointType")
JointMode = _enum(IntEnum, "JointMode")
Constraint = _enum(IntFlag, "Constraint")
Method = _enum(IntEnum, "Method")
Result = _enum(IntEnum, "Result")
CalcFlag = _enum(IntFlag, "CalcFlag")
GroupFlag = _enum(IntFlag, "GroupFlag")
