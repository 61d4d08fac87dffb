"""Gymnasium's Ant, Hopper and Humanoid under zero control from their reset pose (qpos0, no
noise): after 1 s, torsion's base height is within 10 % of MuJoCo's. The base height is the
height of the centre of mass of the system (MuJoCo: subtree_com of the root body).

Figures here (torsion against MuJoCo): Hopper 0.5557 m / 0.5523 m (+0.6 %), Ant 0.5191 m /
0.4966 m (+4.5 %), Humanoid 0.2111 m / 0.2098 m (+0.6 %). What made the Ant and the Humanoid
agree (they were -37.6 % and -12.7 % apart): MuJoCo's joint limits are soft (solreflimit,
solimplimit), and the Ant's qpos0 puts its four ankles at 0, outside their range (30 to 70
degrees): MuJoCo's limits spring them through the range, and the Ant stands; torsion now reads
them as soft limits too (contact/joint_rows.hpp), where its hard limits held the ankles at the
bound and the Ant lay on its torso. The Humanoid's knees also start outside their range (0 against
-160 to -2 degrees); its geoms collide with each other (contype = conaffinity = 1) under MuJoCo's
parent filter, and touch the floor with the floor's friction (condim 3 of the pair), all of which
torsion now maps (docs/robot_files.md)."""

from __future__ import annotations

import os
import warnings

import mujoco
import numpy as np
import pytest

import torsion

GYM = os.path.join(os.path.dirname(__import__("gymnasium").__file__), "envs", "mujoco", "assets")


def mujoco_height(path, seconds):
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    root = m.body_rootid[m.jnt_bodyid[0]]
    steps = int(round(seconds / m.opt.timestep))
    for _ in range(steps):
        mujoco.mj_step(m, d)
    return float(d.subtree_com[root][2]), m.opt.timestep


def torsion_height(path, seconds, dt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", torsion.MJCFWarning)
        # the Ant's ankles and the Humanoid's knees start outside their (soft) limits, as in MuJoCo
        warnings.simplefilter("ignore", torsion.JointLimitWarning)
        world = torsion.World()
        # humanoid.xml's fixed tendons carry no limit or spring: they only serve actuators
        model = world.load_mjcf_file(path, ignore_unsupported=True)
        assert world.get_time_step() == pytest.approx(dt)
        system = model.systems[0]
        world.integrate(int(round(seconds / dt)))
    return float(system.get_composite_com()[2])


@pytest.mark.parametrize("name", ["ant.xml", "hopper.xml", "humanoid.xml"])
def test_zero_control_base_height_after_one_second(name):
    path = os.path.join(GYM, name)
    theirs, dt = mujoco_height(path, 1.0)
    ours = torsion_height(path, 1.0, dt)
    print(f"\n{name}: COM height after 1 s: torsion {ours:.4f} m, MuJoCo {theirs:.4f} m")
    assert abs(ours - theirs) <= 0.1 * abs(theirs)
