"""The loop stepper: the six steps of the tool-call loop light up as a real loop runs.

    from wirelab.widgets import watch_loop
    stepper = watch_loop()
    result = run_tool_loop(llm, messages, tools, model=model_name(), on_event=stepper.on_event)

The view shows define → send → decide → execute → append → answer, the turn,
what the step did, and the messages list growing. The offline model answers
in milliseconds, so the browser replays the events at a readable pace
(`pace_ms` per step); the loop itself is never slowed down. A new run (its
`define` event) starts the view afresh. Python keeps the state of the latest
run (`counts`, `messages`, `last_step`) for lessons to check.
"""

from __future__ import annotations

import pathlib
import threading
from collections import Counter
from typing import Any

import traitlets

from wirelab.loop import LoopEvent
from wirelab.widgets.language import label, labels, language
from wirelab.widgets.live import LiveWidget, Outgoing, show_in_notebook
from wirelab.widgets.static import STEPS, steps_html, steps_text
from wirelab.widgets.traffic import json_text

HERE = pathlib.Path(__file__).parent


class LoopStepper(LiveWidget):
    """A live diagram of `run_tool_loop`; pass `stepper.on_event` as its `on_event`."""

    _esm = HERE / "stepper.js"
    _css = HERE / "stepper.css"
    title = traitlets.Unicode("Tool-call loop").tag(sync=True)
    pace_ms = traitlets.Int(350, min=0).tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)  # the view's words, in the notebook's language

    def __init__(self, *, title: str | None = None, pace_ms: int = 350, interval: float = 0.05) -> None:
        self._pending: list[LoopEvent] = []
        self._lock = threading.Lock()
        self.events: list[dict[str, Any]] = []
        self.messages: list[Any] = []
        self._run = 0
        self._sent = 0
        self._replay = False
        self.lang = language()
        title = title or label("stepper.title", self.lang)
        super().__init__(interval=interval, title=title, pace_ms=pace_ms, labels=labels("stepper", self.lang))

    def on_event(self, event: LoopEvent) -> None:
        """Record one loop event; cheap, callable from any thread."""
        if not isinstance(event, LoopEvent) or event.step not in STEPS:
            raise TypeError(
                f"on_event takes a wirelab.loop.LoopEvent with a step among {STEPS}, not {event!r}"
            )
        with self._lock:
            self._pending.append(event)
        self._flusher.poke()

    @property
    def counts(self) -> dict[str, int]:
        """How many times each step ran in the latest run."""
        self._drain()
        counted = Counter(record["step"] for record in self.events)
        return {step: counted[step] for step in STEPS}

    @property
    def last_step(self) -> str | None:
        self._drain()
        return self.events[-1]["step"] if self.events else None

    def _drain(self) -> None:
        with self._lock:
            batch, self._pending = self._pending, []
            for event in batch:
                self._record(event)

    def _record(self, event: LoopEvent) -> None:
        if event.step == "define":
            self._run, self.events, self.messages, self._sent = self._run + 1, [], [], 0
        known = len(self.messages) if len(event.messages) >= len(self.messages) else 0
        self.messages = list(event.messages)
        self.events.append(
            {
                "seq": len(self.events),
                "run": self._run,
                "step": event.step,
                "turn": event.turn,
                "detail": event.detail,
                "from": known,
                "messages": self.messages[known:],
            }
        )

    def _on_request(self, content: dict[str, Any]) -> None:
        if content.get("type") == "sync":
            with self._lock:
                self._sent, self._replay = 0, True

    def _outgoing(self) -> list[Outgoing]:
        self._drain()
        with self._lock:
            records, self._sent = self.events[self._sent :], len(self.events)
            replay, self._replay = self._replay, False
        if not records:
            return []
        return [({"type": "events", "replay": replay}, [json_text(records).encode()])]

    def _version(self) -> object:
        self._drain()
        return self._run, len(self.events)

    def _static_html(self) -> str:
        return steps_html(self.counts, self.last_step, self.messages, title=self.title, lang=self.lang)

    def _static_text(self) -> str:
        return steps_text(self.counts, self.last_step, self.messages, title=self.title, lang=self.lang)

    def __repr__(self) -> str:
        self._drain()
        turns = max((record["turn"] for record in self.events), default=0)
        return (
            f"LoopStepper(events={len(self.events)}, turns={turns}, "
            f"last={self.last_step!r}, messages={len(self.messages)})"
        )


def watch_loop(*, title: str | None = None, pace_ms: int = 350) -> LoopStepper:
    """Display a loop stepper (in a notebook) and return it; pass its `.on_event` to the loop."""
    return show_in_notebook(LoopStepper(title=title, pace_ms=pace_ms))
