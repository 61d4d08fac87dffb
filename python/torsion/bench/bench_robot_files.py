"""Robot file loading: torsion vs PyBullet (URDF) and MuJoCo (MJCF), in one run.

Workloads (time per load, lower is better):
- the Unitree A1 URDF of pybullet_data (a1/a1.urdf, 12 joints, collision boxes and spheres):
  torsion World.add_articulated_system vs pybullet.loadURDF (DIRECT client, body removed after);
- Gymnasium's humanoid.xml: torsion World.load_mjcf_file (ignore_unsupported=True: its fixed
  tendons) vs mujoco.MjModel.from_xml_path;
- every URDF of pybullet_data PyBullet loads (1092 files, one pass, a fresh torsion World each):
  torsion vs PyBullet, total seconds.
torsion's URDFWarning / MJCFWarning messages are silenced (they are part of what a load does).
Not the same work: PyBullet also reads the visual meshes (a1's OBJ files) for its renderer, and
MuJoCo compiles a whole simulation model (contacts, actuators, tendons, rendering); torsion builds
the articulated models, collision shapes and the visual list (paths only).
"""

from __future__ import annotations

import glob
import os
import time
import warnings

from torsion.bench._common import Result, optional_import, time_per_call_us


def _silenced(fn):
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()
    return run


def benchmarks(quick: bool) -> list[Result]:
    import torsion

    out: list[Result] = []
    pybullet = optional_import("pybullet")
    pybullet_data = optional_import("pybullet_data")
    mujoco = optional_import("mujoco")
    gymnasium = optional_import("gymnasium")
    min_time = 0.05 if quick else 0.3

    if pybullet_data is not None:
        root = pybullet_data.getDataPath()
        a1 = os.path.join(root, "a1", "a1.urdf")
        w = "load a1/a1.urdf (pybullet_data)"
        out.append(Result(w, "torsion", time_per_call_us(
            _silenced(lambda: torsion.World().add_articulated_system(a1)), min_time=min_time) / 1e3,
            "ms/load", higher_is_better=False))
        if pybullet is not None:
            cid = pybullet.connect(pybullet.DIRECT)

            def pb_load(path=a1):
                pybullet.removeBody(pybullet.loadURDF(path, physicsClientId=cid), physicsClientId=cid)
            out.append(Result(w, "pybullet", time_per_call_us(pb_load, min_time=min_time) / 1e3,
                              "ms/load", higher_is_better=False))
        files = sorted(glob.glob(os.path.join(root, "**", "*.urdf"), recursive=True))
        if quick:
            files = files[::20]
        w = f"load {len(files)} pybullet_data URDF files, one pass"
        t0 = time.perf_counter()
        ok = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for f in files:
                try:
                    torsion.World().add_articulated_system(f)
                    ok += 1
                except ValueError:
                    pass
        out.append(Result(w, "torsion", time.perf_counter() - t0, "s", higher_is_better=False,
                          note=f"{ok} loaded"))
        if pybullet is not None:
            t0 = time.perf_counter()
            ok = 0
            for f in files:
                try:
                    pybullet.removeBody(pybullet.loadURDF(f, physicsClientId=cid), physicsClientId=cid)
                    ok += 1
                except pybullet.error:
                    pass
            out.append(Result(w, "pybullet", time.perf_counter() - t0, "s", higher_is_better=False,
                              note=f"{ok} loaded"))
            pybullet.disconnect(cid)

    if gymnasium is not None:
        humanoid = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets",
                                "humanoid.xml")
        w = "load Gymnasium humanoid.xml (MJCF)"
        out.append(Result(w, "torsion", time_per_call_us(
            _silenced(lambda: torsion.World().load_mjcf_file(humanoid, ignore_unsupported=True)),
            min_time=min_time) / 1e3,
            "ms/load", higher_is_better=False))
        if mujoco is not None:
            out.append(Result(w, "mujoco", time_per_call_us(
                lambda: mujoco.MjModel.from_xml_path(humanoid), min_time=min_time) / 1e3,
                "ms/load", higher_is_better=False))
    return out
