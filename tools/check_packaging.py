"""The packaging check: what a user installs is what this checkout builds.

    python tools/check_packaging.py [--keep DIR]

Run by .ci/run on every submission (about 3-6 minutes, most of it the wheel's C++ build). Steps:

1. build the sdist (``python -m build --sdist``) and check its contents: everything a build needs
   (CMakeLists.txt, pyproject.toml, cpp/, python/torsion/, third_party/ with each vendored
   project's licence and VERSION note, README, LICENSE, CHANGELOG) and nothing it does not (build
   trees, caches, compiled extensions, VCS and CI files);
2. unpack the sdist alone in a temporary directory and build a wheel from it (so a file missing
   from the sdist fails here, not on a user's machine);
3. ``twine check`` both and ``auditwheel show`` the wheel (Linux): a wheel whose extension links a
   library outside the manylinux policy would not be portable;
4. install the wheel into a fresh virtual environment and run there, away from the checkout:
   ``python -m torsion version`` (equal to ``torsion.__version__`` and to the wheel's metadata),
   ``python -m torsion demo`` and a quick subset of the test suite against the installed wheel.

The tools (build, twine, auditwheel) are installed into a throw-away environment of their own.
Exits non-zero with a message naming the failed step.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What the sdist must hold (paths relative to its top directory) ...
REQUIRED = [
    "CMakeLists.txt",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "CHANGELOG.md",
    "cpp/world/step.cpp",
    "cpp/bindings/module.cpp",
    "python/torsion/__init__.py",
    "python/torsion/py.typed",
    "third_party/eigen/Eigen/Core",
    "third_party/pugixml/pugixml.cpp",
]
# ... and what it must not: path components or suffixes of build output and caches.
FORBIDDEN_PARTS = {"build", "__pycache__", ".pytest_cache", ".hypothesis", ".git", ".ci", ".github"}
FORBIDDEN_SUFFIXES = (".so", ".pyd", ".dylib", ".o", ".a", ".pyc")

# Tests that need nothing beyond pytest and hypothesis and run in seconds: the command line and
# the demo, objects and bad input, a checkpoint round trip.
QUICK_TESTS = [
    "tests/test_cli.py",
    "tests/world/test_objects.py",
    "tests/world/test_bad_input.py",
    "tests/state/test_checkpoint.py",
]


class CheckFailed(RuntimeError):
    pass


def run(cmd: list[str], step: str, cwd: Path | None = None, env: dict | None = None) -> str:
    print(f"[packaging] {step}: {' '.join(str(c) for c in cmd)}", flush=True)
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise CheckFailed(f"{step} failed (exit {out.returncode}):\n{out.stdout[-4000:]}\n{out.stderr[-4000:]}")
    return out.stdout


def make_venv(path: Path) -> Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    python = path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], "upgrade pip")
    return python


def source_version() -> str:
    text = (ROOT / "python/torsion/__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__ = "([^"]+)"$', text, re.M)
    if not m:
        raise CheckFailed("python/torsion/__init__.py has no __version__ line")
    return m.group(1)


def check_sdist_members(names: list[str]) -> None:
    top = names[0].split("/", 1)[0]
    rel = [n[len(top) + 1:] for n in names if n.startswith(top + "/")]
    missing = [p for p in REQUIRED if p not in rel]
    if missing:
        raise CheckFailed(f"the sdist lacks {missing}")
    for sub in sorted(p for p in (ROOT / "third_party").iterdir() if p.is_dir()):
        files = [r for r in rel if r.startswith(f"third_party/{sub.name}/")]
        if not any(re.search(r"(LICENSE|COPYING|LICENCE)", f.rsplit("/", 1)[-1], re.I) for f in files):
            raise CheckFailed(f"the sdist has no licence file for third_party/{sub.name}")
        if f"third_party/{sub.name}/VERSION" not in rel:
            raise CheckFailed(f"the sdist has no third_party/{sub.name}/VERSION note")
    bad = [r for r in rel if FORBIDDEN_PARTS & set(r.split("/")) or r.endswith(FORBIDDEN_SUFFIXES)]
    if bad:
        raise CheckFailed(f"the sdist holds build output or caches: {bad[:10]}")
    print(f"[packaging] sdist: {len(rel)} files, required ones present, no build output", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="build in this directory and keep it")
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="torsion-packaging-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        tools = make_venv(work / "tools-venv")
        run([str(tools), "-m", "pip", "install", "--quiet", "build", "twine", "auditwheel"], "install tools")

        dist = work / "dist"
        run([str(tools), "-m", "build", "--sdist", "--outdir", str(dist), str(ROOT)], "build sdist")
        (sdist,) = dist.glob("torsion-*.tar.gz")
        with tarfile.open(sdist) as tar:
            check_sdist_members(tar.getnames())
            unpacked = work / "unpacked"
            # the 'data' filter (Python >= 3.11.4) refuses links and paths leaving the directory
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(unpacked, **safe)
        (src,) = unpacked.iterdir()

        # the sdist alone, away from the checkout; ccache (when present) hashes paths relative to it
        env = dict(os.environ, CCACHE_BASEDIR=str(src))
        run([str(tools), "-m", "build", "--wheel", "--outdir", str(dist), str(src)], "build wheel from sdist",
            env=env)
        (wheel,) = dist.glob("torsion-*.whl")
        run([str(tools), "-m", "twine", "check", "--strict", str(sdist), str(wheel)], "twine check")
        if sys.platform.startswith("linux"):
            shown = " ".join(run([str(tools), "-m", "auditwheel", "show", str(wheel)], "auditwheel show").split())
            if "consistent with the following platform tag" not in shown:
                raise CheckFailed(f"auditwheel finds no manylinux tag for the wheel:\n{shown}")
            tag = re.search(r'platform tag: "([^"]+)"', shown)
            print(f"[packaging] auditwheel: consistent with {tag.group(1) if tag else '?'}", flush=True)

        user = make_venv(work / "user-venv")
        run([str(user), "-m", "pip", "install", "--quiet", str(wheel)], "install the wheel")
        run([str(user), "-m", "pip", "install", "--quiet", "pytest", "hypothesis"], "install pytest")
        want = source_version()
        away = work / "elsewhere"
        away.mkdir(exist_ok=True)
        got = run([str(user), "-m", "torsion", "version"], "torsion version", cwd=away).strip()
        meta = run([str(user), "-c", "import importlib.metadata as m, torsion; "
                    "print(m.version('torsion'), torsion.__version__)"], "metadata version", cwd=away).split()
        if {got, *meta} != {want}:
            raise CheckFailed(f"versions disagree: source {want}, `python -m torsion version` {got}, "
                              f"metadata and __version__ {meta}")
        installed = run([str(user), "-c", "import torsion; print(torsion.__file__)"], "where", cwd=away).strip()
        if Path(installed).resolve().is_relative_to(ROOT):
            raise CheckFailed(f"the fresh environment imported torsion from the checkout: {installed}")
        demo = run([str(user), "-m", "torsion", "demo"], "demo from the wheel", cwd=away)
        if "all checks passed" not in demo:
            raise CheckFailed(f"the demo's checks did not pass:\n{demo}")
        tests = [str(ROOT / t) for t in QUICK_TESTS]
        out = run([str(user), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT), *tests],
                  "quick tests against the wheel", cwd=away)
        print(f"[packaging] {out.strip().splitlines()[-1]}", flush=True)
        print(f"[packaging] OK: {sdist.name}, {wheel.name}, version {want}", flush=True)
        return 0
    except CheckFailed as e:
        print(f"[packaging] FAILED: {e}", file=sys.stderr, flush=True)
        return 1
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
