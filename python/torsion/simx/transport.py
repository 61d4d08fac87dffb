"""The simx network transport: ZeroMQ (pyzmq) sockets carrying msgpack, B0's encoding without
BlueZero's resolver.

Sockets (the server binds all three, 127.0.0.1 unless told otherwise):
- ROUTER on PORT: service calls. Request ``[[func, clientId, topic, task, extra], [args...]]``
  (func without the ``simx`` prefix, as B0 sends it), reply ``[success, ret...]``. Tasks: 0
  service call, 2 / 4 register a streamed command on a default / dedicated subscriber (extra =
  publishInterval), and the control calls ``_Hello``, ``_Probe``, ``_RemoveSubscriber``,
  ``_Disconnect``.
- PULL: publisher messages, same layout, task 1 (default) or 3 (dedicated; extra = dropMessages),
  and client heartbeats (``_Ping``). Applied at the next server pass, in arrival order.
- PUB: subscriber messages, frames ``[clientId + NUL, msgpack([topic, reply]), raw buffers...]``.

NumPy arrays and byte strings of 64 KiB or more travel as raw frames after the msgpack frame
(extension types 1 and 2 point at them), never as lists and never copied into msgpack.
Messages above ``max_message_bytes`` get an error reply (far above it libzmq drops the peer);
clients silent longer than ``client_timeout`` are dropped with their subscriptions and their
hold on synchronous stepping (clients send heartbeats while open). The server never evaluates
what a client sends. pyzmq and msgpack come with the ``remote`` extra.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import threading
import time
from typing import Optional

import numpy as np

from .client import RemoteApiClient
from .functions import SIGNATURES, Core
from .scene import Scene

PROTOCOL_VERSION = 1
_EXT_NDARRAY = 1
_ALLOWED_KINDS = "biuf"


def _deps():
    try:
        import msgpack
        import zmq
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            'the simx network transport needs pyzmq and msgpack: pip install "torsion[remote]"'
        ) from exc
    return zmq, msgpack


# ----------------------------------------------------------------------------------------------
# encoding
#
# A message is one msgpack frame followed by zero or more raw frames. NumPy arrays travel as
# extension type 1 (dtype, shape, index of their raw frame); byte strings of 64 KiB or more as
# extension type 2 (index of their raw frame). Large buffers are thus sent by ZeroMQ straight
# from their memory, never as msgpack lists and never copied into the msgpack frame.

_EXT_BYTES = 2
_INLINE_LIMIT = 64 * 1024


_tls = threading.local()  # one msgpack Packer per thread (a Packer is not thread-safe)


def _packer():
    p = getattr(_tls, "packer", None)
    if p is None:
        import msgpack

        def out_of_band(o):
            buffers = _tls.buffers
            if isinstance(o, np.ndarray):
                if o.dtype.kind not in _ALLOWED_KINDS:
                    raise TypeError(f"cannot send an array of dtype {o.dtype}")
                a = np.ascontiguousarray(o)
                if a.dtype.byteorder == ">":
                    a = a.astype(a.dtype.newbyteorder("<"))
                buffers.append(memoryview(a.reshape(-1)).cast("B") if a.size else b"")
                return msgpack.ExtType(_EXT_NDARRAY, msgpack.packb([a.dtype.str, list(a.shape), len(buffers)]))
            if isinstance(o, _Big):
                buffers.append(o.data)
                return msgpack.ExtType(_EXT_BYTES, msgpack.packb(len(buffers)))
            return _default(o)

        p = _tls.packer = msgpack.Packer(default=out_of_band, use_bin_type=True, autoreset=True)
    return p


def pack(obj) -> list:
    """Frames of one message: [msgpack header, raw buffer...]."""
    p = _packer()
    _tls.buffers = buffers = []
    try:
        head = p.pack(_mark_big(obj))
    except BaseException:
        p.reset()
        raise
    return [head, *buffers]


class _Big:
    """A byte string sent as its own frame (msgpack packs bytes itself, without asking)."""

    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data


_WALK = {list, tuple, dict, bytes, bytearray, memoryview}


def _mark_big(o):
    """The message with large byte strings wrapped in _Big (scalars are not visited)."""
    t = type(o)
    if t is list or t is tuple:
        return [_mark_big(x) if type(x) in _WALK else x for x in o]
    if t is dict:
        return {k: (_mark_big(v) if type(v) in _WALK else v) for k, v in o.items()}
    if t is bytes or t is bytearray or t is memoryview:
        return _Big(o) if len(o) >= _INLINE_LIMIT else bytes(o)
    if isinstance(o, (list, tuple)):  # subclasses
        return [_mark_big(x) for x in o]
    return o


def _default(obj):
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, int):
        raise OverflowError(f"int {obj} does not fit in 64 bits")
    raise TypeError(f"cannot send a {type(obj).__name__}")


def _z85(key, name: str) -> bytes:
    """A CURVE key as its 40-character Z85 text (what zmq.curve_keypair() returns)."""
    if isinstance(key, str):
        key = key.encode("ascii", "replace")
    if not isinstance(key, (bytes, bytearray)) or len(key) != 40:
        raise ValueError(f"{name}: CURVE keys are 40-character Z85 strings (zmq.curve_keypair())")
    return bytes(key)


def _pack_call(func, cid, topic, task, extra, args) -> list:
    try:
        return pack([[func, cid, topic, task, extra], list(args)])
    except (TypeError, ValueError, OverflowError) as exc:
        raise TypeError(f"simx{func}: the arguments cannot be sent ({exc}); use numbers, strings, bytes, "
                        "lists and numeric NumPy arrays (ints within 64 bits)") from None


def unpack(frames):
    """Decode a message: a list of frames (bytes, or zmq Frames), or one bytes object."""
    import msgpack

    if isinstance(frames, (bytes, bytearray, memoryview)):
        frames = [frames]
    bufs = [f.buffer if hasattr(f, "buffer") else f for f in frames]
    used = set()

    def hook(code, data):
        if code == _EXT_NDARRAY:
            dtype_str, shape, idx = msgpack.unpackb(data, raw=False)
            dt = np.dtype(dtype_str)
            if (dt.kind not in _ALLOWED_KINDS or not isinstance(shape, list)
                    or not all(isinstance(x, int) and x >= 0 for x in shape)):
                raise ValueError("bad array header")
            raw = _frame(bufs, idx, used)
            count = int(np.prod(shape)) if shape else 1
            if count * dt.itemsize != len(raw):
                raise ValueError("array size does not match its shape")
            return np.frombuffer(raw, dtype=dt).reshape(shape).copy()
        if code == _EXT_BYTES:
            return bytes(_frame(bufs, msgpack.unpackb(data), used))
        raise ValueError(f"unknown msgpack extension type {code}")

    return msgpack.unpackb(bufs[0], raw=False, ext_hook=hook, strict_map_key=False)


def _frame(bufs, idx, used):
    if not isinstance(idx, int) or not 1 <= idx < len(bufs) or idx in used:
        raise ValueError("bad buffer reference")
    used.add(idx)
    return bufs[idx]


def _size(frames) -> int:
    return sum(len(f) if not hasattr(f, "buffer") else len(f.buffer) for f in frames)


# ----------------------------------------------------------------------------------------------
# server


class ServerThread:
    """What both remote-API servers share: argument checks, and the thread that runs
    ``serve_forever()`` (``start()`` / ``stop()``, also a context manager). A subclass sets up its
    sockets and defines ``serve_forever()``, which returns once ``self._stop`` is set."""

    _thread_name = "torsion-server"

    @staticmethod
    def _checked(scene, host, port, client_timeout, max_message_bytes) -> Scene:
        """The Scene to serve (a World is wrapped); ValueError / TypeError for a bad argument."""
        import torsion

        if scene is None or isinstance(scene, torsion.World):
            scene = Scene(scene)
        if not isinstance(scene, Scene):
            raise TypeError(f"scene must be a torsion.World or simx.Scene, got {type(scene).__name__}")
        if not isinstance(host, str) or not host:
            raise ValueError("host must be a non-empty string")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"port must be in 0..65535, got {port!r}")
        if not max_message_bytes >= 1024:
            raise ValueError(f"max_message_bytes must be >= 1024, got {max_message_bytes}")
        if not client_timeout > 0:
            raise ValueError(f"client_timeout must be > 0, got {client_timeout}")
        return scene

    def _init_thread(self) -> None:
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def start(self):
        if self._thread is not None:
            raise RuntimeError("the server is already running")
        self._thread = threading.Thread(target=self.serve_forever, name=self._thread_name, daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Server(ServerThread):
    """Serve a Scene (or World) over ZeroMQ. ``start()`` runs it in a thread, ``stop()`` ends it
    (also a context manager); ``serve_forever()`` runs it in the calling thread.

    host: interface to bind (127.0.0.1 by default; anything else only when asked for).
    port: the ROUTER port (0: a free one; see ``endpoint``).
    spin: after a request, poll without blocking for ``SPIN_SECONDS`` before blocking again.
    None (default): spin when ``serve_forever()`` runs on the process's main thread (``python -m
    torsion serve``: the process is the server's), not in a ``start()``-ed thread, which shares
    the GIL with the caller's threads (a spinning server thread holds it and delays the client
    threads of its own process: p99 of a loopback call went to ~2 ms).
    """

    #: how long after a request a spinning server polls without blocking for the next one (s): a
    #: client's next call usually arrives within it, and waking from a blocking poll costs the
    #: kernel's wake-up latency (tens of us) on every call
    SPIN_SECONDS = 2e-3

    def __init__(
        self,
        scene=None,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        max_message_bytes: int = 64 << 20,
        client_timeout: float = 10.0,
        max_clients: int = 256,
        file_root: Optional[str] = None,
        curve_keys: Optional[tuple] = None,
        authorized_clients=None,
        spin: Optional[bool] = None,
    ):
        zmq, _ = _deps()
        scene = self._checked(scene, host, port, client_timeout, max_message_bytes)
        if spin is not None and not isinstance(spin, bool):
            raise TypeError(f"spin must be True, False or None, got {type(spin).__name__}")
        self.spin = spin
        self.scene = scene
        self.max_message_bytes = int(max_message_bytes)
        self.client_timeout = float(client_timeout)
        self.max_clients = int(max_clients)
        self._outbox: list = []
        self.core = Core(scene, self._collect, file_root=file_root if file_root is not None else os.getcwd())
        if authorized_clients is not None and curve_keys is None:
            raise ValueError("authorized_clients needs curve_keys (the server's CURVE key pair)")
        self._zmq = zmq
        self._ctx = zmq.Context()
        self._auth = None
        if curve_keys is not None:
            if not zmq.has("curve"):
                raise RuntimeError("this libzmq has no CURVE support")
            if authorized_clients is not None:
                allowed = {_z85(k, "authorized_clients") for k in authorized_clients}
                from zmq.auth.thread import ThreadAuthenticator

                class _Allowed:
                    def callback(self, domain, key):
                        return key in allowed

                self._auth = ThreadAuthenticator(self._ctx)
                self._auth.start()
                self._auth.configure_curve_callback("*", credentials_provider=_Allowed())
        hard = self.max_message_bytes + (1 << 20)
        self._router = self._ctx.socket(zmq.ROUTER)
        self._pull = self._ctx.socket(zmq.PULL)
        self._pub = self._ctx.socket(zmq.PUB)
        for s in (self._router, self._pull, self._pub):
            s.setsockopt(zmq.LINGER, 0)
            if curve_keys is not None:
                s.curve_publickey = _z85(curve_keys[0], "curve_keys")
                s.curve_secretkey = _z85(curve_keys[1], "curve_keys")
                s.curve_server = True
        self._router.setsockopt(zmq.MAXMSGSIZE, hard)
        self._pull.setsockopt(zmq.MAXMSGSIZE, hard)
        self._pub.setsockopt(zmq.SNDHWM, 10000)
        addr = f"tcp://{host}"
        try:
            if port:
                self._router.bind(f"{addr}:{port}")
                self.port = port
            else:
                self.port = self._router.bind_to_random_port(addr)
            self.pull_port = self._pull.bind_to_random_port(addr)
            self.pub_port = self._pub.bind_to_random_port(addr)
        except zmq.ZMQError as exc:
            self._close_sockets()
            raise RuntimeError(f"cannot bind {addr}:{port}: {exc}") from exc
        self.host = host
        self.endpoint = f"tcp://{host}:{self.port}"
        self._init_thread()
        self.errors = 0  # malformed or refused requests answered with an error

    def _collect(self, cid: str, topic: str, reply: list) -> None:
        self._outbox.append((cid, topic, reply))

    _thread_name = "simx-server"

    def _close_sockets(self) -> None:
        for s in (self._router, self._pull, self._pub):
            s.close(0)
        if self._auth is not None:
            self._auth.stop()
        self._ctx.term()

    def serve_forever(self) -> None:
        zmq = self._zmq
        poller = zmq.Poller()
        poller.register(self._router, zmq.POLLIN)
        poller.register(self._pull, zmq.POLLIN)
        spin = self.spin if self.spin is not None else threading.current_thread() is threading.main_thread()
        spin_seconds = self.SPIN_SECONDS if spin else 0.0
        last_expire = time.monotonic()
        last_message = -math.inf
        try:
            while not self._stop.is_set():
                sc = self.scene
                busy = sc.state == 0x11 and not self.core.sync_clients()
                if time.monotonic() - last_message < spin_seconds:
                    events = dict(poller.poll(0))  # spinning: the client's next call is likely soon
                else:
                    events = dict(poller.poll(1 if busy else 10))
                if events and spin_seconds:
                    last_message = time.monotonic()
                if self._router in events:
                    for _ in range(1000):
                        try:
                            frames = self._router.recv_multipart(zmq.NOBLOCK, copy=False)
                        except zmq.Again:
                            break
                        self._on_request(frames)
                if self._pull in events:
                    for _ in range(10000):
                        try:
                            data = self._pull.recv_multipart(zmq.NOBLOCK, copy=False)
                        except zmq.Again:
                            break
                        self._on_publish(data)
                self.core.run_pass()
                now = time.monotonic()
                if now - last_expire > min(1.0, self.client_timeout / 4):
                    last_expire = now
                    self.core.expire(self.client_timeout, now)
                self._flush()
        finally:
            self._close_sockets()

    def _flush(self) -> None:
        out, self._outbox = self._outbox, []
        for cid, topic, reply in out:
            try:
                payload = pack([topic, reply])
            except (TypeError, ValueError, OverflowError) as exc:
                payload = pack([topic, [False, f"TypeError: {exc}"]])
            # the id ends with a NUL so that SUB's prefix match takes exactly this client
            self._pub.send_multipart([cid.encode("utf-8", "replace") + b"\0", *payload], copy=False)

    # -- requests -------------------------------------------------------------------------------
    def _parse(self, data: list):
        size = _size(data)
        if size > self.max_message_bytes:
            raise ValueError(f"message of {size} bytes exceeds the limit of {self.max_message_bytes} bytes")
        if not data:
            raise ValueError("malformed message: no frames")
        try:
            msg = unpack(data)
        except Exception as exc:  # msgpack raises many types for malformed data
            raise ValueError(f"malformed message (not msgpack): {type(exc).__name__}") from None
        if not (isinstance(msg, list) and len(msg) == 2 and isinstance(msg[0], list) and len(msg[0]) >= 4
                and isinstance(msg[1], list)):
            raise ValueError("malformed message: expected [[func, clientId, topic, task, extra], [args...]]")
        head, args = msg
        func, cid, topic, task = head[:4]
        extra = head[4] if len(head) > 4 else None
        if not isinstance(func, str) or not isinstance(cid, str) or not 1 <= len(cid) <= 64:
            raise ValueError("malformed message: func and clientId must be strings")
        if not isinstance(task, int) or isinstance(task, bool):
            raise ValueError("malformed message: task must be an int")
        if not isinstance(topic, str):
            raise ValueError("malformed message: topic must be a string")
        return func, cid, topic, task, extra, args

    def _on_request(self, frames: list) -> None:
        # REQ peers send [identity, b"", payload frames...]; the envelope ends at the empty frame
        cut = next((i for i, f in enumerate(frames) if len(f.buffer if hasattr(f, "buffer") else f) == 0), 0)
        envelope, data = frames[: cut + 1], frames[cut + 1 :]
        try:
            func, cid, topic, task, extra, args = self._parse(data)
            reply = self._service(func, cid, topic, task, extra, args)
        except ValueError as exc:
            self.errors += 1
            reply = [False, f"ValueError: {exc}"]
        except Exception as exc:  # the server answers and keeps serving, whatever happened
            self.errors += 1
            reply = [False, f"RuntimeError: {type(exc).__name__}: {exc}"]
        try:
            out = pack(reply)
        except (TypeError, ValueError, OverflowError) as exc:
            out = pack([False, f"TypeError: reply cannot be encoded: {exc}"])
        if _size(out) > self.max_message_bytes:
            out = pack([False, f"ValueError: reply of {_size(out)} bytes exceeds the limit of {self.max_message_bytes} bytes"])
        self._router.send_multipart(envelope + out, copy=False)

    def _known(self, cid: str) -> bool:
        if cid in self.core.clients:
            return True
        if len(self.core.clients) >= self.max_clients:
            return False
        return True

    def _service(self, func, cid, topic, task, extra, args) -> list:
        core = self.core
        if not self._known(cid):
            self.errors += 1
            return [False, f"RuntimeError: too many clients (limit {self.max_clients})"]
        if func == "_Hello":
            core.client(cid)
            return [True, {"version": PROTOCOL_VERSION, "pull_port": self.pull_port, "pub_port": self.pub_port,
                           "max_message_bytes": self.max_message_bytes, "client_timeout": self.client_timeout}]
        if func == "_Probe":
            core.client(cid)
            self._collect(cid, "_probe", [True])
            return [True]
        if func == "_Disconnect":
            core.disconnect(cid)
            return [True]
        if func == "_RemoveSubscriber":
            core.unsubscribe(cid, topic)
            return [True]
        name = "simx" + func
        if task == 0:
            if name not in SIGNATURES and name not in ("simxSynchronous", "simxSynchronousTrigger"):
                self.errors += 1
                return [False, f"ValueError: unknown function {func!r}"]
            return core.call(cid, name, args)
        if task in (2, 4):
            return core.subscribe(cid, topic, name, args, extra if extra is not None else 1)
        self.errors += 1
        return [False, f"ValueError: task {task} is not a service task"]

    def _on_publish(self, data: list) -> None:
        try:
            func, cid, topic, task, extra, args = self._parse(data)
        except ValueError as exc:
            self.errors += 1
            self.scene.status_messages.append(f"[simx] dropped publisher message: {exc}")
            return
        if func == "_Ping":
            if cid in self.core.clients:
                self.core.client(cid)
            return
        if task not in (1, 3) or not self._known(cid):
            self.errors += 1
            return
        self.core.publish(cid, topic, "simx" + func, args, bool(extra) if task == 3 else False)


# ----------------------------------------------------------------------------------------------
# client


class NetworkClient(RemoteApiClient):
    """The simx API over the network (see torsion.simx.client). ``timeout`` (s) bounds every
    wait for a reply: on expiry the call raises TimeoutError and the sockets are dropped; the next
    call reconnects with a new handshake (ZeroMQ's "lazy pirate"), so a restarted server is
    found again (its subscriptions then have to be registered again)."""

    def __init__(self, endpoint: str, *, timeout: float = 10.0, raise_on_error: bool = False,
                 server_public_key=None, curve_keys: Optional[tuple] = None):
        zmq, _ = _deps()
        if not isinstance(endpoint, str) or not endpoint.startswith("tcp://") or ":" not in endpoint[6:]:
            raise ValueError(f"endpoint must look like 'tcp://host:port', got {endpoint!r}")
        if not timeout > 0:
            raise ValueError(f"timeout must be > 0, got {timeout}")
        self._zmq = zmq
        self.endpoint = endpoint
        self.timeout = float(timeout)
        self._curve = None
        if server_public_key is not None:
            if curve_keys is None:
                curve_keys = zmq.curve_keypair()
            self._curve = (_z85(server_public_key, "server_public_key"), _z85(curve_keys[0], "curve_keys"),
                           _z85(curve_keys[1], "curve_keys"))
        elif curve_keys is not None:
            raise ValueError("curve_keys needs server_public_key")
        self._init_topics(raise_on_error)
        self._ctx = zmq.Context()
        self._req = None
        self._req_lock = threading.Lock()
        self._push = None
        self._sub = None
        self._hb_stop = threading.Event()
        self._hb_thread = None
        self._stale = False  # a reply timed out: reconnect everything before the next call
        try:
            self._connect()
        except BaseException:
            self._closed = True
            self._ctx.destroy(0)
            raise

    def _socket(self, kind):
        s = self._ctx.socket(kind)
        if self._curve is not None:
            s.curve_serverkey, s.curve_publickey, s.curve_secretkey = self._curve
        return s

    def _new_req(self):
        zmq = self._zmq
        s = self._socket(zmq.REQ)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RCVTIMEO, int(self.timeout * 1000))
        s.setsockopt(zmq.SNDTIMEO, int(self.timeout * 1000))
        s.connect(self.endpoint)
        return s

    def _connect(self) -> None:
        zmq = self._zmq
        self._req = self._new_req()
        hello = self._request("_Hello", [], "", 0)
        if not hello[0] or not isinstance(hello[1], dict):
            raise ConnectionError(f"the server at {self.endpoint} refused the connection: {hello[1:]}")
        info = hello[1]
        if info.get("version") != PROTOCOL_VERSION:
            raise ConnectionError(f"protocol version mismatch: server {info.get('version')}, client {PROTOCOL_VERSION}")
        host = self.endpoint.rsplit(":", 1)[0]
        self._push = self._socket(zmq.PUSH)
        self._push.setsockopt(zmq.LINGER, 1000)
        self._push.setsockopt(zmq.SNDTIMEO, int(self.timeout * 1000))
        self._push.connect(f"{host}:{info['pull_port']}")
        self._sub = self._socket(zmq.SUB)
        self._sub.setsockopt(zmq.LINGER, 0)
        self._sub.setsockopt(zmq.SUBSCRIBE, self.clientId.encode() + b"\0")
        self._sub.connect(f"{host}:{info['pub_port']}")
        # wait until the subscription has reached the server (ZeroMQ's slow joiner)
        deadline = time.monotonic() + self.timeout
        while True:
            self._request("_Probe", [], "", 0)
            if self._sub.poll(50):
                frames = self._sub.recv_multipart()
                if unpack(frames[1:])[0] == "_probe":
                    break
            if time.monotonic() > deadline:
                raise TimeoutError(f"no subscriber channel from {self.endpoint} within {self.timeout} s")
        while self._sub.poll(0):  # drop extra probes
            self._sub.recv_multipart()
        period = max(0.05, min(1.0, float(info.get("client_timeout", 10.0)) / 4.0))
        self._hb_thread = threading.Thread(target=self._heartbeat, args=(f"{host}:{info['pull_port']}", period),
                                           name=f"simx-hb-{self.clientId}", daemon=True)
        self._hb_thread.start()

    def _heartbeat(self, address: str, period: float) -> None:
        zmq = self._zmq
        s = self._socket(zmq.PUSH)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.SNDHWM, 4)
        s.connect(address)
        ping = pack([["_Ping", self.clientId, "", 1, None], []])
        try:
            while not self._hb_stop.wait(period):
                try:
                    s.send_multipart(ping, zmq.NOBLOCK)
                except zmq.Again:
                    pass
        finally:
            s.close(0)

    def _reconnect(self) -> None:
        """After a timeout: new sockets and a new handshake (the server may have restarted;
        subscriptions made before are then gone and must be made again)."""
        self._hb_stop.set()
        if self._hb_thread is not None:
            self._hb_thread.join(timeout=2.0)
        for s in (self._req, self._push, self._sub):
            if s is not None:
                s.close(0)
        self._req = self._push = self._sub = None
        self._hb_stop = threading.Event()
        self._stale = False
        try:
            self._connect()
        except BaseException:
            self._stale = True
            raise

    def _request(self, func: str, args: list, topic: str, task: int, extra=None) -> list:
        zmq = self._zmq
        if self._stale and func not in ("_Hello", "_Probe"):
            self._reconnect()
        data = _pack_call(func, self.clientId, topic, task, extra, args)
        with self._req_lock:
            try:
                self._req.send_multipart(data, copy=False)
                return unpack(self._req.recv_multipart(copy=False))
            except zmq.Again:
                # lazy pirate: a REQ socket that missed its reply is unusable; make a new one
                self._req.close(0)
                self._req = self._new_req()
                if func not in ("_Disconnect",):
                    self._stale = True
                raise TimeoutError(f"no reply from {self.endpoint} within {self.timeout} s ({func})") from None

    def _service(self, name: str, args: list) -> list:
        return self._request(name[4:], args, self._service_topic, 0)

    def _publish(self, topic: str, name: str, args: list, drop: bool) -> None:
        if self._stale:
            self._reconnect()
        task = 1 if topic == self._default_pub else 3
        frames = _pack_call(name[4:], self.clientId, topic, task, bool(drop), args)
        try:
            with self._req_lock:  # ZeroMQ sockets are not thread-safe; keep publishers in call order
                self._push.send_multipart(frames, copy=False)
        except self._zmq.Again:
            raise TimeoutError(f"cannot queue a publisher message to {self.endpoint} within {self.timeout} s") from None

    def _subscribe(self, topic: str, name: str, args: list, interval: int) -> list:
        task = 2 if int(topic[3 : len(topic) - len(self.clientId)]) < 1000 else 4
        return self._request(name[4:], args, topic, task, interval)

    def _unsubscribe(self, topic: str) -> None:
        self._request("_RemoveSubscriber", [], topic, 0)

    def _poll_messages(self, wait: float) -> None:
        sub = self._sub
        if sub is None:
            return
        if not self._inbox and wait == 0.0:
            wait = 0.001  # a spin loop waiting for a step should not burn a core
        if not sub.poll(int(wait * 1000)):
            return
        while True:
            try:
                frames = sub.recv_multipart(self._zmq.NOBLOCK, copy=False)
            except self._zmq.Again:
                break
            try:
                topic, reply = unpack(frames[1:])
            except Exception:
                continue
            self._deliver(topic, reply)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._hb_stop.set()
        try:
            if self._req is not None and not self._stale:
                old = self.timeout
                self._req.setsockopt(self._zmq.RCVTIMEO, int(min(old, 1.0) * 1000))
                self._request("_Disconnect", [], "", 0)
        except (TimeoutError, self._zmq.ZMQError):
            pass
        if self._hb_thread is not None:
            self._hb_thread.join(timeout=2.0)
        for s in (self._req, self._push, self._sub):
            if s is not None:
                s.close(0)
        self._ctx.term()


# ----------------------------------------------------------------------------------------------
# command line


def scene_for_cli(path: Optional[str]) -> Optional[Scene]:
    """The scene a ``serve`` command line serves: the world file loaded, or an empty world; None,
    after saying why on stderr, when the file cannot be loaded."""
    scene = Scene()
    if path:
        try:
            scene.load_scene(path)
        except (ValueError, RuntimeError, OSError) as exc:
            print(f"cannot load {path}: {exc}", file=sys.stderr)
            return None
    return scene


def serve(world=None, host: str = "127.0.0.1", port: int = 23050, **kwargs) -> Server:
    """Start a server in a background thread and return it (call ``stop()`` to end it)."""
    return Server(world, host, port, **kwargs).start()


def main(argv=None) -> int:
    """``python -m torsion serve [--world FILE.xml] [--host 127.0.0.1] [--port PORT]``; with
    ``--zmq-compat``, CoppeliaSim's ZMQ remote API instead (torsion.simx.zmq_compat)."""
    if argv is None:
        argv = sys.argv[2:] if sys.argv[1:2] == ["serve"] else sys.argv[1:]
    if "--zmq-compat" in argv:
        from .zmq_compat import main as zmq_main

        return zmq_main(argv)
    p = argparse.ArgumentParser(prog="python -m torsion serve", description="serve a torsion world over the simx (B0) remote API")
    p.add_argument("--zmq-compat", action="store_true",
                   help="speak CoppeliaSim's ZMQ remote API (protocol v2, default port 23000) instead")
    p.add_argument("--world", help="torsion world XML (or URDF) to load; an empty world otherwise")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1, loopback only)")
    p.add_argument("--port", type=int, default=23050, help="service port (publisher and stream ports are chosen free)")
    p.add_argument("--client-timeout", type=float, default=10.0, help="seconds of silence before a client is dropped")
    p.add_argument("--max-message-mb", type=float, default=64.0, help="largest message accepted (MiB)")
    p.add_argument("--files", default=None, help="directory clients may load scenes and models from (default: cwd)")
    p.add_argument("--curve", action="store_true",
                   help="encrypt with CURVE: a fresh server key pair is made and its public key printed "
                        "(clients pass it as server_public_key)")
    p.add_argument("--allow-client-key", action="append", default=None, metavar="KEY",
                   help="with --curve: accept only clients with this CURVE public key (repeatable; write "
                        "--allow-client-key=KEY: a Z85 key may start with '-')")
    args = p.parse_args(argv)
    scene = scene_for_cli(args.world)
    if scene is None:
        return 2
    curve = None
    if args.curve:
        zmq, _ = _deps()
        curve = zmq.curve_keypair()
    elif args.allow_client_key:
        print("--allow-client-key needs --curve", file=sys.stderr)
        return 2
    try:
        server = Server(scene, args.host, args.port, client_timeout=args.client_timeout,
                        max_message_bytes=int(args.max_message_mb * (1 << 20)), file_root=args.files,
                        curve_keys=curve, authorized_clients=args.allow_client_key)
    except (RuntimeError, ValueError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"torsion simx server on {server.endpoint} (Ctrl-C to stop)", flush=True)
    if curve is not None:
        print(f"CURVE server public key: {curve[0].decode()}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0
