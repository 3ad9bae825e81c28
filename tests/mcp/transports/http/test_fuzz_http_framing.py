"""Property-based fuzzing of the real Streamable HTTP server at the HTTP level (issue 14).

tests/mcp/transports/http/test_http_limits.py sends one of each red-team input: a body declared too large,
a chunked body past the limit, a trickling body, a head that never ends. Here hypothesis
generates their neighbours over raw sockets, against `serve_http` with small limits
(64 KiB bodies, 0.5 s for a head and for a body, 1 s keep-alive):

- `Content-Length` absent, exact, too small (the rest is pipelined as a next request),
  too large (the body never all arrives), far over the limit (up to 1 TiB), malformed, sent
  twice with two values, or beside `Transfer-Encoding: chunked`;
- chunked bodies cut into random chunk sizes and counts, with a chunk size that may lie
  or not be hex, with or without the last chunk, and totals that may pass the body limit;
- bodies streamed far past the limit (16 MiB offered for a 64 KiB limit), in both framings;
- the whole request split into random pieces with pauses between them (slow clients),
  truncated anywhere (inside the head, inside the body), and the connection then waited
  on, closed, or reset;
- `Connection: close`, `Expect: 100-continue`, a missing `Content-Type`;
- and well-formed requests (`initialize`, or a `ping` outside a session), sent in pieces,
  maybe followed on the same connection by a pipelined `initialize`.

For every case the server

- never answers 5xx, and every reply is well-formed HTTP (h11 parses it as a client would);
- never raises: nothing reaches uvicorn's or asyncio's error log (an exception in the app
  is its 500 path even when the client has left and never sees the 500);
- answers or closes the connection within a bounded time (the limits' short timeouts plus
  the client's own pauses), answers every request whose head arrived in time, and gives a
  well-formed request (and the one pipelined after it) the status it calls for;
- stops reading a body it refused: of 16 MiB offered, what the kernel accepted stays under
  4 MiB; and the process's peak RSS, after the first cases, grows by under 16 MiB over the
  batch while the `Content-Length`s declared add up to terabytes;
- then answers a normal `initialize` with 200 on a new connection.

The fuzzer found three ways the server raised (each now a regression test below).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import re
import resource
import select
import socket
import struct
import time

import h11
import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.mcp.transports.http.test_http_limits import ACCEPT, INITIALIZE, MiB, head
from wirelab.jsonrpc import request
from wirelab.mcp.example import build_server
from wirelab.mcp.transports.http.running import RunningHttpServer
from wirelab.mcp.transports.http.server import SESSION_HEADER, serve_http
from wirelab.serving import HttpLimits

pytestmark = pytest.mark.timeout(120)

LIMIT = 64 * 1024
LIMITS = HttpLimits(
    max_body_bytes=LIMIT,
    body_seconds=0.5,
    header_seconds=0.5,
    keep_alive_seconds=1,
    max_sessions=100_000,
    session_idle_seconds=60,
)
HUGE = 16 * MiB  # offered by a streamed body, 256 times the limit
READ_AT_MOST = 4 * MiB  # what the kernels' buffers and the server may take of it before it stops reading
MAX_PAUSES = 0.8  # the most one case sleeps between its pieces
# The longest a server may take to answer or close: a head deadline, a body deadline, a keep-alive
# timeout, the client's own pauses, and slack for a loaded two-core machine.
BOUND = LIMITS.header_seconds + LIMITS.body_seconds + LIMITS.keep_alive_seconds + MAX_PAUSES + 2.0
WARM_UP = 5  # cases before the peak RSS is taken as the baseline (it jumps ~25 MiB in the first few)
RSS_GROWTH_MIB = 16  # a server that buffered one 16 MiB streamed body would fail this
QUIET = 0.1  # after a complete answer on a kept-alive connection, how long to wait for another
ANSWERS = {100, 200, 202, 400, 404, 408, 413, 415}
BOUNDED = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclasses.dataclass(frozen=True)
class Case:
    """One request as bytes on the wire, and how the client sends it."""

    headers: str  # the head's extra lines, each ending in CRLF
    body: bytes  # the framed body, as sent after the head
    huge: str | None  # "length" or "chunked": then stream HUGE bytes after `body`
    cuts: tuple[float, ...]  # where the wire is split into pieces, as fractions of it
    pauses: tuple[float, ...]  # the pause before each piece after the first
    truncate: float | None  # send only this fraction of the wire
    ending: str  # "read" (wait for the answer), "close" or "reset"
    content_type: bool  # whether the head says `Content-Type: application/json`
    expect: tuple[int, ...] | None = None  # for a well-formed case: its final statuses, in order
    pipelined: bool = False  # a normal `initialize` follows on the same connection

    def wire(self, running: RunningHttpServer) -> bytes:
        """The bytes the client sends (a pipelined `initialize` included), maybe truncated."""
        wire = head(running, self.headers)
        if not self.content_type:
            wire = wire.replace(b"Content-Type: application/json\r\n", b"")
        wire += self.body
        if self.pipelined:
            wire += head(running, f"Content-Length: {len(INITIALIZE_BYTES)}\r\n") + INITIALIZE_BYTES
        return wire if self.truncate is None else wire[: int(len(wire) * self.truncate)]


INITIALIZE_BYTES = json.dumps(INITIALIZE).encode()
payloads = st.sampled_from(
    [
        INITIALIZE_BYTES,
        json.dumps(request(2, "ping")).encode(),
        b"",
        b"{",
        b"\xff\xfe",
    ]
) | st.binary(max_size=40)
paddings = st.sampled_from([0, 0, 0, LIMIT - 300, LIMIT, LIMIT + 1]) | st.integers(0, 3 * LIMIT)
malformed_lengths = st.sampled_from(["-1", "+5", "0x10", "1e3", "", "12 34", "9" * 30])


def chunked(body: bytes, sizes: list[int], lie: str | None, last: bool) -> bytes:
    """`body` in chunks of `sizes` (cycled, at most 2,000 chunks), the first size line maybe lying."""
    chunks, at, index = [], 0, 0
    while at < len(body):
        size = sizes[index % len(sizes)] if len(chunks) < 1999 else len(body) - at
        chunks.append(body[at : at + size])
        at, index = at + size, index + 1
    framed = []
    for number, chunk in enumerate(chunks):
        line = f"{len(chunk):x}"
        if number == 0 and lie:
            line = {"bigger": f"{len(chunk) + 5:x}", "smaller": f"{max(len(chunk) - 1, 0):x}"}.get(lie, lie)
        framed.append(line.encode() + b"\r\n" + chunk + b"\r\n")
    return b"".join(framed) + (b"0\r\n\r\n" if last else b"")


@st.composite
def well_formed(draw: st.DrawFn) -> Case:
    """A request any server must answer in full: `initialize` (200) or a `ping` outside a session
    (400), framed right, maybe sent in pieces with short pauses, maybe followed by a pipelined
    `initialize` that must get its own 200 (unless the first said `Connection: close`)."""
    payload, status = draw(
        st.sampled_from([(INITIALIZE_BYTES, 200), (json.dumps(request(2, "ping")).encode(), 400)])
    )
    body = payload + b" " * draw(st.integers(0, 2000))
    if draw(st.booleans()):
        headers = f"Content-Length: {len(body)}\r\n"
    else:
        sizes = draw(st.lists(st.integers(1, 3000), min_size=1, max_size=4))
        headers, body = "Transfer-Encoding: chunked\r\n", chunked(body, sizes, None, True)
    close = draw(st.booleans())
    headers += "Connection: close\r\n" if close else ""
    headers += draw(st.sampled_from(["", "Expect: 100-continue\r\n"]))
    pipelined = not close and draw(st.booleans())
    count = draw(st.integers(0, 4))
    cuts = tuple(sorted(draw(st.lists(st.floats(0, 1), min_size=count, max_size=count))))
    pauses = draw(st.lists(st.sampled_from([0.0, 0.01, 0.05]), min_size=count, max_size=count))
    ending = draw(st.sampled_from(["read", "read", "read", "close"]))
    expect = (status, 200) if pipelined else (status,)
    return Case(headers, body, None, cuts, tuple(pauses), None, ending, True, expect, pipelined)


@st.composite
def any_case(draw: st.DrawFn) -> Case:
    """Any framing of any small body, padded up to three times the limit or streamed far past
    it, with lying lengths and chunk sizes, sent in pieces with pauses, maybe cut short."""
    body = draw(payloads)
    body += b" " * draw(paddings)
    framing = draw(st.sampled_from(["length", "length", "chunked", "chunked", "both", "none"]))
    huge = draw(st.sampled_from([None, None, None, framing])) if framing in ("length", "chunked") else None
    headers = ""
    if framing in ("length", "both"):
        declared = draw(
            st.sampled_from(["exact", "exact", "short", "long", "over", "malformed", "twice"])
            if huge is None
            else st.just("over")
        )
        value = {
            "exact": lambda: str(len(body)),
            "short": lambda: str(draw(st.integers(0, max(len(body) - 1, 0)))),
            "long": lambda: str(len(body) + draw(st.integers(1, 1000))),
            "over": lambda: str(draw(st.integers(LIMIT + 1, 2**40))),
            "malformed": lambda: draw(malformed_lengths),
            "twice": lambda: f"{len(body)}\r\nContent-Length: {len(body) + 1}",
        }[declared]()
        headers += f"Content-Length: {value}\r\n"
    if framing in ("chunked", "both"):
        headers += "Transfer-Encoding: chunked\r\n"
        sizes = draw(st.lists(st.integers(1, 2 * LIMIT), min_size=1, max_size=4))
        lie = draw(st.sampled_from([None, None, None, "bigger", "smaller", "zz", "-1"]))
        last = huge is None and draw(st.booleans() | st.just(True))
        body = chunked(body, sizes, lie, last)
    headers += draw(st.sampled_from(["", "", "Connection: close\r\n"]))
    headers += draw(st.sampled_from(["", "", "Expect: 100-continue\r\n"]))
    content_type = draw(st.sampled_from([True, True, True, False]))
    count = draw(st.integers(0, 4))
    cuts = tuple(sorted(draw(st.lists(st.floats(0, 1), min_size=count, max_size=count))))
    pauses = draw(st.lists(st.sampled_from([0.0, 0.0, 0.01, 0.1, 0.3]), min_size=count, max_size=count))
    truncate = draw(st.none() | st.none() | st.floats(0, 1, exclude_max=True))
    ending = draw(st.sampled_from(["read", "read", "read", "close", "reset"]))
    return Case(headers, body, huge, cuts, tuple(pauses), truncate, ending, content_type)


cases = well_formed() | any_case() | any_case()


@dataclasses.dataclass
class Outcome:
    statuses: list[int]  # every status the server sent, interim (100) included
    ended: str  # "answered" (kept alive), "closed", or "hanging"
    seconds: float
    sent: int  # the bytes the kernel accepted from the client


CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


def answered(sock: socket.socket) -> bool:
    """Whether the server has sent more than a `100 Continue` (left to be read), or closed."""
    if not select.select([sock], [], [], 0)[0]:
        return False
    try:
        peeked = sock.recv(65536, socket.MSG_PEEK)
    except ConnectionResetError:
        return True
    return not peeked or not CONTINUE.startswith(peeked.replace(CONTINUE, b""))


def send(sock: socket.socket, case: Case, wire: bytes, deadline: float) -> tuple[int, float | None]:
    """Send the case's pieces, pausing between them, all of them even after an answer (a
    pipelined request follows one); a huge body is streamed only until the server answers.

    Returns the bytes sent and when the whole head had been sent (None if it never was).
    """
    head_end = wire.find(b"\r\n\r\n") + 4 if b"\r\n\r\n" in wire else None
    bounds = [0, *(int(len(wire) * cut) for cut in case.cuts), len(wire)]
    sent, head_sent_at = 0, None
    try:
        for number, (start, end) in enumerate(itertools.pairwise(bounds)):
            if number and case.pauses[number - 1]:
                time.sleep(min(case.pauses[number - 1], MAX_PAUSES / max(len(case.pauses), 1)))
            sock.settimeout(max(deadline - time.monotonic(), 0.01))
            sock.sendall(wire[start:end])
            sent = end
            if head_sent_at is None and head_end is not None and sent >= head_end:
                head_sent_at = time.monotonic()
        if case.huge:
            sent += stream(sock, case.huge)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server closed the connection: what is left stays here
    except TimeoutError:
        raise AssertionError(
            f"the server stopped reading, and neither answered nor closed: {sent} sent"
        ) from None
    return sent, head_sent_at


def stream(sock: socket.socket, framing: str) -> int:
    """Stream a body of HUGE bytes until the server answers or stops reading; the bytes sent."""
    data = b"x" * (64 * 1024)
    frame = (f"{len(data):x}\r\n".encode() + data + b"\r\n") if framing == "chunked" else data
    sent = 0
    sock.settimeout(BOUND)
    while sent < HUGE and not answered(sock):
        sock.sendall(frame)  # a TimeoutError here: the server neither reads nor answers
        sent += len(frame)
    return sent


# Complexity exception (tests/test_complexity.py): a client's reading loop, one branch per way a server can
# end an answer.
def read_answers(sock: socket.socket, deadline: float, want: int = 1) -> tuple[list[int], str]:  # noqa: C901
    """Every status the server sends, parsed as a client would, until it closes the connection,
    or is quiet for QUIET seconds after `want` complete answers, or `deadline` passes."""
    conn = h11.Connection(h11.CLIENT)

    def expect_an_answer() -> None:
        conn.send(h11.Request(method="POST", target="/mcp", headers=[("Host", "x"), ("Content-Length", "0")]))
        conn.send(h11.EndOfMessage())

    expect_an_answer()
    statuses: list[int] = []
    answers = 0
    while True:
        enough = answers >= want
        left = deadline - time.monotonic()
        if left <= 0:
            return statuses, "hanging"
        sock.settimeout(min(QUIET, left) if enough else left)
        try:
            data = sock.recv(65536)
        except TimeoutError:
            if enough:
                return statuses, "answered"
            continue
        except ConnectionResetError:
            data = b""
        if data == b"" and conn.their_state is h11.SEND_RESPONSE and not conn.trailing_data[0]:
            return statuses, "closed"  # closed with no answer (or only a 100) under way
        conn.receive_data(data)
        while (got := conn.next_event()) is not h11.NEED_DATA:
            if isinstance(got, (h11.InformationalResponse, h11.Response)):
                statuses.append(got.status_code)
            elif isinstance(got, h11.EndOfMessage):
                answers += 1
                if conn.our_state is h11.DONE and conn.their_state is h11.DONE:
                    conn.start_next_cycle()
                    expect_an_answer()
            elif isinstance(got, h11.ConnectionClosed):
                return statuses, "closed"
        if data == b"":  # closed between two answers: h11 reports that as ConnectionClosed above
            return statuses, "closed"


def run(running: RunningHttpServer, case: Case) -> Outcome:
    """Send `case` on a new connection and read what the server answers; checks that a request
    whose head arrived in time is answered, and a well-formed one with the status it calls for."""
    wire = case.wire(running)
    start = time.monotonic()
    deadline = start + BOUND
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
        sock.connect((running.host, running.port))
        sent, head_sent_at = send(sock, case, wire, deadline)
        if case.ending != "read":
            if case.ending == "reset":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return Outcome([], case.ending, time.monotonic() - start, sent)
        statuses, ended = read_answers(sock, deadline, want=len(case.expect or (1,)))
        outcome = Outcome(statuses, ended, time.monotonic() - start, sent)
        in_time = head_sent_at is not None and head_sent_at - start < LIMITS.header_seconds - 0.3
        final = tuple(status for status in statuses if status >= 200)
        if in_time and not case.huge:
            assert final, f"a request whose head arrived got no answer: {outcome}"
        if case.expect is not None:
            assert final == case.expect, f"a well-formed request got {final}, not {case.expect}: {outcome}"
        return outcome
    finally:
        sock.close()


def still_serves(running: RunningHttpServer) -> None:
    """A normal `initialize` on a new connection gets 200 (and its session is ended)."""
    with httpx2.Client(timeout=10) as http:
        opened = http.post(running.url, json=INITIALIZE, headers=ACCEPT)
        assert opened.status_code == 200, opened.text
        http.delete(running.url, headers={SESSION_HEADER: opened.headers[SESSION_HEADER]})


class ServerErrors(logging.Handler):
    """The errors uvicorn and asyncio log: an exception in the app (its 500 path, even when the
    client has left and never sees the 500) or in the protocol."""

    LOGGERS = ("uvicorn.error", "asyncio")

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        self.seen.append(f"{record.getMessage()} {kind}".strip())

    def __enter__(self) -> ServerErrors:
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self)


def peak_rss_mib() -> float:
    """This process's peak resident memory (the server runs in it, on a thread)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


@dataclasses.dataclass
class Batch:
    """What a whole run offered the server, and the process's peak RSS after each case."""

    declared: int = 0  # the bytes `Content-Length` headers announced
    sent: int = 0  # the bytes the kernel accepted from the clients
    peaks: list[float] = dataclasses.field(default_factory=list)

    def add(self, case: Case, outcome: Outcome) -> None:
        self.declared += sum(int(n) for n in re.findall(r"Content-Length: (\d{1,13})\r", case.headers))
        self.sent += outcome.sent
        self.peaks.append(peak_rss_mib())

    def grown(self) -> float:
        """Peak RSS growth after the first cases (hypothesis and the first connections warm up)."""
        return self.peaks[-1] - self.peaks[min(WARM_UP, len(self.peaks)) - 1]


@BOUNDED
@given(case=cases)
def fuzz(running: RunningHttpServer, batch: Batch, errors: ServerErrors, case: Case) -> None:
    """One generated case: answered or closed in time, never 5xx, never an error logged, never
    reading on past the limit, and the server then serves a normal request."""
    errors.seen.clear()
    outcome = run(running, case)
    batch.add(case, outcome)
    assert outcome.ended != "hanging", f"neither answered nor closed within {BOUND} s: {outcome}"
    assert outcome.seconds < BOUND, outcome
    assert all(status < 500 for status in outcome.statuses), outcome
    assert set(outcome.statuses) <= ANSWERS, outcome
    if case.huge:
        assert outcome.sent < READ_AT_MOST, f"the server read on past its limit of {LIMIT} bytes: {outcome}"
    still_serves(running)
    time.sleep(0.05)  # a case the client left may still be failing on the server's thread
    assert not errors.seen, f"the server raised (uvicorn's or asyncio's error log): {errors.seen}"


LYING_CHUNK = b"6\r\n{\r\n1\r\n}\r\n"  # says 6 bytes, then the next size line is in the way


@pytest.mark.parametrize(
    "framing, sent, ending, content_type, pause, statuses",
    [
        pytest.param(
            "Content-Length: 100\r\n", b'{"jsonrpc"', "close", True, 0, [], id="client-closes-mid-body"
        ),
        pytest.param(
            "Content-Length: 100\r\n", b'{"jsonrpc"', "reset", True, 0, [], id="client-resets-mid-body"
        ),
        pytest.param("Transfer-Encoding: chunked\r\n", LYING_CHUNK, "read", True, 0, [400], id="lying-chunk"),
        pytest.param(
            "Transfer-Encoding: chunked\r\n", LYING_CHUNK, "read", False, 0, [400], id="lying-chunk-then-415"
        ),
        pytest.param(
            "Transfer-Encoding: chunked\r\n",
            LYING_CHUNK,
            "read",
            False,
            0.3,
            [415],
            id="415-then-lying-chunk",
        ),
    ],
)
def test_a_connection_that_ends_mid_body_is_not_an_exception_in_the_server(
    framing: str, sent: bytes, ending: str, content_type: bool, pause: float, statuses: list[int]
) -> None:
    """Found by the fuzzer below, three ways the server raised though the client never saw a 5xx:

    - `read_body` let starlette's `ClientDisconnect` escape when the connection ended while the
      body was being read (the client closed or reset it, or uvicorn closed it with its own 400
      for a chunk size that lies): "Exception in ASGI application", the app's 500 path. Now it
      is a refusal like the others;
    - the app refuses a request without `Content-Type` (415) before reading its body. When
      uvicorn had already sent its 400 for the lying chunk, uvicorn sent the 415 as a second
      response on the closing connection; when the 415 went first (the lying chunk arrives
      after a pause), uvicorn's 400 was the second. Either raised h11's `LocalProtocolError`
      (in the app, or as "Fatal error: protocol.data_received() call failed"). Now
      `HeadTimeoutH11` sends only the first answer and closes.
    """
    with serve_http(build_server(), limits=LIMITS) as running, ServerErrors() as errors:
        case = Case(framing, sent, None, (), (), None, ending, content_type)
        if pause:  # the last 8 bytes, which make the chunk a lie, come after the pause
            length = len(case.wire(running))
            case = dataclasses.replace(case, cuts=((length - 8) / length,), pauses=(pause,))
        outcome = run(running, case)
        time.sleep(0.2)
        assert errors.seen == []
        assert outcome.statuses == statuses
        still_serves(running)


def test_random_framing_pauses_and_cut_connections_get_a_bounded_non_5xx_answer() -> None:
    """The fuzzer above against one server, then its memory: see the module's docstring."""
    batch = Batch()
    with serve_http(build_server(), limits=LIMITS) as running, ServerErrors() as errors:
        still_serves(running)
        fuzz(running, batch, errors)
        running.app.sessions.clear()
    assert batch.grown() < RSS_GROWTH_MIB, (
        f"peak RSS grew {batch.grown():.0f} MiB while {batch.declared / MiB:.0f} MiB were declared "
        f"and {batch.sent / MiB:.1f} MiB sent"
    )
