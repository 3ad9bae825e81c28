"""Watch the messages a transport sends and receives.

Every transport in the course (the HTTP client that talks to the model, the
MCP stdio and Streamable HTTP transports) owns a `Wire` and publishes one
`WireMessage` per message. Observers, the inspector widget among them,
subscribe to the wire. With nobody subscribed, publishing costs one check.

    >>> wire = Wire()
    >>> seen = []
    >>> unsubscribe = wire.subscribe(seen.append)
    >>> wire.publish(WireMessage.jsonrpc("mcp", "client", {"jsonrpc": "2.0", "id": 1, "method": "ping"}))
    >>> seen[0].kind, seen[0].method, seen[0].exchange
    ('request', 'ping', 1)

Observers are called on the publishing thread; an observer that needs to do
slow work (drawing, say) must hand it off.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Sender = Literal["client", "server"]
Kind = Literal["request", "response", "notification", "error", "invalid"]
Observer = Callable[["WireMessage"], None]


@dataclass(frozen=True, slots=True)
class WireMessage:
    """One message on the wire, as the sender wrote it.

    `exchange` pairs a request with its response: the JSON-RPC id, or a
    counter for HTTP exchanges. `payload` is the parsed JSON, or the raw text
    when it did not parse.
    """

    channel: str
    sender: Sender
    kind: Kind
    payload: Any
    method: str | None = None
    exchange: Any = None
    status: int | None = None
    time: float = field(default_factory=time.perf_counter)

    @classmethod
    def jsonrpc(cls, channel: str, sender: Sender, payload: Any) -> WireMessage:
        """Classify a JSON-RPC 2.0 message by its members (text that did not parse is `invalid`):
        a `method` makes a request (with an `id`) or a notification; an `id` with a `result` or
        an `error` makes a response. Only the shape is read; lesson 07's `wirelab.jsonrpc`
        checks a message whole."""
        if not isinstance(payload, dict):
            return cls(channel, sender, "invalid", payload)
        if "method" in payload:
            kind: Kind = "request" if "id" in payload else "notification"
            return cls(channel, sender, kind, payload, payload["method"], payload.get("id"))
        if "id" not in payload or not ("result" in payload or "error" in payload):
            return cls(channel, sender, "invalid", payload, exchange=payload.get("id"))
        kind = "error" if "error" in payload else "response"
        return cls(channel, sender, kind, payload, exchange=payload["id"])


class Wire:
    """A fan-out of observers for one transport. Thread-safe."""

    def __init__(self) -> None:
        self._observers: tuple[Observer, ...] = ()
        self._lock = threading.Lock()
        self._exchanges = itertools.count(1)

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call `observer` for every message from now on; returns the unsubscribe function."""
        with self._lock:
            self._observers = (*self._observers, observer)

        def unsubscribe() -> None:
            with self._lock:
                self._observers = tuple(o for o in self._observers if o is not observer)

        return unsubscribe

    @property
    def observed(self) -> bool:
        return bool(self._observers)

    def publish(self, message: WireMessage) -> None:
        for observer in self._observers:
            observer(message)

    def next_exchange(self) -> int:
        """A fresh number to pair an HTTP request with its response."""
        return next(self._exchanges)


def parse_json(data: bytes | str) -> Any:
    """The JSON value of `data`, or the text itself when it is not JSON (or too deep to read)."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text
