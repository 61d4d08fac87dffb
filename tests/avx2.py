"""Runs a script twice in fresh processes, once with the AVX2 builds of the hot kernels and once
with TORSION_NO_AVX2 (the baseline SSE2 builds: core/cpu_dispatch.hpp), for the tests that the
two builds give the same bits (imported as `from ..avx2 import run_both_builds`). The script gets
an output path as sys.argv[1] and saves one NumPy array there."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np


def _run(script: str, out: Path, no_avx2: bool, no_avx512: bool = False) -> np.ndarray:
    env = dict(os.environ)
    env.pop("TORSION_NO_AVX2", None)
    env.pop("TORSION_NO_AVX512", None)
    if no_avx2:
        env["TORSION_NO_AVX2"] = "1"
    if no_avx512:
        env["TORSION_NO_AVX512"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    subprocess.run([sys.executable, "-c", script, str(out)], env=env, check=True, timeout=120)
    return np.load(out)


def run_both_builds(script: str, tmp_path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(the AVX2 run's array, the baseline run's array). On a CPU without AVX2 both take the
    baseline and the comparison checks determinism across processes only."""
    return (_run(script, tmp_path / "avx2.npy", no_avx2=False),
            _run(script, tmp_path / "base.npy", no_avx2=True))


def run_avx2_without_avx512(script: str, tmp_path: Path) -> np.ndarray:
    """The script's array with TORSION_NO_AVX512: the AVX2 build of a kernel that also has an
    AVX-512VL one (the DEM's pair law), which run_both_builds' first run takes where the CPU has
    it. On a CPU without AVX2 it is the baseline again."""
    return _run(script, tmp_path / "avx2_only.npy", no_avx2=False, no_avx512=True)
