"""Reliability of our MCP servers under the red-team inputs of issue 14, measured.

    .venv/bin/python benchmarks/reliability.py           # print the section
    .venv/bin/python benchmarks/reliability.py --write   # and put it in results.md
    .venv/bin/python benchmarks/reliability.py --auth --write   # only lesson 15's servers

The example server is served over Streamable HTTP in a subprocess (so its memory is
its own), and over stdio. Measured: sessions held up to the cap and memory per
session; concurrent calls held; peak memory while 100 MiB and 400 MiB bodies are
sent; the stalls of a `ping` sent every 50 ms while every other input is sent; and a
corpus of bad inputs, each of which must get one well-formed answer: no 5xx, no
silence, no crash. `--write` replaces only the "Reliability" section of results.md,
leaving the other sections as they are.

The pinger runs in a process of its own (`PINGER`), so that a stall it sees is the
server's and not its own process's. Both processes stamp times with the system's
monotonic clock, so each ping is matched with the inputs in flight while it waited:
the section gives, per kind of input, the longest input and the worst ping, and names
what was in flight at the worst of all. That explained the 4,976 ms "largest stall"
of the first run: against its commit (466dcb7) this version finds a 4.5 s stall with
`tools/call arguments a list` in flight, the first call whose arguments are validated,
which then imported jsonschema on the event loop. The server has warmed jsonschema up
at start since c0ef117; on 17d10da the worst stall was 0.7 s, during 200 concurrent
calls. (The old in-process pinger gave about the same figures: 1.5 and 3.2 s on
466dcb7, 0.5 s after the warm-up.) The machine's cores are still shared by the server, the
pinger and the clients: on two cores a busy client slows the server too, and the
"nothing else" row is the baseline the machine's other load gives.

Lesson 15's servers (issue 23) are measured apart (`AUTH_TITLE`, a subsection of the same
section; `--auth` measures and rewrites only it): the protected MCP server with per-tool
scopes and the authorization server, in a subprocess, `HttpLimits` defaults. Measured:
its peak memory while two 500 MiB bodies without a token upload at once, and how long a
body trickled at one byte every 2 s is held: without a token, with a valid token, and to
the authorization server's `/register` (the limit is `body_seconds`, 30 s).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import dataclasses
import datetime
import json
import pathlib
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx2

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results.md"
TITLE = "## Reliability under bad input (issue 14)"
MiB = 1024 * 1024
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "b", "version": "1"},
    },
}
SERVE = """
import sys, time
from wirelab.mcp.example import build_server
from wirelab.mcp.transports.http.server import serve_http
from wirelab.serving import HttpLimits
running = serve_http(build_server(), limits=HttpLimits(max_sessions=int(sys.argv[1]), header_seconds=2))
print(running.port, flush=True)
time.sleep(3600)
"""
# A `ping` every 50 ms on one session until stdin closes; then every ping as JSON:
# [start, end, status] with the monotonic clock (status is an exception's name if it failed).
PINGER = """
import json, sys, threading, time
import httpx2
url, session = sys.argv[1], sys.argv[2]
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
headers = {"Accept": "application/json, text/event-stream", "Mcp-Session-Id": session}
ping = {"jsonrpc": "2.0", "id": 0, "method": "ping"}
pings = []
with httpx2.Client(timeout=60) as http:
    http.post(url, json=ping, headers=headers)
    print("ready", flush=True)
    while not stop.is_set():
        start = time.monotonic()
        try:
            status = http.post(url, json=ping, headers=headers).status_code
        except httpx2.HTTPError as error:
            status = type(error).__name__
        pings.append((start, time.monotonic(), status))
        time.sleep(0.05)
print(json.dumps(pings), flush=True)
"""
SERVE_AUTH = """
import time
from wirelab.mcp.auth.authorization_server import AuthorizationServer, Grant
from wirelab.mcp.auth.local import serve_authorization_server, serve_protected
from wirelab.mcp.auth.resource import tools_call_needs
from wirelab.mcp.example import build_server
authority = AuthorizationServer(scopes_supported=["notes:read", "notes:write"])
running = serve_authorization_server(authority)
mcp = serve_protected(build_server(), authority, required_scopes={"notes:read"},
                      scopes_for=tools_call_needs("notes:write"))
token = authority.tokens_for(Grant("c1", {"notes:read", "notes:write"}, mcp.url, "ada"))["access_token"]
print(mcp.port, running.port, token, flush=True)
time.sleep(3600)
"""
AUTH_TITLE = "### Lesson 15's servers: bodies without a token, slow bodies (issue 23)"
UPLOAD = 500 * MiB
BASELINE_SECONDS = 2.0  # pings with nothing else in flight, before the first input
IDLE = "nothing else"


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    text = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"{field}:\s+(\d+)", text)[1])


def reset_peak(pid: int) -> None:
    pathlib.Path(f"/proc/{pid}/clear_refs").write_text("5")  # resets VmHWM to the current RSS


def chunked_body(port: int, size: int) -> int:
    """Stream `size` bytes as a chunked body; returns the HTTP status the server answered."""
    chunk = b"x" * (256 * 1024)
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head)
        sock.settimeout(5)
        try:
            for _ in range(size // len(chunk)):
                sock.sendall(framed)
        except (TimeoutError, BrokenPipeError, ConnectionResetError):
            pass
        try:
            return int(sock.recv(1024).split(b" ", 2)[1])
        except (TimeoutError, ConnectionResetError, IndexError, ValueError):
            return 0


def bad_http_inputs(session: str) -> list[tuple[str, bytes | str, dict[str, str]]]:
    """(name, body, extra headers): each must be answered by one JSON error, not 5xx."""
    s = {"Mcp-Session-Id": session}
    call = '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": %s}'
    cases = [
        ("lone surrogate id, initialize", json.dumps(INIT).replace('"id": 1', '"id": "\\ud800"'), {}),
        ("lone surrogate method", '{"jsonrpc": "2.0", "id": 2, "method": "\\ud800"}', s),
        ("lone surrogate tool name", call % '{"name": "\\udfff"}', s),
        ("lone surrogate query", call % '{"name": "search_notes", "arguments": {"query": "\\ud800"}}', s),
        ("response without id", '{"jsonrpc": "2.0", "result": {}}', s),
        ("duplicate jsonrpc key", '{"jsonrpc": "1.0", "jsonrpc": "2.0", "id": 1, "method": "ping"}', s),
        ("batch", "[]", s),
        ("not JSON", "{oops", s),
        ("not UTF-8", b"\xff\xfe", s),
        ("NaN", '{"jsonrpc": "2.0", "id": NaN, "method": "ping"}', s),
        ("deep nesting", "[" * 100_000, s),
        ("huge integer", '{"jsonrpc": "2.0", "id": ' + "9" * 5000 + ', "method": "ping"}', s),
    ]
    for name, params in [
        ("tool name a list", '{"name": ["search_notes"]}'),
        ("tool name an object", '{"name": {"a": 1}}'),
        ("arguments a list", '{"name": "search_notes", "arguments": ["x"]}'),
        ("rebuild_index 10^9 passes", '{"name": "rebuild_index", "arguments": {"passes": 1000000000}}'),
        (
            "search_notes 100k-char query",
            '{"name": "search_notes", "arguments": {"query": "' + "a" * 100_000 + '"}}',
        ),
    ]:
        cases.append((f"tools/call {name}", call % params, s))
    for method, params in [
        ("prompts/get", '{"name": ["x"]}'),
        ("prompts/get", '{"name": "summarize_note", "arguments": [1]}'),
        ("completion/complete", '{"ref": ["x"], "argument": {}}'),
        (
            "completion/complete",
            '{"ref": {"type": "ref/prompt", "name": "summarize_note"}, "argument": {"name": []}}',
        ),
        ("resources/read", '{"uri": ["x"]}'),
        ("logging/setLevel", '{"level": ["info"]}'),
        ("tools/list", '{"cursor": ["x"]}'),
        ("notifications/cancelled", '{"requestId": [1]}'),
    ]:
        cases.append(
            (
                f"{method} wrong types",
                f'{{"jsonrpc": "2.0", "id": 3, "method": "{method}", "params": {params}}}',
                s,
            )
        )
    ping = '{"jsonrpc": "2.0", "id": 4, "method": "ping"}'
    for host in ["127.0.0.1:1@evil.com", "[::1]evil.com", "localhost:evil", "evil.com"]:
        cases.append((f"Host {host}", ping, {**s, "Host": host}))
    cases.append(("Origin https://evil.com", ping, {**s, "Origin": "https://evil.com"}))
    cases.append(("2024 session header 2099", ping, {**s, "MCP-Protocol-Version": "2099-01-01"}))
    cases.append(("unknown session", ping, {"Mcp-Session-Id": "nope"}))
    cases.append(("no session", ping, {}))
    cases.append(("Content-Length over the limit", "", {**s, "Content-Length": str(400 * MiB)}))
    return cases


def send_raw(port: int, body: bytes, headers: list[tuple[str, str]]) -> int:
    """One request with exactly these headers (repeats allowed); the status, or 0 for silence."""
    lines = ["POST /mcp HTTP/1.1"] + [f"{n}: {v}" for n, v in headers]
    if not any(n.lower() == "content-length" for n, _ in headers):
        lines.append(f"Content-Length: {len(body)}")
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(10)
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        try:
            reply = sock.recv(65536)
            return int(reply.split(b" ", 2)[1])
        except (TimeoutError, ConnectionResetError, IndexError, ValueError):
            return 0


@dataclasses.dataclass(frozen=True)
class Span:
    """One input sent to the server: its kind (a row of the stall table), its name, and when it
    was in flight (monotonic clock)."""

    kind: str
    name: str
    start: float
    end: float


class Spans(list[Span]):
    """The inputs sent, each timed by `timed`."""

    @contextlib.contextmanager
    def timed(self, kind: str, name: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        finally:
            self.append(Span(kind, name, start, time.monotonic()))


@dataclasses.dataclass(frozen=True)
class Stall:
    """One kind of input: how long its inputs took, and the worst ping that waited while one of
    them was in flight. A short input often falls between two pings (each waits a few ms of
    its 50 ms cycle): its own time is then the only figure, and no ping waited on it."""

    inputs: int
    longest_ms: float  # the longest one input of this kind took, from the client's side
    longest: str  # its name
    pings: int  # pings that overlapped an input of this kind
    worst_ms: float | None  # the longest of them waited; None if there were none
    during: tuple[str, ...]  # the inputs in flight while the worst one waited


def stalls_by_kind(pings: list[tuple[float, float, object]], spans: list[Span]) -> dict[str, Stall]:
    """For each kind of input (in the order first sent, `IDLE` first), the pings that waited while
    one of that kind was in flight, and the worst of them. A ping that overlapped two inputs
    counts for both; one that overlapped none counts for `IDLE`."""
    kinds = [IDLE, *dict.fromkeys(span.kind for span in spans)]
    counts = dict.fromkeys(kinds, 0)
    worst: dict[str, tuple[float, tuple[str, ...]]] = {}
    for start, end, _ in pings:
        during = [span for span in spans if span.start < end and start < span.end]
        names = tuple(span.name for span in during) or (IDLE,)
        for kind in dict.fromkeys(span.kind for span in during) if during else [IDLE]:
            counts[kind] += 1
            if (end - start) * 1000 > worst.get(kind, (-1.0, ()))[0]:
                worst[kind] = ((end - start) * 1000, names)
    stalls = {}
    for kind in kinds:
        mine = [span for span in spans if span.kind == kind]
        longest = max(mine, key=lambda span: span.end - span.start, default=None)
        ping_ms, during = worst.get(kind, (None, ()))
        stalls[kind] = Stall(
            len(mine),
            (longest.end - longest.start) * 1000 if longest else 0.0,
            longest.name if longest else "",
            counts[kind],
            ping_ms,
            during,
        )
    return stalls


def listed(names: tuple[str, ...], at_most: int = 3) -> str:
    """`names` in backquotes, the first `at_most` of them and how many more."""
    shown = ", ".join(f"`{name}`" for name in names[:at_most])
    return shown + (f" and {len(names) - at_most} more" if len(names) > at_most else "")


def start_pinger(url: str, session: str) -> subprocess.Popen:
    """The pinger (`PINGER`) in its own process, once its first ping has been answered."""
    pinger = subprocess.Popen(
        [sys.executable, "-c", PINGER, url, session],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=REPO,
        text=True,
    )
    if pinger.stdout.readline().strip() != "ready":
        raise RuntimeError("the pinger did not start")
    return pinger


def stop_pinger(pinger: subprocess.Popen) -> list[tuple[float, float, object]]:
    """Every ping the pinger sent: (start, end, status)."""
    pinger.stdin.close()
    pings = json.loads(pinger.stdout.readline())
    pinger.wait(60)
    return [tuple(ping) for ping in pings]


def measure_http(max_sessions: int, quick: bool) -> dict[str, object]:
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(max_sessions)], stdout=subprocess.PIPE, cwd=REPO, text=True
    )
    port = int(process.stdout.readline())
    url = f"http://127.0.0.1:{port}/mcp"
    figures: dict[str, object] = {}
    spans = Spans()
    pinger = None
    try:
        with httpx2.Client(timeout=30) as http:
            session = http.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
            # sessions held, memory per session
            before = rss_kib(process.pid)
            opened, refused = 1, None  # first, while the heap is fresh
            while refused is None and opened < max_sessions + 5:
                reply = http.post(url, json=INIT, headers=ACCEPT)
                if reply.status_code == 200:
                    opened += 1
                else:
                    refused = reply.status_code
            after = rss_kib(process.pid)
            figures["sessions"] = (opened, refused, (after - before) / max(opened - 1, 1))

            pinger = start_pinger(url, session)
            time.sleep(BASELINE_SECONDS)
            # bad inputs
            corpus = bad_http_inputs(session)
            statuses = []
            for name, body, extra in corpus:
                raw = body.encode() if isinstance(body, str) else body
                headers = [("Host", f"127.0.0.1:{port}"), *ACCEPT.items()]
                headers = [(n, v) for n, v in headers if n not in extra] + list(extra.items())
                with spans.timed("a bad input (one at a time)", name):
                    statuses.append(send_raw(port, raw, headers))
            for header in ["Mcp-Method", "Mcp-Session-Id", "MCP-Protocol-Version"]:
                headers = [("Host", f"127.0.0.1:{port}"), *ACCEPT.items(), (header, "a"), (header, "b")]
                with spans.timed("a bad input (one at a time)", f"{header} twice"):
                    statuses.append(send_raw(port, b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}', headers))
            figures["corpus"] = len(statuses)
            figures["5xx"] = sum(status >= 500 for status in statuses)
            figures["silent"] = sum(status == 0 for status in statuses)
            # bodies
            for size in (100 * MiB, 400 * MiB):
                reset_peak(process.pid)
                before = rss_kib(process.pid)
                with spans.timed(f"a {size // MiB} MiB chunked body", f"{size // MiB} MiB body"):
                    status = chunked_body(port, size)
                time.sleep(0.2)
                figures[f"body {size // MiB} MiB"] = (status, before, rss_kib(process.pid, "VmHWM"))
            # concurrent calls held
            concurrent = 50 if quick else 200
            call = {
                "jsonrpc": "2.0",
                "method": "tools/call",
                "params": {"name": "rebuild_index", "arguments": {"passes": 5}},
            }

            async def calls() -> int:
                headers = {**ACCEPT, "Mcp-Session-Id": session}
                async with httpx2.AsyncClient(
                    timeout=60, limits=httpx2.Limits(max_connections=concurrent)
                ) as client:
                    replies = await asyncio.gather(
                        *(
                            client.post(url, json={**call, "id": i}, headers=headers)
                            for i in range(concurrent)
                        )
                    )
                return sum(r.status_code == 200 and "result" in r.text for r in replies)

            with spans.timed(f"{concurrent} concurrent calls", f"{concurrent} concurrent calls"):
                figures["concurrent"] = (concurrent, asyncio.run(calls()))
            pings = stop_pinger(pinger)
            figures["stalls"] = stalls_by_kind(pings, spans)
            figures["pings failed"] = sum(status != 200 for _, _, status in pings)
            figures["alive"] = process.poll() is None
    finally:
        if pinger is not None and pinger.poll() is None:
            pinger.kill()
            pinger.wait()
        process.kill()
        process.wait()
    return figures


def upload(port: int, path: str, size: int, extra: str = "") -> tuple[int, int]:
    """POST `size` bytes as fast as the server takes them; (status, MiB it took before answering)."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: {size}\r\n{extra}\r\n"
    ).encode()
    chunk, sent = b"x" * (1024 * 1024), 0
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(30)
        sock.sendall(head)
        try:
            while sent < size:
                sent += sock.send(chunk)
        except OSError:
            pass  # the server answered and closed the connection
        try:
            return int(sock.recv(1024).split(b" ", 2)[1]), sent // MiB
        except (OSError, IndexError, ValueError):
            return 0, sent // MiB


def trickle(
    port: int, path: str, extra: str = "", every: float = 2.0, at_most: float = 90.0
) -> tuple[int, float]:
    """Send a chunked body one byte every `every` s; (status, seconds until the server answered)."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n{extra}\r\n"
    ).encode()
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head + b"1\r\n{\r\n")
        sock.settimeout(every)
        while time.monotonic() - start < 90:
            try:
                reply = sock.recv(1024)
                return (int(reply.split(b" ", 2)[1]) if reply else 0), time.monotonic() - start
            except TimeoutError:
                try:
                    sock.sendall(b"1\r\n \r\n")
                except OSError:
                    return 0, time.monotonic() - start
            except (OSError, IndexError, ValueError):
                return 0, time.monotonic() - start
    return 0, time.monotonic() - start


def measure_auth() -> dict[str, object]:
    """Lesson 15's protected server and authorization server under issue 23's inputs."""
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE_AUTH], stdout=subprocess.PIPE, cwd=REPO, text=True
    )
    mcp_port, as_port, token = process.stdout.readline().split()
    mcp_port, as_port = int(mcp_port), int(as_port)
    figures: dict[str, object] = {}
    try:
        time.sleep(1)
        reset_peak(process.pid)
        before = rss_kib(process.pid)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            replies = list(pool.map(lambda _: upload(mcp_port, "/mcp", UPLOAD), range(2)))
        time.sleep(0.2)
        figures["uploads"] = (replies, before, rss_kib(process.pid, "VmHWM"))
        bearer = f"Authorization: Bearer {token}\r\n"
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            slow = [
                pool.submit(trickle, mcp_port, "/mcp"),
                pool.submit(trickle, mcp_port, "/mcp", bearer),
                pool.submit(trickle, as_port, "/register"),
            ]
            figures["slow"] = [future.result() for future in slow]
        figures["alive"] = process.poll() is None
    finally:
        process.kill()
        process.wait()
    return figures


def auth_section(figures: dict[str, object]) -> str:
    replies, before, peak = figures["uploads"]
    statuses = " and ".join(f"{status} after {taken} MiB" for status, taken in replies)
    (bare, bare_s), (valid, valid_s), (register, register_s) = figures["slow"]
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
    ).stdout.strip()
    return f"""{AUTH_TITLE}

`python benchmarks/reliability.py --auth --write`; {stamp}, commit {commit}. Lesson 15's protected
notes server (per-tool scopes: the configuration that read bodies first) and its authorization
server, in one subprocess, `HttpLimits` defaults (4 MiB, 30 s for a body).

- Two concurrent {UPLOAD // MiB} MiB uploads without a token: answered {statuses} (what the
  kernel took before the server closed the connection); peak memory (VmHWM) {before / 1024:.0f} MiB
  before, **{peak / 1024:.0f} MiB** at most (issue 23 measured 2,099 MiB before the fix).
- A body trickled at one byte every 2 s: without a token, {bare} after **{bare_s:.1f} s**; with a
  valid token, {valid} after **{valid_s:.1f} s**; to the authorization server's `/register`,
  {register} after **{register_s:.1f} s** (the limit is 30 s; before the fix both stayed open past 44 s).
- Server {"alive" if figures["alive"] else "DEAD"} afterwards.
"""


def write_auth(text: str) -> None:
    """Replace the lesson 15 subsection of results.md (or add it at the end of the section)."""
    current = RESULTS.read_text()
    section = current.find(TITLE)
    section_end = current.find("\n## ", section + len(TITLE))
    section_end = len(current) if section_end == -1 else section_end + 1
    start = current.find(AUTH_TITLE, section, section_end)
    if start == -1:
        RESULTS.write_text(current[:section_end].rstrip() + "\n\n" + text + "\n" + current[section_end:])
        return
    RESULTS.write_text(current[:start] + text + "\n" + current[section_end:])


def measure_stdio(cases: list[str]) -> tuple[int, int]:
    """Send each line to a fresh stdio server after initialize; count lines without one answer."""
    init = json.dumps({**INIT, "id": 0})
    silent = 0
    for text in cases:
        done = subprocess.run(
            [sys.executable, "-m", "wirelab.mcp.example"],
            input=(init + "\n" + text + "\n").encode(),
            capture_output=True,
            timeout=60,
            cwd=REPO,
        )
        answers = done.stdout.splitlines()
        silent += len(answers) != 2 or done.returncode != 0
    return len(cases), silent


def section(http: dict[str, object], stdio: tuple[int, int], max_sessions: int) -> str:
    opened, refused, per_session = http["sessions"]
    concurrent, answered = http["concurrent"]
    rows = "\n".join(
        f"| {name} | {status} | {before / 1024:.0f} | {peak / 1024:.0f} |"
        for name, (status, before, peak) in ((k, v) for k, v in http.items() if k.startswith("body"))
    )
    stalls: dict[str, Stall] = http["stalls"]
    worst = max((stall for stall in stalls.values() if stall.pings), key=lambda stall: stall.worst_ms)

    def row(kind: str, stall: Stall) -> str:
        longest = f"{stall.longest_ms:.0f} (`{stall.longest}`)" if stall.inputs else "–"
        waited = f"{stall.worst_ms:.0f}" if stall.pings else "–"
        during = listed(stall.during) or "–"
        return f"| {kind} | {stall.inputs or '–'} | {longest} | {stall.pings} | {waited} | {during} |"

    stall_rows = "\n".join(row(kind, stall) for kind, stall in stalls.items())
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
    ).stdout.strip()
    return f"""{TITLE}

`python benchmarks/reliability.py --write`; {stamp}, commit {commit}. The example server, over Streamable HTTP
(in a subprocess, `HttpLimits` defaults but `max_sessions={max_sessions}`) and over stdio.

- Sessions held: {opened} opened, then `initialize` got {refused} (the cap); memory per session
  {per_session:.1f} KiB.
- Concurrent calls held: {answered} of {concurrent} concurrent `tools/call`s (0.5 s each, one session)
  answered.
- Largest stall: a `ping` every 50 ms, from a process of its own, while every input below ran,
  waited at most {worst.worst_ms:.0f} ms, with {listed(worst.during)} in flight
  ({http["pings failed"]} pings failed); per kind of input in flight in the first table below.
- Bad-input corpus: {http["corpus"]} HTTP requests (lone surrogates, duplicate keys and headers, a response
  without an id, wrong-typed params, crafted Host and Origin, oversized bodies…): {http["5xx"]} answered 5xx,
  {http["silent"]} got no answer, server {"alive" if http["alive"] else "DEAD"} afterwards;
  {stdio[0]} stdio lines: {stdio[1]} without exactly one answer, 0 crashes.

How long the `ping`s waited, by what else was in flight. A ping that overlapped two inputs counts
for both; "{IDLE}" is the first {BASELINE_SECONDS:.0f} s, before any input, and the gaps between inputs (what
the machine's other load alone costs a ping). An input that took less than a ping's cycle often fell
between two pings: its own time, from its client's side, bounds what it could stall.

| in flight | inputs | longest input ms | pings | worst ping ms | in flight at the worst ping |
|---|---:|---:|---:|---:|---|
{stall_rows}

Peak memory (VmHWM) of the HTTP server process while a chunked body streams in (limit 4 MiB):

| body | status | RSS before MiB | peak MiB |
|---|---:|---:|---:|
{rows}
"""


def write(text: str) -> None:
    """Replace this script's section of results.md (or add it at the end); keep every other section."""
    current = RESULTS.read_text()
    start = current.find(TITLE)
    if start == -1:
        RESULTS.write_text(current.rstrip() + "\n\n" + text)
        return
    end = current.find("\n## ", start + len(TITLE))
    rest = "\n" + current[end + 1 :] if end != -1 else ""  # a blank line before the next section
    RESULTS.write_text(current[:start] + text.rstrip("\n") + "\n" + rest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="put the section into benchmarks/results.md")
    parser.add_argument("--quick", action="store_true", help="fewer sessions and calls: a smoke run")
    parser.add_argument("--auth", action="store_true", help="only lesson 15's servers (a subsection)")
    options = parser.parse_args()
    if options.auth:
        text = auth_section(measure_auth())
        print(text)
        if options.write:
            write_auth(text)
        return
    max_sessions = 100 if options.quick else 1000
    http = measure_http(max_sessions, options.quick)
    stdio_lines = [body for _, body, _ in bad_http_inputs("-") if isinstance(body, str) and body][:20]
    text = section(http, measure_stdio(stdio_lines), max_sessions)
    print(text)
    if options.write:
        write(text)


if __name__ == "__main__":
    main()
