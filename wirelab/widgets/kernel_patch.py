"""A fix for ipykernel 7.4, applied when a course widget is created: widget messages from the
browser during an async cell no longer leave the next cell at [*].

The race in ipykernel 7.4 (no release fixes it; upstream, issue 1564 is about parents mixed up
while a comm message is handled, and PR 1565, on async cells and comm messages, is open):

- Run All sends every cell's `execute_request` at once; the kernel runs them one after the other
  on the main shell, each holding the shell's lock, and keeps "the parent" (the request that
  IOPub messages, such as the `idle` status that ends a cell, belong to) in one context shared by
  all of them.
- A comm message (what a widget's view sends: the inspector's first `sync`, an MCP App view's
  requests, a click) that comes while the lock is held is handled at once, so that an async cell
  can await a widget: the kernel notes the parent, handles the message in a task of its own, and
  then sets the noted parent back.
- If the running cell ended and the next cell began in between (one turn of the event loop is
  enough), that put-back names the previous cell while the next one runs: the next cell's `idle`
  carries the previous cell's parent, JupyterLab never sees the cell end, and Run All stops there.

The patch: while a request is being dispatched on a shell, a `set_parent` on that shell from
outside the request (in ipykernel, only that put-back) names the request being dispatched now.
Nothing else changes: comm messages are still handled at once, with their own parent.

Why a patch: ipykernel 7.3 has no such put-back, but here it stopped finishing cells under a
stream of comm messages sent to a subshell, as JupyterLab 4.6 sends them; and the course cannot
keep the browser quiet during async cells (an App view talks when its iframe loads, a learner
clicks when they like).
Why here: the views that talk during a lesson's async cells are the inspector, the stepper and
the App view (wirelab.widgets.live and .app_view call this), and patching when one is made reaches
kernels that `./course` does not start (a hub, VS Code). It applies only to the releases
known to have the race (`AFFECTED`); tests/widgets/test_kernel_patch.py shows whether the kernel
in use still needs it.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Any

AFFECTED = {(7, 4)}  # ipykernel releases (major, minor) with the race
_lock = threading.Lock()


@dataclass
class _Request:
    """The request a shell is dispatching: its task, and the parent it set."""

    task: asyncio.Task | None
    ident: Any = None
    parent: Any = None


def keep_cell_parents(kernel: Any | None = None) -> bool:
    """Patch `kernel` (by default the running IPython kernel) once, if its ipykernel has the race.

    True when this call patched it; False outside a kernel, on an unaffected release, or when
    it is patched already.
    """
    kernel = kernel if kernel is not None else _running_kernel()
    if kernel is None or _release() not in AFFECTED:
        return False
    with _lock:
        if getattr(kernel, "_wirelab_keeps_cell_parents", False):
            return False
        kernel._wirelab_keeps_cell_parents = True
    _patch(kernel)
    return True


def _patch(kernel: Any) -> None:
    requests: dict[asyncio.AbstractEventLoop, _Request] = {}  # one per shell: each has its own loop
    handling: set[asyncio.Task] = set()  # tasks handling a comm message beside a request
    dispatch_shell, set_parent = kernel.dispatch_shell, kernel.set_parent

    async def dispatch_tracked(
        msg: Any, /, subshell_id: str | None = None, *, concurrent: bool = False
    ) -> Any:
        task = asyncio.current_task()
        if concurrent:
            handling.add(task)
            try:
                return await dispatch_shell(msg, subshell_id=subshell_id, concurrent=True)
            finally:
                handling.discard(task)
        loop = asyncio.get_running_loop()
        requests[loop] = _Request(task)
        try:
            return await dispatch_shell(msg, subshell_id=subshell_id)
        finally:
            requests.pop(loop, None)

    def set_parent_now(ident: Any, parent: Any, channel: str = "shell") -> None:
        if channel == "shell":
            ident, parent = _parent_now(requests, handling, ident, parent)
        set_parent(ident, parent, channel)

    kernel.dispatch_shell = dispatch_tracked
    kernel.set_parent = set_parent_now


def _parent_now(
    requests: dict[asyncio.AbstractEventLoop, _Request], handling: set[asyncio.Task], ident: Any, parent: Any
) -> tuple[Any, Any]:
    """The (ident, parent) a shell `set_parent` should set: the request's own, or the running one's."""
    try:
        loop, task = asyncio.get_running_loop(), asyncio.current_task()
    except RuntimeError:  # a thread with no event loop: not a shell
        return ident, parent
    request = requests.get(loop)
    if request is None or task in handling:
        return ident, parent
    if task is request.task:  # the request setting its own parent
        request.ident, request.parent = ident, parent
        return ident, parent
    return (request.ident, request.parent) if request.parent is not None else (ident, parent)


def _running_kernel() -> Any | None:
    from IPython import get_ipython

    return getattr(get_ipython(), "kernel", None)


def _release() -> tuple[int, int]:
    import ipykernel

    return tuple(ipykernel.version_info[:2])
