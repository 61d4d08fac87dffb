"""Recorder: poses per frame, a self-contained HTML replay, a GIF through the ray-cast camera."""

import base64
import json
import re

import numpy as np
import pytest

import torsion
from torsion.demo import quadruped_world
from torsion.viewer import Recorder
from torsion.viewer.recorder import camera_rotation


def _recorded(n=20, steps=10):
    w, r = quadruped_world()
    rec = Recorder(w)
    gcs = []
    for _ in range(n):
        w.integrate(steps)
        rec.record()
        gcs.append(r.get_generalized_coordinate())
    return w, r, rec, np.array(gcs)


def _html_data(path):
    text = path.read_text()
    m = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S)
    return text, json.loads(m.group(1).replace("<\\/", "</"))


def test_poses_and_self_contained_html(tmp_path):
    w, r, rec, gcs = _recorded()
    poses = rec.poses()
    trunk = [i for i, (oid, loc) in enumerate(rec._body_keys) if oid == r.get_id() and loc == 0][0]
    np.testing.assert_allclose(poses[:, trunk, :3], gcs[:, :3], atol=1e-12)
    np.testing.assert_allclose(np.abs(poses[:, trunk, 3:]), np.abs(gcs[:, 3:7]), atol=1e-12)
    assert np.allclose(rec.times, 0.01 * np.arange(1, 21))
    path = rec.save_html(tmp_path / "replay.html", title="quad <1>")
    text, data = _html_data(path)
    # nothing is fetched: no external script, style, image or fetch/XHR call
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "fetch(" not in text and "XMLHttpRequest" not in text and "import(" not in text
    assert "<title>quad &lt;1&gt;</title>" in text
    stored = np.frombuffer(base64.b64decode(data["poses"]), dtype=np.float32).reshape(20, data["nbodies"], 7)
    np.testing.assert_allclose(stored, poses, atol=1e-6)
    kinds = {g["kind"] for g in data["geoms"]}
    assert {"ground", "box", "sphere", "cylinder", "capsule"} <= kinds
    assert len([g for g in data["geoms"] if g["name"].startswith("quadruped/")]) == len(r.get_visual_bodies())


def test_objects_added_and_removed_during_recording(tmp_path):
    w = torsion.World()
    a = w.add_sphere(0.1, 1.0)
    rec = Recorder(w, keep_checkpoints=False)
    rec.record()
    b = w.add_box(0.1, 0.2, 0.3, 1.0)
    b.set_position([1, 0, 0])
    rec.record()
    w.remove_object(a)
    rec.record()
    p = rec.poses()
    assert p.shape == (3, 2, 7)
    assert np.isnan(p[0, 1]).all() and np.isfinite(p[1]).all() and np.isnan(p[2, 0]).all()
    np.testing.assert_allclose(p[2, 1, :3], [1, 0, 0])
    rec.save_html(tmp_path / "r.html")
    with pytest.raises(RuntimeError, match="keep_checkpoints=False"):
        rec.render_frames([2, 0, 1], [0, 0, 0])


def test_gif_through_the_ray_cast_camera(tmp_path):
    from PIL import Image

    w, r, rec, gcs = _recorded(n=6, steps=20)
    h_end = w.state_hash()
    cam, at = np.array([1.2, 0.9, 0.6]), gcs[-1, :3]
    path = rec.save_video(tmp_path / "q.gif", cam, at, width=96, height=72)
    assert w.state_hash() == h_end  # the world is left as it was
    with Image.open(path) as im:
        assert im.n_frames == 6 and im.size == (96, 72)
        im.seek(5)
        last = np.asarray(im.convert("RGB"))
    # the last frame shows the robot where the segmentation camera sees it
    props = torsion.DepthCameraProperties(width=96, height=72, hfov=60.0, clip_far=100.0)
    seg = w.capture_depth_camera(cam, camera_rotation(cam, at), props).segmentation
    robot = seg == r.get_index_in_world()
    assert robot.sum() > 50
    sky = seg < 0
    sky_col = np.array([199, 214, 230])
    assert (np.abs(last[sky].astype(int) - sky_col).max(axis=1) <= 2).mean() > 0.95
    assert (np.abs(last[robot].astype(int) - sky_col).max(axis=1) > 20).all()


def test_bad_input():
    w, r, rec, _ = _recorded(n=2)
    with pytest.raises(ValueError, match=".gif or .mp4"):
        rec.save_video("x.avi", [1, 1, 1], [0, 0, 0])
    with pytest.raises(ValueError, match="look_at must differ"):
        rec.render_frames([1, 1, 1], [1, 1, 1])
    with pytest.raises(ValueError, match="3 finite numbers"):
        rec.render_frames([np.nan, 1, 1], [0, 0, 0])
    with pytest.raises(RuntimeError, match="nothing recorded"):
        Recorder(w).save_html("x.html")
    with pytest.raises(TypeError, match="torsion.World"):
        Recorder(r)
