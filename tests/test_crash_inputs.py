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
    source = _PRELUDE + _EXPECT + textwrap.dedent(code)
    proc = subprocess.run([sys.executable, "-", *args], input=source, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, (
        f"child exited with {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}\n"
        f"stderr:\n{proc.stderr[-3000:]}")
    return proc.stdout


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
