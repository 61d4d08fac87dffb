"""State hashes of the test and benchmark scenes: a guard for changes that must not change results.

    python tools/state_hashes.py [--out FILE] [--compare FILE] [--only NAME ...] [--profile]

Builds every scene the tests and benchmarks use that is cheap to reach (tests/state/scenes.py,
the benchmark builders of torsion.bench or benchmarks/, the bundled robots standing, walking and
falling, piles of boxes, meshes and compounds, a heightmap, sleeping on and off, ERP on, the
solver's options, a checkpoint restored mid-run), steps each a few hundred steps and prints one
line per scene:

    <scene name> <World.state_hash()> <digest of the last step's contacts and solver diagnostics>

state_hash covers everything a checkpoint holds (bodies, systems, warm start, noise stream,
time); the second column adds what the state alone does not see (contact impulses, the solver's
sweep counts). Equal lines before and after a change mean the change left every result bitwise
the same. The hashes are only promised within one build (compiler, flags, CPU): compare a run of
the changed build with a run of the untouched build on the same machine, not with numbers kept
from elsewhere. --compare FILE exits with status 1 and names the scenes that differ.

Run from the repository root with the package on the path:
    PYTHONPATH=python python tools/state_hashes.py --out /tmp/before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchmarks/ and tests/ as packages

import torsion  # noqa: E402
from torsion._core import CompoundObjectChild, ObjectType  # noqa: E402

SCENES = {}


def bench(name: str):
    """A benchmark module: torsion.bench.<name> (the package's benchmarks) or, in a checkout that
    keeps them at the top, benchmarks.<name>."""
    try:
        return importlib.import_module(f"torsion.bench.{name}")
    except ModuleNotFoundError:
        return importlib.import_module(f"benchmarks.{name}")


def scene(steps: int):
    """Register a scene builder: it returns a World (or (World, per-step callback)); the harness
    steps it `steps` times."""

    def register(fn):
        SCENES[fn.__name__] = (fn, steps)
        return fn

    return register


# --- tests/state/scenes.py ----------------------------------------------------------------------


@scene(300)
def state_cube_pile():
    from tests.state.scenes import cube_pile

    return cube_pile(100)


@scene(300)
def state_cube_pile_sleeping():
    from tests.state.scenes import cube_pile

    w = cube_pile(50)
    w.set_sleeping_enabled(True)
    w.set_sleeping_parameters(0.05, 0.1, 20)
    return w


@scene(300)
def state_mixed_with_robot():
    from tests.state.scenes import mixed_scene

    return mixed_scene(True)[0]


@scene(300)
def state_mixed_without_robot():
    from tests.state.scenes import mixed_scene

    return mixed_scene(False)[0]


@scene(400)
def state_mixed_sleeping():
    from tests.state.scenes import mixed_scene

    w = mixed_scene(True)[0]
    w.set_sleeping_enabled(True)
    w.set_sleeping_parameters(0.05, 0.2, 10)
    return w


@scene(300)
def state_checkpoint_restore():
    """Mixed scene: 150 steps, a checkpoint, 100 steps, restore, then the remaining steps."""
    from tests.state.scenes import mixed_scene

    w = mixed_scene(True)[0]
    w.integrate(150)
    cp = w.capture_checkpoint()
    w.integrate(100)
    w.restore_checkpoint(torsion.Checkpoint.from_bytes(cp.to_bytes()))
    return w


# --- benchmarks/ --------------------------------------------------------------------------------


@scene(200)
def bench_world_free_boxes():
    _torsion_world = bench("bench_world")._torsion_world

    return _torsion_world(200)


@scene(300)
def bench_contact_pile_erp():
    make_torsion = bench("bench_contact").make_torsion

    return make_torsion(100)[0].__self__


@scene(300)
def bench_contact_pile_accelerated():
    make_torsion = bench("bench_contact").make_torsion

    return make_torsion(100, acceleration=3)[0].__self__


@scene(300)
def bench_contact_pile_full_kernel():
    make_torsion = bench("bench_contact").make_torsion

    return make_torsion(60, compact_kernel=False)[0].__self__


@scene(300)
def bench_contact_pile_fixed_order():
    make_torsion = bench("bench_contact").make_torsion

    w = make_torsion(60)[0].__self__
    w.set_contact_solver_iteration_order(True)
    return w


@scene(300)
def bench_mesh_hull_pile():
    make_torsion = bench("bench_mesh").make_torsion

    tmp = tempfile.mkdtemp(prefix="state_hashes_")
    return make_torsion(40, tmp)[0].__self__


@scene(300)
def bench_state_pile():
    torsion_pile = bench("bench_state").torsion_pile

    return torsion_pile()


@scene(100)
def bench_collision_layout():
    layout = bench("bench_collision").layout

    w = torsion.World()
    w.set_gravity([0, 0, 0])
    w.add_ground()
    for p in layout(100):
        b = w.add_box(0.1, 0.1, 0.1, 1.0)
        b.set_position(p)
    return w


@scene(300)
def bench_query_primitives():
    query_scene = bench("bench_query").scene
    torsion_world = bench("bench_query").torsion_world

    return torsion_world(query_scene()[0])


@scene(300)
def bench_articulated_quadruped_standing():
    _torsion_quadruped = bench("bench_articulated")._torsion_quadruped

    return _torsion_quadruped()[0]


@scene(400)
def bench_terrain_quadruped_trotting():
    """bench_terrain's workload: the quadruped trotting on a fractal heightmap under PD."""
    DT = bench("bench_articulated").DT
    _start_z = bench("bench_terrain")._start_z
    _terrain = bench("bench_terrain")._terrain
    _torsion = bench("bench_terrain")._torsion
    _trot_targets = bench("bench_terrain")._trot_targets

    props = _terrain()
    w = torsion.World()
    heights = w.add_height_map(0.0, 0.0, props).get_height_map()
    del w
    w, q, gc = _torsion(props, _start_z(np.asarray(heights).reshape(props.y_samples,
                                                                    props.x_samples)))
    target = gc.copy()
    step = [0]

    def before_step():
        target[7:] = _trot_targets(step[0] * DT)
        q.set_pd_target(target, np.zeros(18))
        step[0] += 1

    return w, before_step


# --- robots and contacts beyond the benchmarks -----------------------------------------------------


@scene(300)
def quadruped_effort_clamped_landing():
    """The quadruped dropped from 20 cm with clamped efforts: the saturation re-solve loop."""
    from tests.state.scenes import standing_quadruped

    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    r = standing_quadruped(w)
    gc = r.get_generalized_coordinate()
    gc[2] = 0.5
    r.set_generalized_coordinate(gc)
    r.set_pd_gains(np.full(18, 400.0), np.full(18, 8.0))
    r.set_effort_limits(np.r_[np.full(6, np.inf), np.full(12, 8.0)])
    r.set_clamp_to_effort_limits(True)
    return w


@scene(300)
def quadruped_contact_space():
    from tests.state.scenes import standing_quadruped

    w = torsion.World()
    w.add_ground()
    standing_quadruped(w)
    w.set_articulated_contact_space_solve(True)
    return w


@scene(300)
def humanoid_falling_self_collision():
    w = torsion.World()
    w.add_ground()
    h = w.add_articulated_system(torsion.robots.urdf_path("humanoid"), self_collision=True)
    gc = h.get_generalized_coordinate()
    gc[2] = 1.2
    gc[3:7] = [math.cos(0.2), math.sin(0.2), 0.0, 0.0]
    h.set_generalized_coordinate(gc)
    return w


@scene(300)
def arm_on_table_with_limits():
    """The 7-DoF arm pressing a box onto a table past a joint limit, with PD and joint torques."""
    w = torsion.World()
    w.add_ground()
    arm = w.add_articulated_system(torsion.robots.urdf_path("arm7"))
    table = w.add_box(1.0, 1.0, 0.4, 20.0)
    table.set_position([0.5, 0.0, 0.2])
    box = w.add_box(0.1, 0.1, 0.1, 1.0)
    box.set_position([0.5, 0.0, 0.46])
    lim = arm.get_joint_limits()
    q = np.array([0.1, 1.2, -0.3, -1.0, 0.2, 0.4, 0.3])
    arm.set_generalized_coordinate(q)
    target = q.copy()
    finite = np.isfinite(lim[:, 1]) if lim.ndim == 2 else np.zeros(7, bool)
    target[finite] = lim[finite, 1] + 0.2  # beyond the upper limits: joint-limit rows
    arm.set_pd_gains(np.full(7, 200.0), np.full(7, 5.0))
    arm.set_pd_target(target, np.zeros(7))
    arm.set_generalized_force(np.full(7, 0.5))
    return w


@scene(300)
def slider_robot():
    w = torsion.World()
    w.add_ground()
    s = w.add_articulated_system(torsion.robots.urdf_path("slider"))
    s.set_generalized_velocity(np.full(s.get_dof(), 0.5))
    return w


@scene(300)
def compounds_and_rolling_friction():
    """Compounds of every primitive and spheres on a rolling/spinning-friction material."""
    w = torsion.World()
    w.add_ground(material="floor")
    w.set_material_pair_prop("floor", "ball", 0.8, 0.2, 0.3, 0.9, 0.01, 0.02, 0.01)
    q = [math.cos(0.4), 0.0, math.sin(0.4), 0.0]
    for k in range(4):
        c = w.add_compound([
            CompoundObjectChild(ObjectType.BOX, [0.2, 0.1, 0.1]),
            CompoundObjectChild(ObjectType.SPHERE, [0.06], position=[0.12, 0, 0], material="ball"),
            CompoundObjectChild(ObjectType.CAPSULE, [0.03, 0.15], position=[0, 0.08, 0],
                                orientation=q),
            CompoundObjectChild(ObjectType.CYLINDER, [0.04, 0.08], position=[-0.1, 0, 0.05]),
        ], 1.5)
        c.set_position([0.4 * k, 0.0, 0.3 + 0.1 * k])
        c.set_orientation([math.cos(0.1 * k), math.sin(0.1 * k), 0.0, 0.0])
    for k in range(4):
        s = w.add_sphere(0.05, 0.3, material="ball")
        s.set_position([0.4 * k, 0.5, 0.05])
        s.set_velocity([0.5, 0.1 * k, 0.0], [0.0, 3.0, 2.0])
    return w


@scene(300)
def restitution_and_external_forces():
    w = torsion.World()
    w.add_ground()
    w.set_default_material(0.6, 0.7, 0.1)
    boxes = []
    for k in range(5):
        b = w.add_box(0.1, 0.2, 0.1, 1.0)
        b.set_position([0.3 * k, 0.0, 0.3 + 0.05 * k])
        boxes.append(b)
    kin = w.add_box(0.5, 0.5, 0.05, 1.0)
    kin.set_body_type(torsion.BodyType.KINEMATIC)
    kin.set_position([0.6, 1.0, 0.1])
    kin.set_velocity([0.0, -0.2, 0.0], [0.0, 0.0, 0.5])

    def before_step():
        for k, b in enumerate(boxes):
            b.set_external_force([0.5 * k, 0.0, 0.0])
            b.set_external_torque([0.0, 0.0, 0.02 * k])

    return w, before_step


@scene(200)
def split_integrate_no_contact_detection():
    """integrate1/integrate2 and integrate_no_contact_detection interleaved."""
    from tests.state.scenes import mixed_scene

    w = mixed_scene(True)[0]
    step = [0]

    def before_step():
        step[0] += 1
        if step[0] % 3 == 0:
            w.integrate_no_contact_detection()
            w.integrate2()
        elif step[0] % 3 == 1:
            w.integrate1()
            w.integrate2()
        return step[0] % 3 != 2  # True: this step is done

    return w, before_step


@scene(300)
def non_finite_recovery():
    """A resting stack beside the standing quadruped; at step 100 a 1e200 rad/s spin on the middle
    box and a 1e300 rad/s joint rate on the robot make the step non-finite: both are recovered."""
    from tests.state.scenes import standing_quadruped

    w = torsion.World()
    w.add_ground()
    robot = standing_quadruped(w)
    boxes = [w.add_box(0.2, 0.2, 0.2, 1.0) for _ in range(3)]
    for i, b in enumerate(boxes):
        b.set_position([1.0, 0.0, 0.1 + 0.2 * i])
    step = [0]

    def before_step():
        step[0] += 1
        if step[0] == 100:
            boxes[1].set_angular_velocity([1e200, 0.0, 0.0])
            gv = robot.get_generalized_velocity()
            gv[8] = 1e300
            robot.set_generalized_velocity(gv)

    return w, before_step


# ------------------------------------------------------------------------------------------------


def run_scene(name: str, profile: bool = False) -> str:
    fn, steps = SCENES[name]
    built = fn()
    w, before_step = built if isinstance(built, tuple) else (built, None)
    if profile:
        w.set_step_profile_enabled(True)
    for _ in range(steps):
        done = before_step() if before_step is not None else None
        if not done:
            w.integrate()
    extra = hashlib.sha256()
    contacts = w.get_contact_problem()
    extra.update(np.ascontiguousarray(contacts).tobytes())
    diag = w.get_contact_solver_diagnostics()
    extra.update(repr(sorted(diag.items())).encode())
    extra.update(repr(sorted(w.get_warnings().items())).encode())
    return f"{name} {w.state_hash():#018x} {extra.hexdigest()[:16]}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="also write the lines to this file")
    ap.add_argument("--compare", type=Path, help="a file written by --out to compare against")
    ap.add_argument("--only", nargs="*", default=[], help="scene names (default: all)")
    ap.add_argument("--profile", action="store_true",
                    help="step with the step profile on (it must not change any hash)")
    args = ap.parse_args(argv)
    names = args.only or list(SCENES)
    lines = []
    for name in names:
        line = run_scene(name, args.profile)
        print(line, flush=True)
        lines.append(line)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")
    if args.compare:
        ref = {ln.split()[0]: ln for ln in args.compare.read_text().splitlines() if ln.strip()}
        differ = [ln.split()[0] for ln in lines if ref.get(ln.split()[0]) != ln]
        print(f"{len(lines) - len(differ)} of {len(lines)} scenes equal to {args.compare}")
        if differ:
            print("DIFFERENT: " + " ".join(differ))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
