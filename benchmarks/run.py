"""Run torsion's benchmarks side by side with the peers and print a table of ratios.

    python -m benchmarks                 # every benchmark module
    python -m benchmarks --only world    # bench_world.py only
    python -m benchmarks --only simx     # the simx remote API (loopback round trips, sync steps)
    python -m benchmarks --quick         # shorter runs (CI smoke)
    python -m benchmarks --json out.json # also write every result as JSON

Peers come from the `bench` extra (pip install -e .[bench]): mujoco, pybullet, pin. A peer that is
not installed is skipped and said so. Ratios are torsion / peer for throughputs (higher is better
for torsion) and peer / torsion for times, so a ratio above 1 always means torsion is faster.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import platform
import sys
from collections import defaultdict
from pathlib import Path

from benchmarks._common import Result


def discover() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))


def format_table(results: list[Result]) -> str:
    by_workload: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_workload[r.workload].append(r)
    lines = []
    header = f"{'workload':<58} {'engine':<16} {'value':>14} {'unit':<10} {'torsion ratio':>13}"
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
                f"{workload[:58]:<58} {r.engine:<16} {r.value:>14.4g} {r.unit:<10} {ratio:>13}{note}"
            )
    lines.append("ratio = how many times faster torsion is than that engine on that workload")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", default=[], help="area name(s): world, collision, hal, simx, ...")
    parser.add_argument("--quick", action="store_true", help="short runs")
    parser.add_argument("--json", type=Path, help="write the results to this JSON file")
    args = parser.parse_args(argv)

    modules = discover()
    if args.only:
        modules = [m for m in modules if m[len("bench_"):] in args.only]
        if not modules:
            parser.error(f"no benchmark module matches {args.only}; have {discover()}")
    results: list[Result] = []
    for name in modules:
        mod = importlib.import_module(f"benchmarks.{name}")
        print(f"# {name} ...", file=sys.stderr, flush=True)
        results.extend(mod.benchmarks(args.quick))
    print(format_table(results))
    if args.json:
        meta = {"python": sys.version.split()[0], "machine": platform.machine(), "processor": platform.processor()}
        args.json.write_text(json.dumps({"meta": meta, "results": [r.to_dict() for r in results]}, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
