"""The offline model over HTTP: a Starlette app, and a uvicorn server in a thread.

    with serve() as server:                  # 127.0.0.1, a free port
        client = openai.OpenAI(base_url=server.base_url, api_key="offline")

Routes: `POST /v1/chat/completions` (JSON, or Server-Sent Events with
`stream: true`), `GET /v1/models`, `GET /v1/models/{id}`. The other wire formats
(`/v1/responses`, `/v1/messages`, Gemini's `/v1beta/models/…`) are in `format_routes.py`. Errors have OpenAI's
shape, `{"error": {"message", "type", "param", "code"}}`, so the `openai`
client raises its usual exceptions. A body over `MAX_BODY_BYTES` is refused
with 413, by its `Content-Length` or as soon as it streams past the limit; one
that has not all arrived within `LIMITS.body_seconds` (30 s) with 408. A body that
is not JSON (`wirelab.json_text`'s strict reading: nesting too deep, NaN, an integer too
long, or the same key twice in one object, which parsers read differently)
or holds a lone UTF-16 surrogate (`"\\ud800"`, valid JSON but not Unicode
text) gets a 400.

uvicorn runs with the course's HTTP limits (`wirelab.serving`): a
deadline for each request head, a keep-alive timeout, a cap on header size
and on open connections (503 beyond it).

The model runs in a worker thread (`in_budget`), so one slow request never
stalls the event loop; each request's work is bounded anyway (see
`normalize.MAX_TEXT` and `validation.MAX_TOOLS`), linear in its text, and capped
at `budget.CPU_SECONDS` of CPU (a 400 `request_too_complex` beyond); the work stops
as soon as the client disconnects. The listening socket sets
`TCP_NODELAY`: without it, Nagle's algorithm holds back the response's last
small segment until the client's delayed ACK, about 40 ms per request. The
server thread installs no signal handlers and runs its own event loop, so it
also works inside a Jupyter kernel. Left out: authentication (any API key is
accepted) and every other OpenAI endpoint.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from wirelab import json_text
from wirelab.offline_model.budget import CPU_SECONDS, in_budget
from wirelab.offline_model.edge import complete, stream  # Chat Completions, strict mode included
from wirelab.offline_model.faults import FAULTS
from wirelab.offline_model.format_routes import routes as format_routes
from wirelab.offline_model.policy import warm_up
from wirelab.offline_model.request import MODEL_ID, RequestError
from wirelab.offline_model.strict import warm_up as import_validator
from wirelab.offline_model.wire_format import CREATED
from wirelab.serving import BodyRefused, HttpLimits, ThreadedServer, read_within

MAX_BODY_BYTES = 1_000_000
MODEL_IDS = (MODEL_ID, *(f"{MODEL_ID}/{fault}" for fault in FAULTS))
# The MCP server's defaults (timeouts, connection cap), with this server's body limit; sessions
# are the MCP server's alone.
LIMITS = HttpLimits(max_body_bytes=MAX_BODY_BYTES)
CLOSE = {"Connection": "close"}  # a body refused before its end is not read on: the connection ends


async def chat_completions(request: HTTPRequest) -> Response:
    """POST /v1/chat/completions."""
    try:
        body = await _json_body(request)
        if isinstance(body, dict) and body.get("stream") is True:
            chunks = await in_budget(request, lambda: list(stream(body)))
            return StreamingResponse(
                _events(chunks), media_type="text/event-stream", headers={"cache-control": "no-cache"}
            )
        return JSONResponse(await in_budget(request, complete, body))
    except RequestError as error:
        headers = CLOSE if error.status in (408, 413) or error.code == "connection_ended" else None
        return JSONResponse(error.body(), status_code=error.status, headers=headers)


async def _json_body(request: HTTPRequest) -> Any:
    """The body's JSON value, read within the app's limits (413, 408) and refused (400) unless it
    is JSON that every parser reads alike, holding only Unicode text. It is parsed in a worker
    thread: a megabyte of tiny objects takes a tenth of a second, which the event loop is spared."""
    raw = await _read(request, request.app.state.limits)
    return await run_in_threadpool(_parse, raw)


def _parse(raw: bytes) -> Any:
    """`raw` as JSON, read by `json_text.loads`; a `RequestError` (400) for what it refuses, or
    for a lone surrogate."""
    try:
        body = json_text.loads(raw)
    except json_text.JsonTextError as error:
        raise RequestError(
            400,
            f"We could not parse the JSON body of your request: {error}. The body must be one JSON object.",
        ) from error
    if b"\\u" in raw and json_text.lone_surrogate(body) is not None:
        raise RequestError(
            400,
            'The request holds a lone UTF-16 surrogate escape (such as "\\ud800"), which is not '
            "a Unicode character. Send valid Unicode text.",
            None,
            "invalid_unicode",
        )
    return body


async def _read(request: HTTPRequest, limits: HttpLimits) -> bytes:
    """The raw body, read within `limits` (`read_within`): 413 if it is too large, 408 if it has
    not all arrived within `limits.body_seconds`, 400 if the connection ended first."""
    try:
        return await read_within(request, limits)
    except BodyRefused as refused:
        message, code = {
            413: (
                f"The request body is larger than {limits.max_body_bytes:,} bytes, "
                "the offline model's limit.",
                "request_too_large",
            ),
            408: (
                f"The request body did not all arrive within {limits.body_seconds:g} seconds.",
                "request_timeout",
            ),
            400: ("The connection ended before the request body did.", "connection_ended"),
        }[refused.status]
        raise RequestError(refused.status, message, None, code) from None


# Characters that Python's `str.splitlines` (and so httpx's `iter_lines`) takes for line ends,
# which JSON leaves unescaped; the others it splits on are control characters JSON escapes.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


async def _events(chunks: Iterable[dict[str, Any]]) -> AsyncIterator[str]:
    """Server-Sent Events, one `data:` line per chunk. A line ends only at CR or LF in the
    specification, but a client reading lines with httpx's `iter_lines` would cut one at
    U+0085 or U+2028 in a message: they are written escaped, as JSON allows."""
    for chunk in chunks:
        yield f"data: {json.dumps(chunk, ensure_ascii=False).translate(_LINE_BREAKS)}\n\n"
    yield "data: [DONE]\n\n"


def _model(model_id: str) -> dict[str, Any]:
    return {"id": model_id, "object": "model", "created": CREATED, "owned_by": "wirelab"}


async def list_models(request: HTTPRequest) -> Response:
    """GET /v1/models: the model, and one id per fault."""
    return JSONResponse({"object": "list", "data": [_model(m) for m in MODEL_IDS]})


async def get_model(request: HTTPRequest) -> Response:
    """GET /v1/models/{id}."""
    model_id = request.path_params["model_id"]
    if model_id not in MODEL_IDS:
        error = RequestError(404, f"The model `{model_id}` does not exist.", "model", "model_not_found")
        return JSONResponse(error.body(), status_code=404)
    return JSONResponse(_model(model_id))


async def _http_error(request: HTTPRequest, error: Exception) -> Response:
    status = error.status_code if isinstance(error, HTTPException) else 500
    body = RequestError(
        status, f"{request.method} {request.url.path}: {getattr(error, 'detail', 'error')}."
    ).body()
    return JSONResponse(body, status_code=status)


def create_app(limits: HttpLimits = LIMITS) -> Starlette:
    """The ASGI app of the offline model; it reads request bodies within `limits`."""
    app = Starlette(
        routes=[
            Route("/v1/chat/completions", chat_completions, methods=["POST"]),
            Route("/v1/models", list_models, methods=["GET"]),
            Route("/v1/models/{model_id:path}", get_model, methods=["GET"]),
            *format_routes(_json_body),  # the Responses, Messages and Gemini formats
        ],
        exception_handlers={HTTPException: _http_error},
    )
    app.state.limits = limits
    app.state.cpu_seconds = CPU_SECONDS  # per request (`in_budget`)
    app.state.stopped = Counter()  # requests stopped: "cpu" or "client_gone"
    return app


class OfflineServer(ThreadedServer):
    """The offline model served on a daemon thread, within `limits`; a context manager."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, limits: HttpLimits = LIMITS) -> None:
        self.app = create_app(limits)
        super().__init__(self.app, limits, host, port, name="offline-model")

    @property
    def base_url(self) -> str:
        """Where an OpenAI client points: 'http://127.0.0.1:PORT/v1'."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self, timeout: float = 10.0) -> OfflineServer:
        """Start serving, and warming the model up; returns once the server accepts connections."""
        threading.Thread(target=_warm_up, name="offline-model-warm-up", daemon=True).start()
        return super().start(timeout)

    def __repr__(self) -> str:
        return f"OfflineServer({self.base_url!r})"


def _warm_up() -> None:
    """What a served model's first requests would otherwise wait for: the model's own warm-up,
    and jsonschema, which strict mode imports on first use."""
    warm_up()
    import_validator()


def serve(host: str = "127.0.0.1", port: int = 0, limits: HttpLimits = LIMITS) -> OfflineServer:
    """A started `OfflineServer`; port 0 picks a free port."""
    return OfflineServer(host, port, limits).start()


_shared: OfflineServer | None = None
_shared_lock = threading.Lock()


def shared_server() -> OfflineServer:
    """The process's one offline model server, started on first use."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = serve()
        return _shared
