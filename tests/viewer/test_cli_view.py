"""``python -m torsion view PATH`` and ``demo --view`` in a subprocess: the address printed serves
the page, and the process ends by itself after --duration."""

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import torsion

pytest.importorskip("viser", reason='the viewer needs viser: pip install "torsion[viewer]"')

from torsion.viewer.cli import load_for_viewing  # noqa: E402
from torsion.viewer.scene import Scene, quat_to_matrix  # noqa: E402

PY = str(Path(torsion.__file__).resolve().parents[1])


def _run(args, timeout=60):
    env = dict(os.environ, PYTHONPATH=PY + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "torsion", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        url = None
        for line in proc.stdout:
            if line.startswith("torsion viewer: open "):
                url = line.split()[3]
                break
        assert url is not None, proc.stderr.read()
        with urllib.request.urlopen(url, timeout=10) as resp:
            page = resp.read()
        assert resp.status == 200 and b"<html" in page[:200]
        assert proc.wait(timeout=timeout) == 0
        return url
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def test_view_urdf_prints_the_address_and_serves():
    url = _run(["view", torsion.robots.urdf_path("quadruped"), "--port", "0", "--duration", "1"])
    assert url.startswith("http://127.0.0.1:")


def test_demo_view():
    _run(["demo", "--view", "--port", "0", "--duration", "0.5"])


def test_view_world_xml_and_bad_paths(tmp_path, capsys):
    w = torsion.World()
    w.add_ground()
    w.add_box(0.2, 0.2, 0.2, 1.0).set_position([0, 0, 1])
    path = tmp_path / "w.xml"
    w.export_to_xml(str(path))
    loaded = load_for_viewing(path)
    assert loaded.get_object_count() == 2
    from torsion.__main__ import main

    assert main(["view", str(tmp_path / "missing.urdf"), "--port", "0"]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><link name='a'>")
    assert main(["view", str(bad), "--port", "0"]) == 2


def test_urdf_is_put_on_the_ground():
    world = load_for_viewing(torsion.robots.urdf_path("quadruped"))
    scene = Scene(world)
    lowest = np.inf
    for bt, (pos, quat) in zip(scene.batches, scene.batch_poses()):
        if scene.objects[scene.bodies[bt.body[0]].object_id].kind != "articulated_system":
            continue
        v = scene.templates[bt.template][0].astype(float)
        for p, q, s in zip(pos, quat, bt.scales):
            lowest = min(lowest, (p + (quat_to_matrix(q) @ (v * s).T).T)[:, 2].min())
    assert abs(lowest) < 1e-6
    # and it stays up: standing under its PD, the feet touch the ground
    world.integrate(500)
    robot = [o for o in world.get_object_list() if isinstance(o, torsion.ArticulatedSystem)][0]
    assert robot.get_generalized_coordinate()[2] > 0.1 and len(robot.get_contacts()) >= 4
