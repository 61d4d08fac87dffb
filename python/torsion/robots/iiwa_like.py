"""A KUKA LBR iiwa 14-like 7-DoF arm as plain parameters and a generated URDF string.

The IK tests and the IK benchmark build the same arm for every engine from these numbers (the
bundled ``arm7.urdf`` is a different iiwa-class arm with full inertias and collision shapes).
JOINTS holds (xyz, rpy) of each joint relative to the previous link, all axes along the joint
frame's z; LIMITS are +-(170, 120, 170, 120, 170, 120, 175) degrees; TIP is the tool frame in
the last link.
"""

from __future__ import annotations

import numpy as np

JOINTS = [
    ((0.0, 0.0, 0.1575), (0.0, 0.0, 0.0)),
    ((0.0, 0.0, 0.2025), (np.pi / 2, 0.0, np.pi)),
    ((0.0, 0.2045, 0.0), (np.pi / 2, 0.0, np.pi)),
    ((0.0, 0.0, 0.2155), (np.pi / 2, 0.0, 0.0)),
    ((0.0, 0.1845, 0.0), (-np.pi / 2, np.pi, 0.0)),
    ((0.0, 0.0, 0.2155), (np.pi / 2, 0.0, 0.0)),
    ((0.0, 0.081, 0.0), (-np.pi / 2, np.pi, 0.0)),
]
LIMITS = np.radians([170, 120, 170, 120, 170, 120, 175])
TIP = (0.0, 0.0, 0.126)


def urdf() -> str:
    """The arm as a URDF string: links link0..link8, joints j1..j7 and the fixed tool_joint."""
    links = "".join(
        f'<link name="link{i}"><inertial><mass value="1"/><origin xyz="0 0 0"/>'
        f'<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>'
        for i in range(9)
    )
    joints = ""
    for i, ((xyz, rpy), lim) in enumerate(zip(JOINTS, LIMITS)):
        joints += (
            f'<joint name="j{i + 1}" type="revolute"><parent link="link{i}"/>'
            f'<child link="link{i + 1}"/><origin xyz="{xyz[0]} {xyz[1]} {xyz[2]}" '
            f'rpy="{float(rpy[0])!r} {float(rpy[1])!r} {float(rpy[2])!r}"/><axis xyz="0 0 1"/>'
            f'<limit lower="{float(-lim)!r}" upper="{float(lim)!r}" effort="100" velocity="2"/></joint>'
        )
    joints += (
        f'<joint name="tool_joint" type="fixed"><parent link="link7"/><child link="link8"/>'
        f'<origin xyz="{TIP[0]} {TIP[1]} {TIP[2]}" rpy="0 0 0"/></joint>'
    )
    return f'<?xml version="1.0"?><robot name="iiwa_like">{links}{joints}</robot>'
