"""HAL benchmark: what a HAL cycle costs above the bare physics step, for the NAO-like robot.

Scene: the bundled NAO-like robot (torsion.hal.Model.bundled("nao"): 33 dofs, 8 FSRs, 4 bumpers,
4 tactiles, 2 sonars of 81 rays, an IMU) standing on the ground under its angle actuators,
dt = 1 ms, hal_period = 10 ms (10 physics steps per cycle), cameras off (a camera frame is timed on
its own: a 160x120 ray-cast RGB image).

Workloads (us per HAL cycle; in-process figures are CPU time, cross-process ones wall time; the
issue's goals are the "goal" rows, so the ratio column reads
goal / torsion: >= 1 means the goal is met):
  - bare physics: World.integrate(10) with the PD targets set once (the floor);
  - in-process HAL overhead: Simulation.step() with a RobotClient in the same process writing every
    command (set_actuator_array, the standing pose) and reading the whole sensor block every
    cycle, minus the bare physics; the robot side's part of it on its own;
  - the transport alone: HALInterface.fetch_actuator_arrays + send_sensor_array (the shared memory
    hand-over without computing sensors), in-process;
  - across processes: a robot process in lockstep with the simulator (write commands by name,
    the standing pose as in the bare run, wait until they are applied, read the sensors), wall
    time per robot cycle minus the bare physics, with
    the simulator running free (a robot cycle then spans about two simulator cycles: the
    simulator fetches right after it sends, before the robot answers) and with the simulator
    waiting for each command (Simulation.step(wait_for_command)), the mean over the run and, for
    the latter, the median cycle (on a shared machine a few cycles preempted by other processes
    for milliseconds move the mean); and the same ping-pong without physics or sensors (the
    transport's round trip).

There is no other NAOqi HAL simulator in the environment to run side by side; the bare physics
step measured in the same run is the reference.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np

from torsion.bench._common import Result

import gc
import statistics

PORT_BASE = 47000 + os.getpid() % 1000


def cpu_us_per_call(fn, repeats: int = 3, min_time: float = 0.2) -> float:
    """Median CPU time of the calling thread for one fn() call in microseconds (a single world steps on
    this thread; a thread pool spinning after a batch would otherwise be charged to the HAL). The machines
    running these benchmarks are shared: wall time includes waiting for a core, CPU time does not,
    and the in-process HAL is pure computation."""
    gc.collect()
    n = 1
    while True:
        t0 = time.thread_time()
        for _ in range(n):
            fn()
        if time.thread_time() - t0 >= min_time or n >= 1 << 24:
            break
        n *= 2
    runs = []
    for _ in range(repeats):
        t0 = time.thread_time()
        for _ in range(n):
            fn()
        runs.append((time.thread_time() - t0) / n * 1e6)
    return statistics.median(runs)


def _nao(port, cameras=False):
    import torsion
    from torsion import hal

    w = torsion.World()
    w.add_ground()
    sim = hal.Simulation(w, hal.Model.bundled("nao"), port=port, hal_period=0.01, cameras=cameras)
    return w, sim


ROBOT = textwrap.dedent("""
    import sys, time
    from torsion import hal
    port, cycles = int(sys.argv[1]), int(sys.argv[2])
    c = hal.RobotClient(port)
    while True:
        try:
            c.start(); break
        except hal.HALDisconnected:
            time.sleep(0.005)
    names = [n for n in c.actuator_names() if "Led" not in n and "Hand" not in n]
    # the standing pose (the start values), commanded anew every cycle: the physics then does the
    # bare run's work (moving targets would make it costlier: ~25 % more for a 1e-4 rad wiggle)
    pose = {a.name: float(a.start_value) for a in hal.Model.bundled("nao").actuators()}
    c.wait_cycle(timeout=10)
    lap = [0.0] * cycles
    t0 = time.perf_counter()
    for i in range(cycles):
        c.set_actuators({n: pose[n] for n in names})
        if not c.wait_cycle(timeout=10):
            sys.exit("no answer")
        c.read_sensor_array()
        lap[i] = time.perf_counter()
    mean = (lap[-1] - t0) / cycles * 1e6
    each = sorted(b - a for a, b in zip([t0] + lap[:-1], lap))
    print(mean, each[cycles // 2] * 1e6, flush=True)
    c.stop()
""")


def _robot_process(port, cycles):
    import torsion

    env = dict(os.environ, PYTHONPATH=str(Path(torsion.__file__).resolve().parent.parent))
    return subprocess.Popen([sys.executable, "-c", ROBOT, str(port), str(cycles)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _cross_process(port, cycles, step):
    """Wall time (us) per robot cycle while this process runs step() until the robot is done: the
    mean over the run and the median cycle (a cycle the machine's other load preempted weighs on
    the mean only)."""
    proc = _robot_process(port, cycles)
    deadline = time.monotonic() + 300
    while proc.poll() is None:
        step()
        if time.monotonic() > deadline:
            proc.kill()
            break
    out, err = proc.communicate(timeout=60)
    if proc.returncode != 0:
        raise RuntimeError(f"robot process failed: {err[-1000:]}")
    mean, median = (float(x) for x in out.split())
    return mean, median


def benchmarks(quick: bool) -> list[Result]:
    from torsion import hal

    results: list[Result] = []
    port = PORT_BASE
    w, sim = _nao(port)
    client = hal.RobotClient(port)
    client.start()
    names = sim.model.actuator_names("angle")
    for _ in range(20):
        sim.step()
    min_time = 0.1 if quick else 0.3

    start = np.array([a.start_value for a in sim.model.actuators()])

    def hal_cycle_with_commands():
        # the robot side's fast path: every command at once (the standing pose, so that the
        # physics does the same work as the bare run), the simulator's cycle, the sensor block
        client.set_actuator_array(start)
        sim.step()
        client.read_sensor_array()

    def robot_side():
        client.set_actuator_array(start)
        client.read_sensor_array()

    def bare():
        w.integrate(10)

    # interleave the measurements so that they share the machine's load
    bare_us, cycle_us = [], []
    for _ in range(2 if quick else 3):
        bare_us.append(cpu_us_per_call(bare, repeats=3, min_time=min_time))
        cycle_us.append(cpu_us_per_call(hal_cycle_with_commands, repeats=3, min_time=min_time))
    bare_t, cycle_t = float(np.median(bare_us)), float(np.median(cycle_us))
    overhead = max(cycle_t - bare_t, 0.0)

    vals = np.empty((2, len(sim.model.actuators())))
    sens = np.zeros(len(sim._sens))

    def transport():
        sim.hal.fetch_actuator_arrays(vals)
        sim.hal.send_sensor_array(sens, 1, 1, 0.0)

    transport_t = cpu_us_per_call(transport, repeats=3, min_time=min_time)

    robot_side_t = cpu_us_per_call(robot_side, repeats=3, min_time=min_time)

    def camera():
        sim.render_camera("CameraTop", 160, 120, send=True)

    camera_t = cpu_us_per_call(camera, repeats=3, min_time=min_time)
    client.stop()
    sim.close()

    wl = "hal nao (33 dof, 10 x 1 ms steps/cycle): "
    results.append(Result(wl + "bare physics step", "torsion", bare_t, "us/cycle", higher_is_better=False))
    results.append(Result(wl + "HAL overhead, in-process", "torsion", overhead, "us/cycle", higher_is_better=False,
                          note=f"cycle {cycle_t:.0f} us = physics {bare_t:.0f} + overhead",
                          extra={"cycle_us": cycle_t, "bare_us": bare_t}))
    results.append(Result(wl + "HAL overhead, in-process", "goal", 10.0, "us/cycle", higher_is_better=False))
    results.append(Result("hal robot side: set_actuator_array + read_sensor_array", "torsion", robot_side_t,
                          "us/cycle", higher_is_better=False, note="part of the overhead above"))
    results.append(Result("hal transport alone (fetch all + send all), in-process", "torsion", transport_t,
                          "us/cycle", higher_is_better=False))
    results.append(Result("hal transport alone (fetch all + send all), in-process", "goal", 10.0, "us/cycle",
                          higher_is_better=False))
    results.append(Result("hal camera frame 160x120 RGB (ray-cast, Lambert)", "torsion", camera_t, "us/frame",
                          higher_is_better=False))

    # across processes: lockstep with a robot process
    cycles = 300 if quick else 1000
    port += 1
    w, sim = _nao(port)
    try:
        proc_cycle, proc_med = _cross_process(port, cycles, sim.step)
    finally:
        sim.close()
    # a robot cycle spans about two simulator cycles here (the simulator fetches right after it
    # sends, before the robot answers), so its overhead is what lies above two physics steps;
    # the goal is compared with the lockstep-both-ways rows below, where a cycle is one step
    results.append(Result(wl + "robot cycle, simulator free-running", "torsion", proc_cycle,
                          "us/cycle", higher_is_better=False,
                          note=f"mean; median {proc_med:.0f} us; above two physics steps: "
                               f"{proc_cycle - 2 * bare_t:.0f} us"))

    # the same with a simulator that waits for each command (Simulation.step(wait_for_command)):
    # lockstep both ways, so a robot cycle is one simulator cycle plus the hand-overs
    port += 1
    w, sim = _nao(port)
    try:
        proc_cycle_w, proc_med_w = _cross_process(port, cycles, lambda: sim.step(wait_for_command=0.05))
    finally:
        sim.close()
    # (names short enough to tell apart in the table; the simulator waits for each command)
    wl_w = "hal nao overhead across processes, lockstep both ways"
    results.append(Result(wl_w, "torsion", max(proc_cycle_w - bare_t, 0.0), "us/cycle", higher_is_better=False,
                          note=f"mean robot cycle {proc_cycle_w:.0f} us wall over {cycles}, physics {bare_t:.0f}"))
    results.append(Result(wl_w, "goal", 50.0, "us/cycle", higher_is_better=False))
    results.append(Result(wl_w + ", median", "torsion", max(proc_med_w - bare_t, 0.0), "us/cycle",
                          higher_is_better=False, note=f"median robot cycle {proc_med_w:.0f} us wall, physics {bare_t:.0f}"))
    results.append(Result(wl_w + ", median", "goal", 50.0, "us/cycle", higher_is_better=False))

    # the transport's round trip across processes, no physics and no sensors computed
    port += 1
    from torsion.hal import HALInterface, Model

    h = HALInterface(Model.bundled("nao"), port)
    state = {"cycle": 0}

    def serve():
        _v, _s, counter = h.fetch_actuator_arrays(vals)
        state["cycle"] += 1
        h.send_sensor_array(sens, state["cycle"], counter, 0.0)

    try:
        rt, _rt_med = _cross_process(port, cycles * 3, serve)
    finally:
        h.close()
    results.append(Result("hal transport round trip across processes (lockstep)", "torsion", rt, "us/cycle",
                          higher_is_better=False))
    results.append(Result("hal transport round trip across processes (lockstep)", "goal", 50.0, "us/cycle",
                          higher_is_better=False))
    return results


if __name__ == "__main__":
    from torsion.bench.run import format_table

    print(format_table(benchmarks(quick="--quick" in sys.argv)))
