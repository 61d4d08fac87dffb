"""The robot side in another process: lockstep commands through shared memory, restarts of either
side, a taken port, stale segments."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import torsion
from torsion import hal
from torsion.hal import shm

_PYTHONPATH = str(Path(torsion.__file__).resolve().parent.parent)

# The robot program: for i in [first, last], command every actuator to 1e-4 * i at stiffness 1, then
# wait until the simulator applied it; check the sensors it gets back are whole cycles.
ROBOT = textwrap.dedent("""
    import sys, time
    import numpy as np
    from torsion import hal
    port, first, last = (int(a) for a in sys.argv[1:4])
    c = hal.RobotClient(port)
    deadline = time.monotonic() + 20
    while True:
        try:
            c.start()
            break
        except hal.HALDisconnected:
            if time.monotonic() > deadline:
                sys.exit("no HAL")
            time.sleep(0.01)
    names = c.actuator_names()
    for i in range(first, last + 1):
        cmd = {n: (1e-4 * i, 1.0) if not n.startswith(("ChestBoard", "Face")) else 1e-4 * i for n in names}
        while True:
            try:
                c.set_actuators(cmd)
                break
            except hal.HALDisconnected:  # the simulator restarts: wait for it
                c.wait_cycle(timeout=0.05)
        if not c.wait_cycle(timeout=20):
            sys.exit(f"cycle {i}: no answer")
        values, cycle, applied, t = c.read_sensor_array()
        if not np.isfinite(values).all():
            sys.exit(f"cycle {i}: sensor block not whole: {values}")
    c.stop()
    print("done", flush=True)
""")


def _spawn(port, first, last):
    env = dict(os.environ, PYTHONPATH=_PYTHONPATH)
    return subprocess.Popen([sys.executable, "-c", ROBOT, str(port), str(first), str(last)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _new_sim(port):
    w = torsion.World()
    w.add_ground()
    return hal.Simulation(w, hal.Model.bundled("nao"), port=port, hal_period=0.002, cameras=False)


def test_robot_process_drives_the_simulation_1000_cycles_through_restarts(port):
    model = hal.Model.bundled("nao")
    start = np.array([a.start_value for a in model.actuators()])
    seen = []  # the command indices the simulator applied, in order
    torn = []
    sim = _new_sim(port)
    procs = [_spawn(port, 1, 500)]
    restarted_sim = restarted_robot = False
    deadline = time.monotonic() + 120
    try:
        while True:
            assert time.monotonic() < deadline, f"timed out; last command seen {seen[-1:] }"
            sim.step()
            values, stiffness, counter = sim.last_command
            if not np.isnan(values).all():
                if np.all(values == values[0]):
                    i = int(round(values[0] / 1e-4))
                    if not seen or seen[-1] != i:
                        seen.append(i)
                elif not np.array_equal(values, start):
                    torn.append(values.copy())
            if not restarted_sim and seen and seen[-1] >= 250:
                # the simulator side restarts: a new HAL (and world) on the same port
                sim.close()
                sim = _new_sim(port)
                restarted_sim = True
            if not restarted_robot and seen and seen[-1] == 500 and procs[0].poll() is not None:
                procs.append(_spawn(port, 501, 1000))  # the robot side restarts
                restarted_robot = True
            if seen and seen[-1] == 1000 and procs[-1].poll() is not None:
                break
            if any(p.poll() not in (None, 0) for p in procs):
                break
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            out, err = p.communicate(timeout=30)
            assert p.returncode == 0, f"robot process failed: {err[-2000:]}"
            assert out.strip() == "done"
        sim.close()
    assert not torn
    assert seen == list(range(1, 1001)), "lost or reordered commands"
    assert restarted_sim and restarted_robot


def test_port_taken_by_another_process(port):
    env = dict(os.environ, PYTHONPATH=_PYTHONPATH)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from torsion import hal; h = hal.HALInterface(hal.Model.bundled('wheeled'),"
         f" {port}); print('ready', flush=True); sys.stdin.read(); h.close()"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(RuntimeError, match=f"HAL port {port} is taken: process {holder.pid}"):
            hal.HALInterface(hal.Model.bundled("nao"), port)
        # a robot client of another model sees that HAL's devices
        c = hal.RobotClient(port)
        c.start()
        assert "WheelL/Speed" in c.actuator_names()
        c.stop()
    finally:
        holder.communicate("", timeout=30)
    assert holder.returncode == 0
    with hal.HALInterface(hal.Model.bundled("nao"), port):
        pass  # free again


def test_stale_segment_of_a_dead_hal_is_replaced(port):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    first = hal.HALInterface(hal.Model.bundled("wheeled"), port)
    first._seg.header[shm.H_SIM_PID] = dead.pid  # as if the HAL's process had died without closing
    second = hal.HALInterface(hal.Model.bundled("nao"), port)
    try:
        c = hal.RobotClient(port)
        c.start()
        assert "HeadYaw" in c.actuator_names() and "LHand" in c.actuator_names()
        c.stop()
    finally:
        second.close()
        first.close()  # its segment is already gone: closing is quiet


def test_robot_side_claims_the_robot(port):
    with hal.HALInterface(hal.Model.bundled("wheeled"), port) as h:
        env = dict(os.environ, PYTHONPATH=_PYTHONPATH)
        other = subprocess.Popen(
            [sys.executable, "-c", f"import sys; from torsion import hal; c = hal.RobotClient({port}); c.start(); "
             "print('ready', flush=True); sys.stdin.read(); c.stop()"],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert other.stdout.readline().strip() == "ready"
            with pytest.raises(RuntimeError, match=f"process {other.pid} already drives this robot"):
                hal.RobotClient(port).start()
        finally:
            other.communicate("", timeout=30)
        c = hal.RobotClient(port)  # released by stop()
        c.start()
        c.stop()
        assert h.robot_started()


def test_hal_survives_a_robot_dying_mid_write(port):
    """A robot process killed between the two counter increments leaves the command block's
    counter odd: the HAL waits briefly, sees the writer is dead, and carries on."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    w = torsion.World()
    w.add_ground()
    with hal.Simulation(w, hal.Model.bundled("wheeled"), port=port, cameras=False) as sim:
        c = hal.RobotClient(port)
        c.start()
        c.set_actuator("WheelL/Speed", 2.0)
        seg = sim.hal._seg
        seg.cmd_head[shm.C_SEQ] += 1  # mid-write...
        seg.header[shm.H_ROBOT_PID] = dead.pid  # ...by a process that is gone
        sim.step()
        assert sim.last_command[0][0] == 2.0
        assert int(seg.cmd_head[shm.C_SEQ]) % 2 == 0
        c.stop()


def test_malformed_segment_is_refused(port):
    from multiprocessing import shared_memory

    name = shm.segment_name(port)
    raw = shared_memory.SharedMemory(name=name, create=True, size=4096)
    try:
        h = np.ndarray((32,), dtype="<u8", buffer=raw.buf)
        h[shm.H_VERSION], h[shm.H_NACT], h[shm.H_DIR_OFF], h[shm.H_DIR_LEN] = shm.LAYOUT_VERSION, 10 ** 9, 256, 2
        raw.buf[256:258] = b"{}"
        h[shm.H_OPEN], h[shm.H_SIM_PID], h[shm.H_MAGIC] = 1, os.getpid(), shm.MAGIC
        del h
        with pytest.raises(RuntimeError, match="malformed torsion HAL segment"):
            hal.RobotClient(port).start()
        raw.buf[0:8] = b"\0" * 8  # no magic: a segment still being created, or someone else's
        with pytest.raises(hal.HALDisconnected):
            hal.RobotClient(port).start()
    finally:
        raw.close()
        raw.unlink()


HAMMER = textwrap.dedent("""
    import sys, time
    import numpy as np
    from torsion import hal
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    c = hal.RobotClient(port)
    c.start()
    n = len(c.actuator_names())
    # write commands as fast as possible, and check every sensor snapshot the HAL publishes is
    # whole: for at least `seconds`, and until enough of each kind of copy overlapped the other
    # side's (how many fit in a second depends on the machine's load); 120 s at most
    start = time.monotonic()
    i = writes = reads = images = 0
    last_cycle = -1
    cycles = set()
    while not (time.monotonic() - start >= seconds and writes > 300 and reads > 300 and images > 30
               and len(cycles) > 150):
        if time.monotonic() - start > 120:
            sys.exit(f"too few copies in 120 s: {writes} writes, {reads} reads, {images} images")
        i += 1
        c.set_actuator_array(np.full(n, float(i)))
        writes += 1
        values, cycle, applied, t = c.read_sensor_array()
        if cycle:
            if not (values == values[0]).all() or values[0] != cycle or cycle < last_cycle:
                sys.exit(f"torn or stale sensor snapshot: cycle {cycle}, values {values[:4]}...")
            last_cycle = cycle
            cycles.add(cycle)
            reads += 1
        img = c.read_sensor("CameraTop")  # 640x480 RGB images of one grey level each
        if img is not None:
            if not (img == img[0, 0, 0]).all():
                sys.exit(f"torn image: levels {np.unique(img)[:8]}")
            images += 1
    c.stop()
    print(writes, reads, images, flush=True)
""")


def test_no_torn_blocks_under_contention(port):
    """Both sides write and read their blocks as fast as they can for a while: every command the
    HAL copies has one value throughout, and so does every sensor block and every 640x480 image
    (a copy long enough to overlap the writer's often: without the sequence lock on the reading
    side this test fails within the second) the robot copies."""
    model = hal.Model.bundled("nao")
    with hal.HALInterface(model, port) as h:
        n_sens = sum(v[1] for v in h.sensor_slots().values())
        env = dict(os.environ, PYTHONPATH=_PYTHONPATH)
        proc = subprocess.Popen([sys.executable, "-c", HAMMER, str(port), "1.0"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        fetched = 0
        cycle = 0
        values = np.empty((2, len(model.actuators())))
        start = np.array([a.start_value for a in model.actuators()])
        frame = np.zeros((480, 640, 3), np.uint8)
        try:
            while proc.poll() is None:
                v, s, counter = h.fetch_actuator_arrays(values)
                if counter:  # the first write is start()'s start values, then uniform commands
                    assert np.all(v == v[0]) or np.array_equal(v, start), f"torn command {v}"
                    fetched += 1
                cycle += 1
                h.send_sensor_array(np.full(n_sens, float(cycle)), cycle, counter, 0.0)
                if cycle % 8 == 0:  # a camera writes a frame per several cycles: a writer
                    # rewriting the 0.9 MB block back to back would leave a reader no window
                    frame[:] = cycle % 251
                    h.send_camera_sensor_value("CameraTop", frame)
        finally:
            out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err[-2000:]
        writes, reads, images = (int(x) for x in out.split())
        assert writes > 100 and reads > 100 and images > 20 and fetched > 100, (writes, reads, images, fetched)
