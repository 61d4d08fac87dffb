"""The command line and the demo: `python -m torsion demo` simulates and reports success."""

import subprocess
import sys


def test_demo_runs_and_its_checks_pass():
    out = subprocess.run([sys.executable, "-m", "torsion", "demo"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "projectile" in out.stdout and "tumbling" in out.stdout
    assert "all checks passed" in out.stdout


def test_version():
    import torsion

    out = subprocess.run([sys.executable, "-m", "torsion", "version"], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == torsion.__version__
