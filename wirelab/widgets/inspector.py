"""The wire inspector: every message of a transport, live, in the notebook.

One line attaches it to the model client, to an MCP transport, or to both in
one view:

    from wirelab.widgets import inspect_wire
    inspector = inspect_wire(llm)            # llm = wirelab.llm.client()
    inspector = inspect_wire(llm, transport) # chat and MCP traffic together

Each row shows direction, kind, method, id, status, latency and a summary;
a click opens the JSON (collapsible) and jumps between a request and its
response; errors stand out; the toolbar filters by kind, method and source,
clears, and exports JSON Lines. The same log is readable from Python
(`rows`, `export_jsonl`, `static`), which is what lessons check.

Why anywidget (on top of ipywidgets 8's comm protocol): the view is one ES
module shipped in the package, with no JupyterLab extension to build, and it
renders in JupyterLab, Notebook 7, VS Code and Colab alike. The traffic goes
as append-only custom messages with a binary JSON buffer per batch, not as a
synced list trait, so sending stays linear in the number of messages.
"""

from __future__ import annotations

import pathlib
import threading
from typing import Any

import traitlets

from wirelab.widgets.language import label, labels, language
from wirelab.widgets.live import LiveWidget, Outgoing, show_in_notebook
from wirelab.widgets.static import traffic_html, traffic_text
from wirelab.widgets.traffic import Row, TrafficLog, json_text
from wirelab.wire import Wire, WireMessage

HERE = pathlib.Path(__file__).parent
REPLAY_CHUNK = 2_000


def wire_of(source: Any) -> Wire:
    """The `Wire` of a source: a Wire itself, or anything with a `.wire` (a client, a transport)."""
    wire = source if isinstance(source, Wire) else getattr(source, "wire", None)
    if not isinstance(wire, Wire):
        raise TypeError(
            f"cannot inspect a {type(source).__name__}: give a wirelab.wire.Wire or an "
            "object with a .wire, such as wirelab.llm.client() or an MCP transport"
        )
    return wire


class WireInspector(LiveWidget):
    """A live table of the messages published on one or more wires."""

    _esm = HERE / "inspector.js"
    _css = HERE / "inspector.css"
    title = traitlets.Unicode("Wire inspector").tag(sync=True)
    height = traitlets.Int(300, min=60).tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)  # the view's words, in the notebook's language

    def __init__(
        self, *sources: Any, title: str | None = None, height: int = 300, interval: float = 0.05
    ) -> None:
        wires = [wire_of(source) for source in sources]  # bad input fails before anything opens
        self.traffic = TrafficLog()
        self._unsubscribe: dict[int, Any] = {}
        self.lang = language()
        title = title or label("inspector.title", self.lang)
        super().__init__(interval=interval, title=title, height=height, labels=labels("inspector", self.lang))
        self._sent_up_to = 0
        self._reset_to: int | None = None
        self._replay_from: int | None = None
        self._requests_lock = threading.Lock()
        for wire in wires:
            self.attach(wire)

    def attach(self, source: Any) -> WireInspector:
        """Show the messages of one more source from now on (attaching twice does nothing)."""
        wire = wire_of(source)
        if id(wire) not in self._unsubscribe:
            self._unsubscribe[id(wire)] = wire.subscribe(self._observe)
        return self

    def detach(self, source: Any | None = None) -> None:
        """Stop watching `source` (every source when None); rows already logged stay."""
        chosen = list(self._unsubscribe) if source is None else [id(wire_of(source))]
        for key in chosen:
            self._unsubscribe.pop(key, lambda: None)()

    def _observe(self, message: WireMessage) -> None:
        self.traffic.add(message)
        self._flusher.poke()

    def rows(
        self, *, kind: str | None = None, method: str | None = None, channel: str | None = None
    ) -> list[Row]:
        """The rows so far, optionally only one kind, method or channel."""
        return self.traffic.rows(kind=kind, method=method, channel=channel)

    def export_jsonl(self, path: str | pathlib.Path | None = None) -> str:
        """The log as JSON Lines (one row per line); also written to `path` when given."""
        text = self.traffic.to_jsonl()
        if path is not None:
            pathlib.Path(path).write_text(text, encoding="utf-8")
        return text

    def clear(self) -> None:
        """Forget the rows so far, here and in every open view."""
        with self._requests_lock:
            self._reset_to = self.traffic.clear()
        self._flusher.poke()

    def close(self) -> None:
        if hasattr(self, "_unsubscribe"):
            self.detach()
        super().close()

    def _on_request(self, content: dict[str, Any]) -> None:
        if content.get("type") == "clear":
            self.clear()
        elif content.get("type") == "sync" and isinstance(content.get("next"), int):
            with self._requests_lock:
                asked = content["next"]
                self._replay_from = asked if self._replay_from is None else min(self._replay_from, asked)

    def _outgoing(self) -> list[Outgoing]:
        with self._requests_lock:
            reset, self._reset_to = self._reset_to, None
            replay, self._replay_from = self._replay_from, None
        messages: list[Outgoing] = [({"type": "reset", "next": reset}, [])] if reset is not None else []
        self._sent_up_to = max(self._sent_up_to, reset or 0)
        rows = self.traffic.rows_from(self._sent_up_to if replay is None else replay)
        if rows:
            self._sent_up_to = max(self._sent_up_to, rows[-1]["seq"] + 1)
        for start in range(0, len(rows), REPLAY_CHUNK):
            chunk = rows[start : start + REPLAY_CHUNK]
            messages.append(({"type": "rows", "count": len(chunk)}, [json_text(chunk).encode()]))
        return messages

    def _version(self) -> object:
        self.traffic.drain()
        return self.traffic.next_seq, len(self.traffic)

    def _static_html(self) -> str:
        return traffic_html(self.traffic.rows(), title=self.title, lang=self.lang)

    def _static_text(self) -> str:
        return traffic_text(self.traffic.rows(), title=self.title, lang=self.lang)

    def __repr__(self) -> str:
        self.traffic.drain()
        return (
            f"WireInspector(sources={len(self._unsubscribe)}, messages={len(self.traffic)}, "
            f"errors={self.traffic.alerts})"
        )


def inspect_wire(*sources: Any, title: str | None = None, height: int = 300) -> WireInspector:
    """Attach an inspector to the sources and display it (in a notebook); returns it.

    `sources` are `Wire`s or objects with a `.wire`: `wirelab.llm.client()`, MCP transports.
    """
    if not sources:
        raise ValueError(
            "inspect_wire needs at least one source, e.g. inspect_wire(llm) with llm = wirelab.llm.client()"
        )
    inspector = WireInspector(*sources, title=title, height=height)
    return show_in_notebook(inspector)
