"""The routines' constants come from the core (torsion._core.ik.CONSTANTS, cpp/ik/constants.hpp):
the Python enums must keep every name and number users had when they were typed in Python too
(semantics.md §B1)."""

from torsion import ik
from torsion._core import ik as core_ik
from torsion.ik import _constants

# the table the Python side kept by hand before the numbers were exported from C++
EXPECTED = {
    "ObjectType": {"JOINT": 1, "DUMMY": 4},
    "JointType": {"REVOLUTE": 10, "PRISMATIC": 11, "SPHERICAL": 12},
    "JointMode": {"PASSIVE": 0, "IK": 2, "DEPENDENT": 4, "FORCE": 5},
    "Constraint": {"X": 1, "Y": 2, "Z": 4, "ALPHA_BETA": 8, "GAMMA": 16, "POSITION": 7,
                   "ORIENTATION": 24, "POSE": 31},
    "Method": {"PSEUDO_INVERSE": 0, "DAMPED_LEAST_SQUARES": 1, "JACOBIAN_TRANSPOSE": 2,
               "UNDAMPED_PSEUDO_INVERSE": 3},
    "Result": {"NOT_PERFORMED": 0, "SUCCESS": 1, "FAIL": 2},
    "CalcFlag": {"NONE": 0, "NOT_PERFORMED": 1, "CANNOT_INVERT": 2, "NOT_WITHIN_TOLERANCE": 16,
                 "STEPS_TOO_BIG": 32, "LIMIT_HIT": 64, "INVALID_CALLBACK_DATA": 128},
    "GroupFlag": {"NONE": 0, "ENABLED": 1, "IGNORE_MAX_STEPS": 2, "RESTORE_ON_BAD_LIN_TOL": 4,
                  "RESTORE_ON_BAD_ANG_TOL": 8, "STOP_ON_LIMIT_HIT": 16, "AVOID_LIMITS": 64},
}


def test_enums_built_from_the_core_keep_every_name_and_number():
    for name, members in EXPECTED.items():
        enum = getattr(_constants, name)
        assert enum.__module__ == "torsion.ik._constants" and enum.__qualname__ == name
        assert {m: enum[m].value for m in members} == members
        assert set(enum.__members__) == set(members), name
        assert core_ik.CONSTANTS[name] == members
    assert (_constants.HANDLE_WORLD, _constants.HANDLE_ALL, _constants.HANDLE_PARENT) == (-1, -2, -11)
    assert _constants.HANDLEFLAG_TIPDUMMY == 0x00400000
    assert core_ik.CONSTANTS["MAX_OBJECT_HANDLE"] == 1 << 24


def test_flag_enums_combine_and_the_public_names_are_the_core_ones():
    assert ik.Constraint.X | ik.Constraint.Y | ik.Constraint.Z == ik.Constraint.POSITION
    assert ik.JointType.REVOLUTE is _constants.JointType.REVOLUTE
    assert ik.JointType(10) is ik.JointType.REVOLUTE
