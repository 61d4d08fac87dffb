"""The viser viewer without a browser: what it holds to send, its thread, its controls and its
errors. Every viewer is closed; ports are picked free (port=0)."""

import socket
import threading
import time

import numpy as np
import pytest

import torsion

pytest.importorskip("viser", reason='the viewer needs viser: pip install "torsion[viewer]"')

from torsion.viewer import OVERLAYS, Viewer  # noqa: E402
from torsion.viewer.scene import quat_to_matrix  # noqa: E402


def _wait(cond, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def _quadruped_world():
    w = torsion.World()
    w.add_ground()
    r = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    r.set_name("quadruped")
    gc = r.get_generalized_coordinate()
    gc[2] = 0.33
    gc[7:] = torsion.robots.QUADRUPED_STAND
    r.set_generalized_coordinate(gc)
    r.set_pd_gains(np.full(18, 100.0), np.full(18, 2.0))
    r.set_pd_target(gc, np.zeros(18))
    return w, r


@pytest.fixture
def viewer_of():
    made = []

    def make(world, **kw):
        v = Viewer(world, port=0, **kw)
        made.append(v)
        return v

    yield make
    for v in made:
        v.close()


def _sent_positions(v, layer="visual"):
    out = {}
    with v._lock:  # the run thread may be rebuilding the batches
        for bt in v.scene.batches:
            if bt.layer != layer:
                continue
            h = v._handles[bt.key]
            for gi, p, q in zip(bt.geoms, h.batched_positions, h.batched_wxyzs):
                out[v.scene.geoms[gi].name] = (np.asarray(p, float), np.asarray(q, float))
    return out


def test_binds_localhost_and_serves_the_client(viewer_of):
    w, _ = _quadruped_world()
    v = viewer_of(w)
    assert v.host == "127.0.0.1" and v.url == f"http://127.0.0.1:{v.port}"
    with socket.create_connection(("127.0.0.1", v.port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        s.settimeout(5)
        head = s.recv(4096)
    assert head.startswith(b"HTTP/1.1 200")


def test_update_sends_the_current_poses(viewer_of):
    w = torsion.World()
    balls = [w.add_sphere(0.1, 1.0) for _ in range(3)]
    for i, b in enumerate(balls):
        b.set_name(f"ball{i}")
        b.set_position([i, 0, 1])
        b.set_angular_velocity([1, 2, 3])
    v = viewer_of(w)
    v.step(200)
    sent = _sent_positions(v)
    for b in balls:
        p, q = sent[f"{b.get_name()}/visual"]
        np.testing.assert_allclose(p, b.get_position(), atol=1e-6)  # viser keeps float32
        np.testing.assert_allclose(quat_to_matrix(q), b.get_rotation_matrix(), atol=1e-6)


def test_port_in_use_and_bad_arguments(viewer_of):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        port = busy.getsockname()[1]
        with pytest.raises(OSError, match=f"port {port} on 127.0.0.1 is in use"):
            Viewer(torsion.World(), port=port)
    finally:
        busy.close()
    with pytest.raises(ValueError, match="port must be an integer"):
        Viewer(torsion.World(), port=70000)
    with pytest.raises(TypeError, match="torsion.World"):
        Viewer(None, port=0)


def test_follow_and_errors(viewer_of):
    w, r = _quadruped_world()
    v = viewer_of(w)
    with pytest.raises(ValueError, match="no body named 'nobody'"):
        v.follow("nobody")
    with pytest.raises(ValueError, match="unknown overlay 'x'"):
        v.set_overlay("x")
    with pytest.raises(ValueError, match="no movable joint 'knee'"):
        v.set_joint_target("quadruped", "knee", 0.1)
    with pytest.raises(ValueError, match="steps_per_frame"):
        v.run(steps_per_frame=0)
    v.follow("quadruped/trunk")
    assert v._gui["follow"].value == "quadruped/trunk"
    # the followed robot is removed while viewed: the viewer lets go of it
    w.remove_object(r)
    v.update()
    assert v._follow is None or v.scene.bodies[v._follow].name != "quadruped/trunk"
    assert all(not b.name.startswith("quadruped/") for b in v.scene.bodies)
    v.close()
    with pytest.raises(RuntimeError, match="closed"):
        v.update()


def test_run_thread_respects_world_lock_and_sees_additions(viewer_of):
    w, _ = _quadruped_world()
    v = viewer_of(w)
    v.run(steps_per_frame=5, realtime=False)

    def world_time():  # another thread steps this world: every call here takes its lock
        with w.lock():
            return w.get_world_time()

    try:
        assert _wait(lambda: world_time() > 0.01)
        with w.lock():
            t0 = w.get_world_time()
            time.sleep(0.1)
            assert w.get_world_time() == t0  # the thread waits for the lock
            ball = w.add_sphere(0.05, 0.5)
            ball.set_name("dropped")
            ball.set_position([0.5, 0, 1])
        assert _wait(lambda: "dropped/visual" in _sent_positions(v))
        with w.lock():
            w.remove_object(ball)
        assert _wait(lambda: "dropped/visual" not in _sent_positions(v))
        assert v.error is None
    finally:
        v.stop()
    assert not any(t.name == "torsion-viewer-run" for t in threading.enumerate())


def test_pause_step_reset_and_joint_slider(viewer_of):
    w, r = _quadruped_world()
    h0 = w.state_hash()
    v = viewer_of(w)
    v._gui["pause"].value = True  # what a click on the page does
    assert v.paused
    v.step(3)
    assert np.isclose(w.get_world_time(), 3e-3)
    v.reset()
    assert w.get_world_time() == 0.0 and w.state_hash() == h0
    slider = next(s for s in v._gui["joint_sliders"] if s.label == "quadruped/FR_calf_joint")
    slider.value = -1.2
    q_ref, _ = r.get_pd_target()
    assert np.isclose(q_ref[r.get_joints()[3]["gc_index"]], -1.2)
    w.add_box(0.1, 0.1, 0.1, 1.0)
    with pytest.raises(RuntimeError, match="objects were added or removed"):
        v.reset()


def test_overlays(viewer_of):
    w, r = _quadruped_world()
    w.integrate(300)  # standing: contacts under the feet
    v = viewer_of(w)
    v.set_lidar([0.0, 0.0, 0.3], body="quadruped/trunk", yaw_count=60, pitch_count=3, pitch_min=-0.6, pitch_max=-0.3)
    a = np.pi
    cam_r = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    v.set_depth_camera([1.2, 0.0, 0.4], cam_r)
    for name in OVERLAYS:
        v.set_overlay(name, True)
    assert all(v.overlays().values())
    v.update()
    h = v._overlay_handles
    assert {"body_frames", "joint_axes", "contacts_pts", "contacts_forces", "lidar", "depth_camera"} <= set(h)
    assert len(h["body_frames"].batched_positions) == len(v.scene.bodies)
    assert len(h["joint_axes"].points) == 12
    assert len(h["contacts_pts"].points) == len(w.get_contact_problem()) == 4
    lidar = np.asarray(h["lidar"].points)
    assert len(lidar) > 0 and np.abs(lidar[:, 2]).max() < 1e-4  # every ray hits the flat ground
    ref = w.capture_depth_camera([1.2, 0.0, 0.4], cam_r, v._camera["props"])
    np.testing.assert_array_equal(v.last_depth_frame.depth, ref.depth)
    assert all(v._handles[bt.key].visible for bt in v.scene.batches if bt.layer == "collision")
    for name in OVERLAYS:
        v.set_overlay(name, False)
    assert not v._overlay_handles
    assert not any(v._handles[bt.key].visible for bt in v.scene.batches if bt.layer == "collision")
