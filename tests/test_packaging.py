"""Packaging: one version everywhere, and the wheel matrix cibuildwheel would build.

The full packaging check (sdist contents, a wheel from the sdist alone, twine, auditwheel, the
demo from a fresh environment) is tools/check_packaging.py, which .ci/run runs before the tests.
"""

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import torsion

ROOT = Path(__file__).resolve().parent.parent


def test_one_version_in_source_metadata_and_cli():
    source = re.search(r'^__version__ = "([^"]+)"$',
                       (ROOT / "python/torsion/__init__.py").read_text(encoding="utf-8"), re.M).group(1)
    cli = subprocess.run([sys.executable, "-m", "torsion", "version"], capture_output=True, text=True,
                         timeout=60).stdout.strip()
    assert torsion.__version__ == source == cli == importlib.metadata.version("torsion")
    # pyproject.toml declares no version of its own: the build reads __init__.py
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert not re.search(r"^version\s*=", pyproject, re.M)


def test_cibuildwheel_builds_cp39_to_cp313_for_linux_x86_64_and_aarch64():
    out = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform",
                          "linux", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    ids = set(out.stdout.split())
    for minor in range(9, 14):
        for libc in ("manylinux", "musllinux"):
            for arch in ("x86_64", "aarch64"):
                assert f"cp3{minor}-{libc}_{arch}" in ids, sorted(ids)
    assert all(re.fullmatch(r"cp3(9|1[0-3])-(many|musl)linux_(x86_64|aarch64)", i) for i in ids), sorted(ids)


def test_cibuildwheel_covers_macos_and_windows():
    for platform, expected in (("macos", {"macosx_arm64", "macosx_x86_64"}), ("windows", {"win_amd64"})):
        out = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform",
                              platform, str(ROOT)], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        ids = set(out.stdout.split())
        for minor in range(9, 14):
            for tag in expected:
                assert f"cp3{minor}-{tag}" in ids, (platform, sorted(ids))
