"""Every script in examples/ runs (with few steps, so the suite stays fast) and reports success:
the examples the docs point to cannot rot. Each runs in a fresh interpreter with warnings as
errors, as a user would start it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import torsion

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# script -> (arguments, a line its output must contain)
CASES = {
    "quadruped_stand_trot.py": (["--steps", "200"], "upright: True"),
    "arm_ik_tracking.py": (["--steps", "200"], "(0 IK failures)"),
    "bin_picking_camera.py": (["--steps", "100"], "keep their ids: True"),
    "checkpoint_replay.py": (["--steps", "50"], "bitwise identical: True"),
    "rl_loop.py": (["--steps", "100"], "proportional policy"),
}


def test_every_example_is_tested():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(CASES)


@pytest.mark.parametrize("script", sorted(CASES))
def test_example_runs(script, tmp_path):
    args, expected = CASES[script]
    if script == "bin_picking_camera.py":
        pytest.importorskip("PIL")
        args = args + ["--out", str(tmp_path)]
    env = dict(os.environ)
    # the torsion under test, whether installed or from the source tree
    env["PYTHONPATH"] = os.pathsep.join([str(Path(torsion.__file__).resolve().parents[1]),
                                         env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-W", "error", str(EXAMPLES / script), *args],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr}"
    assert expected in proc.stdout, proc.stdout
    if script == "bin_picking_camera.py":
        assert (tmp_path / "segmentation.png").is_file() and (tmp_path / "depth.png").is_file()
