"""World-state benchmark: sleeping islands on a settled pile, and checkpoint capture/restore
against MuJoCo's mj_getState/mj_setState.

Scenes:
  - settled pile: 100 cubes of 0.1 m and 1 kg in 25 columns of 4 on the ground, dt = 1 ms. It is
    settled with sleeping on until every cube sleeps; then torsion steps it with sleeping on, and
    (same state, everything woken) with sleeping off. The ratio is the speed-up sleeping gives.
  - checkpoint: the same pile, mid-settling (contacts and warm starts present). torsion's
    capture_checkpoint()/restore_checkpoint() (the whole state: bodies, solver warm-start record,
    materials, settings, sleeping, sensor stream) against MuJoCo's mj_getState/mj_setState with
    mjSTATE_INTEGRATION (time, qpos, qvel, act, warm-start qacc, controls, applied forces, mocap)
    on an MJCF model of the same 100 free cubes. Also the torsion bytes round trip.
  - reset state: the same, with torsion's lean WorldState (World.capture_state(out=...) into a
    reused state, restore_state: the motion without the configuration) against the same
    mj_getState/mj_setState.
"""

from __future__ import annotations

import numpy as np

from torsion.bench._common import Result, optional_import, time_per_call_us, best_rate

N = 100
SIDE = 0.1
COLUMNS = 5


def cube_positions():
    rng = np.random.default_rng(7)
    out = []
    for k in range(N):
        layer, cell = divmod(k, COLUMNS * COLUMNS)
        i, j = divmod(cell, COLUMNS)
        jit = rng.uniform(-0.002, 0.002, size=2)
        out.append([i * 1.05 * SIDE + jit[0], j * 1.05 * SIDE + jit[1],
                    SIDE / 2 + layer * SIDE * 1.001 + 1e-4])
    return np.array(out)


def torsion_pile():
    import torsion

    w = torsion.World()
    w.set_time_step(1e-3)
    w.add_ground()
    for p in cube_positions():
        b = w.add_box(SIDE, SIDE, SIDE, 1.0)
        b.set_position(p)
    return w


def mujoco_pile(mujoco):
    bodies = "".join(
        f'<body pos="{p[0]} {p[1]} {p[2]}"><freejoint/><geom type="box" size="{SIDE / 2} '
        f'{SIDE / 2} {SIDE / 2}" mass="1"/></body>' for p in cube_positions())
    xml = (f'<mujoco><option timestep="0.001"/><worldbody><geom type="plane" size="5 5 0.1"/>'
           f'{bodies}</worldbody></mujoco>')
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    return m, d


def benchmarks(quick: bool) -> list[Result]:
    import torsion

    out: list[Result] = []
    steps = 50 if quick else 200
    repeats = 3 if quick else 5
    min_time = 0.05 if quick else 0.2

    # --- sleeping on a settled pile ---
    w = torsion_pile()
    w.set_sleeping_enabled(True)
    w.integrate(800)
    asleep = sum(w.is_object_sleeping(i) for i in range(1, w.get_object_count()))
    on = best_rate(lambda: w.integrate(steps), steps, repeats=repeats, min_time=min_time)
    w.set_sleeping_enabled(False)  # wakes everything: the same settled pile, awake
    off = best_rate(lambda: w.integrate(steps), steps, repeats=repeats, min_time=min_time)
    work = f"settled pile {N} cubes (dt 1 ms)"
    out.append(Result(work, "torsion", on, "steps/s", note=f"sleeping on, {asleep} asleep"))
    out.append(Result(work, "torsion-awake", off, "steps/s", note="sleeping off"))

    # --- checkpoints ---
    w = torsion_pile()
    w.integrate(100)
    cp = w.capture_checkpoint()
    work_c, work_r = f"state capture ({N} cubes)", f"state restore ({N} cubes)"
    out.append(Result(work_c, "torsion", time_per_call_us(w.capture_checkpoint, repeats, min_time),
                      "us/call", higher_is_better=False,
                      note=f"{cp.to_bytes().__len__()} bytes incl. warm starts"))
    out.append(Result(work_r, "torsion",
                      time_per_call_us(lambda: w.restore_checkpoint(cp), repeats, min_time),
                      "us/call", higher_is_better=False))
    out.append(Result(f"state to bytes + from bytes ({N} cubes)", "torsion",
                      time_per_call_us(lambda: torsion.Checkpoint.from_bytes(cp.to_bytes()),
                                       repeats, min_time), "us/call", higher_is_better=False))
    # the lean state for resets (World.capture_state / restore_state, into a reused WorldState)
    # against mj_getState / mj_setState, timed in alternation (best round of each: the machines
    # are shared and noisy)
    from torsion.bench.bench_articulated import interleaved_us

    lean = w.capture_state()
    fns = {"capture": lambda: w.capture_state(out=lean), "restore": lambda: w.restore_state(lean)}
    mujoco = optional_import("mujoco")
    if mujoco is not None:
        m, d = mujoco_pile(mujoco)
        for _ in range(100):
            mujoco.mj_step(m, d)
        spec = mujoco.mjtState.mjSTATE_INTEGRATION
        state = np.empty(mujoco.mj_stateSize(m, spec))
        fns["get"] = lambda: mujoco.mj_getState(m, d, state, spec)
        fns["set"] = lambda: mujoco.mj_setState(m, d, state, spec)
        mj_note = f"mjSTATE_INTEGRATION, {state.size * 8} bytes"
    best = interleaved_us(fns, rounds=4 * repeats, min_time=min_time / 4)
    work_lc, work_lr = f"reset state capture ({N} cubes)", f"reset state restore ({N} cubes)"
    out.append(Result(work_lc, "torsion", best["capture"], "us/call", higher_is_better=False,
                      note=f"WorldState, {lean.get_byte_size()} bytes incl. warm starts"))
    out.append(Result(work_lr, "torsion", best["restore"], "us/call", higher_is_better=False))
    if mujoco is not None:
        out.append(Result(work_lc, "mujoco", best["get"], "us/call", higher_is_better=False,
                          note=mj_note))
        out.append(Result(work_lr, "mujoco", best["set"], "us/call", higher_is_better=False))
        # the full checkpoint against the same calls (one timing, in the rows above)
        out.append(Result(work_c, "mujoco", best["get"], "us/call", higher_is_better=False,
                          note=mj_note))
        out.append(Result(work_r, "mujoco", best["set"], "us/call", higher_is_better=False))
    return out
