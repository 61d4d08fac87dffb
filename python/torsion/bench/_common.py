"""What every benchmark module shares: the result record, timing, and optional peer imports.

A benchmark module is ``torsion/bench/bench_<area>.py`` defining

    def benchmarks(quick: bool) -> list[Result]

which measures each workload for torsion and for every peer that is installed, in one run, and
returns one Result per (workload, engine). run.py collects them, prints a table with the ratio of
torsion to each peer on the same workload, and can write JSON. Absolute numbers on a shared,
noisy machine mean little; the ratios measured in the same run are what to report.
"""

from __future__ import annotations

import gc
import importlib
import statistics
import time
from dataclasses import asdict, dataclass, field


@dataclass
class Result:
    workload: str  # the same string for every engine measured on the same workload
    engine: str  # "torsion", "mujoco", "mujoco-cg", "pybullet", "pinocchio", ...
    value: float
    unit: str  # e.g. "steps/s", "rays/s", "us/call"
    higher_is_better: bool = True
    note: str = ""
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def optional_import(name: str):
    """The module, or None when it is not installed (install the `bench` extra for peers)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def best_rate(fn, items_per_call: float, repeats: int = 5, min_time: float = 0.2) -> float:
    """Items per second of ``fn()`` (which processes ``items_per_call`` items): the median of
    ``repeats`` timed runs, each long enough (>= min_time s) to dwarf the timer's resolution."""
    gc.collect()
    # calibrate how many calls make one run
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_time or n >= 1 << 30:
            break
        n *= 2
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        rates.append(n * items_per_call / (time.perf_counter() - t0))
    return statistics.median(rates)


def time_per_call_us(fn, repeats: int = 5, min_time: float = 0.2) -> float:
    """Median time of one ``fn()`` call in microseconds."""
    return 1e6 / best_rate(fn, 1.0, repeats=repeats, min_time=min_time)


def format_step_profile(profile: dict, title: str) -> str:
    """A table of World.get_step_profile()'s running sums: each stage's mean time per step (us)
    and its share of the step, in step order; stages that took no time are left out."""
    steps = max(profile["steps"], 1)
    total = profile["step_total"] or 1.0
    lines = [f"step profile: {title} ({profile['steps']} steps, "
             f"{1e6 * profile['step_total'] / steps:.1f} us/step)"]
    for stage, t in profile["total"].items():
        if t > 0.0:
            lines.append(f"  {stage:<28} {1e6 * t / steps:>10.2f} us {100.0 * t / total:>6.1f} %")
    return "\n".join(lines)
