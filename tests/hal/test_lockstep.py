"""Simulation.step(wait_for_command=...): a simulator that waits for each new command applies a
lockstep robot side's commands one per cycle, in order, each in the cycle right after it was
written."""

import threading

import numpy as np
import pytest

import torsion
from torsion import hal


def test_waiting_simulator_applies_each_command_in_the_next_cycle(port):
    w = torsion.World()
    w.add_ground()
    with hal.Simulation(w, hal.Model.bundled("wheeled"), port=port, cameras=False) as sim:
        c = hal.RobotClient(port)
        c.start()
        n = len(c.actuator_names())
        cycles = 60
        errors = []

        def robot():  # lockstep: write command i, wait until a cycle applied it, read the sensors
            try:
                for i in range(1, cycles + 1):
                    c.set_actuator_array(np.full(n, 1e-3 * i))
                    if not c.wait_cycle(timeout=20):
                        errors.append(f"command {i}: no cycle applied it")
                        return
                    c.read_sensor_array()
            except Exception as e:  # reported by the main thread
                errors.append(repr(e))

        sim.step()  # applies start()'s start values
        t = threading.Thread(target=robot)
        t.start()
        applied = []
        try:
            for _ in range(cycles):
                sim.step(wait_for_command=20.0)
                values, _stiffness, counter = sim.last_command
                applied.append(int(round(values[0] / 1e-3)))
        finally:
            t.join(timeout=60)
        assert not t.is_alive() and not errors, errors
        # every command exactly once, in order: no cycle ran on a command it had already applied
        assert applied == list(range(1, cycles + 1))
        # no new command: the wait times out and the cycle runs with the last one
        cycle = sim.cycle
        assert sim.step(wait_for_command=0.001) == cycle + 1
        assert sim.last_command[2] == counter
        for bad in (-1.0, float("nan"), float("inf"), True, "1"):
            with pytest.raises(ValueError, match="wait_for_command"):
                sim.step(wait_for_command=bad)
        c.stop()
