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
