"""Checkpoints: rewind is bitwise exact (pile contacts with warm starts, a robot under PD), in
this process and through bytes in a fresh process; every rejection of the seed leaves the world
bitwise unchanged; malformed bytes raise ValueError (hypothesis: truncations and byte flips)."""

from __future__ import annotations

import importlib.util
import pathlib
import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torsion

_HERE = pathlib.Path(__file__).parent
_spec = importlib.util.spec_from_file_location("state_scenes", _HERE / "scenes.py")
scenes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scenes)


@pytest.fixture(scope="module")
def rewound():
    """Step 1000, checkpoint, step 1000 and record; restore: the world as it was at 1000."""
    w, robot = scenes.mixed_scene()
    w.integrate(1000)
    cp = w.capture_checkpoint()
    h_at_cp = w.state_hash()
    w.integrate(1000)
    reference = scenes.full_state(w)
    h_ref = w.state_hash()
    return w, robot, cp, h_at_cp, reference, h_ref


def test_restore_replays_bitwise(rewound):
    w, robot, cp, h_at_cp, reference, h_ref = rewound
    # the scene really has contacts and warm starts to get right
    assert len(w.get_contact_problem()) >= 10
    assert robot.get_control_mode() == torsion.ControlMode.PD_PLUS_FEEDFORWARD_TORQUE
    w.restore_checkpoint(cp)
    assert w.state_hash() == h_at_cp
    assert w.get_world_time() == cp.get_world_time() == pytest.approx(1.0)
    w.integrate(1000)
    assert scenes.bitwise_equal(scenes.full_state(w), reference)
    assert w.state_hash() == h_ref
    # a checkpoint is reusable
    w.restore_checkpoint(cp)
    w.integrate(1000)
    assert w.state_hash() == h_ref


def test_checkpoint_holds_more_than_poses_and_velocities():
    """The contact solver's history matters: copying every body's pose and velocity into a
    fresh world (single-body snapshots) does not replay the pile bitwise; the checkpoint does."""
    w, _ = scenes.mixed_scene(with_robot=False)
    w.integrate(500)
    cp = w.capture_checkpoint()
    snaps = [w.capture_single_body_snapshot(o) for o in w.get_object_list()]
    w.integrate(300)
    ref = scenes.full_state(w)
    w2, _ = scenes.mixed_scene(with_robot=False)
    w2.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    w2.integrate(300)
    assert scenes.bitwise_equal(scenes.full_state(w2), ref)
    w3, _ = scenes.mixed_scene(with_robot=False)
    for o, snap in zip(w3.get_object_list(), snaps):
        w3.restore_single_body_snapshot(snap, o)
    w3.set_world_time(cp.get_world_time())
    w3.integrate(300)
    assert not scenes.bitwise_equal(scenes.full_state(w3), ref)


def test_pending_forces_controls_and_sensor_stream_are_kept():
    w, robot = scenes.mixed_scene()
    w.integrate(100)
    ball = w.get_object(7)
    ball.set_external_force([3.0, 0.0, 0.0])
    robot.set_external_force(0, [0.0, 5.0, 0.0])
    cam = torsion.DepthCameraProperties(width=8, height=6, noise_std=0.01)
    cp = w.capture_checkpoint()
    w.integrate(50)
    ref = w.state_hash()
    frame_a = w.capture_depth_camera([1.0, -1.0, 0.5], np.eye(3), cam).depth
    assert w.state_hash() != ref  # the noise stream moved on, and the hash sees it
    w.restore_checkpoint(cp)
    w.integrate(50)
    assert w.state_hash() == ref
    # the noise stream continued from the checkpoint: the same noisy frame again
    frame_b = w.capture_depth_camera([1.0, -1.0, 0.5], np.eye(3), cam).depth
    assert frame_a.tobytes() == frame_b.tobytes()
    assert w.capture_depth_camera([1.0, -1.0, 0.5], np.eye(3), cam).depth.tobytes() != \
        frame_b.tobytes()


def test_bytes_and_pickle_round_trip(rewound):
    w, _, cp, h_at_cp, _, h_ref = rewound
    data = cp.to_bytes()
    assert data[:8] == b"TRSNCKPT"
    cp2 = torsion.Checkpoint.from_bytes(data)
    assert cp2.is_portable() and not cp.is_portable()
    assert cp2.to_bytes() == data
    cp3 = pickle.loads(pickle.dumps(cp))
    assert cp3.to_bytes() == data
    w.restore_checkpoint(cp3)
    assert w.state_hash() == h_at_cp
    w.integrate(1000)
    assert w.state_hash() == h_ref


_CHILD = r"""
import importlib.util, pickle, sys
spec = importlib.util.spec_from_file_location("state_scenes", sys.argv[1])
scenes = importlib.util.module_from_spec(spec); spec.loader.exec_module(scenes)
import torsion
w, _ = scenes.mixed_scene()
cp = pickle.loads(sys.stdin.buffer.read())
w.restore_checkpoint(cp)
w.integrate(1000)
sys.stdout.write(str(w.state_hash()))
"""


def test_restore_in_a_fresh_process(rewound):
    _, _, cp, _, _, h_ref = rewound
    out = subprocess.run([sys.executable, "-c", _CHILD, str(_HERE / "scenes.py")],
                         input=pickle.dumps(cp), capture_output=True, check=True, timeout=300)
    assert int(out.stdout) == h_ref


# --- rejections: each leaves the world bitwise unchanged ---

@pytest.fixture
def small():
    w, _ = scenes.mixed_scene(with_robot=False)
    w.integrate(200)
    return w


def _rejected(w, cp, reason):
    before = w.state_hash()
    with pytest.raises(RuntimeError, match=reason):
        w.restore_checkpoint(cp)
    assert w.state_hash() == before


def test_rejects_empty(small):
    _rejected(small, torsion.Checkpoint(), "empty")


def test_rejects_during_split_step(small):
    cp = small.capture_checkpoint()
    small.integrate1()
    with pytest.raises(RuntimeError, match="split step"):
        small.restore_checkpoint(cp)
    with pytest.raises(RuntimeError, match="split step"):
        small.capture_checkpoint()
    small.integrate2()
    small.restore_checkpoint(cp)


def test_rejects_another_worlds_checkpoint(small):
    other, _ = scenes.mixed_scene(with_robot=False)
    _rejected(small, other.capture_checkpoint(), "another World")
    # its portable form is accepted: same topology
    small.restore_checkpoint(torsion.Checkpoint.from_bytes(other.capture_checkpoint().to_bytes()))
    assert small.state_hash() == other.state_hash()


def test_rejects_after_topology_change(small):
    cp = small.capture_checkpoint()
    portable = torsion.Checkpoint.from_bytes(cp.to_bytes())
    s = small.add_sphere(0.1, 1.0)
    _rejected(small, cp, "topology")
    _rejected(small, portable, "topology")
    small.remove_object(s)  # back to the same objects, but ids moved on: still another topology
    _rejected(small, cp, "topology")


def test_portable_checkpoint_rejected_by_a_different_world(small):
    cp = torsion.Checkpoint.from_bytes(small.capture_checkpoint().to_bytes())
    other = torsion.World()
    other.add_ground()
    other.add_box(0.1, 0.1, 0.1, 1.0)
    _rejected(other, cp, "topology")


def test_bad_bytes_raise_value_error(small):
    data = small.capture_checkpoint().to_bytes()
    with pytest.raises(ValueError, match="TRSNCKPT"):
        torsion.Checkpoint.from_bytes(b"X" + data[1:])
    with pytest.raises(ValueError, match="version"):
        torsion.Checkpoint.from_bytes(data[:8] + (99).to_bytes(4, "little") + data[12:])
    with pytest.raises(ValueError, match="truncated"):
        torsion.Checkpoint.from_bytes(data[:-1])
    with pytest.raises(ValueError, match="header"):
        torsion.Checkpoint.from_bytes(data[:10])
    with pytest.raises(ValueError, match="bytes-like"):
        torsion.Checkpoint.from_bytes("not bytes")
    with pytest.raises(RuntimeError, match="empty"):
        torsion.Checkpoint().to_bytes()


_FUZZ_WORLD, _ = scenes.mixed_scene(with_robot=False)
_FUZZ_WORLD.integrate(20)
_FUZZ_BYTES = _FUZZ_WORLD.capture_checkpoint().to_bytes()


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(min_value=0, max_value=len(_FUZZ_BYTES) - 1))
def test_fuzz_truncated_bytes(cut):
    with pytest.raises(ValueError):
        torsion.Checkpoint.from_bytes(_FUZZ_BYTES[:cut])


@settings(max_examples=200, deadline=None)
@given(flips=st.lists(st.tuples(st.integers(0, len(_FUZZ_BYTES) - 1), st.integers(1, 255)),
                      min_size=1, max_size=4))
def test_fuzz_flipped_bytes(flips):
    data = bytearray(_FUZZ_BYTES)
    for pos, x in flips:
        data[pos] ^= x
    if bytes(data) == _FUZZ_BYTES:  # the flips cancelled out
        return
    before = _FUZZ_WORLD.state_hash()
    try:
        cp = torsion.Checkpoint.from_bytes(bytes(data))
    except ValueError:
        return
    # only a flip of the stored fingerprint's bits can pass the checksum: then restore rejects
    with pytest.raises(RuntimeError):
        _FUZZ_WORLD.restore_checkpoint(cp)
    assert _FUZZ_WORLD.state_hash() == before


def test_state_hash_is_deterministic_and_sensitive():
    a, _ = scenes.mixed_scene()
    b, _ = scenes.mixed_scene()
    assert a.state_hash() == b.state_hash()
    a.integrate(300)
    b.integrate(300)
    assert a.state_hash() == b.state_hash()
    b.get_object(1).set_velocity([0.0, 0.0, 1e-12], [0.0, 0.0, 0.0])
    assert a.state_hash() != b.state_hash()
    with pytest.raises(RuntimeError):
        a.integrate1()
        a.state_hash()
    a.integrate2()


# --- what a checkpoint holds and what its fingerprint sees ---

def _sliding_compound():
    w = torsion.World()
    w.set_material_pair_prop("ice", "default", 0.0, 0.0, 0.0)
    w.set_material_pair_prop("rubber", "default", 1.0, 0.0, 0.0)
    w.add_ground()
    child = torsion.CompoundObjectChild
    comp = w.add_compound([
        child(torsion.ObjectType.BOX, [0.2, 0.2, 0.1], [0.0, 0.0, 0.0], [1, 0, 0, 0], "rubber"),
        child(torsion.ObjectType.BOX, [0.2, 0.2, 0.1], [0.3, 0.0, 0.0], [1, 0, 0, 0], "rubber")],
        2.0)
    comp.set_position([0, 0, 0.0501])
    comp.set_velocity([1.0, 0, 0], [0, 0, 0])
    return w, comp


def test_compound_child_materials_are_kept():
    """set_object_material(compound, m, local_idx) changes what the next step does: the
    checkpoint holds it and state_hash sees it (it used to hold the compound's own only)."""
    w, comp = _sliding_compound()
    w.integrate(10)
    cp = w.capture_checkpoint()
    portable = torsion.Checkpoint.from_bytes(cp.to_bytes())
    h0 = w.state_hash()
    w.set_object_material(comp, "ice", 1)
    assert w.state_hash() != h0
    w.restore_checkpoint(cp)
    assert comp.get_child_material(1) == "rubber"
    assert w.state_hash() == h0
    w.integrate(100)
    # the uninterrupted run
    ref, ref_comp = _sliding_compound()
    ref.integrate(110)
    assert scenes.bitwise_equal(scenes.full_state(w), scenes.full_state(ref))
    # through bytes, into a world whose child was changed
    other, other_comp = _sliding_compound()
    other.set_object_material(other_comp, "ice", 1)
    other.restore_checkpoint(portable)
    assert other_comp.get_child_material(1) == "rubber"
    assert other.state_hash() == h0


def _terrain(scale):
    w = torsion.World()
    w.add_height_map(8, 8, 2.0, 2.0, 0.0, 0.0, scale * np.sin(np.arange(64.0)), "default")
    w.add_sphere(0.1, 1.0).set_position([0.1, 0.1, 0.5])
    return w


def _compound(offset, second=torsion.ObjectType.SPHERE):
    w = torsion.World()
    child = torsion.CompoundObjectChild
    w.add_compound([child(torsion.ObjectType.BOX, [0.2, 0.1, 0.06], [0, 0, 0], [1, 0, 0, 0]),
                    child(second, [0.05, 0.05, 0.05], [offset, 0, 0], [1, 0, 0, 0])],
                   1.5, com=[0, 0, 0], inertia=np.eye(3) * 0.01)
    return w


@pytest.mark.parametrize("make_a, make_b", [
    (lambda: _terrain(0.05), lambda: _terrain(0.5)),
    (lambda: _compound(0.12), lambda: _compound(0.5)),
    (lambda: _compound(0.12), lambda: _compound(0.12, torsion.ObjectType.BOX)),
], ids=["heightmap samples", "second child's place", "second child's shape"])
def test_fingerprint_sees_terrain_samples_and_every_compound_child(make_a, make_b):
    """Worlds that differ only in a heightmap's samples or in a compound's second child are
    built differently, as worlds with spheres of two radii are: a portable checkpoint of one
    is refused by the other (both used to be accepted silently)."""
    a, b = make_a(), make_b()
    assert a.get_topology_fingerprint() == make_a().get_topology_fingerprint()
    assert a.get_topology_fingerprint() != b.get_topology_fingerprint()
    _rejected(b, torsion.Checkpoint.from_bytes(a.capture_checkpoint().to_bytes()), "topology")
    # built the same way: accepted
    a2 = make_a()
    a2.restore_checkpoint(torsion.Checkpoint.from_bytes(a.capture_checkpoint().to_bytes()))


# --- payloads with an intact checksum but values no setter accepts ---

_M64 = (1 << 64) - 1
_HEADER = 40


def _fnv(p):  # state_io::fnv1a (cpp/world/state_io.hpp)
    h, n, i = 0xcbf29ce484222325, len(p), 0
    while i + 8 <= n:
        h ^= int.from_bytes(p[i:i + 8], "little")
        h = (h * 0x100000001b3) & _M64
        h ^= h >> 32
        i += 8
    while i < n:
        h ^= p[i]
        h = (h * 0x100000001b3) & _M64
        i += 1
    h ^= n
    h = ((h ^ (h >> 30)) * 0xbf58476d1ce4e5b9) & _M64
    h = ((h ^ (h >> 27)) * 0x94d049bb133111eb) & _M64
    return h ^ (h >> 31)


def _field_offset(a, b):
    """The first byte where two payloads of the same layout differ: the field that was set
    differently in the two worlds."""
    return next(i for i in range(_HEADER, len(a)) if a[i] != b[i])


def _patched(data, offset, raw):
    """The checkpoint bytes with `raw` written at `offset`, resealed with a valid checksum."""
    d = bytearray(data)
    d[offset:offset + len(raw)] = raw
    d[32:40] = _fnv(bytes(d[_HEADER:])).to_bytes(8, "little")
    return torsion.Checkpoint.from_bytes(bytes(d))


def _refused(w, cp, match):
    before = w.state_hash()
    with pytest.raises(ValueError, match=match):
        w.restore_checkpoint(cp)
    assert w.state_hash() == before


def _body_world(mass=1.0, quat=(1.0, 0.0, 0.0, 0.0)):
    w = torsion.World()
    c = w.add_compound([torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [0.1])], 1.0)
    c.set_mass(mass)
    c.set_orientation(quat)
    return w


def test_restore_refuses_a_nan_mass_or_a_bad_quaternion():
    nan, f64 = float("nan"), np.float64
    data = _body_world().capture_checkpoint().to_bytes()
    mass_at = _field_offset(data, _body_world(mass=1.2345).capture_checkpoint().to_bytes())
    w = _body_world()
    for bad in (nan, float("inf"), 0.0, -1.0):
        _refused(w, _patched(data, mass_at, f64(bad).tobytes()), "mass must be finite and > 0")
    # the quaternion's stored coefficients are x, y, z, w: a turn about x differs first in x
    s = np.sin(0.2)
    quat_at = _field_offset(
        data, _body_world(quat=(np.cos(0.2), s, 0.0, 0.0)).capture_checkpoint().to_bytes())
    _refused(w, _patched(data, quat_at, f64(-1.4e297).tobytes()), "unit quaternion")
    _refused(w, _patched(data, quat_at, bytes(32)), "unit quaternion, got norm 0")
    _refused(w, _patched(data, quat_at, f64(nan).tobytes()), "orientation must be finite")
    # the unpatched bytes restore
    w.restore_checkpoint(torsion.Checkpoint.from_bytes(data))


def test_restore_refuses_a_nan_robot_state():
    def robot_world(z):
        w = torsion.World()
        r = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
        gc = r.get_generalized_coordinate()
        gc[2] = z
        r.set_generalized_coordinate(gc)
        return w, r

    (wa, robot), (wb, _) = robot_world(0.45), robot_world(0.55)
    data = wa.capture_checkpoint().to_bytes()
    z_at = _field_offset(data, wb.capture_checkpoint().to_bytes())
    _refused(wa, _patched(data, z_at, np.float64(np.nan).tobytes()),
             "object id 0: gc must be finite")
    # the base quaternion (w x y z follows z in gc) all zeros
    _refused(wa, _patched(data, z_at + 8, bytes(32)), "quaternion of joint .* non-zero norm")
    assert np.isfinite(robot.get_generalized_coordinate()).all()


def test_restore_refuses_bad_world_settings_and_flags(small):
    data = small.capture_checkpoint().to_bytes()
    # the time step is the payload's first field
    _refused(small, _patched(data, _HEADER, np.float64(np.nan).tobytes()), "time step")
    _refused(small, _patched(data, _HEADER, np.float64(-1e-3).tobytes()), "time step")
    # gravity follows the time step and the world time
    _refused(small, _patched(data, _HEADER + 16, np.float64(np.inf).tobytes()), "gravity")
    # a flag byte that is neither 0 nor 1 (a bool read from it would be undefined behaviour)
    assert not small.is_sleeping_enabled()
    a = small.capture_checkpoint().to_bytes()
    small.set_sleeping_enabled(True)
    b = small.capture_checkpoint().to_bytes()
    small.set_sleeping_enabled(False)
    _refused(small, _patched(a, _field_offset(a, b), b"\x02"), "flag is 2")
