"""What the wire inspector costs the kernel per message: detached vs attached.

Runs inside a real IPython kernel (started with jupyter_client), so the
inspector's batches really go out on IOPub as comm messages. For 10,000
messages (5,000 JSON-RPC request/response pairs) it measures

- detached:        publishing with nobody subscribed (one check per message);
- attached, publishing thread: what the transport's thread pays (append + poke);
- attached, total: process CPU until every row is built, serialised and sent;

and prints microseconds per message, totals and ratios. It also counts the
IOPub bytes the client received for those comm messages. No pass/fail here.

    .venv/bin/python benchmarks/inspector_cost.py
"""

from __future__ import annotations

import json
import pathlib

from jupyter_client.manager import start_new_kernel

N_PAIRS = 5_000
REPO = pathlib.Path(__file__).resolve().parents[1]

KERNEL_CODE = f"""
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

detached = min(publish_all(Wire()) for _ in range(3))
wire = Wire()
inspector = WireInspector(wire)
cpu = time.process_time()
attached = publish_all(wire)
inspector.flush(timeout=60)
total = time.process_time() - cpu
print(json.dumps({{"n": len(batch), "detached_s": detached, "attached_publish_s": attached,
                  "attached_total_cpu_s": total, "rows": len(inspector.rows())}}))
"""


def run_in_kernel(code: str) -> tuple[dict, int]:
    """Run `code` in a fresh kernel; its last stdout line as JSON, and the comm bytes received."""
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        client.execute(f"import sys; sys.path.insert(0, {str(REPO)!r})")
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
                break
        return json.loads("".join(stdout).strip().splitlines()[-1]), comm_bytes
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def report(result: dict, comm_bytes: int) -> None:
    n = result["n"]
    per = {key: result[key] / n * 1e6 for key in ("detached_s", "attached_publish_s", "attached_total_cpu_s")}
    print(f"{n:,} messages in a real kernel (rows logged: {result['rows']:,})")
    print(
        f"  detached:                   {per['detached_s']:7.2f} µs/message, "
        f"{result['detached_s'] * 1e3:8.1f} ms total"
    )
    print(
        f"  attached, publishing thread:{per['attached_publish_s']:7.2f} µs/message, "
        f"{result['attached_publish_s'] * 1e3:8.1f} ms total"
    )
    print(
        f"  attached, total CPU:        {per['attached_total_cpu_s']:7.2f} µs/message, "
        f"{result['attached_total_cpu_s'] * 1e3:8.1f} ms total"
    )
    print(f"  ratio publishing thread / detached: {per['attached_publish_s'] / per['detached_s']:.1f}x")
    print(f"  ratio total CPU / detached:         {per['attached_total_cpu_s'] / per['detached_s']:.1f}x")
    print(f"  IOPub comm traffic: {comm_bytes / 1e6:.2f} MB ({comm_bytes / n:.0f} bytes/message)")


if __name__ == "__main__":
    report(*run_in_kernel(KERNEL_CODE))
