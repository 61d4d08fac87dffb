"""A bin of boxes seen by a depth camera; the arm reaches above the top-most box, which is then
picked (removed) and the picture taken again.

    python examples/bin_picking_camera.py
    python examples/bin_picking_camera.py --steps 100 --out /tmp/bin   # also writes PNGs

Shows: a static scene, torsion.sensors.look_at for the camera pose, depth, point cloud and
segmentation by (object id, link), stable object ids across a removal, PNG pictures with a
colour map (Pillow: pip install "torsion[images]"), IK to a point found in the picture.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import torsion
from torsion import rotations as rot
from torsion.sensors import look_at, save_depth_png, save_segmentation_png, segmentation_color_map

BIN_CENTRE = np.array([0.55, 0.0])


def build_scene(world: torsion.World, n_boxes: int, seed: int):
    world.add_ground()
    # the bin: a floor and four walls, static
    parts = [((0.4, 0.4, 0.02), (0.0, 0.0, 0.01))]
    for sx, sy, dx, dy in ((0.02, 0.4, 0.19, 0.0), (0.02, 0.4, -0.19, 0.0),
                           (0.4, 0.02, 0.0, 0.19), (0.4, 0.02, 0.0, -0.19)):
        parts.append(((sx, sy, 0.15), (dx, dy, 0.075)))
    for size, (dx, dy, z) in parts:
        wall = world.add_box(*size, 1.0)
        wall.set_body_type(torsion.BodyType.STATIC)
        wall.set_position([BIN_CENTRE[0] + dx, BIN_CENTRE[1] + dy, z])
        wall.set_name("bin")
    rng = np.random.default_rng(seed)
    boxes = []
    for k in range(n_boxes):
        b = world.add_box(0.06, 0.08, 0.05, 0.2)
        xy = BIN_CENTRE + rng.uniform(-0.1, 0.1, 2)
        b.set_position([xy[0], xy[1], 0.08 + 0.07 * k])
        b.set_orientation(rot.rpy_to_quat([0.0, 0.0, rng.uniform(-np.pi, np.pi)]))
        b.set_name(f"box{k}")
        boxes.append(b)
    return boxes


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="settling steps of 2 ms")
    parser.add_argument("--out", type=Path, default=None, help="directory for depth/segmentation PNGs")
    args = parser.parse_args(argv)

    world = torsion.World()
    world.set_time_step(0.002)
    boxes = build_scene(world, n_boxes=6, seed=1)
    arm = world.add_articulated_system(torsion.robots.urdf_path("arm7"))
    arm.set_base_position([0.0, 0.0, 0.0])
    park = np.array([0.0, -0.5, 0.0, -1.8, 0.0, 0.9, 0.0])  # folded back, out of the picture
    arm.set_generalized_coordinate(park)
    arm.set_gravity_compensation(True)
    arm.set_joint_pd_gains(600.0, 50.0)
    arm.set_joint_pd_targets(park)
    world.integrate(args.steps)  # the boxes settle

    # a camera 1.2 m above the bin looking straight down (+x of the world is "up" in the image)
    pos, cam = look_at(eye=[BIN_CENTRE[0], BIN_CENTRE[1], 1.2], target=[BIN_CENTRE[0], BIN_CENTRE[1], 0.0],
                       up=[1.0, 0.0, 0.0])
    props = torsion.DepthCameraProperties(width=96, height=72, hfov=40.0, point_cloud=True)
    frame = world.capture_depth_camera(pos, cam, props)
    box_ids = {b.get_id(): b for b in boxes}
    on_box = np.isin(frame.object_id, list(box_ids))
    print(f"camera: {on_box.sum()} of {on_box.size} pixels see a box; objects seen "
          f"{sorted(segmentation_color_map(frame.object_id))}")
    # the top-most box: the box pixel nearest the camera
    depth = np.where(on_box, frame.depth, np.inf)
    r, c = np.unravel_index(np.argmin(depth), depth.shape)
    top = box_ids[int(frame.object_id[r, c])]
    points = frame.point_cloud[frame.object_id == top.get_id()]
    grasp = points.mean(axis=0)
    print(f"top-most box: '{top.get_name()}' (id {top.get_id()}), its visible surface centred at "
          f"({grasp[0]:.3f}, {grasp[1]:.3f}, {grasp[2]:.3f}) m; true centre {np.round(top.get_position(), 3)}")

    # reach 5 cm above it, tool pointing down
    ik = torsion.ik.Environment.from_articulated_system(arm, "tool")
    result = ik.solve(grasp + [0.0, 0.0, 0.05], rot.rpy_to_matrix([np.pi, 0.0, 0.0]))
    if result.success:
        ik.apply(arm, result.q)  # placed there (a controller would move it: see arm_ik_tracking.py)
    reach_error = float(np.linalg.norm(arm.get_frame_position("tool") - (grasp + [0.0, 0.0, 0.05])))
    print(f"arm IK above the box: success {result.success}, tool {reach_error * 1e3:.2f} mm from the target")

    # pick it: removed from the world. The other objects keep their ids (world indices change:
    # the last object takes the removed one's index), so every pixel that saw a box before still
    # names the same box; the pixels the picked box hid now show what lay under it
    top_id, top_name = top.get_id(), top.get_name()
    world.remove_object(top)
    arm.set_generalized_coordinate(park)
    after = world.capture_depth_camera(pos, cam, props)
    kept = all(np.all(after.object_id[frame.object_id == i] == i) for i in box_ids if i != top_id)
    print(f"after the pick: {int((after.object_id == top_id).sum())} pixels of the picked box; "
          f"the other boxes' pixels keep their ids: {kept}")

    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        save_depth_png(frame.depth, args.out / "depth.png")
        save_segmentation_png(frame.object_id, args.out / "segmentation.png", link=frame.link)
        print("wrote", args.out / "depth.png", "and", args.out / "segmentation.png")
    return {"picked": top_name, "reach_error": reach_error, "ik": bool(result.success), "kept": kept}


if __name__ == "__main__":
    out = main()
    raise SystemExit(0 if out["ik"] and out["reach_error"] < 0.01 and out["kept"] else 1)
