"""The HAL's shared memory segment: one per port, created by the HAL, attached by robot clients.

Layout (docs/hal.md has the table): a 256-byte header of little-endian uint64 words, a JSON
directory (device names, kinds and slots), the command block (written by the robot side), the
sensor block (written by the HAL) and one block per camera (written by the HAL). Every block that
holds more than one word starts with a sequence counter: the single writer makes it odd, writes,
and makes it even again; a reader copies the block between two reads of the counter and retries
while the counter is odd or has moved (a sequence lock), so no reader sees a half-written block.
Aligned 8-byte loads and stores are atomic on the platforms torsion builds for. The copies made
every cycle -- the robot side's command write and sensor read, the simulator's command read and
sensor write -- run in C++ (torsion._core._hal_write_commands, _hal_read_commands,
_hal_write_sensors, _hal_read_sensors) with the release and acquire fences the protocol needs on
any processor. The other blocks' updates (camera requests and images, the control words) are
made here with NumPy: their counter-data-counter order relies on the processor keeping stores in
order and loads in order, which x86-64 guarantees (TSO); on weakly ordered processors (arm64)
Python gives no fence between the calls, so there those locks are only as good as the ordering
the interpreter's own atomic operations happen to impose (untested).
"""

from __future__ import annotations

import json
import math
import mmap
import os
import secrets
import time
from multiprocessing import shared_memory
from typing import Optional

import numpy as np

MAGIC = int.from_bytes(b"TORSHAL1", "little")
LAYOUT_VERSION = 1
HEADER_BYTES = 256
BLOCK_HEAD = 64  # bytes before a block's data
ALIGN = 64

# header words (uint64 index)
H_MAGIC, H_VERSION, H_SIZE, H_NACT, H_NSENS, H_NCAM = 0, 1, 2, 3, 4, 5
H_DIR_OFF, H_DIR_LEN, H_CMD_OFF, H_SENS_OFF, H_CAM_OFF, H_CAM_SLOT = 6, 7, 8, 9, 10, 11
H_SIM_PID, H_OPEN, H_ROBOT_PID, H_ROBOT_GEN, H_INSTANCE = 12, 13, 14, 15, 16

# command block head words: seq, counter, camera index, width, height, colour space
C_SEQ, C_COUNTER, C_CAM, C_CAM_W, C_CAM_H, C_CAM_SPACE = 0, 1, 2, 3, 4, 5
# sensor block head words: seq, cycle, applied command counter, simulation time (f64 bits)
S_SEQ, S_CYCLE, S_APPLIED, S_TIME = 0, 1, 2, 3
# camera block head words: seq, frame, width, height, colour space, time (f64 bits)
K_SEQ, K_FRAME, K_W, K_H, K_SPACE, K_TIME = 0, 1, 2, 3, 4, 5

COLORSPACE_RGB, COLORSPACE_DEPTH = 0, 1

_PREFIX = "torsion_hal_"

#: how long a side waiting for the other (a new cycle, a new command) polls without sleeping
#: before it backs off to sleeps: a sleep costs the kernel's wake-up latency (~0.1 ms here) on
#: every hand-over, more than the 50 us a cycle may add; a HAL cycle's physics (10 ms of simulated
#: time for a humanoid) takes well under this
SPIN_SECONDS = 2e-3


def segment_name(port) -> str:
    if isinstance(port, bool) or not isinstance(port, (int, np.integer)) or not 1 <= int(port) <= 65535:
        raise ValueError(f"port must be an integer in [1, 65535], got {port!r}")
    return f"{_PREFIX}{int(port)}"


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _RawSegment:
    """An existing POSIX shared memory segment mapped without the multiprocessing resource
    tracker (which would unlink the HAL's segment when a client process exits; Python 3.13's
    SharedMemory(track=False) does the same)."""

    def __init__(self, name: str):
        import _posixshmem  # the module SharedMemory itself uses

        fd = _posixshmem.shm_open("/" + name, os.O_RDWR, mode=0o600)
        try:
            size = os.fstat(fd).st_size
            self._mmap = mmap.mmap(fd, size)
        finally:
            os.close(fd)
        self.buf = memoryview(self._mmap)
        self.name = name
        self.size = size

    def close(self):
        self.buf.release()
        self._mmap.close()


def _attach(name: str):
    try:
        return shared_memory.SharedMemory(name=name, create=False, track=False)  # Python >= 3.13
    except TypeError:
        return _RawSegment(name)


class Segment:
    """A mapped HAL segment with typed views of its blocks. ``create`` makes a new one for a HAL
    (RuntimeError when a live HAL holds the port); ``attach`` maps an existing one."""

    def __init__(self, shm, owner: bool):
        self.shm = shm
        self.owner = owner
        buf = shm.buf
        self.header = np.ndarray((HEADER_BYTES // 8,), dtype="<u8", buffer=buf)
        h = self.header
        if int(h[H_MAGIC]) != MAGIC or int(h[H_VERSION]) != LAYOUT_VERSION:
            self.header = None
            raise RuntimeError(f"shared memory {shm.name!r} is not a torsion HAL segment of layout {LAYOUT_VERSION}")
        try:
            self._map(shm, buf, h)
        except (ValueError, TypeError, KeyError, UnicodeDecodeError) as exc:
            self._drop_views()
            raise RuntimeError(f"shared memory {shm.name!r} is a malformed torsion HAL segment: {exc}") from None
        self.name = shm.name

    def _map(self, shm, buf, h):
        if int(h[H_SIZE]) != shm.size and int(h[H_SIZE]) > shm.size:
            raise ValueError(f"segment size {int(h[H_SIZE])} exceeds the mapping ({shm.size})")
        n_act, n_sens, n_cam = int(h[H_NACT]), int(h[H_NSENS]), int(h[H_NCAM])
        d_off, d_len = int(h[H_DIR_OFF]), int(h[H_DIR_LEN])
        self.directory = json.loads(bytes(buf[d_off:d_off + d_len]).decode("utf-8"))
        c_off = int(h[H_CMD_OFF])
        self.cmd_head = np.ndarray((BLOCK_HEAD // 8,), dtype="<u8", buffer=buf, offset=c_off)
        self.cmd_head_i = np.ndarray((BLOCK_HEAD // 8,), dtype="<i8", buffer=buf, offset=c_off)
        self.cmd = np.ndarray((2, n_act), dtype="<f8", buffer=buf, offset=c_off + BLOCK_HEAD)  # values, stiffness
        s_off = int(h[H_SENS_OFF])
        self.sens_head = np.ndarray((BLOCK_HEAD // 8,), dtype="<u8", buffer=buf, offset=s_off)
        self.sens_head_f = np.ndarray((BLOCK_HEAD // 8,), dtype="<f8", buffer=buf, offset=s_off)
        self.sens = np.ndarray((n_sens,), dtype="<f8", buffer=buf, offset=s_off + BLOCK_HEAD)
        k_off, k_slot = int(h[H_CAM_OFF]), int(h[H_CAM_SLOT])
        self.cam_heads, self.cam_heads_f, self.cam_data = [], [], []
        for i in range(n_cam):
            off = k_off + i * k_slot
            self.cam_heads.append(np.ndarray((BLOCK_HEAD // 8,), dtype="<u8", buffer=buf, offset=off))
            self.cam_heads_f.append(np.ndarray((BLOCK_HEAD // 8,), dtype="<f8", buffer=buf, offset=off))
            self.cam_data.append(np.ndarray((k_slot - BLOCK_HEAD,), dtype=np.uint8, buffer=buf, offset=off + BLOCK_HEAD))
        d = self.directory
        if (not isinstance(d, dict) or len(d.get("actuators", ())) != n_act or len(d.get("cameras", ())) != n_cam
                or sum(x["size"] for x in d.get("sensors", ())) != n_sens):
            raise ValueError("the directory does not match the header")

    # -- life cycle
    @classmethod
    def create(cls, port: int, directory: dict, n_act: int, n_sens: int, cam_bytes: list) -> "Segment":
        name = segment_name(port)
        dir_bytes = json.dumps(directory, separators=(",", ":")).encode("utf-8")
        d_off = HEADER_BYTES
        c_off = _align(d_off + len(dir_bytes))
        s_off = _align(c_off + BLOCK_HEAD + 16 * n_act)
        k_off = _align(s_off + BLOCK_HEAD + 8 * n_sens)
        k_slot = _align(BLOCK_HEAD + max(cam_bytes, default=0))
        size = k_off + k_slot * len(cam_bytes)
        shm = None
        for _attempt in range(2):
            try:
                shm = shared_memory.SharedMemory(name=name, create=True, size=size)
                break
            except FileExistsError:
                holder = _live_holder(name)
                if holder is not None:
                    raise RuntimeError(
                        f"HAL port {int(port)} is taken: process {holder} serves a HAL there (shared memory "
                        f"/dev/shm/{name}); close that HAL or pick another port") from None
                _unlink_stale(name)
        if shm is None:
            raise RuntimeError(f"HAL port {int(port)}: could not create shared memory {name!r}")
        buf = shm.buf
        h = np.ndarray((HEADER_BYTES // 8,), dtype="<u8", buffer=buf)
        h[:] = 0
        buf[d_off:d_off + len(dir_bytes)] = dir_bytes
        h[H_VERSION], h[H_SIZE], h[H_NACT], h[H_NSENS], h[H_NCAM] = LAYOUT_VERSION, size, n_act, n_sens, len(cam_bytes)
        h[H_DIR_OFF], h[H_DIR_LEN], h[H_CMD_OFF], h[H_SENS_OFF] = d_off, len(dir_bytes), c_off, s_off
        h[H_CAM_OFF], h[H_CAM_SLOT], h[H_SIM_PID], h[H_OPEN] = k_off, k_slot, os.getpid(), 1
        h[H_INSTANCE] = secrets.randbits(63)
        cmd = np.ndarray((2, n_act), dtype="<f8", buffer=buf, offset=c_off + BLOCK_HEAD)
        cmd[:] = math.nan  # NaN until the robot side starts (the seed's contract)
        sens = np.ndarray((n_sens,), dtype="<f8", buffer=buf, offset=s_off + BLOCK_HEAD)
        sens[:] = math.nan  # nothing measured yet
        h[H_MAGIC] = MAGIC  # last: a segment is valid once its magic is there
        del h, cmd, sens
        try:
            return cls(shm, owner=True)
        except Exception:
            shm.close()
            shm.unlink()
            raise

    @classmethod
    def attach(cls, port: int) -> Optional["Segment"]:
        """The live HAL segment of port, or None when there is none (or it is closed)."""
        name = segment_name(port)
        try:
            shm = _attach(name)
        except FileNotFoundError:
            return None
        except ValueError:  # mapped before the creator sized it: not ready yet
            return None
        try:
            if shm.size < HEADER_BYTES:
                shm.close()
                return None
            h = np.ndarray((4,), dtype="<u8", buffer=shm.buf)
            ready = int(h[H_MAGIC]) == MAGIC
            del h
            if not ready:  # the creator has not finished writing it
                shm.close()
                return None
            seg = cls(shm, owner=False)
        except Exception:
            shm.close()
            raise
        if not seg.is_open():
            seg.close()
            return None
        return seg

    def _drop_views(self) -> None:
        """Forget every array over the mapping (the mapping cannot close while one lives)."""
        self.header = self.cmd_head = self.cmd_head_i = self.cmd = None
        self.sens_head = self.sens_head_f = self.sens = None
        self.cam_heads, self.cam_heads_f, self.cam_data = [], [], []

    def is_open(self) -> bool:
        return self.header is not None and int(self.header[H_OPEN]) == 1

    def instance(self) -> int:
        return int(self.header[H_INSTANCE])

    def close(self):
        """Unmap (and, for the HAL that created it, mark closed and unlink)."""
        if self.header is None:
            return
        if self.owner:
            self.header[H_OPEN] = 0
        self._drop_views()
        shm = self.shm
        try:
            shm.close()
        except BufferError:  # pragma: no cover - a view escaped; leave the mapping to the GC
            pass
        if self.owner:
            try:
                shm.unlink()
            except FileNotFoundError:  # pragma: no cover - someone else removed it
                pass

    # -- sequence lock helpers
    @staticmethod
    def write_begin(head) -> None:
        head[0] += 1  # odd: writing

    @staticmethod
    def write_end(head) -> None:
        head[0] += 1  # even: consistent

    @staticmethod
    def read(head, copy_fn, timeout: float = 1.0, writer_dead=None):
        """Run copy_fn() between two reads of the block's counter until they agree and are even.
        A counter left odd for ``timeout`` s by a writer that ``writer_dead()`` says has died is
        made even again (the block holds what it managed to write); a live writer that holds the
        block that long is an error (RuntimeError)."""
        deadline = None
        spins = 0
        while True:
            s1 = int(head[0])
            if not s1 & 1:
                out = copy_fn()
                if int(head[0]) == s1:
                    return out
            spins += 1
            if spins > 64:
                if deadline is None:
                    deadline = time.monotonic() + timeout
                elif time.monotonic() > deadline:
                    if writer_dead is not None and s1 & 1 and int(head[0]) == s1 and writer_dead():
                        head[0] = s1 + 1
                        deadline = None
                        continue
                    raise RuntimeError("HAL shared memory: the writer held a block for over "
                                       f"{timeout} s")
                time.sleep(0)


def _live_holder(name: str) -> Optional[int]:
    """pid of the live HAL holding segment name, or None when it is stale (its HAL died)."""
    try:
        shm = _attach(name)
    except FileNotFoundError:
        return None
    try:
        if shm.size < HEADER_BYTES:
            return None
        h = np.ndarray((HEADER_BYTES // 8,), dtype="<u8", buffer=shm.buf)
        pid = int(h[H_SIM_PID])
        magic_ok = int(h[H_MAGIC]) == MAGIC
        is_open = int(h[H_OPEN]) == 1
        del h
        if not magic_ok:
            # a segment still being initialised by a live creator, or garbage left behind
            return -1 if _recent(name) else None
        return pid if is_open and pid_alive(pid) else None
    finally:
        shm.close()


def _recent(name: str) -> bool:
    try:
        return time.time() - os.stat(f"/dev/shm/{name}").st_mtime < 2.0
    except OSError:
        return False


def _unlink_stale(name: str) -> None:
    import _posixshmem

    try:
        _posixshmem.shm_unlink("/" + name)
    except FileNotFoundError:
        pass
