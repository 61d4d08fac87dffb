"""The demo behind ``python -m torsion demo``: real simulations, with what happened printed and
checked against the physics it should follow."""

from __future__ import annotations

import time
from typing import TextIO

import numpy as np

import torsion


def _projectile(out: TextIO) -> bool:
    world = torsion.World()
    world.set_time_step(1e-3)
    ball = world.add_sphere(0.05, 0.2)
    ball.set_name("ball")
    ball.set_position([0.0, 0.0, 1.0])
    ball.set_velocity([3.0, 0.0, 4.0], [0.0, 0.0, 0.0])
    world.integrate(800)  # 0.8 s
    t = world.get_world_time()
    x = ball.get_position()
    exact = np.array([3.0 * t, 0.0, 1.0 + 4.0 * t - 0.5 * 9.81 * t * t])
    err = np.linalg.norm(x - exact)
    out.write(
        f"projectile: thrown at (3, 0, 4) m/s from 1 m; after {t:.3f} s it is at "
        f"({x[0]:.4f}, {x[1]:.4f}, {x[2]:.4f}) m; the exact parabola says "
        f"({exact[0]:.4f}, {exact[1]:.4f}, {exact[2]:.4f}) m (difference {err * 1e3:.2f} mm, "
        f"first order in dt)\n"
    )
    return err < 9.81 * 1e-3 * t


def _tumbling(out: TextIO) -> bool:
    """The Dzhanibekov effect: spin about the intermediate principal axis is unstable."""
    world = torsion.World()
    world.set_gravity([0.0, 0.0, 0.0])
    handle = world.add_box(0.1, 0.6, 0.25, 1.0)
    handle.set_name("wing nut")
    inertia = np.diag(handle.get_inertia_matrix_b())
    mid = int(np.argsort(inertia)[1])
    w0 = np.full(3, 0.02)
    w0[mid] = 6.0
    handle.set_angular_velocity(w0)
    e0 = handle.get_kinetic_energy()
    l0 = handle.get_angular_momentum()
    flips, sign = 0, 1.0
    t0 = time.perf_counter()
    for _ in range(2000):  # 20 s
        world.integrate(10)
        wb = handle.get_rotation_matrix().T @ handle.get_angular_velocity()
        if np.sign(wb[mid]) != sign:
            flips += 1
            sign = np.sign(wb[mid])
    wall = time.perf_counter() - t0
    de = abs(handle.get_kinetic_energy() - e0) / e0
    dl = np.linalg.norm(handle.get_angular_momentum() - l0) / np.linalg.norm(l0)
    out.write(
        f"tumbling: a box spun at 6 rad/s about its intermediate axis flipped {flips} times in "
        f"20 s of torque-free flight (Dzhanibekov effect); kinetic energy changed by {de:.1e}, "
        f"angular momentum by {dl:.1e} (relative); 20 000 steps took {wall * 1e3:.1f} ms\n"
    )
    return flips >= 2 and de < 1e-8 and dl < 1e-4


def _camera(out: TextIO) -> bool:
    """A depth camera over a small scene of primitives; pictures are written when Pillow is there."""
    world = torsion.World()
    world.add_ground()
    rng = np.random.default_rng(1)
    for i in range(12):
        kind = i % 4
        if kind == 0:
            b = world.add_sphere(0.3, 1.0)
        elif kind == 1:
            b = world.add_box(0.5, 0.5, 0.5, 1.0)
        elif kind == 2:
            b = world.add_capsule(0.15, 0.5, 1.0)
        else:
            b = world.add_cylinder(0.25, 0.6, 1.0)
        b.set_position([rng.uniform(1.5, 6.0), rng.uniform(-2.0, 2.0), 0.35])
        b.set_orientation(rng.normal(size=4))
    a = np.deg2rad(20)
    rot = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])  # pitched down
    props = torsion.DepthCameraProperties(width=320, height=240, hfov=80.0, clip_far=12.0)
    t0 = time.perf_counter()
    frame = world.capture_depth_camera([0.0, 0.0, 1.2], rot, props)
    wall = time.perf_counter() - t0
    seen = sorted(set(np.unique(frame.segmentation)) - {-1})
    out.write(
        f"depth camera: a 320x240 frame of 12 primitives on the ground took {wall * 1e3:.1f} ms; "
        f"it sees {len(seen)} objects, nearest surface at {frame.depth.min():.2f} m\n"
    )
    try:
        import PIL  # noqa: F401
    except ImportError:
        out.write('  (pip install "torsion[images]" to have the demo save depth and segmentation pictures)\n')
        return len(seen) > 1
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.gettempdir()) / "torsion-demo"
    folder.mkdir(exist_ok=True)
    p1 = torsion.sensors.save_depth_png(frame.depth, folder / "depth.png")
    p2 = torsion.sensors.save_segmentation_png(frame.segmentation, folder / "segmentation.png")
    out.write(f"  pictures: {p1}\n            {p2}\n")
    return len(seen) > 1


def quadruped_world():
    """The demo's scene: the bundled quadruped 3 cm above the ground, holding its standing pose
    under the implicit PD (kp 100, kd 2). Returns (world, robot)."""
    world = torsion.World()
    world.set_time_step(1e-3)
    world.add_ground()
    robot = world.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    robot.set_name("quadruped")
    gc = robot.get_generalized_coordinate()
    gc[2] = 0.33  # feet 3 cm above the ground
    gc[7:] = torsion.robots.QUADRUPED_STAND
    robot.set_generalized_coordinate(gc)
    robot.set_pd_gains(np.full(18, 100.0), np.full(18, 2.0))
    robot.set_pd_target(gc, np.zeros(18))
    return world, robot


def _quadruped(out: TextIO) -> bool:
    """The bundled quadruped standing on the ground under the implicit PD, and a depth camera
    picture of it."""
    world, robot = quadruped_world()
    t0 = time.perf_counter()
    world.integrate(2000)  # drop and settle
    base0 = robot.get_generalized_coordinate()[:3].copy()
    world.integrate(3000)
    wall = time.perf_counter() - t0
    base = robot.get_generalized_coordinate()[:3]
    drift = np.linalg.norm(base - base0)
    contacts = robot.get_contacts()
    names = robot.get_body_names()
    weight = robot.get_total_mass() * 9.81
    fz = contacts["force"][:, 2]
    out.write(
        f"quadruped: dropped from 3 cm and settled for 2 s, it stands on {len(contacts)} contacts under PD (kp 100, kd 2); "
        f"base height {base[2]:.4f} m, drift over the last 3 s {drift * 1e3:.4f} mm; "
        f"5000 steps took {wall * 1e3:.0f} ms\n"
    )
    for name, f in zip((names[b] for b in contacts["local_body_index"]), contacts["force"]):
        out.write(f"  {name:8s} ground force ({f[0]:+7.3f}, {f[1]:+7.3f}, {f[2]:7.3f}) N\n")
    out.write(f"  sum of normal forces {fz.sum():.4f} N, weight {weight:.4f} N\n")
    ok = len(contacts) == 4 and drift < 1e-3 and abs(fz.sum() - weight) < 1e-3 * weight

    # a depth camera 1.2 m in front of the robot, looking back at it
    yaw = np.pi
    rot = np.array([[np.cos(yaw), -np.sin(yaw), 0.0], [np.sin(yaw), np.cos(yaw), 0.0], [0.0, 0.0, 1.0]])
    props = torsion.DepthCameraProperties(width=320, height=240, hfov=60.0, clip_far=4.0)
    frame = world.capture_depth_camera(base + [1.2, 0.0, 0.1], rot, props)
    robot_pixels = int((frame.segmentation == robot.get_index_in_world()).sum())
    out.write(f"  depth camera 1.2 m in front: the robot covers {robot_pixels} of {320 * 240} pixels\n")
    ok = ok and robot_pixels > 0
    try:
        import PIL  # noqa: F401
    except ImportError:
        out.write('  (pip install "torsion[images]" to have the demo save depth and segmentation pictures)\n')
        return ok
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.gettempdir()) / "torsion-demo"
    folder.mkdir(exist_ok=True)
    p1 = torsion.sensors.save_depth_png(frame.depth, folder / "quadruped_depth.png")
    p2 = torsion.sensors.save_segmentation_png(frame.segmentation, folder / "quadruped_segmentation.png")
    out.write(f"  pictures: {p1}\n            {p2}\n")
    return ok


def _trot_actions(t: float) -> np.ndarray:
    """An open-loop trot for torsion/Quadruped-v0's action space (offsets of 0.25 rad per unit
    from the standing pose): diagonal legs (FR+RL, FL+RR) in antiphase at 2 Hz; a leg bends its
    knee while its thigh swings forward, and pushes back with the knee straight."""
    a = np.zeros(12)
    for leg, phase in enumerate((0.0, np.pi, np.pi, 0.0)):  # FR, FL, RR, RL
        s = np.sin(2.0 * np.pi * 2.0 * t + phase)
        a[3 * leg + 1] = -s  # thigh
        a[3 * leg + 2] = -max(s, 0.0)  # calf: bend while swinging
    return a


def _walking_gif(out: TextIO) -> bool:
    """The quadruped of torsion/Quadruped-v0 trotting open loop for 3 s, filmed by the env's
    ray-cast camera and saved as an animated GIF (Pillow; skipped, with a note, without it)."""
    try:
        from torsion import envs
    except ImportError:
        out.write('walking quadruped: skipped (the environments need Gymnasium: pip install "torsion[gym]")\n')
        return True
    try:
        from PIL import Image
    except ImportError:
        Image = None
    env = envs.QuadrupedEnv(render_mode="rgb_array" if Image is not None else None, width=200, height=150)
    env.reset(seed=0)
    robot = env.world.get_object("robot")
    gc = robot.get_generalized_coordinate()
    gc[3:7] = [1.0, 0.0, 0.0, 0.0]  # facing +x
    gc[7:] = torsion.robots.QUADRUPED_STAND
    robot.set_state(gc, np.zeros(18))
    env.sim.read()
    t0 = time.perf_counter()
    frames, upright = [], True
    for k in range(150):  # 3 s at 50 Hz
        _, _, terminated, _, _ = env.step(_trot_actions(k * 0.02))
        upright = upright and not terminated
        if Image is not None and k % 3 == 0:
            frames.append(env.render())
    wall = time.perf_counter() - t0
    x = robot.get_generalized_coordinate()[:3]
    ok = upright and x[0] - gc[0] > 0.1
    out.write(f"walking quadruped: an open-loop trot under PD (torsion/Quadruped-v0) moved it "
              f"{x[0] - gc[0]:+.2f} m forward in 3 s, {'upright' if upright else 'FALLEN'}; "
              f"{150 * 4} physics steps{' and ' + str(len(frames)) + ' camera frames' if frames else ''} "
              f"took {wall * 1e3:.0f} ms\n")
    if Image is None:
        out.write('  (pip install "torsion[images]" to have the demo save an animated GIF of it)\n')
        return ok
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.gettempdir()) / "torsion-demo"
    folder.mkdir(exist_ok=True)
    path = folder / "quadruped_walk.gif"
    pictures = [Image.fromarray(f) for f in frames]
    pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=60, loop=0)
    out.write(f"  animation: {path}\n")
    return ok


def run(out: TextIO) -> int:
    out.write(f"torsion {torsion.__version__} demo\n")
    ok = _projectile(out)
    ok = _tumbling(out) and ok
    ok = _camera(out) and ok
    ok = _quadruped(out) and ok
    ok = _walking_gif(out) and ok
    out.write("all checks passed\n" if ok else "SOME CHECKS FAILED\n")
    return 0 if ok else 1
