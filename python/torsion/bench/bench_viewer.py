"""Cost of showing a simulation: one frame's update of the browser viewer.

Workloads (the issue's goal: update() <= 0.8 ms, so watching at 60 Hz costs < 5 % of real time):
  * 100 boxes sliding on the ground (100 moving bodies, one template);
  * the bundled quadruped standing (13 bodies, 17 visual shapes).
The world takes one step before every update, so every pose has changed (resting bodies would be
skipped); the step's own time, measured alone in the same run, is subtracted.

Engines, measured in the same run:
  * torsion: torsion.viewer.Viewer.update() with no page open (reads the poses, composes every
    shape's pose, queues one viser message per batch); wall time, and in the note the CPU time
    of every thread of the process during update() (on a loaded machine the wall time also holds
    the wait for viser's event-loop thread to be scheduled and hand back the GIL);
  * mujoco: mujoco.mjv_updateScene on the same scene (what MuJoCo's viewer does every frame
    before drawing: the geoms' poses into its mjvScene; no GL needed), 100 free boxes in MJCF and
    the quadruped compiled from the same URDF;
  * viser-per-body: the straightforward viser viewer, one scene node per body whose position and
    orientation are set every frame (what torsion's batching replaces).
"""

from __future__ import annotations

import time

import torsion
from torsion.bench._common import Result, optional_import, time_per_call_us

N_BOXES = 100


def _boxes_world():
    w = torsion.World()
    w.add_ground()
    for i in range(N_BOXES):
        b = w.add_box(0.2, 0.2, 0.2, 1.0)
        b.set_position([0.3 * (i % 10), 0.3 * (i // 10), 0.1])
        b.set_velocity([0.5, 0.2, 0.0], [0.0, 0.0, 1.0])
    w.integrate(10)
    return w


def _mujoco_boxes(mujoco):
    bodies = "".join(
        f'<body pos="{0.3 * (i % 10)} {0.3 * (i // 10)} 0.1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>'
        for i in range(N_BOXES))
    m = mujoco.MjModel.from_xml_string(
        f'<mujoco><worldbody><geom type="plane" size="10 10 0.1"/>{bodies}</worldbody></mujoco>')
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=10)
    return m, d


def _mujoco_update(mujoco, m, d):
    opt, pert, cam = mujoco.MjvOption(), mujoco.MjvPerturb(), mujoco.MjvCamera()
    scn = mujoco.MjvScene(m, maxgeom=10000)
    mujoco.mj_forward(m, d)
    cat = int(mujoco.mjtCatBit.mjCAT_ALL)
    return lambda: mujoco.mjv_updateScene(m, d, opt, pert, cam, cat, scn)


def _viser_per_body(viser, scene):
    """One viser frame per body, pose set every frame: the unbatched way."""
    server = viser.ViserServer(host="127.0.0.1", port=0, verbose=False)
    handles = [server.scene.add_frame(f"/b{i}", show_axes=False) for i in range(len(scene.bodies))]

    from torsion.viewer.scene import matrix_to_quat

    def update():
        p, r = scene.body_poses()
        q = matrix_to_quat(r)
        with server.atomic():
            for h, pi, qi in zip(handles, p, q):
                h.position = pi
                h.wxyz = qi

    return server, update


def _process_cpu_us(world, update, n: int) -> float:
    """CPU time of the whole process (the caller and viser's event-loop thread) per update, the
    world stepped before each: what update() costs without the waits for the GIL and the scheduler
    that a loaded machine adds to the wall time."""
    total = 0.0
    for _ in range(n):
        world.integrate(1)
        c0 = time.process_time()
        update()
        total += time.process_time() - c0
    return total / n * 1e6


def benchmarks(quick: bool) -> list[Result]:
    viser = optional_import("viser")
    if viser is None:
        return [Result("viewer update", "torsion", 0.0, "us/frame", higher_is_better=False,
                       note='viser not installed: pip install "torsion[viewer]"')]
    from torsion.demo import quadruped_world
    from torsion.viewer import Viewer

    mujoco = optional_import("mujoco")
    repeats, min_time = (3, 0.05) if quick else (5, 0.3)
    out = []
    world_q, _ = quadruped_world()
    world_q.integrate(300)
    for label, world in ((f"viewer update: {N_BOXES} boxes on the ground", _boxes_world()),
                         ("viewer update: quadruped standing", world_q)):
        v = Viewer(world, port=0, gui=False)

        def minus_step(update):
            both = time_per_call_us(lambda: (world.integrate(1), update()), repeats, min_time)
            step = time_per_call_us(lambda: world.integrate(1), repeats, min_time)
            return max(both - step, 0.0)

        try:
            t = minus_step(v.update)
            cpu = _process_cpu_us(world, v.update, 100 if quick else 500)
            out.append(Result(label, "torsion", t, "us/frame", higher_is_better=False,
                              note=f"{len(v.scene.batches)} batches; CPU of all threads {cpu:.0f} us",
                              extra={"goal_us": 800.0, "process_cpu_us": cpu}))
            server, naive = _viser_per_body(viser, v.scene)
            try:
                out.append(Result(label, "viser-per-body", minus_step(naive), "us/frame",
                                  higher_is_better=False, note="one viser node per body"))
            finally:
                server.stop()
        finally:
            v.close()
        if mujoco is not None:
            if label.startswith("viewer update: quadruped"):
                from torsion.bench.bench_articulated import mujoco_quadruped

                m, d = mujoco_quadruped(mujoco)
            else:
                m, d = _mujoco_boxes(mujoco)
            out.append(Result(label, "mujoco", time_per_call_us(_mujoco_update(mujoco, m, d), repeats, min_time),
                              "us/frame", higher_is_better=False, note="mjv_updateScene"))
    return out
