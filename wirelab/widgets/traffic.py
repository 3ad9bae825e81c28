"""A thread-safe log of wire traffic: rows with direction, pairing and latency.

The wire inspector widget shows these rows; this module knows nothing about
widgets. `add` is what a transport's thread pays per message (one append under
a lock); turning messages into rows happens later, in `drain`, on whichever
thread asks (the inspector's flusher, or a cell reading the log).

    >>> log = TrafficLog()
    >>> log.add(WireMessage.jsonrpc("mcp", "client", {"jsonrpc": "2.0", "id": 1, "method": "ping"}))
    >>> log.add(WireMessage.jsonrpc("mcp", "server", {"jsonrpc": "2.0", "id": 1, "result": {}}))
    >>> [(r["kind"], r["method"], r["pair"]) for r in log.rows()]
    [('request', 'ping', None), ('response', 'ping', 0)]

A response is paired with the request of the same channel and exchange sent
the other way; its row takes the request's method, so filtering by method
finds both. Rows are plain JSON-ready dicts, the same in Python, in the
browser and in the JSON Lines export. The log is a ring buffer: it keeps the
last `max_rows` rows (`MAX_ROWS` by default) and counts the older ones it
dropped, so a notebook that talks for hours does not grow without bound. A
request awaiting its response is remembered only as long as its row is kept:
a response that comes after its request left the buffer is shown unpaired,
and requests never answered cannot pile up either.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterable
from typing import Any, TypedDict

from wirelab.wire import WireMessage

ARROWS = {"client": "client→server", "server": "server→client"}
ALERT_KINDS = {"error", "invalid"}
SEP = (",", ":")
MAX_ROWS = 10_000  # inspector.js keeps the same number of rows in the browser


class Row(TypedDict):
    """One message as the inspector shows it."""

    seq: int
    channel: str
    direction: str
    kind: str
    method: str | None
    id: Any
    status: int | None
    t: float
    latency_ms: float | None
    pair: int | None
    alert: bool
    payload: Any


class TrafficLog:
    """Wire messages in arrival order, turned into rows on demand. Thread-safe."""

    def __init__(self, max_rows: int = MAX_ROWS) -> None:
        if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1:
            raise ValueError(f"max_rows must be a positive integer, not {max_rows!r}")
        self.max_rows = max_rows
        self.dropped = 0
        self._pending: list[WireMessage] = []
        self._add_lock = threading.Lock()
        self._drain_lock = threading.Lock()
        self._rows: list[Row] = []
        # requests awaiting a response, oldest first: (channel, sender, id) -> (seq, time, method)
        self._open: dict[tuple[str, str, str], tuple[int, float, str | None]] = {}
        self._next_seq = 0
        self._start: float | None = None
        self._alerts = 0

    def add(self, message: WireMessage) -> None:
        """Queue one message; cheap enough to call on a transport's thread."""
        if not isinstance(message, WireMessage):
            raise TypeError(f"a TrafficLog takes WireMessage objects, not {type(message).__name__}")
        with self._add_lock:
            self._pending.append(message)

    def drain(self) -> list[Row]:
        """Turn the queued messages into rows; returns the new rows, in order."""
        with self._drain_lock:
            with self._add_lock:
                batch, self._pending = self._pending, []
            new = [self._row(message) for message in batch]
            self._rows.extend(new)
            excess = len(self._rows) - self.max_rows
            if excess > 0:
                self._alerts -= sum(row["alert"] for row in self._rows[:excess])
                self.dropped += excess
                del self._rows[:excess]
                self._forget_requests_before(self._rows[0]["seq"])
            return new[-self.max_rows :]

    def rows(
        self, *, kind: str | None = None, method: str | None = None, channel: str | None = None
    ) -> list[Row]:
        """All rows so far (queued messages included), optionally filtered."""
        self.drain()
        with self._drain_lock:
            return [r for r in self._rows if _matches(r, kind, method, channel)]

    def rows_from(self, seq: int) -> list[Row]:
        """The rows numbered `seq` and later, drained or not yet (for sending and replaying)."""
        self.drain()
        with self._drain_lock:
            first = self._rows[0]["seq"] if self._rows else self._next_seq
            return self._rows[max(0, seq - first) :]

    def __len__(self) -> int:
        """How many rows are kept, counting only messages already drained."""
        return len(self._rows)

    @property
    def alerts(self) -> int:
        """How many kept rows stand out as errors (drained rows only)."""
        return self._alerts

    @property
    def awaiting(self) -> int:
        """How many kept requests await their response (drained rows only); at most `max_rows`."""
        return len(self._open)

    @property
    def next_seq(self) -> int:
        """The number the next row will get; rows are numbered from 0 and never renumbered."""
        return self._next_seq

    def clear(self) -> int:
        """Forget every message so far; returns the number of the next row."""
        with self._drain_lock:
            with self._add_lock:
                self._pending = []
            self._rows, self._open, self._start, self._alerts, self.dropped = [], {}, None, 0, 0
            return self._next_seq

    def to_jsonl(self, rows: Iterable[Row] | None = None) -> str:
        """The rows (all by default) as JSON Lines, one row per line."""
        chosen = self.rows() if rows is None else rows
        return "".join(json_text(row) + "\n" for row in chosen)

    def _row(self, message: WireMessage) -> Row:
        self._start = message.time if self._start is None else self._start
        seq, self._next_seq = self._next_seq, self._next_seq + 1
        pair, latency_ms, method = self._pair(seq, message)
        alert = message.kind in ALERT_KINDS or _is_tool_error(message.payload)
        self._alerts += alert
        return Row(
            seq=seq,
            channel=message.channel,
            direction=ARROWS[message.sender],
            kind=message.kind,
            method=method,
            id=message.exchange,
            status=message.status,
            t=round(message.time - self._start, 6),
            latency_ms=latency_ms,
            pair=pair,
            alert=alert,
            payload=message.payload,
        )

    def _pair(self, seq: int, message: WireMessage) -> tuple[int | None, float | None, str | None]:
        if message.exchange is None or message.kind in ("notification", "invalid"):
            return None, None, message.method
        if message.kind == "request":
            key = _key(message.channel, message.sender, message.exchange)
            self._open.pop(key, None)  # an id sent again is the newest open request, not the oldest
            self._open[key] = (seq, message.time, message.method)
            return None, None, message.method
        requester = "server" if message.sender == "client" else "client"
        opened = self._open.pop(_key(message.channel, requester, message.exchange), None)
        if opened is None:
            return None, None, message.method
        request_seq, sent_at, method = opened
        return request_seq, round((message.time - sent_at) * 1000, 3), message.method or method

    def _forget_requests_before(self, first_kept: int) -> None:
        """Forget the open requests whose rows were dropped (the oldest come first in `_open`)."""
        while self._open:
            oldest = next(iter(self._open))
            if self._open[oldest][0] >= first_kept:
                return
            del self._open[oldest]


def _key(channel: str, sender: str, exchange: Any) -> tuple[str, str, str]:
    return channel, sender, json.dumps(exchange, default=str)


def _matches(row: Row, kind: str | None, method: str | None, channel: str | None) -> bool:
    return (
        (kind is None or row["kind"] == kind)
        and (method is None or row["method"] == method)
        and (channel is None or row["channel"] == channel)
    )


def _is_tool_error(payload: Any) -> bool:
    """An MCP tool result that reports a failure (`isError: true`) is an error too."""
    result = payload.get("result") if isinstance(payload, dict) else None
    return isinstance(result, dict) and result.get("isError") is True


def json_text(value: Any) -> str:
    """Compact JSON that a browser can parse: non-finite floats and unknown objects become text.

    >>> json_text({"x": float("nan"), "y": b"raw"})
    '{"x":"nan","y":"b\\'raw\\'"}'
    """
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, default=str, separators=SEP)
    except ValueError:
        return json.dumps(_finite(value), ensure_ascii=False, default=str, separators=SEP)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value
