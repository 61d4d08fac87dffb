"""HAL test fixtures: a fresh port per test and a check that no shared memory segment leaks."""

import itertools
import os
from pathlib import Path

import pytest

_SHM = Path("/dev/shm")
_counter = itertools.count()
# the ports this test process handed out (and the seed's default): only their segments are ours;
# another process on the machine (a second test run) may hold segments of its own meanwhile
_ours = {9559}


def _segments():
    if not _SHM.is_dir():
        return set()
    return {p.name for p in _SHM.glob("torsion_hal_*")} & {f"torsion_hal_{port}" for port in _ours}


def free_port() -> int:
    """A port no HAL uses: 20000..59999, spread by process id so parallel runs do not meet."""
    while True:
        port = 20000 + (os.getpid() * 7919 + next(_counter)) % 40000
        if not (_SHM / f"torsion_hal_{port}").exists():
            _ours.add(port)
            return port


@pytest.fixture
def port():
    return free_port()


@pytest.fixture(autouse=True)
def no_leaked_segments():
    before = _segments()
    yield
    leaked = _segments() - before
    if leaked:  # a HAL may wait for the garbage collector to close it
        import gc

        gc.collect()
        leaked = _segments() - before
    assert not leaked, f"shared memory segments left behind: {sorted(leaked)}"
