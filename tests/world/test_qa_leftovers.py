"""QA leftovers of the World surface: the inertia setter's smallest principal moment, the time
step's range (also through checkpoints), add_articulated_system's res_path as os.fsdecode gives a
non-UTF-8 directory name."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

import torsion


@pytest.mark.parametrize("moments", [(3e-316, 3e-316, 3e-316), (1e-310, 1.0, 1.0),
                                     (1e-13, 1.0, 1.0)])
def test_inertia_with_a_degenerate_principal_moment_is_refused(moments):
    # 3e-316 is subnormal: the inverse inertia was inf and the body's rotation NaN
    b = torsion.World().add_box(1, 1, 1, 1.0)
    before = b.get_inertia_matrix_b()
    with pytest.raises(ValueError, match="inertia must have principal moments that are normal"):
        b.set_inertia(np.diag(moments))
    np.testing.assert_array_equal(b.get_inertia_matrix_b(), before)


def test_thin_and_tiny_but_sound_inertias_are_kept():
    w = torsion.World()
    b = w.add_box(1, 1, 1, 1.0)
    rod = np.diag([5e-9, 0.0833, 0.0833])  # a 1 m rod of radius 1e-4 m: condition 6e-8
    b.set_inertia(rod)
    np.testing.assert_array_equal(b.get_inertia_matrix_b(), rod)
    tiny = np.eye(3) * 1e-300  # uniformly tiny: a normal number with a finite inverse
    b.set_inertia(tiny)
    b.set_angular_velocity([0.1, 0.2, 0.3])
    w.integrate(10)
    assert np.all(np.isfinite(b.get_angular_velocity()))


@pytest.mark.parametrize("dt", [1e308, 1.5, 5e-324, 1e-10])
def test_time_step_out_of_range_is_refused(dt):
    w = torsion.World()
    with pytest.raises(ValueError, match=r"dt must be in \[1e-09, 1\] s"):
        w.set_time_step(dt)
    assert w.get_time_step() == 1e-3


def test_time_step_bounds_are_accepted_and_checkpoints_check_them():
    w = torsion.World()
    for dt in (1e-9, 1.0):
        w.set_time_step(dt)
        assert w.get_time_step() == dt
    w.add_sphere(0.1, 1.0)
    w.set_time_step(1.0)
    w.integrate()  # a one-second step stays finite
    assert math.isfinite(w.get_world_time())
    data = bytearray(w.capture_checkpoint().to_bytes())
    one = np.float64(1.0).tobytes()
    k = data.find(one)
    assert k >= 0
    data[k:k + 8] = np.float64(1e308).tobytes()
    with pytest.raises(ValueError):
        w.restore_checkpoint(torsion.Checkpoint.from_bytes(bytes(data)))


def test_res_path_takes_a_surrogate_escaped_directory(tmp_path):
    raw = os.fsencode(str(tmp_path)) + b"/meshes_\xff"
    try:
        os.mkdir(raw)
    except OSError:
        pytest.skip("the file system does not take non-UTF-8 names")
    with open(raw + b"/tet.obj", "w") as f:
        f.write("v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    urdf = """<robot name="r"><link name="base"><inertial><mass value="1"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><geometry><mesh filename="tet.obj"/></geometry></collision></link></robot>"""
    res = os.fsdecode(raw)
    assert "\udcff" in res
    robot = torsion.World().add_articulated_system(urdf, res_path=res)
    assert robot.get_dof() == 6
    robot2 = torsion.World().add_articulated_system(urdf, res_path=raw)  # bytes as well
    assert robot2.get_dof() == 6
    with pytest.raises(ValueError, match="res_path"):
        torsion.World().add_articulated_system(urdf, res_path="a\0b")


@pytest.mark.parametrize("force", [1e200, 1e300, 1.7e308])
def test_a_huge_force_stops_its_body_only(force):
    # it used to make the contact solve of the stack non-finite, and all four boxes were reset
    w = torsion.World()
    w.add_ground()
    boxes = []
    for k in range(4):
        b = w.add_box(0.2, 0.2, 0.2, 1.0)
        b.set_position([0.0, 0.0, 0.1 + 0.2 * k])
        boxes.append(b)
    w.integrate(50)
    z0 = [b.get_position()[2] for b in boxes]
    boxes[-1].set_external_force([0.0, 0.0, -force])
    w.integrate()
    warnings = w.get_warnings()
    assert warnings["non_finite_state"] == 1
    assert warnings["last_object_id"] == boxes[-1].get_id()
    for b, z in zip(boxes, z0):
        assert abs(b.get_position()[2] - z) < 1e-3
        assert np.linalg.norm(b.get_linear_velocity()) < 0.1
    w.integrate(100)  # and the stack goes on resting
    assert w.get_warnings()["non_finite_state"] == 1
    for b, z in zip(boxes, z0):
        assert abs(b.get_position()[2] - z) < 1e-3
