"""Run torsion's benchmarks side by side with the peers and print a table of ratios.

    python -m torsion bench                 # every benchmark module (from an installed wheel)
    python -m torsion bench --only world    # bench_world.py only
    python -m torsion bench --quick         # shorter runs (CI smoke)
    python -m torsion bench --json out.json # also write every result as JSON

The benchmark modules ship in the package (torsion/bench/bench_<area>.py); in a checkout,
``python -m benchmarks`` is the same command, and it also runs any bench_<area>.py still kept in
the checkout's benchmarks/ directory.

Peers come from the `bench` extra (pip install -e .[bench]): mujoco, pybullet, pin. A peer that is
not installed is skipped and said so. Ratios are torsion / peer for throughputs (higher is better
for torsion) and peer / torsion for times, so a ratio above 1 always means torsion is faster.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import pkgutil
import platform
import sys
from collections import defaultdict
from pathlib import Path

from torsion.bench._common import Result


def _modules_in(directory: Path, package: str) -> dict[str, str]:
    return {m.name: f"{package}.{m.name}" for m in pkgutil.iter_modules([str(directory)])
            if m.name.startswith("bench_")}


def discover_modules() -> dict[str, str]:
    """{bench_<area>: importable module name}: the package's modules, and those of a checkout's
    benchmarks/ package when it is importable (run from the repository root); the package's win
    when both have one."""
    found = {}
    try:
        spec = importlib.util.find_spec("benchmarks")
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "__init__.py").is_file():  # the checkout's own directory
            found.update(_modules_in(Path(location), "benchmarks"))
            break
    found.update(_modules_in(Path(__file__).parent, "torsion.bench"))
    return dict(sorted(found.items()))


def discover() -> list[str]:
    return list(discover_modules())


class _PlainProgress:
    """A one-line progress bar on stderr, for when tqdm is not installed."""

    def __init__(self, total: int):
        self.total, self.done = total, 0

    def set_description(self, text: str) -> None:
        self._draw(text)

    def update(self, n: int = 1) -> None:
        self.done += n
        self._draw("")

    def _draw(self, text: str) -> None:
        width = 30
        filled = width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(f"\r[{bar}] {self.done}/{self.total} {text:<24}")
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


def progress(total: int):
    """tqdm's bar when tqdm is installed, else a plain one (both on stderr)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return _PlainProgress(total)
    return tqdm(total=total, unit="area", file=sys.stderr, dynamic_ncols=True)


def format_table(results: list[Result]) -> str:
    by_workload: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_workload[r.workload].append(r)
    lines = []
    # the engine column as wide as the longest name (labelled variants run past 16 characters)
    width = max([16] + [len(r.engine) for r in results])
    header = f"{'workload':<58} {'engine':<{width}} {'value':>14} {'unit':<10} {'torsion ratio':>13}"
    lines.append(header)
    lines.append("-" * len(header))
    for workload, rows in by_workload.items():
        ours = next((r for r in rows if r.engine == "torsion"), None)
        for r in rows:
            ratio = ""
            if ours is not None and r is not ours and r.value > 0 and ours.value > 0:
                x = ours.value / r.value if r.higher_is_better else r.value / ours.value
                ratio = f"{x:.2f}x"
            note = f"  ({r.note})" if r.note else ""
            lines.append(
                f"{workload[:58]:<58} {r.engine:<{width}} {r.value:>14.4g} {r.unit:<10} {ratio:>13}"
                f"{note}"
            )
    lines.append("ratio = how many times faster torsion is than that engine on that workload")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m torsion bench") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", default=[], help="area name(s): world, collision, ...")
    parser.add_argument("--quick", action="store_true", help="short runs")
    parser.add_argument("--json", type=Path, help="write the results to this JSON file")
    args = parser.parse_args(argv)

    available = discover_modules()
    modules = list(available)
    if args.only:
        modules = [m for m in modules if m[len("bench_"):] in args.only]
        if not modules:
            parser.error(f"no benchmark module matches {args.only}; have "
                         f"{[m[len('bench_'):] for m in available]}")
    results: list[Result] = []
    bar = progress(len(modules))
    try:
        for name in modules:
            bar.set_description(name[len("bench_"):])
            mod = importlib.import_module(available[name])
            results.extend(mod.benchmarks(args.quick))
            bar.update(1)
    finally:
        bar.close()
    print(format_table(results))
    if args.json:
        meta = {"python": sys.version.split()[0], "machine": platform.machine(), "processor": platform.processor()}
        args.json.write_text(json.dumps({"meta": meta, "results": [r.to_dict() for r in results]}, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
