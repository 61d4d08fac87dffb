"""Long IK computations (max_iterations up to 2**31-1) are interruptible by Ctrl-C.

SIGINT is sent to this process from a timer thread while the call runs with the GIL released;
the call must raise KeyboardInterrupt promptly (not after finishing all its iterations) and
leave the joints where it found them."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

import torsion.ik as ik


def _unreachable_2r():
    env = ik.Environment.from_chain([ik.ChainJoint(position=[0, 0, 0]),
                                     ik.ChainJoint(position=[1, 0, 0])],
                                    tip_position=[1, 0, 0],
                                    constraints=ik.Constraint.X | ik.Constraint.Y)
    env.target.set_transformation([5, 0, 0], [1, 0, 0, 0])  # out of reach: never converges
    env.forward_kinematics([0.3, -0.4])
    return env


def _interrupted(call):
    """Runs call() with SIGINT sent after 0.3 s; returns the seconds until KeyboardInterrupt."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - t0
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("which", ["handle", "handle_groups", "solve", "config_search"])
def test_ctrl_c_interrupts_long_ik_calls_and_restores_the_joints(which):
    # QA: handle() with max_iterations 2**31-1 ran ~27 minutes ignoring SIGINT. The counts here
    # take 20+ s uninterrupted (about 1 us per iteration), so that a KeyboardInterrupt raised only
    # when the call ends fails the timing check instead of hanging the suite
    env = _unreachable_2r()
    g = env.chain_group
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.1, 2 * 10**7)
    before = [j.position for j in env.chain_joints]
    calls = {
        "handle": g.handle,
        "handle_groups": lambda: env.handle_groups([g]),
        "solve": lambda: env.solve([5, 0, 0], [1, 0, 0, 0], max_iterations=100,
                                   max_restarts=3 * 10**6),
        "config_search": lambda: g.get_config_for_tip_pose(env.chain_joints, 0.0, 10**8),
    }
    elapsed = _interrupted(calls[which])
    assert elapsed < 3.0
    assert [j.position for j in env.chain_joints] == before
    # the environment is usable afterwards (not left busy)
    g.set_calculation(ik.Method.DAMPED_LEAST_SQUARES, 0.1, 3)
    g.handle()
    assert np.isfinite(env.chain_joints[0].position)
