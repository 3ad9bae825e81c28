"""One long-lived thread that runs a flush function shortly after it is poked.

Live widgets collect messages from any thread and send them to the browser in
batches. Sending from a new thread each time is a trap in ipykernel 7 (each
sending thread gets its own IOPub socket, reaped only every ten seconds), so
each widget owns exactly one `Flusher`, started on the first poke:

    sent = []
    flusher = Flusher(lambda: sent.append("batch"), interval=0.05)
    flusher.poke(); flusher.poke()   # two pokes within 50 ms ...
    flusher.wait_idle()              # ... one flush
    flusher.stop()

A flush that raises is reported on stderr and kept in `last_error`; the
thread carries on, so one bad batch does not silence the widget.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable


class Flusher:
    """Runs `flush` on its own thread, at most once per `interval` seconds, after a poke."""

    def __init__(self, flush: Callable[[], None], *, interval: float = 0.05) -> None:
        if interval < 0:
            raise ValueError(f"interval must be >= 0 seconds, not {interval}")
        self._flush, self.interval = flush, interval
        self._wake, self._idle = threading.Event(), threading.Event()
        self._idle.set()
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._start_lock, self._state_lock = threading.Lock(), threading.Lock()
        self.last_error: BaseException | None = None

    def poke(self) -> None:
        """Ask for a flush soon; cheap, callable from any thread."""
        if self._stopped:
            return
        with self._state_lock:
            self._idle.clear()
            self._wake.set()
        if self._thread is None:
            self._start()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Block until every poke so far has been flushed; False on timeout."""
        return self._idle.wait(timeout)

    def stop(self) -> None:
        """Flush what is pending, then end the thread."""
        self._stopped = True
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="wirelab-flusher", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while not self._stopped:
            self._wake.wait()
            time.sleep(self.interval)  # let a batch gather
            self._wake.clear()
            self._flush_once()
            with self._state_lock:
                if not self._wake.is_set():
                    self._idle.set()
        self._flush_once()
        self._idle.set()

    def _flush_once(self) -> None:
        try:
            self._flush()
        except Exception as error:  # reported, not swallowed: the thread must outlive one bad batch
            self.last_error = error
            traceback.print_exc()
