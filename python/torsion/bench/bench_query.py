"""Ray casting: 10k rays against 100 primitives plus a ground plane, and a 640x480 depth frame.

The scene: 100 primitives (spheres, boxes, capsules, cylinders, 25 of each) at random poses over
a 10 m x 10 m area, a ground plane, and a sensor 3 m up casting 10 000 rays from one point toward
random points of the area (MuJoCo's mj_multiRay takes one origin). Every engine gets the same
geometry. torsion and PyBullet run on 1 and 2 threads; mj_multiRay is single-threaded.

The MuJoCo call is set up to do what torsion's does: no geom group excluded (geomgroup None, as
torsion's collision_mask -1), static geoms included (flg_static 1: every geom here belongs to the
world body, and torsion's ray tests see every body), no body excluded (bodyexclude -1, as torsion's
default ignore indices), cutoff 10 m (torsion's lengths), and the surface normals asked for (normal
array given), since torsion returns them. torsion is given the start of every ray as an (N, 3)
array, checks its input and returns fresh arrays (hit, distance, position, normal, object and local
index) on every call; mj_multiRay writes into arrays allocated once. The note reports on how many
rays both find the same geom at the same distance (1e-9 m).
"""

from __future__ import annotations

import numpy as np

import torsion
from torsion.bench._common import Result, best_rate, optional_import
from torsion.bench.bench_articulated import interleaved_us

N_RAYS = 10_000
N_PRIMS = 100
SENSOR = np.array([0.0, 0.0, 3.0])


def scene(seed=0):
    rng = np.random.default_rng(seed)
    prims = []
    for i in range(N_PRIMS):
        kind = ("sphere", "box", "capsule", "cylinder")[i % 4]
        pos = np.r_[rng.uniform(-5, 5, 2), rng.uniform(0.2, 1.5)]
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        if kind == "sphere":
            size = (rng.uniform(0.1, 0.4),)
        elif kind == "box":
            size = tuple(rng.uniform(0.1, 0.6, 3))  # full lengths
        else:
            size = (rng.uniform(0.05, 0.25), rng.uniform(0.2, 0.8))  # radius, full length
        prims.append((kind, pos, q, size))
    targets = np.c_[rng.uniform(-5, 5, (N_RAYS, 2)), np.zeros(N_RAYS)]
    dirs = targets - SENSOR
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    return prims, dirs


def torsion_world(prims):
    w = torsion.World()
    w.add_ground()
    for kind, pos, q, size in prims:
        if kind == "sphere":
            b = w.add_sphere(size[0], 1.0)
        elif kind == "box":
            b = w.add_box(*size, 1.0)
        elif kind == "capsule":
            b = w.add_capsule(size[0], size[1], 1.0)
        else:
            b = w.add_cylinder(size[0], size[1], 1.0)
        b.set_position(pos)
        b.set_orientation(q)
    return w


def mujoco_model(mujoco, prims):
    geoms = []
    for kind, pos, q, size in prims:
        p = " ".join(map(str, pos))
        qs = " ".join(map(str, q))
        if kind == "sphere":
            s = f"{size[0]}"
        elif kind == "box":
            s = " ".join(str(v / 2) for v in size)
        else:
            s = f"{size[0]} {size[1] / 2}"
        geoms.append(f'<geom type="{kind}" pos="{p}" quat="{qs}" size="{s}"/>')
    xml = f"""<mujoco><worldbody><geom type="plane" size="0 0 1"/>{"".join(geoms)}</worldbody></mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return model, data


def pybullet_world(pybullet, prims):
    c = pybullet.connect(pybullet.DIRECT)
    plane = pybullet.createCollisionShape(pybullet.GEOM_PLANE, physicsClientId=c)
    pybullet.createMultiBody(0, plane, physicsClientId=c)
    for kind, pos, q, size in prims:
        if kind == "sphere":
            s = pybullet.createCollisionShape(pybullet.GEOM_SPHERE, radius=size[0], physicsClientId=c)
        elif kind == "box":
            s = pybullet.createCollisionShape(pybullet.GEOM_BOX, halfExtents=[v / 2 for v in size], physicsClientId=c)
        elif kind == "capsule":
            s = pybullet.createCollisionShape(pybullet.GEOM_CAPSULE, radius=size[0], height=size[1], physicsClientId=c)
        else:
            s = pybullet.createCollisionShape(pybullet.GEOM_CYLINDER, radius=size[0], height=size[1], physicsClientId=c)
        pybullet.createMultiBody(0, s, basePosition=pos.tolist(), baseOrientation=[q[1], q[2], q[3], q[0]], physicsClientId=c)
    return c


def benchmarks(quick: bool) -> list[Result]:
    results = []
    min_time = 0.05 if quick else 0.3
    prims, dirs = scene()
    name = f"{N_RAYS // 1000}k rays vs {N_PRIMS} primitives + ground"
    w = torsion_world(prims)
    starts = np.tile(SENSOR, (N_RAYS, 1))
    lengths = np.full(N_RAYS, 10.0)
    ours = w.ray_test_batch(starts, dirs, lengths, num_threads=1)
    # torsion on 1 and 2 threads and mj_multiRay timed in alternating rounds, the best round of
    # each kept (bench_articulated's interleaved_us): on a shared machine, load that comes and goes
    # falls on every engine alike. A round's time is the median of its calls: a call that lost
    # its core for a time slice (several ms, one call in ten at load 10) says nothing of either
    # engine
    fns = {t: (lambda t=t: w.ray_test_batch(starts, dirs, lengths, num_threads=t)) for t in (1, 2)}
    mujoco = optional_import("mujoco")
    note = ""
    if mujoco is not None:
        model, data = mujoco_model(mujoco, prims)
        geomid = np.zeros(N_RAYS, dtype=np.int32)
        dist = np.zeros(N_RAYS)
        normal = np.zeros(3 * N_RAYS)
        vec = np.ascontiguousarray(dirs.ravel())

        def mj():
            mujoco.mj_multiRay(model, data, SENSOR, vec, None, 1, -1, geomid, dist, normal, N_RAYS, 10.0)

        mj()
        # the ground is geom 0 and object 0, the primitives follow in the same order in both
        same_geom = np.where(geomid >= 0, geomid, -1) == ours.object_index
        same_dist = np.abs(np.where(geomid >= 0, dist, np.inf) - ours.distance) < 1e-9
        agree = np.mean(same_geom & (same_dist | ~ours.hit))
        # mj_multiRay has no threads: on both rows the peer is the same single-threaded call
        note = f"mj_multiRay with normals, 1 thread; same geom and distance on {agree:.1%} of rays"
        fns["mujoco"] = mj
    best_us = interleaved_us(fns, rounds=3 if quick else 10, min_time=min_time / 6, median=True)
    for threads in (1, 2):
        results.append(Result(name + f", {threads} thread(s)", "torsion", N_RAYS * 1e6 / best_us[threads], "rays/s"))
        if mujoco is not None:
            results.append(Result(name + f", {threads} thread(s)", "mujoco", N_RAYS * 1e6 / best_us["mujoco"], "rays/s", note=note))
    pybullet = optional_import("pybullet")
    if pybullet is not None:
        c = pybullet_world(pybullet, prims)
        froms = starts.tolist()
        tos = (starts + 10.0 * dirs).tolist()
        for threads in (1, 2):
            def pb():
                pybullet.rayTestBatch(froms, tos, numThreads=threads, physicsClientId=c)

            rate = best_rate(pb, N_RAYS, min_time=min_time)
            results.append(Result(name + f", {threads} thread(s)", "pybullet", rate, "rays/s", note="rayTestBatch"))
        pybullet.disconnect(c)

    # a 640 x 480 depth frame of the same scene, camera 2 m up looking down 30 degrees
    props = torsion.DepthCameraProperties(width=640, height=480, hfov=90.0, clip_far=20.0)
    a = np.deg2rad(30)
    rot = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    for threads in (1, 2):
        rate = best_rate(lambda: w.capture_depth_camera([-6.0, 0, 2.0], rot, props, num_threads=threads), 1, repeats=3, min_time=min_time)
        results.append(Result(f"640x480 depth frame, {threads} thread(s)", "torsion", rate, "frames/s"))
    if pybullet is not None:
        # the same frame from PyBullet's CPU rasteriser (depth, segmentation and colour at once;
        # single-threaded): same pose, field of view (vertical from the 90 degree horizontal one)
        # and clip planes
        c = pybullet_world(pybullet, prims)
        eye = [-6.0, 0.0, 2.0]
        target = (np.array(eye) + rot[:, 0]).tolist()
        view = pybullet.computeViewMatrix(eye, target, rot[:, 2].tolist())
        vfov = float(np.degrees(2 * np.arctan(np.tan(np.radians(45.0)) * 480 / 640)))
        proj = pybullet.computeProjectionMatrixFOV(vfov, 640 / 480, props.clip_near, props.clip_far)

        def pb_frame():
            pybullet.getCameraImage(640, 480, view, proj, renderer=pybullet.ER_TINY_RENDERER, physicsClientId=c)

        rate = best_rate(pb_frame, 1, repeats=3, min_time=min_time)
        for threads in (1, 2):
            results.append(Result(f"640x480 depth frame, {threads} thread(s)", "pybullet", rate, "frames/s",
                                  note="getCameraImage, ER_TINY_RENDERER (rasteriser, 1 thread)"))
        pybullet.disconnect(c)
    return results
