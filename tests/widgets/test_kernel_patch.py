"""Widget messages from the browser during async cells leave every cell's status and output with
that cell (wirelab.widgets.kernel_patch, applied when a course widget is created).

A real kernel runs three async cells at a time, queued as Run All queues them, while this test
sends the messages a wire inspector's view sends (`sync`) as fast as it can, once with no
subshell and once to a subshell, as JupyterLab does. Each cell must get exactly one `idle`
status, and its stream and result, with its own request as parent: on ipykernel 7.4 without the
patch, most trials give one cell's `idle` to the cell before it, and JupyterLab leaves that cell
at [*] for ever.
"""

from __future__ import annotations

import queue
import time
from collections import Counter

import pytest

from tests.conftest import started_kernel

SETUP = """
import asyncio
from wirelab.widgets import WireInspector
from wirelab.widgets.kernel_patch import keep_cell_parents
from wirelab.wire import Wire

inspector = WireInspector(Wire())
inspector.comm.comm_id, keep_cell_parents()
"""
CELLS = 3
TRIALS = 8
FLOOD_S = 1.0
WAIT_S = 10.0
SYNC = {"method": "custom", "content": {"type": "sync", "next": 0}}  # what the inspector's view sends


@pytest.fixture(scope="module")
def kernel():
    with started_kernel() as (_, client):
        yield client


def result_of(client, code: str) -> object:
    msg_id = client.execute(code)
    result = None
    while True:
        message = client.get_iopub_msg(timeout=60)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        if message["msg_type"] == "execute_result":
            result = eval(message["content"]["data"]["text/plain"])
        if message["msg_type"] == "error":
            raise AssertionError("\n".join(message["content"]["traceback"]))
        if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            return result


def new_subshell(client) -> str:
    client.control_channel.send(client.session.msg("create_subshell_request", {}))
    return client.control_channel.get_msg(timeout=30)["content"]["subshell_id"]


def one_trial(client, comm_id: str, subshell: str | None) -> dict[str, Counter]:
    """Run CELLS async cells while sending sync messages; count each cell's statuses and outputs."""
    cells = [client.execute(f"await asyncio.sleep(0.2)\nprint({i})\n{i}") for i in range(CELLS)]
    seen = {cell: Counter() for cell in cells}
    started = time.monotonic()
    while time.monotonic() - started < FLOOD_S:  # the cells take 0.6 s or more: send all along
        message = client.session.msg("comm_msg", {"comm_id": comm_id, "data": SYNC})
        if subshell:
            message["header"]["subshell_id"] = subshell
        client.shell_channel.send(message)
        count(client, seen, timeout=0.001)
    while not all(counts["idle"] for counts in seen.values()):
        if not count(client, seen, timeout=WAIT_S):  # nothing for WAIT_S: a cell will never end
            break
    return seen


def count(client, seen: dict[str, Counter], timeout: float) -> bool:
    """Count one IOPub message under its parent, if it is one of the cells; False if none came. A
    stream counts its lines: ipykernel may send one print in two chunks ("1", then its newline)."""
    try:
        update = client.get_iopub_msg(timeout=timeout)
    except queue.Empty:
        return False
    counts = seen.get(update["parent_header"].get("msg_id"))
    if counts is not None:
        kind = update["msg_type"]
        if kind == "stream":
            counts[kind] += update["content"]["text"].count("\n")
        else:
            counts[update["content"]["execution_state"] if kind == "status" else kind] += 1
    return True


@pytest.mark.timeout(300)
@pytest.mark.parametrize("to_subshell", [False, True], ids=["no subshell", "to a subshell"])
def test_each_cell_keeps_its_status_and_output_while_the_browser_sends(kernel, to_subshell):
    comm_id, patched_again = result_of(kernel, SETUP)
    assert patched_again is False  # creating the inspector patched the kernel already
    subshell = new_subshell(kernel) if to_subshell else None
    wrong = []
    for trial in range(TRIALS):
        seen = one_trial(kernel, comm_id, subshell)
        expected = {"busy": 1, "idle": 1, "execute_input": 1, "stream": 1, "execute_result": 1}
        wrong += [f"trial {trial}, cell {i}: {dict(c)}" for i, c in enumerate(seen.values()) if c != expected]
    assert not wrong, wrong
