"""The C++ sequence-locked copies of the HAL's per-cycle blocks (torsion._core._hal_*): what they
write is what the NumPy protocol of torsion.hal.shm reads and the other way round, a block left
mid-write is not copied, and bad buffers are refused. (Contention across processes:
test_process.py::test_no_torn_blocks_under_contention, which now runs through them.)"""

import numpy as np
import pytest

from torsion import _core, hal
from torsion.hal import shm


@pytest.fixture
def seg(port):
    h = hal.HALInterface(hal.Model.bundled("nao"), port)
    yield h._seg
    h.close()


def test_command_block_round_trip(seg):
    n = seg.cmd.shape[1]
    v, s = np.linspace(-1, 1, n), np.linspace(0, 1, n)
    before = int(seg.cmd_head[shm.C_SEQ])
    c0 = int(seg.cmd_head[shm.C_COUNTER])
    assert _core._hal_write_commands(seg.cmd_head, seg.cmd, v, s) == c0 + 1
    assert int(seg.cmd_head[shm.C_SEQ]) == before + 2  # odd while writing, even again
    assert int(seg.cmd_head[shm.C_COUNTER]) == c0 + 1
    np.testing.assert_array_equal(seg.cmd, [v, s])  # what the NumPy side reads
    out = np.empty((2, n))
    assert _core._hal_read_commands(seg.cmd_head, seg.cmd, out) == c0 + 1
    np.testing.assert_array_equal(out, [v, s])
    # a block a writer holds (odd counter) is not copied: None, the caller waits
    seg.cmd_head[shm.C_SEQ] += 1
    out[:] = 7.0
    assert _core._hal_read_commands(seg.cmd_head, seg.cmd, out) is None
    seg.cmd_head[shm.C_SEQ] += 1
    assert _core._hal_read_commands(seg.cmd_head, seg.cmd, out) == c0 + 1


def test_sensor_block_round_trip(seg):
    n = seg.sens.shape[0]
    vals = np.arange(n, dtype=float) * 0.5
    _core._hal_write_sensors(seg.sens_head, seg.sens, vals, 12, 34, 0.125)
    # the NumPy side's view of the block and its head words
    np.testing.assert_array_equal(seg.sens, vals)
    assert int(seg.sens_head[shm.S_CYCLE]) == 12 and int(seg.sens_head[shm.S_APPLIED]) == 34
    assert seg.sens_head_f[shm.S_TIME] == 0.125
    assert int(seg.sens_head[shm.S_SEQ]) % 2 == 0
    out = np.empty(n)
    assert _core._hal_read_sensors(seg.sens_head, seg.sens, out) == (12, 34, 0.125)
    np.testing.assert_array_equal(out, vals)
    seg.sens_head[shm.S_SEQ] += 1
    assert _core._hal_read_sensors(seg.sens_head, seg.sens, out) is None
    seg.sens_head[shm.S_SEQ] += 1


def test_bad_buffers_are_refused(seg):
    n = seg.sens.shape[0]
    with pytest.raises(TypeError, match="head must be a NumPy array"):
        _core._hal_read_sensors([0, 0, 0, 0], seg.sens, np.empty(n))
    with pytest.raises(ValueError, match="head must be .*uint64"):
        _core._hal_read_sensors(seg.sens_head_f, seg.sens, np.empty(n))
    with pytest.raises(ValueError, match="out must be a writable"):
        _core._hal_read_sensors(seg.sens_head, seg.sens, np.empty(n + 1))
    with pytest.raises(ValueError, match="out must be a writable"):
        _core._hal_read_sensors(seg.sens_head, seg.sens, np.empty(n, dtype=np.float32))
    ro = np.empty(n)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out must be a writable"):
        _core._hal_read_sensors(seg.sens_head, seg.sens, ro)
    with pytest.raises(ValueError, match="values must be"):
        _core._hal_write_sensors(seg.sens_head, seg.sens, np.zeros(n)[::-1], 1, 1, 0.0)
    m = seg.cmd.shape[1]
    with pytest.raises(ValueError, match="stiffness must be"):
        _core._hal_write_commands(seg.cmd_head, seg.cmd, np.zeros(m), np.zeros(m - 1))
    with pytest.raises(ValueError, match="cmd must hold 2 rows"):
        _core._hal_write_commands(seg.cmd_head, seg.cmd.reshape(-1)[:-1], np.zeros(m), np.zeros(m))
    with pytest.raises(ValueError, match="head must be"):
        _core._hal_write_commands(seg.cmd_head[:2], seg.cmd, np.zeros(m), np.zeros(m))
    # nothing was written by the refused calls
    assert int(seg.cmd_head[shm.C_SEQ]) % 2 == 0 and int(seg.sens_head[shm.S_SEQ]) % 2 == 0


def test_robot_side_reads_through_the_fallback_into_any_out(port):
    """read_sensor_array(out) with an out the fast path cannot fill (float32) still copies."""
    h = hal.HALInterface(hal.Model.bundled("nao"), port)
    try:
        n = h._seg.sens.shape[0]
        h.send_sensor_array(np.full(n, 2.5), 3, 0, 0.03)
        c = hal.RobotClient(port)
        out = np.empty(n, dtype=np.float32)
        got, cycle, applied, t = c.read_sensor_array(out)
        assert got is out and (out == 2.5).all() and (cycle, applied, t) == (3, 0, 0.03)
        got, cycle, _, _ = c.read_sensor_array()
        assert got.dtype == np.float64 and (got == 2.5).all() and cycle == 3
    finally:
        h.close()


def test_wait_change_returns_when_the_other_side_writes(seg):
    """_hal_wait_change waits for a counter word to move, with the GIL released: a thread of this
    process bumps the word while the main thread waits in the core."""
    import threading

    head = seg.cmd_head
    last = int(head[shm.C_COUNTER])
    # already different: True at once; unchanged: False once max_seconds is over (spin, then sleeps)
    assert _core._hal_wait_change(head, shm.C_COUNTER, last + 1, 0.0, 0.0) is True
    assert _core._hal_wait_change(head, shm.C_COUNTER, last, 1e-3, 0.01) is False
    assert _core._hal_wait_change(head, shm.C_COUNTER, last, 0.0, 0.0) is False
    n = seg.cmd.shape[1]
    started = threading.Event()

    def writer():
        started.set()
        _core._hal_write_commands(head, seg.cmd, np.zeros(n), np.ones(n))

    for spin in (5.0, 0.0):  # seen while spinning, and while sleeping
        last = int(head[shm.C_COUNTER])
        t = threading.Thread(target=writer)
        t.start()
        # the writer needs the GIL to run: a wait that held it would time out (False)
        assert _core._hal_wait_change(head, shm.C_COUNTER, last, spin, 10.0) is True
        t.join(10)
        assert started.is_set() and int(head[shm.C_COUNTER]) == last + 1


@pytest.mark.parametrize("args, err, match", [
    ((-1, 0, 0.0, 0.0), ValueError, "word must be >= 0"),
    ((64, 0, 0.0, 0.0), ValueError, "head must be"),
    ((1, 0, float("nan"), 0.0), ValueError, "spin_seconds must be"),
    ((1, 0, -1.0, 0.0), ValueError, "spin_seconds must be"),
    ((1, 0, 0.0, float("inf")), ValueError, "max_seconds must be"),
    ((1, 0, 0.0, -0.5), ValueError, "max_seconds must be"),
    ((1, -3, 0.0, 0.0), TypeError, "incompatible function arguments"),
])
def test_wait_change_refuses_bad_arguments(seg, args, err, match):
    with pytest.raises(err, match=match):
        _core._hal_wait_change(seg.cmd_head, *args)
    with pytest.raises(ValueError, match="head must be"):
        _core._hal_wait_change(seg.cmd, 1, 0, 0.0, 0.0)  # float64, not the uint64 head
