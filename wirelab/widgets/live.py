"""What the live widgets share: batched sending and a static copy for saved notebooks.

A `LiveWidget` is an anywidget whose subclass says three things: which custom
messages are waiting to go to the browser (`_outgoing`), and how its state
looks as HTML and as text (`_static_html`, `_static_text`). The base class

- sends the waiting messages from one flusher thread, about every 50 ms, as
  append-only custom messages (linear traffic; the synced traits stay small);
- displays, under the live view, a static copy of the state with a
  `display_id`, and re-publishes it after each cell that changed it. The
  widget's CSS hides that copy wherever the live view renders; GitHub,
  nbconvert and nbval see the table instead. The copy is re-published from
  the cell's own thread (an IPython `post_run_cell` hook) because nbclient
  only records display updates that belong to the running cell.

Widget state is not meant to be saved in the notebook (`store_widget_state`
off): the static copy is what a saved notebook shows.
"""

from __future__ import annotations

import uuid
from typing import Any, TypeVar

import anywidget
import traitlets

from wirelab.widgets.flusher import Flusher
from wirelab.widgets.kernel_patch import keep_cell_parents
from wirelab.widgets.static import StaticView

Outgoing = tuple[dict[str, Any], list[bytes]]
W = TypeVar("W", bound="LiveWidget")


class LiveWidget(anywidget.AnyWidget):
    """Base of the wire inspector and the loop stepper (not used on its own)."""

    _store_key = traitlets.Unicode().tag(sync=True)  # names the browser-side store of this widget

    def __init__(self, *, interval: float = 0.05, **traits: Any) -> None:
        keep_cell_parents()  # the view's messages come during async cells: see kernel_patch
        self._flusher = Flusher(self._send_outgoing, interval=interval)
        self._display_id = f"wirelab-{uuid.uuid4().hex}"
        self._published: object = None
        self._unhook: Any = None
        super().__init__(_store_key=self._display_id, **traits)
        self.on_msg(self._on_browser_message)

    # -- what subclasses provide -------------------------------------------------------------
    def _outgoing(self) -> list[Outgoing]:
        """The custom messages waiting to be sent (called on the flusher thread)."""
        raise NotImplementedError

    def _static_html(self) -> str:
        raise NotImplementedError

    def _static_text(self) -> str:
        raise NotImplementedError

    def _version(self) -> object:
        """Changes whenever the static copy would change."""
        raise NotImplementedError

    def _on_request(self, content: dict[str, Any]) -> None:
        """A custom message from the browser (e.g. `{"type": "sync"}`)."""

    # -- sending ------------------------------------------------------------------------------
    def _send_outgoing(self) -> None:
        for content, buffers in self._outgoing():
            self.send(content, buffers)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything so far has been sent to the browser; False on timeout."""
        self._flusher.poke()
        return self._flusher.wait_idle(timeout)

    def _on_browser_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict):
            self._on_request(content)
            self._flusher.poke()

    def close(self) -> None:
        """Stop the flusher and the static copy's updates, then close the widget."""
        if not hasattr(self, "_flusher"):  # __del__ of a widget whose __init__ refused its input
            return
        self._flusher.stop()
        if self._unhook:
            self._unhook()
            self._unhook = None
        super().close()

    # -- static copy --------------------------------------------------------------------------
    def static(self) -> StaticView:
        """The state now, as an object that displays as HTML (and as text in a terminal)."""
        return StaticView(self._static_html(), self._static_text())

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict, dict] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, "text/html": self._static_html()}, metadata

    def _ipython_display_(self) -> None:
        from IPython.display import display

        data, metadata = super()._repr_mimebundle_()
        display(data, metadata=metadata, raw=True)
        display(self._fallback_bundle(), raw=True, display_id=self._display_id)
        self._published = self._version()
        self._watch_cells()

    def _fallback_bundle(self) -> dict[str, str]:
        return {
            "text/html": f'<div class="wirelab-fallback">{self._static_html()}</div>',
            "text/plain": self._static_text(),
        }

    def _watch_cells(self) -> None:
        from IPython import get_ipython

        shell = get_ipython()
        if shell is None or self._unhook is not None:
            return
        shell.events.register("post_run_cell", self._republish)
        self._unhook = lambda: shell.events.unregister("post_run_cell", self._republish)

    def _republish(self, _result: Any = None) -> None:
        """Update the static copy if the state changed during the cell that just ran."""
        from IPython.display import update_display

        version = self._version()
        if version != self._published:
            self._published = version
            update_display(self._fallback_bundle(), raw=True, display_id=self._display_id)


def show_in_notebook(widget: W) -> W:
    """Display `widget` when running in IPython (a notebook); elsewhere just return it."""
    from IPython import get_ipython

    if get_ipython() is not None:
        widget._ipython_display_()
    return widget
