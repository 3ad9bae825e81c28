"""What the wire inspector costs the kernel per message: detached vs attached.

Runs inside a real IPython kernel (started with jupyter_client), so the
inspector's batches really go out on IOPub as comm messages. For 10,000
messages (5,000 JSON-RPC request/response pairs) it measures

- detached:        publishing with nobody subscribed (one check per message);
- attached, publishing thread: what the transport's thread pays (append + poke);
- attached, total: process CPU until every row is built, serialised and sent;

and the IOPub bytes the client received for those comm messages. Each of
`--repeats` rounds (at least 5 for a spread worth quoting) measures detached and
attached once, taking turns going first, after one warm-up round that is not
counted; each attached round has a fresh wire and inspector. It prints
microseconds per message as the median across rounds with the interquartile
range [Q1–Q3], and each ratio attached / detached taken round by round, so a
round the machine was busy slows both sides of its ratio. No pass/fail; it
writes nothing (benchmarks/run_all.py puts its output in results.md).

    .venv/bin/python benchmarks/inspector_cost.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import start_new_kernel
from run_all import spread

N_PAIRS = 5_000
REPO = pathlib.Path(__file__).resolve().parents[1]

# Defined once in the kernel; each round is one `measure(...)` call, its own execute request.
KERNEL_SETUP = f"""
import json, time
from wirelab.wire import Wire, WireMessage
from wirelab.widgets import WireInspector

def messages():
    for i in range({N_PAIRS}):
        yield WireMessage.jsonrpc("mcp", "client", {{"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {{"name": "search", "arguments": {{"q": f"query {{i}}"}}}}}})
        yield WireMessage.jsonrpc("mcp", "server", {{"jsonrpc": "2.0", "id": i,
            "result": {{"content": [{{"type": "text", "text": f"result {{i}}"}}]}}}})

batch = list(messages())

def publish_all(wire):
    start = time.perf_counter()
    for message in batch:
        wire.publish(message)
    return time.perf_counter() - start

def attached():
    wire = Wire()
    inspector = WireInspector(wire)
    cpu = time.process_time()
    publishing = publish_all(wire)
    inspector.flush(timeout=60)
    total = time.process_time() - cpu
    rows = len(inspector.rows())
    inspector.close()
    return publishing, total, rows

def measure(attached_first):
    if attached_first:
        publishing, total, rows = attached()
        detached = publish_all(Wire())
    else:
        detached = publish_all(Wire())
        publishing, total, rows = attached()
    print(json.dumps({{"n": len(batch), "detached_s": detached, "attached_publish_s": publishing,
                      "attached_total_cpu_s": total, "rows": rows}}))
"""


def execute(client: BlockingKernelClient, code: str) -> tuple[str, int]:
    """Run `code` and wait until the kernel is idle: its stdout, and the comm bytes received meanwhile."""
    msg_id = client.execute(code)
    stdout, comm_bytes = [], 0
    while True:
        message = client.get_iopub_msg(timeout=120)
        if message["msg_type"] == "comm_msg":
            comm_bytes += len(json.dumps(message["content"]))
            comm_bytes += sum(len(b) for b in message.get("buffers", []))
        elif message["msg_type"] == "stream" and message["parent_header"].get("msg_id") == msg_id:
            stdout.append(message["content"]["text"])
        elif message["msg_type"] == "error":
            raise RuntimeError("\n".join(message["content"]["traceback"]))
        elif (
            message["msg_type"] == "status"
            and message["content"]["execution_state"] == "idle"
            and message["parent_header"].get("msg_id") == msg_id
        ):
            return "".join(stdout), comm_bytes


def run_rounds(repeats: int) -> list[dict]:
    """One warm-up round, then `repeats` rounds in a fresh kernel; each round's figures and comm bytes."""
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        execute(client, f"import sys; sys.path.insert(0, {str(REPO)!r})")
        execute(client, KERNEL_SETUP)
        execute(client, "measure(attached_first=False)")  # warm-up: imports, first allocations
        rounds = []
        for number in range(repeats):
            print(f"round {number + 1} of {repeats}", file=sys.stderr)
            stdout, comm_bytes = execute(client, f"measure(attached_first={number % 2 == 1})")
            rounds.append(json.loads(stdout.strip().splitlines()[-1]) | {"comm_bytes": comm_bytes})
        return rounds
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def report(rounds: list[dict]) -> str:
    """The figures of every round as text: medians [interquartile range] per message, and ratios."""
    n = rounds[0]["n"]

    def per_message(key: str) -> list[float]:
        return [r[key] / n * 1e6 for r in rounds]

    def ratio(key: str) -> list[float]:
        return [r[key] / r["detached_s"] for r in rounds]

    rows = sorted({r["rows"] for r in rounds})
    lines = [
        f"{n:,} messages in a real kernel, {len(rounds)} rounds (detached and attached taking turns "
        f"going first); rows logged per round: {', '.join(f'{x:,}' for x in rows)}",
        "median [interquartile range] across rounds:",
        f"  detached:                    {spread(per_message('detached_s'), ' µs/message')}",
        f"  attached, publishing thread: {spread(per_message('attached_publish_s'), ' µs/message')}",
        f"  attached, total CPU:         {spread(per_message('attached_total_cpu_s'), ' µs/message')}",
        f"  ratio publishing thread / detached: {spread(ratio('attached_publish_s'), 'x', 1)}",
        f"  ratio total CPU / detached:         {spread(ratio('attached_total_cpu_s'), 'x', 1)}",
        f"  IOPub comm traffic per round: {spread([r['comm_bytes'] / 1e6 for r in rounds], ' MB')} "
        f"({spread([r['comm_bytes'] / n for r in rounds], ' bytes/message', 0)})",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="rounds counted (at least 5 for a spread)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, not {args.repeats}")
    print(report(run_rounds(args.repeats)))


if __name__ == "__main__":
    main()
