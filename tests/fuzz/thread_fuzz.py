"""Random calls on shared Worlds from several threads (issue #36: two threads, one world).

Every public method and property of the classes that reach into a World (World, every kind of
object, ArticulatedSystem, ContactSolver, a live ContactSolverConfig, RayHit) is enumerated from
the type stubs (python/torsion/_core/__init__.pyi), so a method added later is called too. Each
round builds a fresh world holding one object of every kind; `--threads` threads then call
random methods of random objects with random arguments (mostly valid, sometimes NaN, wrong
shapes, dead handles, huge sizes), some inside `with world.lock():`, while one more thread steps
the world. A call may return or raise one of torsion's promised errors (ValueError, TypeError,
IndexError, RuntimeError); anything else is reported as a failure (exit status 1), and a crash
kills the process: the seed, printed first, replays the same sequence of choices (thread
interleavings differ from run to run).

    python tests/fuzz/thread_fuzz.py --seconds 600 --threads 3          # a long run
    python tests/fuzz/thread_fuzz.py --calls 2000 --seed 1234           # bounded (CI)

tests/world/test_threads.py imports this file for its method enumeration and argument
generator, and runs it as a bounded subprocess.
"""

from __future__ import annotations

import argparse
import ast
import math
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

import torsion
from torsion import _core

STUB = Path(torsion.__file__).with_name("_core") / "__init__.pyi"
PROMISED = (ValueError, TypeError, IndexError, RuntimeError)
# the lock is driven by the harness itself (a random lock() left held would stop every thread)
LOCK_METHODS = {"lock", "lock_mutex", "unlock", "unlock_mutex", "try_lock"}
# leave the world mid-step or write files: called by the harness on purpose, not at random
SPECIAL = {"integrate1", "integrate2", "integrate_no_contact_detection", "export_to_xml"}


class Signature:
    """One callable (a method overload or a property) of a stub class."""

    def __init__(self, cls, name, params, kind):
        self.cls, self.name, self.params, self.kind = cls, name, params, kind  # kind: method/property

    @property
    def key(self):
        return f"{self.cls}.{self.name}"


def stub_signatures(path=STUB):
    """{class name: [Signature]} for every class of the stub (overloads kept apart)."""
    tree = ast.parse(path.read_text())
    out = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        sigs = []
        for f in node.body:
            if not isinstance(f, ast.FunctionDef) or f.name in ("__init__", "__new__"):
                continue
            decos = {ast.unparse(d) for d in f.decorator_list}
            if "staticmethod" in decos:
                continue
            if "property" in decos or any(d.endswith(".setter") for d in decos):
                if "property" in decos:
                    sigs.append(Signature(node.name, f.name, [], "property"))
                continue
            args = f.args.args[1:]
            ndefault = len(f.args.defaults)
            params = [(a.arg, ast.unparse(a.annotation) if a.annotation else "",
                       i >= len(args) - ndefault) for i, a in enumerate(args)]
            sigs.append(Signature(node.name, f.name, params, "method"))
        out[node.name] = sigs
    return out


def world_bound_classes():
    """Names of the classes whose methods reach a World (those _core._thread_guard() covers)."""
    report = _core._thread_guard()
    return sorted({k.split(".")[0] for k in report})


def methods_of(obj, sigs):
    """The signatures callable on `obj`: those of its class and its bases, by name."""
    names = [c.__name__ for c in type(obj).__mro__]
    seen, out = set(), []
    for n in names:
        for s in sigs.get(n, []):
            if (s.name, len(s.params), s.kind) in seen:
                continue
            seen.add((s.name, len(s.params), s.kind))
            out.append(s)
    return out


# --- the scene -----------------------------------------------------------------------------------

BOX_OBJ = """v -0.1 -0.1 -0.1
v 0.1 -0.1 -0.1
v -0.1 0.1 -0.1
v 0.1 0.1 -0.1
v -0.1 -0.1 0.1
v 0.1 -0.1 0.1
v -0.1 0.1 0.1
v 0.1 0.1 0.1
f 1 3 4
f 1 4 2
f 5 6 8
f 5 8 7
f 1 2 6
f 1 6 5
f 3 7 8
f 3 8 4
f 1 5 7
f 1 7 3
f 2 4 8
f 2 8 6
"""


def build_scene(tmp: Path, robot="quadruped"):
    """A world resting on a ground with one object of every kind; returns (world, {kind: obj})."""
    mesh_path = tmp / "box.obj"
    if not mesh_path.exists():
        mesh_path.write_text(BOX_OBJ)
    w = torsion.World()
    objs = {"ground": w.add_ground()}
    objs["sphere"] = w.add_sphere(0.1, 1.0)
    objs["box"] = w.add_box(0.2, 0.2, 0.2, 1.0)
    objs["cylinder"] = w.add_cylinder(0.1, 0.2, 1.0)
    objs["capsule"] = w.add_capsule(0.1, 0.2, 1.0)
    objs["mesh"] = w.add_mesh(str(mesh_path), 1.0)
    child = _core.CompoundObjectChild
    objs["compound"] = w.add_compound([child(_core.ObjectType.BOX, [0.2, 0.2, 0.2]),
                                       child(_core.ObjectType.SPHERE, [0.1], position=[0.2, 0, 0])], 1.0)
    objs["height_map"] = w.add_height_map(8, 8, 4.0, 4.0, 6.0, 0.0, np.zeros(64))
    for i, k in enumerate(["sphere", "box", "cylinder", "capsule", "mesh", "compound"]):
        objs[k].set_position([0.5 * i, 0.0, 0.099])  # resting: contacts at every step
    objs["robot"] = w.add_articulated_system(torsion.robots.urdf_path(robot))
    gc = objs["robot"].get_generalized_coordinate()
    if len(gc) >= 7:
        gc[0:3] = [-1.5, 0.0, 0.6]
    # joints within their limits (the zero pose may lie outside: a JointLimitWarning)
    limits = objs["robot"].get_joint_limits()
    for j in objs["robot"].get_joints():
        if j["type"] in ("revolute", "prismatic") and j["gv_size"] == 1:
            lo, hi = limits[j["gv_index"]]
            gc[j["gc_index"]] = min(max(gc[j["gc_index"]], lo), hi)
    objs["robot"].set_generalized_coordinate(gc)
    w.integrate(3)
    objs["world"] = w
    objs["contact_solver"] = w.get_contact_solver()
    objs["solver_config"] = objs["contact_solver"].get_config()
    hits = w.ray_test([0.0, 0.0, 1.0], [0.0, 0.0, -1.0], 5.0)
    objs["ray_hit"] = hits[0]
    return w, objs


# --- arguments -----------------------------------------------------------------------------------

VEC3_NAMES = {"position", "pos", "point", "start", "direction", "gravity", "force", "torque",
              "linear", "angular", "com", "acceleration_vec"}
BAD_VALUES = [float("nan"), float("inf"), -1.0, None, "x", [1.0, 2.0], np.zeros((2, 2)), 2**70,
              -(2**63), [], object()]


class Args:
    """Argument values for a signature, from its parameter names and annotations."""

    def __init__(self, rng: random.Random, world, objs, tmp: Path):
        self.rng, self.world, self.objs, self.tmp = rng, world, objs, tmp

    def robot(self):
        return self.objs["robot"]

    def for_param(self, owner, name, ann):
        r = self.rng
        dof = self.robot().get_dof() if isinstance(owner, _core.ArticulatedSystem) else 6
        gcd = self.robot().get_generalized_coordinate_dim() if isinstance(owner, _core.ArticulatedSystem) else 7
        if name in ("gc", "q_ref"):
            return owner.get_generalized_coordinate() if isinstance(owner, _core.ArticulatedSystem) else np.zeros(gcd)
        if name in ("gv", "v_ref", "tau", "acceleration", "kp", "kd", "effort_limits"):
            return np.full(dof, r.uniform(0.0, 1.0))
        if name == "damping":
            return np.full(dof, 0.1) if isinstance(owner, _core.ArticulatedSystem) else 0.1
        if name in VEC3_NAMES or name in ("starts", "directions"):
            if name in ("starts", "directions"):
                return np.array([[0.0, 0.0, 1.0], [0.1, 0.0, -1.0]])
            return np.array([r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(0.1, 1)])
        if name in ("quaternion",):
            return [1.0, 0.0, 0.0, 0.0]
        if name in ("rot", "rotation", "inertia"):
            return np.eye(3) * (0.01 if name == "inertia" else 1.0)
        if name == "lengths":
            return np.array([2.0, 2.0])
        if name in ("frame", "body", "force_frame", "point_frame"):
            names = self.robot().get_frame_names()
            return r.choice([0, names[-1]]) if "frame" in name else 0
        if name in ("obj", "obj_or_id", "obj_or_index"):
            return self.objs[r.choice(["sphere", "box", "capsule", "mesh", "compound"])]
        if name == "name_or_index":
            return r.choice([0, 1, "nothing"])
        if name in ("id", "object_id"):
            return r.choice([0, 1, -10])
        if name in ("local_id", "local_idx", "index"):
            return r.choice([0, -1, -10]) if name != "index" else 0
        if name in ("collision_group", "collision_mask"):
            return r.choice([1, -1, 3])
        if name in ("mat1", "mat2", "material"):
            return r.choice(["default", "steel", "rubber"])
        if name in ("name", "prefix"):
            return "thing"
        if name in ("path", "directory", "file_name", "png_file_name", "raisim_height_map_file_name", "urdf"):
            return str(self.tmp / "does_not_exist.xml")
        if name == "checkpoint":
            return self.world.capture_checkpoint() if r.random() < 0.8 else _core.Checkpoint()
        if name == "snapshot":
            return self.world.capture_single_body_snapshot(self.objs["sphere"])
        if name == "config":
            return _core.ContactSolverConfig()
        if name == "settings":
            return _core.ContactSettings() if "ContactSettings" in ann else _core.BroadphaseSettings()
        if name == "materials":
            return _core.MaterialManager()
        if name == "properties":
            return _core.DepthCameraProperties(16, 12)
        if name == "terrain_properties":
            return _core.TerrainProperties()
        if name == "mode":
            return r.choice(list(_core.ControlMode.__members__.values()))
        if name == "body_type":
            return r.choice(list(_core.BodyType.__members__.values()))
        if name == "collision_mode":
            return r.choice(list(_core.MeshCollisionMode.__members__.values()))
        if name == "children":
            return [_core.CompoundObjectChild(_core.ObjectType.SPHERE, [0.05])]
        if name == "heights":
            return np.zeros(16)
        if name in ("x_samples", "y_samples"):
            return 4
        if name == "mesh_to_clone":
            return self.objs["mesh"]
        if name == "height_map_to_be_cloned":
            return self.objs["height_map"]
        if name == "joint_order":
            return []
        if name in ("yaw_count", "pitch_count"):
            return r.choice([4, 8])
        if name in ("steps", "iterations", "quiet_steps", "max_iter", "depth", "seed", "arg1"):
            return r.choice([1, 2])
        if name == "dt":
            return r.choice([1e-3, 2e-3])
        if name == "time":
            return r.uniform(0.0, 1.0)
        if name == "child":
            return None
        if "bool" in ann:
            return r.random() < 0.5
        if "SupportsInt" in ann:
            return r.choice([0, 1])
        if "SupportsFloat" in ann:
            return r.uniform(0.05, 1.0)
        if name in ("params", "coacd_options", "fixed_base"):
            return None
        return None

    def for_signature(self, owner, sig: Signature, bad_fraction=0.0):
        """Positional arguments: every required parameter, and each optional one half the time."""
        args = []
        for name, ann, has_default in sig.params:
            if has_default and self.rng.random() < 0.5:
                break
            if self.rng.random() < bad_fraction:
                args.append(self.rng.choice(BAD_VALUES))
            else:
                args.append(self.for_param(owner, name, ann))
        return args


def call(owner, sig: Signature, args):
    """Call a signature (a property is read; with an argument, assigned)."""
    if sig.kind == "property":
        if args:
            return setattr(owner, sig.name, args[0])
        return getattr(owner, sig.name)
    return getattr(owner, sig.name)(*args)


# --- the run -------------------------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.calls = 0
        self.outcomes = {}
        self.cases = set()
        self.failures = []

    def add(self, key, outcome, case):
        with self.lock:
            self.calls += 1
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
            self.cases.add(case)

    def fail(self, what):
        with self.lock:
            self.failures.append(what)


def run_round(rng_seed, tmp, sigs, calls_per_thread, threads, lock_fraction, bad_fraction, tally):
    seed_rng = random.Random(rng_seed)
    w, objs = build_scene(tmp, robot=seed_rng.choice(["quadruped", "arm7"]))
    kinds = sorted(objs)
    stop = threading.Event()

    def stepper():
        r = random.Random(seed_rng.random())
        while not stop.is_set():
            try:
                if r.random() < lock_fraction:
                    with w.lock():
                        w.integrate(r.choice([1, 5]))
                else:
                    w.integrate(r.choice([1, 5]))
                tally.add("World.integrate", "ok", ("world", "integrate"))
            except PROMISED as e:
                tally.add("World.integrate", type(e).__name__, ("world", "integrate"))
            except BaseException as e:  # noqa: BLE001 - any other type is what we look for
                tally.fail(f"stepper: {type(e).__name__}: {e}")

    def caller(thread_seed):
        r = random.Random(thread_seed)
        gen = Args(r, w, objs, tmp)
        for _ in range(calls_per_thread):
            kind = r.choice(kinds)
            owner = objs[kind]
            choices = [s for s in methods_of(owner, sigs)
                       if s.name not in LOCK_METHODS and s.name not in SPECIAL]
            if not choices:
                continue
            sig = r.choice(choices)
            locked = r.random() < lock_fraction
            args = ()
            try:
                # the arguments too are made under the lock (some read the world: a robot's dof)
                if locked:
                    with w.lock():
                        args = gen.for_signature(owner, sig, bad_fraction)
                        call(owner, sig, args)
                else:
                    args = gen.for_signature(owner, sig, bad_fraction)
                    call(owner, sig, args)
                outcome = "ok"
            except PROMISED as e:
                outcome = type(e).__name__
                # a refusal under the lock is a bug only when every thread takes the lock (a
                # thread that does not may be inside a call, and then refusing is right)
                if locked and lock_fraction >= 1.0 and "world.lock()" in str(e):
                    tally.fail(f"{sig.key} under the lock: {e}")
            except BaseException as e:  # noqa: BLE001
                outcome = type(e).__name__
                tally.fail(f"{kind} {sig.key}{tuple(map(repr_short, args))}: {type(e).__name__}: {e}")
            tally.add(sig.key, outcome, (kind, sig.key))
            if r.random() < 0.01:  # a split step now and then, finished at once
                try:
                    with w.lock():
                        w.integrate1()
                        w.integrate2()
                except PROMISED as e:
                    if lock_fraction >= 1.0:
                        tally.fail(f"split step under the lock: {e}")

    workers = [threading.Thread(target=caller, args=(seed_rng.random(),)) for _ in range(threads)]
    step = threading.Thread(target=stepper)
    step.start()
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    stop.set()
    step.join()


def repr_short(v):
    s = repr(v)
    return s if len(s) < 60 else s[:57] + "..."


def run_rounds(a, master, tmp, sigs, tally, t0):
    """Fresh worlds until --calls calls or --seconds seconds (or a failure)."""
    rounds = 0
    while True:
        if a.seconds is None and tally.calls >= a.calls:
            break
        if a.seconds is not None and time.monotonic() - t0 >= a.seconds:
            break
        per_thread = a.round_calls
        if a.seconds is None:
            per_thread = max(1, min(per_thread, math.ceil((a.calls - tally.calls) / a.threads)))
        run_round(master.random(), tmp, sigs, per_thread, a.threads, a.lock_fraction,
                  a.bad_fraction, tally)
        rounds += 1
        if tally.failures:
            break
    return rounds


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--calls", type=int, default=2000, help="total random calls (ignored with --seconds)")
    p.add_argument("--seconds", type=float, default=None, help="run rounds until this much time passed")
    p.add_argument("--threads", type=int, default=2, help="calling threads (plus one stepper)")
    p.add_argument("--round-calls", type=int, default=400, help="calls per thread per fresh world")
    p.add_argument("--lock-fraction", type=float, default=0.3,
                   help="share of calls made under world.lock() (1: every thread always takes it, "
                        "and then no call may be refused)")
    p.add_argument("--bad-fraction", type=float, default=0.1)
    a = p.parse_args(argv)
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"thread_fuzz seed {seed}", flush=True)
    sigs = stub_signatures()
    master = random.Random(seed)
    tally = Tally()
    t0 = time.monotonic()
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        # a bad value may be taken as a relative path (export_mesh_assets_to_obj("x")): files
        # land in the temporary directory, not where the harness was started
        os.chdir(d)
        try:
            rounds = run_rounds(a, master, tmp, sigs, tally, t0)
        finally:
            os.chdir(cwd)
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(tally.outcomes.items()))
    methods = {c[1] for c in tally.cases}
    print(f"rounds {rounds} calls {tally.calls} cases {len(tally.cases)} methods {len(methods)}")
    print(f"outcomes: {outcomes}")
    for f in tally.failures[:20]:
        print("FAILURE", f)
    print(f"replay: python {Path(__file__).name} --seed {seed} --threads {a.threads}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
