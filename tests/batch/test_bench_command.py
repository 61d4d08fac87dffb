"""`python -m torsion bench` runs the suite from the package (not only from a checkout), and
`python -m benchmarks` stays the same command in a checkout."""

import io
import os
import subprocess
import sys
from pathlib import Path

import torsion
from torsion.bench import run

PACKAGE_PARENT = str(Path(torsion.__file__).resolve().parents[1])
CHECKOUT = Path(torsion.__file__).resolve().parents[2]


def _run(args, cwd):
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_bench_modules_ship_in_the_package():
    mods = run.discover_modules()
    assert "bench_batch" in mods and "bench_state" in mods and "bench_articulated" in mods
    assert all(v.startswith(("torsion.bench.", "benchmarks.")) for v in mods.values())
    for name in ("bench_batch", "bench_state", "bench_world"):
        assert (Path(torsion.__file__).parent / "bench" / f"{name}.py").is_file()


def test_torsion_bench_command_outside_a_checkout(tmp_path):
    r = _run(["-m", "torsion", "bench", "--help"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "python -m torsion bench" in r.stdout and "--quick" in r.stdout and "--json" in r.stdout
    r = _run(["-m", "torsion", "bench", "--only", "no_such_area"], tmp_path)
    assert r.returncode == 2
    assert "no benchmark module matches" in r.stderr and "batch" in r.stderr
    r = _run(["-m", "torsion", "--help"], tmp_path)
    assert r.returncode == 0 and "bench" in r.stdout


def test_python_m_benchmarks_alias_in_a_checkout():
    r = _run(["-m", "benchmarks", "--only", "no_such_area"], CHECKOUT)
    assert r.returncode == 2 and "batch" in r.stderr
    r = _run(["-c", "import benchmarks._common, benchmarks.bench_batch as b; print(b.NUM_WORLDS)"],
             CHECKOUT)
    assert r.returncode == 0 and r.stdout.strip() == "64", r.stderr


def test_plain_progress_bar(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = run._PlainProgress(3)
    bar.set_description("world")
    bar.update(1)
    bar.update(2)
    bar.close()
    text = err.getvalue()
    assert "[##########--------------------] 1/3" in text and "3/3" in text and text.endswith("\n")


def test_table_of_ratios():
    rows = [run.Result("w", "torsion", 200.0, "steps/s"), run.Result("w", "mujoco", 100.0, "steps/s"),
            run.Result("t", "torsion", 2.0, "us/call", higher_is_better=False),
            run.Result("t", "mujoco", 1.0, "us/call", higher_is_better=False)]
    table = run.format_table(rows)
    lines = table.splitlines()
    assert any(line.startswith("w ") and "mujoco" in line and "2.00x" in line for line in lines)
    assert any(line.startswith("t ") and "mujoco" in line and "0.50x" in line for line in lines)
