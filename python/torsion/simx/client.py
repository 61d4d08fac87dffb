"""RemoteApiClient: the B0 Python client's API, in-process or over the network.

``RemoteApiClient(world_or_scene)`` runs the calls in this process (no sockets);
``RemoteApiClient("tcp://127.0.0.1:PORT")`` talks to ``python -m torsion serve``. Both have every
simx function of the seed with its argument order, the final ``topic`` argument, and B0's return
shape: a list whose first item is the success bool (``[True, handle]``, ``[False, "ValueError:
..."]``). With ``raise_on_error=True`` a failed service call raises instead (ValueError,
TypeError, IndexError or RuntimeError, as named in the message).

Topics: ``simxServiceCall()`` runs the call now and returns its reply; ``simxDefaultPublisher()`` and
``simxCreatePublisher(dropMessages)`` queue it (returns None), applied at the next server pass in
order (with dropMessages only the newest message of that topic); ``simxDefaultSubscriber(cb,
publishInterval)`` and ``simxCreateSubscriber(cb, publishInterval, dropMessages)`` make the server
re-run the call every publishInterval passes (steps while running) and hand the reply to ``cb``,
only inside ``simxSpinOnce()`` / ``simxSpin()``, in the caller's thread. Subscriber messages carry
dict keys as ``str`` (B0's Python client, unpacking with raw=True, gave bytes). As b0RemoteApi.py,
a reply with nothing after the success flag is padded to ``[True, None]``.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
import random
import string
import threading
import time
from collections import deque
from typing import Callable

from .functions import SIGNATURES, STREAM_ONLY, Core
from .scene import Scene

_ERRORS = {"ValueError": ValueError, "TypeError": TypeError, "IndexError": IndexError, "RuntimeError": RuntimeError}


def _client_id() -> str:
    rng = random.SystemRandom()
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(10))


class RemoteApiClient(ABC):
    """See the module documentation. ``RemoteApiClient(target)`` returns the in-process client
    for a World, Scene or Core, and the network client for an endpoint string."""

    def __new__(cls, target=None, *args, **kwargs):
        if cls is RemoteApiClient:
            if isinstance(target, str):
                from .transport import NetworkClient

                cls = NetworkClient
            else:
                cls = InProcessClient
        return super().__new__(cls)

    # -- set by subclasses ------------------------------------------------------------------
    @abstractmethod
    def _service(self, name: str, args: list) -> list:
        """Run a service call now: the B0 reply [success, ...]."""

    @abstractmethod
    def _publish(self, topic: str, name: str, args: list, drop: bool) -> None:
        """Queue a fire-and-forget call for the next step boundary."""

    @abstractmethod
    def _subscribe(self, topic: str, name: str, args: list, interval: int) -> list:
        """Register a streamed call: [True] or [False, message]."""

    @abstractmethod
    def _unsubscribe(self, topic: str) -> None:
        """Stop a streamed call."""

    def _poll_messages(self, wait: float) -> None:
        """Move arrived subscriber messages into self._inbox (network client)."""

    def _init_topics(self, raise_on_error: bool) -> None:
        self.clientId = _client_id()
        self.raise_on_error = bool(raise_on_error)
        self._closed = False
        self._n_topics = 0
        self._service_topic = "SerX"
        self._default_pub = f"SubX{self.clientId}"
        self._publishers: dict[str, bool] = {self._default_pub: False}
        self._subscribers: dict[str, tuple[Callable, int, bool]] = {}
        self._inbox: deque = deque()
        self._inbox_lock = threading.Lock()

    # -- context manager ----------------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:  # pragma: no cover - overridden
        self._closed = True

    # -- topics -------------------------------------------------------------------------------
    def simxServiceCall(self) -> str:
        return self._service_topic

    def simxDefaultPublisher(self) -> str:
        return self._default_pub

    def simxCreatePublisher(self, dropMessages: bool = False) -> str:
        self._n_topics += 1
        topic = f"Sub{500 + self._n_topics}{self.clientId}"
        self._publishers[topic] = bool(dropMessages)
        return topic

    def simxDefaultSubscriber(self, callBackFunc: Callable, publishInterval: int = 1) -> str:
        return self._new_subscriber(callBackFunc, publishInterval, False, 0)

    def simxCreateSubscriber(self, callBackFunc: Callable, publishInterval: int = 1, dropMessages: bool = False) -> str:
        return self._new_subscriber(callBackFunc, publishInterval, dropMessages, 1000)

    def _new_subscriber(self, cb, interval, drop, base) -> str:
        if not callable(cb):
            raise TypeError(f"callBackFunc must be callable, got {type(cb).__name__}")
        if isinstance(interval, bool) or not isinstance(interval, int) or interval < 1:
            raise ValueError(f"publishInterval must be an int >= 1, got {interval!r}")
        self._n_topics += 1
        topic = f"Pub{base + self._n_topics}{self.clientId}"
        self._subscribers[topic] = (cb, interval, bool(drop))
        return topic

    def simxRemovePublisher(self, topic: str) -> None:
        if topic == self._default_pub or topic not in self._publishers:
            raise ValueError(f"topic: {topic!r} is not a publisher created by simxCreatePublisher")
        del self._publishers[topic]

    def simxRemoveSubscriber(self, topic: str) -> None:
        if topic not in self._subscribers:
            raise ValueError(f"topic: {topic!r} is not a subscriber of this client")
        del self._subscribers[topic]
        self._unsubscribe(topic)
        with self._inbox_lock:
            self._inbox = deque(m for m in self._inbox if m[0] != topic)

    # -- dispatch -----------------------------------------------------------------------------
    def _handle(self, name: str, args: list, topic):
        if self._closed:
            raise RuntimeError("the client is closed")
        if topic == self._service_topic:
            reply = self._service(name, args)
            if len(reply) == 1:
                reply.append(None)  # as b0RemoteApi.py: a reply always has a second item
            if self.raise_on_error and not reply[0]:
                msg = str(reply[1]) if len(reply) > 1 else "failed"
                kind, _, text = msg.partition(": ")
                raise _ERRORS.get(kind, RuntimeError)(f"{name}: {text if kind in _ERRORS else msg}")
            return reply
        if isinstance(topic, str) and topic in self._publishers:
            self._publish(topic, name, args, self._publishers[topic])
            return None
        if isinstance(topic, str) and topic in self._subscribers:
            reply = self._subscribe(topic, name, args, self._subscribers[topic][1])
            if not reply[0]:
                raise ValueError(f"{name}: {reply[1] if len(reply) > 1 else 'registration failed'}")
            return None
        raise ValueError(f"topic: {topic!r} is not a topic of this client (use simxServiceCall(), a publisher or a subscriber)")

    def _deliver(self, topic: str, reply: list) -> None:
        with self._inbox_lock:
            self._inbox.append((topic, reply))

    def simxSpinOnce(self) -> None:
        """Run the callbacks of the subscriber messages that have arrived, then return."""
        self._poll_messages(0.0)
        with self._inbox_lock:
            msgs, self._inbox = list(self._inbox), deque()
        newest = {}
        for i, (topic, _) in enumerate(msgs):
            newest[topic] = i
        for i, (topic, reply) in enumerate(msgs):
            sub = self._subscribers.get(topic)
            if sub is None:
                continue
            cb, _, drop = sub
            if drop and newest[topic] != i:
                continue
            if len(reply) == 1:
                reply = [reply[0], None]  # as b0RemoteApi.py pads callback messages
            cb(reply)

    def simxSpin(self) -> None:
        """Run callbacks as messages arrive, until the client is closed (from a callback or
        another thread) or KeyboardInterrupt."""
        while not self._closed:
            self.simxSpinOnce()
            if not self._closed:
                self._poll_messages(0.01)

    def simxSleep(self, durationInMs: int) -> None:
        if isinstance(durationInMs, bool) or not isinstance(durationInMs, (int, float)) or durationInMs < 0:
            raise ValueError(f"durationInMs must be a number >= 0, got {durationInMs!r}")
        time.sleep(durationInMs / 1000.0)

    def simxGetTimeInMs(self) -> int:
        return int(time.monotonic() * 1000.0) & 0x7FFFFFFFFFFF

    def simxSynchronous(self, enable: bool) -> None:
        """Hold stepping: while enabled, each step waits for this client's trigger (and every
        other synchronous client's)."""
        self._handle("simxSynchronous", [enable], self._service_topic)

    def simxSynchronousTrigger(self, steps: int = 1) -> None:
        """Trigger the next step (sent on the default publisher, after what was queued there).
        ``steps`` > 1 triggers that many steps at once (torsion's N-step trigger)."""
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            raise ValueError(f"steps must be an int >= 1, got {steps!r}")
        self._handle("simxSynchronousTrigger", [] if steps == 1 else [steps], self._default_pub)

    def simxGetSimulationStepDone(self, topic: str) -> None:
        """Stream {'simulationTime', 'simulationState', 'simulationTimeStep'} after each step."""
        if topic not in self._subscribers:
            raise ValueError("topic: simxGetSimulationStepDone needs a subscriber topic")
        self._handle(STREAM_ONLY[0], [], topic)

    def simxGetSimulationStepStarted(self, topic: str) -> None:
        """Stream the same record just before each step."""
        if topic not in self._subscribers:
            raise ValueError("topic: simxGetSimulationStepStarted needs a subscriber topic")
        self._handle(STREAM_ONLY[1], [], topic)


def _make_method(name: str, argnames: tuple):
    n = len(argnames) + 1  # the arguments and the topic

    def method(self, *args, **kwargs):
        if kwargs or len(args) != n:  # keywords or a wrong count: bind by name (slow path)
            vals = list(sig.bind(self, *args, **kwargs).arguments.values())[1:]
        else:
            vals = args
        return self._handle(name, list(vals[:-1]), vals[-1])

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in argnames]
    params.append(inspect.Parameter("topic", inspect.Parameter.POSITIONAL_OR_KEYWORD))
    sig = inspect.Signature(params)
    method.__signature__ = sig
    method.__name__ = name
    method.__qualname__ = f"RemoteApiClient.{name}"
    method.__doc__ = f"{name}({', '.join(argnames + ('topic',))}): B0's {name}; returns [success, ...] on the service topic."
    return method


for _name, _args in SIGNATURES.items():
    if _name not in STREAM_ONLY:
        setattr(RemoteApiClient, _name, _make_method(_name, _args))


class InProcessClient(RemoteApiClient):
    """The simx API executed in this process against a World (or a Scene, or a Core shared with
    other clients). A background thread runs the server passes that free running needs (steps
    at real time while the simulation runs without synchronous clients, idle passes for
    subscribers every 50 ms, publisher messages); in synchronous mode a trigger steps at once."""

    def __init__(self, target=None, *, raise_on_error: bool = False):
        import torsion

        if isinstance(target, Core):
            core = target
        elif isinstance(target, Scene):
            core = Core(target)
        elif target is None or isinstance(target, torsion.World):
            core = Core(Scene(target))
        else:
            raise TypeError(f"target must be a torsion.World, Scene, Core or 'tcp://host:port', got {type(target).__name__}")
        self.core = core
        self.scene = core.scene
        self._init_topics(raise_on_error)
        core.sinks[self.clientId] = self._deliver
        core.client(self.clientId)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"simx-{self.clientId}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        core = self.core
        while not self._stop.is_set():
            try:
                core.run_pass()
            except Exception as exc:  # keep passing; record what failed
                core.scene.status_messages.append(f"[simx] pass failed: {type(exc).__name__}: {exc}")
            if self._stop.wait(0.001 if core.scene.state == 0x11 and not core.sync_clients() else 0.02):
                break
            with core.lock:
                core.client(self.clientId)  # an in-process client is alive while open

    def _service(self, name: str, args: list) -> list:
        return self.core.call(self.clientId, name, list(args))

    def _publish(self, topic: str, name: str, args: list, drop: bool) -> None:
        self.core.publish(self.clientId, topic, name, list(args), drop)
        if name == "simxSynchronousTrigger":
            self.core.run_pass()

    def _subscribe(self, topic: str, name: str, args: list, interval: int) -> list:
        return self.core.subscribe(self.clientId, topic, name, list(args), interval)

    def _unsubscribe(self, topic: str) -> None:
        self.core.unsubscribe(self.clientId, topic)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5.0)
        self.core.sinks.pop(self.clientId, None)
        self.core.disconnect(self.clientId)
