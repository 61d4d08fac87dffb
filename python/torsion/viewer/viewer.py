"""The browser viewer: a viser server drawing a torsion World (extra ``viewer``).

Every geometry batch of the :class:`~torsion.viewer.scene.Scene` becomes one viser batched mesh,
so ``update()`` sends one pose message per batch (a handful for a robot, one for 100 equal boxes)
rather than one per body. Static batches (ground, height maps) are sent once.
"""

from __future__ import annotations

import threading
import time
from typing import Optional

import numpy as np

import torsion

from .scene import Scene, matrix_to_quat

OVERLAYS = ("contacts", "body_frames", "joint_axes", "lidar", "depth_camera", "collision_shapes")


def _viser():
    try:
        import viser
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('torsion.viewer.Viewer needs viser: pip install "torsion[viewer]"') from exc
    return viser


class Viewer:
    """Serve a page that draws `world` (see docs/viewer.md).

    host: address to bind, 127.0.0.1 unless given; port: TCP port (0 picks a free one); a port
    in use raises OSError. The page is at :attr:`url`. ``update()`` sends the current poses;
    ``run()`` steps the world from a thread. ``close()`` stops the server (also on ``with``)."""

    def __init__(self, world, host: str = "127.0.0.1", port: int = 8080, *, gui: bool = True):
        if not isinstance(world, torsion.World):
            raise TypeError(f"world must be a torsion.World, got {type(world).__name__}")
        if not isinstance(host, str) or not host:
            raise TypeError(f"host must be a non-empty string, got {host!r}")
        if isinstance(port, bool) or not isinstance(port, (int, np.integer)) or not 0 <= int(port) <= 65535:
            raise ValueError(f"port must be an integer in [0, 65535] (0: any free port), got {port!r}")
        viser = _viser()
        self.world = world
        self.scene = Scene(world)
        self._server = viser.ViserServer(host=host, port=int(port), verbose=False)
        if int(port) != 0 and self._server.get_port() != int(port):
            # viser moves on to the next free port by itself; a user who asked for one gets it or an error
            self._server.stop()
            raise OSError(f"port {int(port)} on {host} is in use; pass another port, or port=0 for any free one")
        self.host = host
        self.port = int(self._server.get_port())
        self._closed = False
        self._lock = threading.RLock()  # guards the viewer's own state between run() and the GUI
        self._handles: dict = {}
        self._static_sent: set = set()
        self._overlay_on = {k: False for k in OVERLAYS}
        self._overlay_handles: dict = {}
        self._follow: Optional[int] = None
        self._follow_offset = np.array([-1.5, -1.5, 1.0])
        self._lidar = None
        self._camera = None
        self._camera_every = 10
        self._frame = 0
        self._checkpoint = world.capture_checkpoint()
        self._thread: Optional[threading.Thread] = None
        self._stop = threading.Event()
        self.paused = False
        self.time_scale = 1.0
        self._pending_steps = 0
        self._server.scene.set_up_direction("+z")
        # plain lights, no shadows and no environment map: cheap in software WebGL, true colours
        self._server.scene.configure_default_lights(enabled=True, cast_shadow=False)
        self._server.scene.configure_environment_map(hdri=None)
        self._server.scene.add_light_hemisphere("/light", intensity=1.0)
        self._gui = None
        self.error: Optional[BaseException] = None  # what ended the run() thread, if anything
        try:
            self._build_scene()
            if gui:
                self._build_gui()
            self.update()
        except BaseException:
            self._closed = True
            self._server.stop()
            raise

    # ---- life -------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def close(self) -> None:
        """Stop the run thread (if any) and the server. Idempotent."""
        if self._closed:
            return
        self.stop()
        self._closed = True
        self._server.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _check_open(self):
        if self._closed:
            raise RuntimeError("this Viewer is closed")

    # ---- scene ------------------------------------------------------------------------------

    def _build_scene(self) -> None:
        for h in self._handles.values():
            h.remove()
        self._handles = {}
        self._static_sent = set()
        self._last_sent = {}
        poses = self.scene.batch_poses()
        for i, (bt, (pos, quat)) in enumerate(zip(self.scene.batches, poses)):
            v, f = self.scene.templates[bt.template]
            name = f"/{bt.layer}/{i}_{'_'.join(str(k) for k in bt.template)}".replace(".", "_").replace(" ", "_")
            collision = bt.layer == "collision"
            h = self._server.scene.add_batched_meshes_simple(
                name, v, f, batched_wxyzs=quat, batched_positions=pos, batched_scales=bt.scales,
                batched_colors=bt.colours, wireframe=collision, opacity=bt.opacity if bt.opacity < 1 else None,
                flat_shading=(not collision) and bt.template[0] in ("box", "heightmap", "ground"), lod="off",
                cast_shadow=False, receive_shadow=False, side="double" if bt.template[0] == "ground" else "front",
                visible=(not collision) or self._overlay_on["collision_shapes"],
            )
            self._handles[bt.key] = h
            if self._is_static(bt):
                self._static_sent.add(bt.key)

    def _is_static(self, bt) -> bool:
        kinds = {self.scene.objects[self.scene.bodies[b].object_id].kind for b in bt.body}
        return kinds <= {"ground", "heightmap"}

    def _sync_structure(self) -> None:
        """Rebuild the drawn batches and GUI lists when objects were added or removed. A followed
        body keeps being followed while it exists."""
        followed = None if self._follow is None else self.scene.bodies[self._follow]
        added, removed = self.scene.sync()
        if added or removed:
            self._build_scene()
            self._follow = None
            if followed is not None:
                for i, b in enumerate(self.scene.bodies):
                    if (b.object_id, b.local_index) == (followed.object_id, followed.local_index):
                        self._follow = i
            if self._gui is not None:
                self._refresh_gui_lists()

    def update(self) -> None:
        """Send the current poses (and overlays that are on) to every open page. Objects added or
        removed since the last call appear or disappear. Call it from the thread that steps the
        world (or hold world.lock() around it)."""
        self._check_open()
        with self._lock:
            self._sync_structure()
            try:
                poses = self.scene.body_poses()
            except torsion.RemovedObjectError:
                # removed by another thread between the sync and the read (no world.lock held)
                self._sync_structure()
                poses = self.scene.body_poses()
            skip = set(self._static_sent)
            if not self._overlay_on["collision_shapes"]:
                skip |= {bt.key for bt in self.scene.batches if bt.layer == "collision"}
            batch = self.scene.batch_poses(poses, skip)
            # only batches that moved are sent (resting bodies cost nothing); viser keeps float32
            moved = []
            for bt, pq in zip(self.scene.batches, batch):
                if pq is None:
                    continue
                pos, quat = pq[0].astype(np.float32), pq[1].astype(np.float32)
                last = self._last_sent.get(bt.key)
                if last is None or not (np.array_equal(last[0], pos) and np.array_equal(last[1], quat)):
                    moved.append((bt.key, pos, quat))
            overlays = any(self._overlay_on[k] for k in OVERLAYS if k != "collision_shapes")
            gui_time = self._gui is not None and self._gui["time"].value != f"{self.world.get_world_time():.3f} s"
            if not (moved or overlays or gui_time or self._follow is not None):
                self._frame += 1
                return
            with self._server.atomic():
                for key, pos, quat in moved:
                    h = self._handles[key]
                    h.batched_positions = pos
                    h.batched_wxyzs = quat
                    self._last_sent[key] = (pos, quat)
                self._update_overlays(poses)
                self._update_follow(poses)
                if self._gui is not None:
                    self._gui["time"].value = f"{self.world.get_world_time():.3f} s"
            self._frame += 1

    # ---- overlays ---------------------------------------------------------------------------

    def set_overlay(self, name: str, on: bool = True) -> None:
        """Show or hide an overlay: one of OVERLAYS (contacts, body_frames, joint_axes, lidar,
        depth_camera, collision_shapes)."""
        if name not in OVERLAYS:
            raise ValueError(f"unknown overlay {name!r}; expected one of {', '.join(OVERLAYS)}")
        with self._lock:
            self._overlay_on[name] = bool(on)
            if name == "collision_shapes":
                for bt in self.scene.batches:
                    if bt.layer == "collision":
                        self._handles[bt.key].visible = bool(on)
                        self._last_sent.pop(bt.key, None)  # its poses were not sent while hidden
            elif not on:
                for key in [k for k in self._overlay_handles if k.startswith(name)]:
                    self._overlay_handles.pop(key).remove()
            if self._gui is not None and self._gui["overlay"][name].value != bool(on):
                self._gui["overlay"][name].value = bool(on)

    def overlays(self) -> dict:
        """Which overlays are on."""
        return dict(self._overlay_on)

    def set_lidar(self, position, rotation=None, *, body=None, yaw_count: int = 180, pitch_count: int = 8,
                  pitch_min: float = -0.26, pitch_max: float = 0.26, range_min: float = 0.05, range_max: float = 10.0) -> None:
        """Scan a lidar every update while the "lidar" overlay is on (World.ray_test_lidar): a full
        turn of yaw_count rays at pitch_count pitches in [pitch_min, pitch_max] (rad). position and
        rotation (3, 3) are in the world, or in `body`'s frame when a body is named."""
        p = np.asarray(position, dtype=float)
        r = np.eye(3) if rotation is None else np.asarray(rotation, dtype=float)
        if p.shape != (3,) or not np.isfinite(p).all():
            raise ValueError(f"position must be 3 finite numbers, got {position!r}")
        if r.shape != (3, 3) or not np.isfinite(r).all():
            raise ValueError("rotation must be a finite (3, 3) matrix")
        if int(yaw_count) < 1 or int(pitch_count) < 1:
            raise ValueError("yaw_count and pitch_count must be >= 1")
        if not 0 <= range_min < range_max:
            raise ValueError(f"need 0 <= range_min < range_max, got {range_min}, {range_max}")
        with self._lock:
            self._sync_structure()
            b = None if body is None else self.scene.body_index(body)
        self._lidar = dict(p=p, r=r, body=b, yaw_count=int(yaw_count), pitch_count=int(pitch_count),
                           pitch_min=float(pitch_min), pitch_max=float(pitch_max), range_min=float(range_min), range_max=float(range_max))

    def set_depth_camera(self, position, rotation, properties=None, *, body=None, every: int = 10) -> None:
        """Capture torsion's ray-cast depth camera every `every` updates while the "depth_camera"
        overlay is on, and draw its frustum with the depth image in it. position/rotation (camera
        to world, +X forward) in the world or in `body`'s frame."""
        p = np.asarray(position, dtype=float)
        r = np.asarray(rotation, dtype=float)
        if p.shape != (3,) or not np.isfinite(p).all():
            raise ValueError(f"position must be 3 finite numbers, got {position!r}")
        if r.shape != (3, 3) or not np.isfinite(r).all():
            raise ValueError("rotation must be a finite (3, 3) matrix")
        if int(every) < 1:
            raise ValueError(f"every must be >= 1, got {every}")
        props = properties or torsion.DepthCameraProperties(width=160, height=120, hfov=70.0, clip_far=8.0)
        with self._lock:
            self._sync_structure()
            b = None if body is None else self.scene.body_index(body)
        self._camera = dict(p=p, r=r, props=props, body=b)
        self._camera_every = int(every)

    def _sensor_pose(self, cfg, poses):
        if cfg["body"] is None:
            return cfg["p"], cfg["r"]
        bp, br = poses[0][cfg["body"]], poses[1][cfg["body"]]
        return bp + br @ cfg["p"], br @ cfg["r"]

    def _put(self, key, make):
        old = self._overlay_handles.pop(key, None)
        if old is not None:
            old.remove()
        self._overlay_handles[key] = make()

    def _update_overlays(self, poses) -> None:
        sc = self._server.scene
        on = self._overlay_on
        p, r = poses
        if on["body_frames"] and len(p):
            q = matrix_to_quat(r)
            h = self._overlay_handles.get("body_frames")
            if h is None or len(h.batched_positions) != len(p):
                self._put("body_frames", lambda: sc.add_batched_axes("/overlay/body_frames", batched_wxyzs=q, batched_positions=p,
                                                                      axes_length=0.12, axes_radius=0.004))
            else:
                h.batched_positions, h.batched_wxyzs = p, q
        if on["joint_axes"]:
            segs = []
            for e in self.scene.objects.values():
                for j in e.joints:
                    a = r[j["body"]] @ j["axis"]
                    segs.append([p[j["body"]] - 0.08 * a, p[j["body"]] + 0.08 * a])
            if segs:
                self._put("joint_axes", lambda: sc.add_line_segments("/overlay/joint_axes", np.array(segs), colors=(255, 220, 0), thickness=4.0, thickness_units="screen"))
        if on["contacts"]:
            cp = self.world.get_contact_problem()
            if len(cp):
                pts = cp["position"]
                dt = self.world.get_time_step()
                # the impulse is in the contact frame (z = normal): its normal part over dt is the normal force
                fn = cp["impulse"][:, 2] / dt
                ends = pts + cp["normal"] * (0.002 * fn)[:, None]
                self._put("contacts_pts", lambda: sc.add_point_cloud("/overlay/contacts/points", pts, colors=(255, 30, 30), point_size=0.02, point_shape="circle"))
                self._put("contacts_forces", lambda: sc.add_line_segments("/overlay/contacts/forces", np.stack([pts, ends], 1), colors=(255, 60, 60), thickness=3.0, thickness_units="screen"))
            else:
                for k in ("contacts_pts", "contacts_forces"):
                    if k in self._overlay_handles:
                        self._overlay_handles.pop(k).remove()
        if on["lidar"] and self._lidar is not None:
            c = self._lidar
            lp, lr = self._sensor_pose(c, poses)
            pc = max(c["pitch_count"] - 1, 1)
            pts = self.world.ray_test_lidar(lr, lp, 0.0, 2 * np.pi / c["yaw_count"], c["yaw_count"], c["pitch_min"],
                                            (c["pitch_max"] - c["pitch_min"]) / pc, c["pitch_count"], c["range_min"], c["range_max"])
            pts = np.asarray(pts, dtype=float).reshape(-1, 3)
            pts = lp + pts @ lr.T
            pts = pts[np.isfinite(pts).all(axis=1)]
            self._put("lidar", lambda: sc.add_point_cloud("/overlay/lidar", pts.astype(np.float32), colors=(40, 220, 90), point_size=0.02))
        if on["depth_camera"] and self._camera is not None and (self._frame % self._camera_every == 0 or "depth_camera" not in self._overlay_handles):
            c = self._camera
            cpos, crot = self._sensor_pose(c, poses)
            props = c["props"]
            frame = self.world.capture_depth_camera(cpos, crot, props)
            img = torsion.sensors.depth_to_image(frame.depth, near=props.clip_near, far=props.clip_far)
            # viser's camera looks along its +Z with +Y down; torsion's along +X with +Z up
            to_viser = crot @ np.array([[0.0, 0.0, 1.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]])
            fov_v = 2 * np.arctan(np.tan(np.deg2rad(props.hfov) / 2) * props.height / props.width)
            self._put("depth_camera", lambda: sc.add_camera_frustum(
                "/overlay/depth_camera", fov=float(fov_v), aspect=props.width / props.height, scale=0.3,
                image=np.repeat(img[:, :, None], 3, axis=2), wxyz=matrix_to_quat(to_viser), position=cpos, color=(80, 160, 255)))
            self.last_depth_frame = frame

    # ---- camera -----------------------------------------------------------------------------

    def follow(self, body) -> None:
        """Keep every page's camera looking at a body (scene name such as "quadruped/trunk", an
        object name or handle); None stops following. ValueError for an unknown body."""
        with self._lock:
            self._sync_structure()
            self._follow = None if body is None else self.scene.body_index(body)
            if self._gui is not None:
                want = "(none)" if self._follow is None else self.scene.bodies[self._follow].name
                if self._gui["follow"].value != want:
                    self._gui["follow"].value = want

    def _update_follow(self, poses) -> None:
        if self._follow is None:
            return
        target = poses[0][self._follow]
        for client in self._server.get_clients().values():
            client.camera.look_at = target
            client.camera.position = target + self._follow_offset

    def set_camera(self, position, look_at, vfov: Optional[float] = None) -> None:
        """Place the camera of every page, and of pages opened later: position, the point looked
        at, and optionally the vertical field of view (degrees)."""
        pos = np.asarray(position, dtype=float)
        at = np.asarray(look_at, dtype=float)
        if pos.shape != (3,) or at.shape != (3,) or not (np.isfinite(pos).all() and np.isfinite(at).all()):
            raise ValueError("position and look_at must be 3 finite numbers each")
        if vfov is not None and not (np.isfinite(vfov) and 0 < vfov < 180):
            raise ValueError(f"vfov must be in (0, 180) degrees, got {vfov}")
        self._server.initial_camera.position = pos
        self._server.initial_camera.look_at = at
        self._server.initial_camera.up = (0.0, 0.0, 1.0)
        if vfov is not None:
            self._server.initial_camera.fov = float(np.deg2rad(vfov))
        for client in self._server.get_clients().values():
            client.camera.position = pos
            client.camera.look_at = at
            client.camera.up_direction = (0.0, 0.0, 1.0)
            if vfov is not None:
                client.camera.fov = float(np.deg2rad(vfov))

    # ---- controls ---------------------------------------------------------------------------

    def step(self, n: int = 1) -> None:
        """Advance the world n steps under world.lock() and update the pages."""
        self._check_open()
        if int(n) < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        with self.world.lock():
            self.world.integrate(int(n))
            self.update()

    def reset(self) -> None:
        """Restore the checkpoint taken when the viewer was made (RuntimeError if objects were added
        or removed since: the checkpoint no longer fits the world)."""
        self._check_open()
        with self.world.lock():
            if self.world.get_topology_fingerprint() != self._checkpoint.get_topology_fingerprint():
                raise RuntimeError("cannot reset: objects were added or removed since the viewer took its checkpoint")
            self.world.restore_checkpoint(self._checkpoint)
            self.update()

    def set_joint_target(self, robot, joint: str, value: float) -> None:
        """Set one joint's PD position target (what the GUI sliders do)."""
        value = float(value)
        if not np.isfinite(value):
            raise ValueError(f"value must be finite, got {value}")
        entry = self.scene.objects.get(robot.get_id()) if isinstance(robot, torsion.Object) else \
            next((e for e in self.scene.objects.values() if e.name == robot), None)
        if entry is None or entry.kind != "articulated_system":
            raise ValueError(f"{robot!r} is not a robot of the viewed world")
        j = next((j for j in entry.joints if j["name"] == joint), None)
        if j is None:
            raise ValueError(f"robot {entry.name!r} has no movable joint {joint!r}; joints: {', '.join(x['name'] for x in entry.joints)}")
        obj = self.world.get_object_by_id(entry.object_id)
        with self.world.lock():
            q, v = obj.get_pd_target()
            q[j["gc_index"]] = value
            obj.set_pd_target(q, v)

    def run(self, steps_per_frame: Optional[int] = None, *, fps: float = 60.0, realtime: bool = True, block: bool = False):
        """Step the world from a background thread and update the pages at `fps`: each frame takes
        world.lock(), integrates steps_per_frame steps (default: one frame of simulated time,
        1 / fps / time_step) unless paused, sends the poses and releases the lock. With realtime
        the thread sleeps so simulated time runs at time_scale times the wall clock (as fast as
        it can when the simulation is slower); otherwise it never sleeps. block=True waits until
        stop() or Ctrl-C. Returns the thread."""
        self._check_open()
        if not (np.isfinite(fps) and fps > 0):
            raise ValueError(f"fps must be > 0, got {fps}")
        dt = self.world.get_time_step()
        if steps_per_frame is None:
            steps_per_frame = max(1, int(round(1.0 / (fps * dt))))
        if isinstance(steps_per_frame, bool) or int(steps_per_frame) != steps_per_frame or int(steps_per_frame) < 1:
            raise ValueError(f"steps_per_frame must be an integer >= 1, got {steps_per_frame!r}")
        if self._thread is not None and self._thread.is_alive():
            raise RuntimeError("the viewer is already running; call stop() first")
        spf = int(steps_per_frame)
        self._stop.clear()
        self.error = None

        def loop():
            next_t = time.perf_counter()
            try:
                while not self._stop.is_set():
                    with self.world.lock():
                        n = self._pending_steps if self.paused else spf
                        self._pending_steps = 0
                        if n:
                            self.world.integrate(n)
                        self.update()
                    frame_wall = spf * dt / max(self.time_scale, 1e-6)
                    if realtime:
                        next_t += frame_wall
                        delay = next_t - time.perf_counter()
                        if delay > 0:
                            self._stop.wait(delay)
                        else:
                            next_t = time.perf_counter()  # behind: do not try to catch up
                    elif self.paused:
                        self._stop.wait(1.0 / fps)
            except BaseException as exc:  # the thread ends and keeps the reason for the caller
                self.error = exc

        self._thread = threading.Thread(target=loop, name="torsion-viewer-run", daemon=True)
        self._thread.start()
        if block:
            try:
                while self._thread.is_alive():
                    self._thread.join(0.2)
            except KeyboardInterrupt:
                pass
            finally:
                self.stop()
        return self._thread

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the run() thread and wait for it (at most timeout seconds)."""
        self._stop.set()
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout)
            if t.is_alive():
                raise RuntimeError(f"the viewer's run thread did not stop within {timeout} s")
        self._thread = None

    # ---- GUI --------------------------------------------------------------------------------

    def _build_gui(self) -> None:
        gui = self._server.gui
        g: dict = {}
        with gui.add_folder("Simulation"):
            g["time"] = gui.add_text("time", initial_value="0.000 s", disabled=True)
            g["pause"] = gui.add_checkbox("pause", initial_value=False)
            g["step"] = gui.add_button("single step")
            g["reset"] = gui.add_button("reset to start")
            g["scale"] = gui.add_slider("time scale", min=0.1, max=10.0, step=0.1, initial_value=1.0)
            g["follow"] = gui.add_dropdown("follow", options=["(none)"])
        g["overlay"] = {}
        with gui.add_folder("Overlays"):
            for name in OVERLAYS:
                g["overlay"][name] = gui.add_checkbox(name.replace("_", " "), initial_value=False)
        g["joints_folder"] = gui.add_folder("Joints")
        g["joint_sliders"] = []
        self._gui = g

        @g["pause"].on_update
        def _(_ev):
            self.paused = bool(g["pause"].value)

        @g["step"].on_click
        def _(_ev):
            if self._thread is not None and self._thread.is_alive():
                self._pending_steps += 1
            else:
                self.step(1)

        @g["reset"].on_click
        def _(_ev):
            try:
                self.reset()
            except RuntimeError as exc:
                for client in self._server.get_clients().values():
                    client.add_notification("reset failed", str(exc), color="red")

        @g["scale"].on_update
        def _(_ev):
            self.time_scale = float(g["scale"].value)

        @g["follow"].on_update
        def _(_ev):
            v = g["follow"].value
            self._follow = None if v == "(none)" else self.scene.body_index(v)

        for name, cb in g["overlay"].items():
            cb.on_update(lambda _ev, name=name, cb=cb: self.set_overlay(name, cb.value))
        self._refresh_gui_lists()

    def _refresh_gui_lists(self) -> None:
        g = self._gui
        names = ["(none)"] + [b.name for b in self.scene.bodies]
        g["follow"].options = names
        for s in g["joint_sliders"]:
            s.remove()
        g["joint_sliders"] = []
        with g["joints_folder"]:
            for e in self.scene.objects.values():
                if not e.joints:
                    continue
                obj = self.world.get_object_by_id(e.object_id)
                q_ref = obj.get_pd_target()[0]
                for j in e.joints:
                    lo = j["lower"] if np.isfinite(j["lower"]) else -np.pi
                    hi = j["upper"] if np.isfinite(j["upper"]) else np.pi
                    init = float(np.clip(q_ref[j["gc_index"]], lo, hi))
                    s = self._server.gui.add_slider(f"{e.name}/{j['name']}", min=float(lo), max=float(hi),
                                                    step=float((hi - lo) / 200), initial_value=init)
                    s.on_update(lambda _ev, e=e, j=j, s=s: self.set_joint_target(e.name, j["name"], s.value))
                    g["joint_sliders"].append(s)
