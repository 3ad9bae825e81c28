"""The CPU the offline model spends on its slowest known inputs: runs of one short token.

Issue 23 found `'weather ' + '-1' * 2000` costing 14 s of CPU, growing faster than linearly (0.55,
1.67, 4.5 and 14.4 s for 500, 1,000, 2,000 and 4,000 characters). For each run (the last, Chinese
characters in no order, is the costliest Chinese input known) this prints the CPU seconds
(`time.process_time`, the best of `--rounds`) of `complete()` at 500, 1,000, 2,000 and 4,000
characters, and the ratio of the last two: about 2 when the work is linear. Then a paragraph of
2,800 characters that names no tool, sent with 1, 5, 10 and 20 tools: the meaning stage reads each
of its pieces against each tool. Then messages ten times longer than the `MAX_TEXT` characters the
model reads, each answered with the encoder's cache emptied first (else a round reads its vectors
from the cache): the ratio of 40,000 to 4,000 characters is about 1 when nothing past `MAX_TEXT` is
read; it was 3.6 (English) to 7 (Chinese) while the `chatter` probe handed the encoder the whole
message. Then what a request costs the server when its client leaves after `--leave-after` seconds:
the process's CPU until the server is idle again.

    .venv/bin/python benchmarks/offline_model_worst_case.py [--rounds 3] [--leave-after 0.05]

Prints Markdown tables. No pass/fail (tests/offline_model/test_hardening.py counts the work).
"""

from __future__ import annotations

import argparse
import json
import socket
import time

from wirelab.encoder import shared_encoder
from wirelab.offline_model import MODEL_ID, complete, serve
from wirelab.offline_model.evidence import Words
from wirelab.offline_model.normalize import MAX_TEXT

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
RUNS = [("weather ", run) for run in ["-1", "1 ", "'x' ", "May 5 ", "Paris, ", "x=1 ", "北京", "的"]]
RUNS.append(("", "row 7\n"))  # lines that name no tool: each line a piece the meaning stage reads
RUNS.append(("", "What is the weather in Paris? "))  # a piece each, every one for the same tool: one intent
# Common characters in no order, no mark between them: jieba finds few dictionary words and cuts
# the run with its HMM, again for each piece of the message a stage reads.
SCRAMBLED = (
    "点雨四京上会明桌是京我度北海人个上诉海的人京了天告和和是京了是四京告北的下我个雨会天了晚的朗明是了和"
)
RUNS.append(("", SCRAMBLED))
SIZES = [500, 1000, 2000, 4000]
# A paragraph that names no tool, to several tools: the meaning stage reads each of its pieces
# against every tool, so its cost grows with pieces times tools.
PARAGRAPH = (
    "Yesterday I walked from the old harbour to the market in Lisbon and bought 3 oranges for 2 euros. "
    "The 14:30 train on 2024-05-06 was 25 minutes late again, as it was the week before. "
)
THINGS = [
    "order",
    "parcel",
    "licence",
    "driver",
    "invoice",
    "playlist",
    "recipe",
    "thermostat",
    "camera",
    "coupon",
]
TOOL_COUNTS = [1, 5, 10, 20]
# Messages that state no value to one tool: the `chatter` probe reads them (does it want the tool?).
LONG = [("Chinese", "天气"), ("English", "tell me about the weather ")]


def body(text: str, tools: list[dict] | None = None) -> dict:
    return {"model": MODEL_ID, "messages": [{"role": "user", "content": text}], "tools": tools or [WEATHER]}


def kiosk(count: int) -> list[dict]:
    """`count` invented account tools, each with an id it requires, a date, a count and an option."""
    things = [THINGS[i % len(THINGS)] + ("" if i < len(THINGS) else f"_{i}") for i in range(count)]
    return [
        {
            "type": "function",
            "function": {
                "name": f"manage_{thing}",
                "description": f"Look up, change or cancel a {thing} in the user's account.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        f"{thing}_id": {"type": "string", "description": f"The {thing}'s identifier."},
                        "date": {"type": "string", "description": "A date, YYYY-MM-DD."},
                        "limit": {"type": "integer", "description": "How many to return."},
                        "mode": {"type": "string", "enum": ["quick", "full"]},
                    },
                    "required": [f"{thing}_id"],
                },
            },
        }
        for thing in things
    ]


def cpu_seconds(text: str, rounds: int, tools: list[dict] | None = None, cold: bool = False) -> float:
    """The least CPU time over `rounds` answers to `text` (`cold`: the encoder's cache emptied first).
    Each round reads the message anew: the cache of its pieces' values is emptied."""
    best = float("inf")
    for _ in range(rounds):
        Words.of.cache_clear()
        if cold:
            shared_encoder().clear()
        started = time.process_time()
        complete(body(text, tools))
        best = min(best, time.process_time() - started)
    return best


def left_early(text: str, leave_after: float) -> float:
    """CPU seconds the server process spends on `text` when its client leaves after
    `leave_after` seconds, measured until the server has answered a next request."""
    raw = json.dumps(body(text)).encode()
    with serve() as server:
        complete(body("weather in Paris"))
        started = time.process_time()
        with socket.create_connection((server.host, server.port)) as client:
            head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            client.sendall(f"{head}Content-Length: {len(raw)}\r\n\r\n".encode() + raw)
            time.sleep(leave_after)
        deadline = time.monotonic() + 60
        while not server.app.state.stopped and time.monotonic() < deadline:
            time.sleep(0.01)
        return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--leave-after", type=float, default=0.05)
    args = parser.parse_args()
    complete(body("weather in Paris"))
    complete(body("北京天气"))  # loads the Chinese segmenter
    print("| message | " + " | ".join(f"{n:,} chars" for n in SIZES) + " | last ratio |")
    print("|---|" + "---:|" * (len(SIZES) + 1))
    for lead, run in RUNS:
        times = [cpu_seconds(lead + run * (size // len(run)), args.rounds) for size in SIZES]
        cells = " | ".join(f"{t:.3f} s" for t in times)
        print(f"| `{lead!r} + {run!r} * n` | {cells} | {times[-1] / times[-2]:.2f} |", flush=True)
    paragraph = (PARAGRAPH * 20)[:2800]
    print(f"\n| a {len(paragraph):,}-character paragraph that names no tool, to | CPU |\n|---|---:|")
    for count in TOOL_COUNTS:
        print(f"| {count} tools | {cpu_seconds(paragraph, args.rounds, kiosk(count)):.3f} s |", flush=True)
    sizes = [MAX_TEXT, 10 * MAX_TEXT]
    print(
        f"\n| a message that states no value, one tool, encoder cache cold | {sizes[0]:,} chars "
        f"| {sizes[1]:,} chars | ratio |\n|---|---:|---:|---:|"
    )
    for language, run in LONG:
        times = [cpu_seconds((run * size)[:size], args.rounds, cold=True) for size in sizes]
        print(
            f"| {language} `{run!r} * n` | {times[0]:.3f} s | {times[1]:.3f} s | {times[1] / times[0]:.2f} |"
        )
    spent = left_early("weather " + "-1" * 2000, args.leave_after)
    print(f"\nClient gone after {args.leave_after:g} s: the server spent {spent:.3f} s of CPU on it.")


if __name__ == "__main__":
    main()
