"""Inputs a fuzzing pass found crashing the process (segfault, abort, stack overflow) or giving
silently wrong data. Each former crash runs in a child process, so a regression fails its test
instead of killing pytest; the child imports the same torsion as this process.
"""

import glob
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import torsion
import torsion._core as core

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(torsion.__file__)))
_PRELUDE = f"""
import sys
if {not any("ScikitBuild" in type(f).__name__ for f in sys.meta_path)!r}:
    sys.meta_path[:] = [f for f in sys.meta_path if "ScikitBuild" not in type(f).__name__]
sys.path.insert(0, {_ROOT!r})
import torsion
assert torsion.__file__ == {torsion.__file__!r}, torsion.__file__
"""


# a child prints one line per case: "<case> <ExceptionType> <message>" (or "<case> OK")
_EXPECT = """
def expect(case, fn, exc_type, *words):
    try:
        fn()
    except exc_type as e:
        msg = str(e)
        missing = [w for w in words if w not in msg]
        print(case, "OK" if not missing else f"MESSAGE {msg!r} lacks {missing}", flush=True)
    except BaseException as e:
        print(case, f"WRONG {type(e).__name__}: {e}", flush=True)
    else:
        print(case, "NO EXCEPTION", flush=True)
"""


def run_child(code: str, *args: str, timeout: float = 300) -> str:
    """Run `code` in a fresh interpreter; it must exit normally (no signal, no error)."""
    source = _PRELUDE + _EXPECT + textwrap.dedent(code).replace("{ALL_CLASSES}", _ALL_CLASSES)
    proc = subprocess.run([sys.executable, "-", *args], input=source, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, (
        f"child exited with {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}\n"
        f"stderr:\n{proc.stderr[-3000:]}")
    return proc.stdout


# every bound class of torsion._core and its submodules, as `classes` (for the child scripts)
_ALL_CLASSES = """
import torsion._core as c
classes, seen = [], set()
def visit(scope):
    for name in sorted(dir(scope)):
        v = getattr(scope, name)
        if isinstance(v, type) and v.__module__.startswith("torsion._core") and v not in seen:
            if hasattr(v, "_pybind11_conduit_v1_"):
                seen.add(v); classes.append(v); visit(v)
visit(c); visit(c.ik)
"""


def check_cases(out: str, n: int) -> None:
    lines = [l for l in out.splitlines() if l.strip()]
    bad = [l for l in lines if not l.endswith(" OK")]
    assert not bad, "\n".join(bad)
    assert len(lines) == n, out


# --- 1. checkpoint bytes from a non-contiguous buffer --------------------------------------------

def test_checkpoint_from_non_contiguous_buffer_is_refused():
    out = run_child("""
    import struct
    import numpy as np
    w = torsion.World(); w.add_sphere(0.1, 1.0)
    good = w.capture_checkpoint().to_bytes()
    hdr = bytearray(good[:40])
    big = 40 * (1 << 25)                       # 1.25 GiB logical, 40 bytes of memory
    hdr[24:32] = struct.pack("<Q", big - 40)
    base = np.frombuffer(bytes(hdr), dtype=np.uint8).reshape(1, 40)
    view = np.broadcast_to(base, (big // 40, 40))
    expect("broadcast", lambda: torsion.Checkpoint.from_bytes(view), ValueError, "data",
           "contiguous")
    a = np.frombuffer(good, dtype=np.uint8)
    expect("reversed", lambda: torsion.Checkpoint.from_bytes(a[::-1]), ValueError, "data",
           "contiguous")
    b = np.zeros(2 * len(good), dtype=np.uint8); b[::2] = a
    expect("strided", lambda: torsion.Checkpoint.from_bytes(b[::2]), ValueError, "data",
           "contiguous")
    expect("strided memoryview",
           lambda: torsion.Checkpoint.from_bytes(memoryview(bytes(b))[::2]), ValueError,
           "contiguous")
    f = np.asfortranarray(np.frombuffer(good[:40], dtype=np.uint8).reshape(8, 5))
    expect("fortran", lambda: torsion.Checkpoint.from_bytes(f), ValueError, "contiguous")
    """)
    check_cases(out, 5)


def test_checkpoint_from_contiguous_buffers_still_reads():
    w = torsion.World()
    w.add_sphere(0.1, 1.0).set_position(0, 0, 1)
    cp = w.capture_checkpoint()
    data = cp.to_bytes()
    for buf in (data, bytearray(data), memoryview(data), np.frombuffer(data, dtype=np.uint8),
                np.frombuffer(data, dtype=np.uint8).copy()[::-1][::-1],
                memoryview(bytearray(data)).cast("B", (1, len(data)))):
        back = torsion.Checkpoint.from_bytes(buf)
        assert back.to_bytes() == data


# --- 2. very deep kinematic trees ----------------------------------------------------------------

def _chain(n: int, joint: str) -> str:
    inertial = ('<inertial><mass value="0.1"/>'
                '<inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>')
    parts = [f'<link name="l0">{inertial}</link>']
    for k in range(1, n):
        axis = '<axis xyz="0 1 0"/>' if joint != "fixed" else ""
        parts.append(f'<link name="l{k}">{inertial}</link><joint name="j{k}" type="{joint}">'
                     f'<parent link="l{k-1}"/><child link="l{k}"/>'
                     f'<origin xyz="0 0 0.01"/>{axis}</joint>')
    return '<robot name="deep">' + "".join(parts) + "</robot>"


def test_deep_fixed_chain_loads_without_recursion():
    # 30000 links joined by fixed joints: one body; the recursive loader overflowed the stack
    out = run_child("""
    N = 30000
    parts = ['<link name="l0"><inertial><mass value="1"/>'
             '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>']
    for k in range(1, N):
        parts.append(f'<link name="l{k}"/><joint name="j{k}" type="fixed"><parent link="l{k-1}"/>'
                     f'<child link="l{k}"/></joint>')
    urdf = '<robot name="deep">' + "".join(parts) + "</robot>"
    w = torsion.World()
    r = w.add_articulated_system(urdf)
    w.integrate(2)
    print("loaded", r.get_dof())
    """)
    assert out.split() == ["loaded", "6"], out


def test_chain_of_3000_revolute_links_loads_and_steps():
    out = run_child(f"""
    import numpy as np
    urdf = {_chain(3000, "revolute")!r}
    w = torsion.World()
    r = w.add_articulated_system(urdf, fixed_base=True)
    w.integrate(2)
    order = [f"j{{k}}" for k in range(1, 3000)]
    r2 = w.add_articulated_system(urdf, fixed_base=True, joint_order=order)
    w.integrate(1)
    print(r.get_dof(), r2.get_dof(), np.isfinite(r.get_generalized_coordinate()).all())
    """)
    assert out.split() == ["2999", "2999", "True"]


def test_too_many_degrees_of_freedom_is_refused():
    out = run_child(f"""
    urdf = {_chain(5000, "revolute")!r}
    expect("dof", lambda: torsion.World().add_articulated_system(urdf), ValueError,
           "degrees of freedom", "4096")
    """)
    check_cases(out, 1)


def test_deep_child_tree_builds_without_recursion():
    out = run_child("""
    root = torsion.Child("l0", mass=0.1, inertia=[1e-3] * 3, joint_type="fixed")
    c = root
    for k in range(1, 3000):
        nxt = torsion.Child(f"l{k}", mass=0.1, inertia=[1e-3] * 3, joint_type="revolute",
                            axis=(0, 1, 0), origin_xyz=(0, 0, 0.01))
        c.children.append(nxt)
        c = nxt
    w = torsion.World()
    r = w.add_articulated_system_from_tree(root)
    w.integrate(1)
    c.children.append(root)   # a cycle through a deep tree
    try:
        from torsion.articulated_tree import child_to_urdf
        child_to_urdf(root)
    except ValueError as e:
        print(r.get_dof(), "cycle" in str(e))
    """)
    assert out.split() == ["2999", "True"]


# --- 3. instances whose __init__ never ran -------------------------------------------------------

def test_uninitialised_instances_raise_instead_of_crashing():
    # repro_3, repro_4, repro_6 of the fuzzer, and World returning uninitialised memory
    out = run_child("""
    import torsion._core as c
    W = "not initialised"
    expect("sphere", lambda: torsion.Sphere.__new__(torsion.Sphere).get_position(), TypeError, W)
    g = torsion.WorldLockGuard.__new__(torsion.WorldLockGuard)
    expect("lock guard", lambda: g.__exit__(None, None, None), TypeError, W)
    expect("collide", lambda: torsion.collide(torsion.Shape.__new__(torsion.Shape), [0, 0, 0],
           [1, 0, 0, 0], torsion.Shape.sphere(1.0), [0, 0, 0], [1, 0, 0, 0]), TypeError, W)
    ch = torsion.CompoundObjectChild.__new__(torsion.CompoundObjectChild)
    expect("compound", lambda: torsion.World().add_compound([ch], 1.0), TypeError, W)
    mm = c.MaterialManager.__new__(c.MaterialManager)
    expect("material", lambda: torsion.World().update_material_prop(mm), TypeError, W)
    expect("ik", lambda: c.ik.Environment.__new__(c.ik.Environment).create_dummy("x"),
           TypeError, W)
    expect("heightmap", lambda: torsion.HeightMap.__new__(torsion.HeightMap).get_height(0, 0),
           TypeError, W)
    A = torsion.ArticulatedSystem
    expect("articulated", lambda: A.__new__(A).get_dof(), TypeError, W)
    expect("articulated fast call", lambda: A.__new__(A).get_generalized_coordinate(),
           TypeError, "initialised")
    expect("world", lambda: torsion.World.__new__(torsion.World).get_gravity(), TypeError, W)
    expect("world held", lambda: torsion.World.__new__(torsion.World).add_sphere(0.1, 1.0),
           TypeError, W)
    expect("world integrate", lambda: torsion.World.__new__(torsion.World).integrate(),
           TypeError, "initialised")
    expect("checkpoint", lambda: torsion.Checkpoint.__new__(torsion.Checkpoint).to_bytes(),
           TypeError, W)
    w = torsion.World()
    s = torsion.Sphere.__new__(torsion.Sphere)
    expect("as argument", lambda: w.remove_object(s), TypeError, W)
    """)
    check_cases(out, 14)


def test_every_class_survives_uninitialised_use():
    # every method of every bound class, called on an uninitialised instance: any Python
    # exception is fine, a crash is not
    out = run_child("""
    {ALL_CLASSES}
    calls = 0
    for cls in classes:
        if issubclass(cls, int) or hasattr(cls, "__members__"):
            continue  # enums
        for name in sorted(dir(cls)):
            if name.startswith("__") and name not in ("__repr__", "__getstate__", "__exit__",
                                                      "__enter__", "__len__", "__eq__"):
                continue
            if name in ("_pybind11_conduit_v1_",):
                continue
            attr = getattr(cls, name, None)
            if isinstance(attr, (staticmethod, classmethod)) or not callable(attr):
                continue
            obj = cls.__new__(cls)
            for args in ((), (0,), (0, 0), (None, None, None)):
                try:
                    getattr(obj, name)(*args)
                except Exception:
                    pass
                calls += 1
    print("calls", calls)
    """)
    assert out.startswith("calls")


# --- 4. pickling at every protocol ---------------------------------------------------------------

_INSTANCES = """
import numpy as np
import torsion._core as c
w = torsion.World()
w.add_ground()
sphere = w.add_sphere(0.1, 1.0)
objs = {
    "World": w, "Sphere": sphere, "Ground": w.get_object(0),
    "Box": w.add_box(0.1, 0.1, 0.1, 1.0),
    "ArticulatedSystem": w.add_articulated_system(torsion.robots.urdf_path("quadruped")),
    "HeightMap": w.add_height_map(3, 3, 1.0, 1.0, 0.0, 0.0, np.zeros(9)),
    "ContactSettings": torsion.ContactSettings(),
    "BroadphaseSettings": torsion.BroadphaseSettings(),
    "Shape": torsion.Shape.sphere(0.2),
    "CompoundObjectChild": torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, [0.1]),
    "MaterialManager": c.MaterialManager(),
    "ik.Environment": c.ik.Environment(),
    "WorldLockGuard": w.lock(),
    "SingleBodySnapshot": w.capture_single_body_snapshot(sphere),
}
w.unlock()
"""


def test_pickle_every_protocol_raises_type_error_for_unpicklable_objects():
    # protocol 0/1 and __reduce__() aborted the process (std::terminate) for every class
    out = run_child(_INSTANCES + textwrap.dedent("""
    import pickle
    for name, obj in objs.items():
        for proto in range(0, pickle.HIGHEST_PROTOCOL + 1):
            expect(f"{name}/{proto}", lambda: pickle.dumps(obj, proto), TypeError,
                   "cannot pickle")
        expect(f"{name}/__reduce__", lambda: obj.__reduce__(), TypeError, "cannot pickle")
        expect(f"{name}/__reduce_ex__", lambda: obj.__reduce_ex__(1), TypeError, "cannot pickle")
    """))
    check_cases(out, 14 * (pickle.HIGHEST_PROTOCOL + 3))


def test_pickle_every_protocol_for_uninitialised_instances_of_every_class():
    out = run_child("""
    import pickle
    {ALL_CLASSES}
    n = 0
    for cls in classes:
        if hasattr(cls, "__members__"):
            continue  # enums: see test_enums_pickle
        obj = cls.__new__(cls)
        for proto in range(0, pickle.HIGHEST_PROTOCOL + 1):
            expect(f"{cls.__qualname__}/{proto}", lambda: pickle.dumps(obj, proto), TypeError)
            n += 1
    print("count", n, "OK")
    """)
    lines = out.splitlines()
    count = int(lines[-1].split()[1])
    assert count > 100
    check_cases(out, count + 1)


def test_checkpoint_and_enums_pickle_at_every_protocol():
    # protocols 0 and 1 aborted the process for Checkpoint (std::terminate in pybind11)
    out = run_child("""
    import pickle
    w = torsion.World()
    w.add_sphere(0.1, 1.0).set_position(0, 0, 1)
    w.integrate(3)
    cp = w.capture_checkpoint()
    for proto in range(0, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(cp, proto))
        assert back.to_bytes() == cp.to_bytes(), proto
        assert pickle.loads(pickle.dumps([cp, cp], proto))[1].to_bytes() == cp.to_bytes()
        for v in (torsion.ObjectType.SPHERE, torsion.BodyType.KINEMATIC):
            assert pickle.loads(pickle.dumps(v, proto)) == v, (v, proto)
    w2 = torsion.World()
    w2.add_sphere(0.1, 1.0)
    w2.restore_checkpoint(pickle.loads(pickle.dumps(cp, 0)))
    print("ok")
    """)
    assert out.split() == ["ok"]


# --- 5. paths ------------------------------------------------------------------------------------

def test_paths_with_nul_bytes_are_refused(tmp_path):
    out = run_child(f"""
    import os
    os.chdir({str(tmp_path)!r})
    w = torsion.World(); w.add_sphere(0.1, 1.0)
    expect("export_to_xml", lambda: w.export_to_xml("nulcase\\x00.xml"), ValueError, "path",
           "NUL")
    expect("export_to_xml bytes", lambda: w.export_to_xml(b"n\\x00.xml"), ValueError, "path",
           "NUL")
    expect("World(path)", lambda: torsion.World("a\\x00.xml"), ValueError, "path", "NUL")
    expect("add_mesh", lambda: w.add_mesh("cube.obj\\x00x", 1.0), ValueError, "file_name", "NUL")
    expect("load_mesh", lambda: torsion.load_mesh("cube\\x00.obj"), ValueError, "file_name", "NUL")
    expect("urdf", lambda: w.add_articulated_system("r\\x00.urdf"), ValueError, "urdf", "NUL")
    quad = torsion.robots.urdf_path("quadruped")
    expect("res_path", lambda: w.add_articulated_system(quad, res_path="a\\x00b"), ValueError,
           "res_path", "NUL")
    expect("export_mesh_assets_to_obj", lambda: w.export_mesh_assets_to_obj("d\\x00"),
           ValueError, "directory", "NUL")
    expect("prefix", lambda: w.export_mesh_assets_to_obj("d", prefix="p\\x00"), ValueError,
           "prefix", "NUL")
    expect("height map", lambda: w.add_height_map("h\\x00.txt", 0.0, 0.0), ValueError,
           "raisim_height_map_file_name", "NUL")
    expect("not a path", lambda: w.export_to_xml(3), ValueError, "path")
    print("nulcase exists:", os.path.exists("nulcase"), "OK")
    """)
    check_cases(out, 12)
    assert "nulcase exists: False" in out


def test_bytes_and_pathlike_paths(tmp_path):
    obj = tmp_path / "cube.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    w = torsion.World()
    w.add_mesh(os.fsencode(obj), 1.0)
    w.add_mesh(obj, 1.0)
    wanted = tmp_path / "wanted"
    paths = w.export_mesh_assets_to_obj(os.fsencode(wanted))
    assert paths and all(p.startswith(str(wanted)) for p in paths)
    assert wanted.is_dir() and not (tmp_path / "b'").exists()
    xml = tmp_path / "w.xml"
    w = torsion.World()
    w.add_sphere(0.1, 1.0)
    w.export_to_xml(os.fsencode(xml))
    assert xml.exists()
    torsion.World(os.fsencode(xml))
    r = w.add_articulated_system(os.fsencode(torsion.robots.urdf_path("quadruped")))
    assert r.get_dof() > 0


# --- 6. gravity arguments ------------------------------------------------------------------------

@pytest.mark.parametrize("g", [[0, 0, float("nan")], [0, float("inf"), 0], [-float("inf"), 0, 0]])
def test_non_finite_gravity_arguments_are_refused(g):
    w = torsion.World()
    r = w.add_articulated_system(torsion.robots.urdf_path("quadruped"))
    s = w.add_sphere(0.1, 1.0)
    n = r.get_dof()
    calls = [lambda: r.get_nonlinearities(g), lambda: r.compute_forward_dynamics(np.zeros(n), g),
             lambda: r.compute_inverse_dynamics(np.zeros(n), g),
             lambda: r.get_potential_energy(g), lambda: s.get_potential_energy(g),
             lambda: s.get_energy(g), lambda: w.set_gravity(g)]
    for call in calls:
        with pytest.raises(ValueError, match="gravity must be finite"):
            call()


# --- 7. URDF inertia -----------------------------------------------------------------------------

_LINK = ('<link name="{n}"><inertial><mass value="{m}"/><inertia ixx="{d}" ixy="{x}" ixz="{x}" '
         'iyy="{d}" iyz="{x}" izz="{d}"/></inertial></link>')
_JOINT = ('<joint name="j" type="continuous"><parent link="a"/><child link="b"/>'
          '<axis xyz="0 1 0"/></joint>')


def _two_links(d_a, x_a, d_b=1, x_b=0, m_a=1, m_b=1):
    return ('<robot name="r">' + _LINK.format(n="a", m=m_a, d=d_a, x=x_a) +
            _LINK.format(n="b", m=m_b, d=d_b, x=x_b) + _JOINT + "</robot>")


def test_inertia_not_positive_semi_definite_is_refused():
    w = torsion.World()
    with pytest.raises(ValueError, match="link 'a'.*not positive semi-definite"):
        w.add_articulated_system(_two_links(1, 5))
    with pytest.raises(ValueError, match="link 'b'.*not positive semi-definite"):
        w.add_articulated_system(_two_links(1, 0, 1, -0.6))


def test_valid_inertias_still_load():
    w = torsion.World()
    # a positive definite inertia with products, and rounding just below semi-definite
    for urdf in (_two_links(1, 0.4), _two_links(1, -0.4999999)):
        r = w.add_articulated_system(urdf)
        assert np.linalg.eigvalsh(r.get_mass_matrix()).min() > 0.0
    # zero inertia, and zero mass too (dummy links): fine on a fixed base
    for urdf in (_two_links(0, 0), _two_links(0, 0, m_a=0)):
        r = w.add_articulated_system(urdf, fixed_base=True)
        assert np.linalg.eigvalsh(r.get_mass_matrix()).min() > 0.0
    # floating, a root of mass 1 with zero inertia has it completed as PyBullet does (warned,
    # docs/robot_files.md); a root with neither mass nor inertia turns about the hinge's axis
    # while the hinge turns back, nothing with inertia moves: M is singular, refused by name
    with pytest.warns(torsion.URDFWarning, match="link 'a' has a singular inertia"):
        r = w.add_articulated_system(_two_links(0, 0))
    assert np.linalg.eigvalsh(r.get_mass_matrix()).min() > 0.0
    with pytest.raises(ValueError,
                       match="mass matrix is singular at the neutral configuration .*: joint 'ROOT'"):
        w.add_articulated_system(_two_links(0, 0, m_a=0), fixed_base=False)


def test_every_bundled_urdf_loads():
    paths = glob.glob(os.path.join(os.path.dirname(torsion.robots.__file__), "*.urdf"))
    assert paths
    for p in paths:
        w = torsion.World()
        r = w.add_articulated_system(p)
        assert np.linalg.eigvalsh(r.get_mass_matrix()).min() > 0


# --- 8. one World from two threads without the lock ----------------------------------------------

def test_unsynchronised_mutation_during_a_step_raises():
    # repro_2: integrate() on a thread (GIL released) while the main thread adds and removes
    # objects was a use-after-free
    out = run_child("""
    import random, threading, time
    w = torsion.World()
    w.add_ground()
    pool = [w.add_sphere(0.1, 1.0) for _ in range(100)]
    for o in pool:
        o.set_position(random.random() * 3, random.random() * 3, 0.12)
    stop = False
    errors = []
    def stepper():
        while not stop:
            try:
                w.integrate(20)
            except RuntimeError as e:
                errors.append(str(e))
    t = threading.Thread(target=stepper); t.start()
    refused = 0
    deadline = time.time() + 4
    try:
        while time.time() < deadline:
            try:
                if pool and random.random() < 0.5:
                    w.remove_object(pool.pop(random.randrange(len(pool))))
                else:
                    o = w.add_sphere(0.1, 1.0)
                    o.set_position(random.random() * 3, random.random() * 3, 0.12)
                    pool.append(o)
            except RuntimeError as e:
                assert "world.lock()" in str(e), e
                refused += 1
    finally:
        stop = True; t.join()
    assert all("world.lock()" in e for e in errors), errors[:3]
    print("refused", refused > 0)
    """)
    assert "refused True" in out


def test_unsynchronised_second_stepper_raises():
    out = run_child("""
    import threading
    w = torsion.World()
    for k in range(200):
        w.add_sphere(0.1, 1.0).set_position(k * 0.3, 0, 1)
    errors = []
    def stepper():
        for _ in range(200):
            try:
                w.integrate(10)
            except RuntimeError as e:
                errors.append(str(e))
    ts = [threading.Thread(target=stepper) for _ in range(2)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert all("another thread is using this World" in e for e in errors), errors[:3]
    print("ok")
    """)
    assert "ok" in out


def test_shared_world_under_the_lock_still_works():
    w = torsion.World()
    w.add_ground()
    pool = [w.add_sphere(0.1, 1.0) for _ in range(20)]
    import threading
    stop = False

    def stepper():
        while not stop:
            with w.lock():
                w.integrate(5)
    t = threading.Thread(target=stepper)
    t.start()
    try:
        for k in range(200):
            with w.lock():
                if k % 2:
                    w.remove_object(pool.pop())
                else:
                    pool.append(w.add_sphere(0.1, 1.0))
                w.capture_checkpoint()
    finally:
        stop = True
        t.join()
    w.integrate(3)
    assert w.get_object_count() == 21


def test_mutation_inside_a_step_still_fails_as_mid_step():
    w = torsion.World()
    w.add_sphere(0.1, 1.0)
    w.integrate1()
    with pytest.raises(RuntimeError, match="between integrate1"):
        w.add_sphere(0.1, 1.0)
    w.integrate2()
    w.add_sphere(0.1, 1.0)


# --- 9. messages that named no argument, oversized height-map headers ----------------------------

def test_compound_child_param_error_names_the_argument():
    with pytest.raises(ValueError, match="object_param"):
        torsion.CompoundObjectChild(torsion.ObjectType.SPHERE, 0.1)
    with pytest.raises(ValueError, match="object_param"):
        torsion.CompoundObjectChild(torsion.ObjectType.BOX, "abc")
    c = torsion.CompoundObjectChild(torsion.ObjectType.BOX, np.array([0.1, 0.2, 0.3]))
    assert c is not None


def test_set_inertia_wrong_shape_message():
    s = torsion.World().add_sphere(0.1, 1.0)
    with pytest.raises(ValueError, match=r"inertia must have shape \(3, 3\), or \(3,\).*\(9,\)"):
        s.set_inertia(np.eye(3).ravel())
    s.set_inertia([1.0, 2.0, 3.0])
    s.set_inertia(np.eye(3))


def test_height_map_file_with_huge_counts_is_a_value_error(tmp_path):
    p = tmp_path / "h.txt"
    p.write_text("1048576 1048576 1 1\n0 0 0 0\n")
    with pytest.raises(ValueError, match="x_samples \\* y_samples = 1099511627776"):
        torsion.World().add_height_map(str(p), 0.0, 0.0)
