"""Gymnasium environments: vector env throughput and its Python overhead.

Workloads (N = 64 sub-environments, random actions drawn once, observation and reward included,
autoresets as they come):
  - torsion/Quadruped-v0 as the WorldBatch vector env (make_vec "vector_entry_point", 2 threads)
    against a Gymnasium SyncVectorEnv of 64 single torsion/Quadruped-v0 environments, and against
    Gymnasium's MuJoCo Ant-v5 vector env (make_vec: SyncVectorEnv, Ant has no vector entry point).
    Unit: environment steps per second (one env step = 4 physics steps of 5 ms for the quadruped,
    5 of 10 ms for Ant: different robots and tasks, the same RL interface).
  - Python overhead per environment step: the CPU time of the Python thread outside the physics
    call, per environment step: (thread CPU time of the vector step - thread CPU time inside the
    physics call) / N, clocked over the same steps (the physics call is wrapped with a timer:
    torsion's batch.integrate, Ant-v5's mujoco.mj_step(model, data, nstep=frame_skip) per
    sub-env), the least of 25 short runs. Thread CPU time (time.thread_time) does not count the time
    the thread waits for a core, but on a loaded machine it still grows with the contention for
    the caches and the other hyperthread of the core: many short runs make it likely that one ran
    undisturbed, and their least is the code's own cost (timeit's advice). Goal: <= 1 us per env
    step at N = 64.
"""

from __future__ import annotations

import time

import numpy as np

from torsion.bench._common import Result, optional_import, time_per_call_us

N = 64


class _Clock:
    """Wraps a callable and adds up the calling thread's CPU time spent in it."""

    def __init__(self, fn):
        self.fn, self.total = fn, 0.0

    def __call__(self, *args, **kwargs):
        t0 = time.thread_time()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.total += time.thread_time() - t0


def _actions(env):
    rng = np.random.default_rng(0)
    return rng.uniform(-1, 1, (N,) + env.single_action_space.shape).astype(np.float32)


def _vector_rate(env, repeats: int, min_time: float) -> float:
    actions = _actions(env)
    env.reset(seed=0)
    t = time_per_call_us(lambda: env.step(actions), repeats, min_time)
    return N / (t * 1e-6)


def _overhead_us(env, clocks: list, steps: int, repeats: int = 25) -> tuple[float, float, float]:
    """(overhead per env step, step, physics), us of thread CPU time: the run of ``steps`` steps
    with the least overhead of ``repeats`` (as timeit advises for the cost of code itself)."""
    actions = _actions(env)
    env.reset(seed=0)
    for _ in range(10):
        env.step(actions)
    runs = []
    for _ in range(repeats):
        for c in clocks:
            c.total = 0.0
        t0 = time.thread_time()
        for _ in range(steps):
            env.step(actions)
        wall = (time.thread_time() - t0) / steps
        phys = sum(c.total for c in clocks) / steps
        runs.append(((wall - phys) / N * 1e6, wall * 1e6, phys * 1e6))
    return min(runs)


def benchmarks(quick: bool) -> list[Result]:
    gym = optional_import("gymnasium")
    if gym is None:
        print("bench_envs: gymnasium not installed (pip install \"torsion[gym]\"), skipped")
        return []
    import torsion.envs  # noqa: F401

    repeats = 3 if quick else 5
    min_time = 0.1 if quick else 0.3
    out: list[Result] = []
    work = f"vector env, {N} quadrupeds, obs + reward (env-steps/s)"
    over = f"Python overhead per env step, N = {N} (us)"

    steps = 20 if quick else 40
    vec = gym.make_vec("torsion/Quadruped-v0", num_envs=N, vectorization_mode="vector_entry_point",
                       num_threads=2)
    out.append(Result(work, "torsion", _vector_rate(vec, repeats, min_time), "steps/s",
                      note="WorldBatch, 2 threads"))
    sim = vec.unwrapped.sim
    clock = _Clock(sim.integrate)
    sim.integrate = clock
    o, t_step, t_phys = _overhead_us(vec, [clock], steps)
    out.append(Result(over, "torsion", o, "us", higher_is_better=False,
                      note=f"thread CPU: step {t_step:.0f} us, physics call {t_phys:.0f} us"))
    vec1 = gym.make_vec("torsion/Quadruped-v0", num_envs=N, vectorization_mode="vector_entry_point",
                        num_threads=1)
    out.append(Result(work, "torsion-1thread", _vector_rate(vec1, repeats, min_time), "steps/s",
                      note="WorldBatch, 1 thread"))
    sync = gym.make_vec("torsion/Quadruped-v0", num_envs=N, vectorization_mode="sync")
    out.append(Result(work, "torsion-sync", _vector_rate(sync, repeats, min_time), "steps/s",
                      note="SyncVectorEnv of single envs"))
    clocks = []
    for e in sync.envs:
        clocks.append(_Clock(e.unwrapped.sim.integrate))
        e.unwrapped.sim.integrate = clocks[-1]
    o, t_step, t_phys = _overhead_us(sync, clocks, steps)
    out.append(Result(over, "torsion-sync", o, "us", higher_is_better=False,
                      note=f"SyncVectorEnv; thread CPU: step {t_step:.0f} us, physics {t_phys:.0f} us"))

    mujoco = optional_import("mujoco")
    if mujoco is not None:
        try:
            ant = gym.make_vec("Ant-v5", num_envs=N, vectorization_mode="sync")
        except Exception as exc:  # gymnasium's MuJoCo environments unavailable
            print(f"bench_envs: Ant-v5 unavailable ({exc}); skipped")
            return out
        skip = ant.envs[0].unwrapped.frame_skip
        out.append(Result(work, "mujoco-Ant-v5", _vector_rate(ant, repeats, min_time), "steps/s",
                          note=f"Gymnasium SyncVectorEnv, frame_skip {skip}"))
        clocks = []
        for e in ant.envs:
            base = e.unwrapped
            clocks.append(_Clock(base._step_mujoco_simulation))
            base._step_mujoco_simulation = clocks[-1]
        o, t_step, t_phys = _overhead_us(ant, clocks, max(steps // 4, 10))
        out.append(Result(over, "mujoco-Ant-v5", o, "us", higher_is_better=False,
                          note=f"thread CPU: step {t_step:.0f} us, mj_step {t_phys:.0f} us"))
    return out
