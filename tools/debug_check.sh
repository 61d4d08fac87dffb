#!/usr/bin/env bash
# The debug build check: torsion._core built at -O1 with TORSION_ASSERT on (CMAKE_BUILD_TYPE=Debug,
# NDEBUG undefined), then the state, world, contact and articulated tests and the state-hash scenes
# run against it. A failed internal invariant aborts the process, so a passing run says that no
# assert fired on any of those scenes. CI runs it once beside the release build (.ci/run).
#
#     tools/debug_check.sh [BUILD_DIR]     (default build/debug; needs cmake, ninja, pybind11)
#
# Python comes from $PYTHON (default: python on PATH), which must have the test extra installed.
# No -g: the build exists for its asserts, and debug info would double its compile time.
# -Werror stays on (TORSION_WERROR). At -O1 GCC 12 once reported collision/gjk.cpp's `tl` as maybe
# used uninitialized: closest_triangle writes only the weights it keeps and all four were copied;
# the array is zeroed now (the copied-but-unused weights were indeterminate, never read).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${1:-build/debug}"
py="${PYTHON:-python}"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1" \
  -DTORSION_BUILD_PYTHON=ON -DTORSION_WERROR=ON -DPython_EXECUTABLE="$(command -v "$py")" \
  -Dpybind11_DIR="$("$py" -m pybind11 --cmakedir)" >/dev/null
cmake --build "$build" --target _core -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}"

# the package's Python files with the debug extension beside them, in a directory of its own so
# that an installed release torsion cannot be picked up instead
pkg="$(mktemp -d)"
trap 'rm -rf "$pkg"' EXIT
cp -r python/torsion "$pkg/torsion"
rm -f "$pkg"/torsion/_core*.so "$pkg"/torsion/_core*.pyd
cp "$build"/_core*.so "$pkg/torsion/"

export PYTHONPATH="$pkg"
"$py" -c "import torsion, sys; sys.exit(0 if torsion.__file__.startswith('$pkg') else 1)" ||
  { echo "debug check: torsion not imported from $pkg"; exit 1; }
"$py" tools/state_hashes.py --out "$pkg/hashes.txt" >/dev/null
"$py" -m pytest -q -p no:cacheprovider tests/state tests/world tests/contact tests/articulated
echo "debug check passed ($root, $build)"
