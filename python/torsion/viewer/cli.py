"""``python -m torsion view PATH`` and ``python -m torsion demo --view`` (registered by
torsion/__main__.py through :func:`register`)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import numpy as np

import torsion


def register(sub) -> None:
    """Add the ``view`` subcommand and the demo's ``--view`` flag to the subparsers `sub`."""
    p = sub.add_parser("view", help="open a world XML or a URDF in the browser viewer")
    p.add_argument("path", help="a torsion world XML file or a URDF file")
    _common(p)
    p.set_defaults(func=view_main)
    demo = sub.choices.get("demo")
    if demo is not None:
        demo.add_argument("--view", action="store_true", help="show the demo's quadruped in the browser viewer")
        _common(demo)
        demo.set_defaults(func=demo_main)


def _common(p) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="TCP port (default 8080; 0 for any free port)")
    p.add_argument("--steps-per-frame", type=int, default=None, help="simulation steps per drawn frame")
    p.add_argument("--paused", action="store_true", help="start paused")
    p.add_argument("--duration", type=float, default=None, help="stop after this many seconds (default: until Ctrl-C)")


def _is_urdf(path: Path) -> bool:
    if path.suffix.lower() == ".urdf":
        return True
    with open(path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    head = re.sub(r"<\?.*?\?>|<!--.*?-->", "", head, flags=re.S)
    return re.match(r"\s*<robot\b", head) is not None


def place_on_ground(world, robot, clearance: float = 0.0) -> None:
    """Bring each 1-dof joint within its limits (a URDF's zero pose may lie outside them, e.g. a
    knee), lift a floating-base robot so its lowest shape (visual or collision) is `clearance`
    above z = 0, and hold that configuration under the PD (kp 100, kd 2 on every joint dof)."""
    from .scene import Scene, quat_to_matrix

    gc = robot.get_generalized_coordinate()
    joints = robot.get_joints()
    limits = robot.get_joint_limits()
    for j in joints:
        if j["type"] in ("revolute", "prismatic") and j["gv_size"] == 1:
            lo, hi = limits[j["gv_index"]]
            gc[j["gc_index"]] = min(max(gc[j["gc_index"]], lo), hi)
    robot.set_generalized_coordinate(gc)
    if joints and joints[0]["type"] == "floating":
        scene = Scene(world)
        lowest = np.inf
        for bt, (pos, quat) in zip(scene.batches, scene.batch_poses()):
            v = scene.templates[bt.template][0].astype(float)
            for p, q, s, b in zip(pos, quat, bt.scales, bt.body):
                if scene.bodies[b].object_id == robot.get_id():
                    lowest = min(lowest, float((p + (quat_to_matrix(q) @ (v * s).T).T)[:, 2].min()))
        if np.isfinite(lowest):
            gc[2] += clearance - lowest
            robot.set_generalized_coordinate(gc)
    dof = robot.get_dof()
    robot.set_pd_gains(np.full(dof, 100.0), np.full(dof, 2.0))
    robot.set_pd_target(gc, np.zeros(dof))


def load_for_viewing(path) -> "torsion.World":
    """A World from a torsion world XML file, or a URDF on a ground plane (floating bases set on
    it). ValueError naming the file for anything else."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    if _is_urdf(path):
        world = torsion.World()
        world.add_ground()
        robot = world.add_articulated_system(str(path))
        robot.set_name(path.stem)
        place_on_ground(world, robot)
        return world
    return torsion.World(str(path))


def _serve(world, args, follow=None) -> int:
    from .viewer import Viewer

    viewer = Viewer(world, host=args.host, port=args.port)
    try:
        if follow is not None:
            viewer.follow(follow)
        viewer.paused = bool(args.paused)
        if viewer._gui is not None:
            viewer._gui["pause"].value = viewer.paused
        print(f"torsion viewer: open {viewer.url} in a browser (Ctrl-C to stop)", flush=True)
        viewer.run(steps_per_frame=args.steps_per_frame)
        end = None if args.duration is None else time.monotonic() + args.duration
        try:
            while end is None or time.monotonic() < end:
                time.sleep(0.1)
                if viewer.error is not None:
                    raise viewer.error
        except KeyboardInterrupt:
            pass
    finally:
        viewer.close()
    return 0


def view_main(args) -> int:
    try:
        world = load_for_viewing(args.path)
    except (ValueError, RuntimeError) as exc:
        print(f"python -m torsion view: {exc}", file=sys.stderr)
        return 2
    return _serve(world, args)


def demo_main(args) -> int:
    from torsion import demo

    if not args.view:
        return demo.run(out=sys.stdout)
    world, robot = demo.quadruped_world()
    return _serve(world, args)
