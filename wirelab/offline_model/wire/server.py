"""The offline model over HTTP: a Starlette app, and a uvicorn server in a thread.

    with serve() as server:                  # 127.0.0.1, a free port
        client = openai.OpenAI(base_url=server.base_url, api_key="offline")

Routes: `GET /v1/models`, `GET /v1/models/{id}`, and each wire format's `POST` (`format_routes.py`).
Errors have OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`, so the `openai`
client raises its usual exceptions. A body is refused with 413 past `MAX_BODY_BYTES`, 408 if it
has not all arrived within `LIMITS.body_seconds`, and 400 unless it is JSON that every parser reads
alike (`wirelab.json_text`: no excessive nesting, NaN, over-long integer or repeated key) holding
only Unicode text (no lone surrogate such as `"\\ud800"`). uvicorn runs with the course's HTTP
limits (`wirelab.serving`).

The model runs in a worker thread within `budget.CPU_SECONDS` of CPU per request (`in_budget`),
so one slow request never stalls the event loop, and stops when the client disconnects. The
listening socket sets `TCP_NODELAY`: else Nagle's algorithm holds back a response's last small
segment until the client's delayed ACK, about 40 ms. The server thread installs no signal handlers
and runs its own event loop, so it also works inside a Jupyter kernel. Left out: authentication
(any API key is accepted) and every other OpenAI endpoint.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from wirelab import json_text
from wirelab.offline_model.budget import CPU_SECONDS
from wirelab.offline_model.faults import FAULTS
from wirelab.offline_model.policy import warm_up
from wirelab.offline_model.request import MODEL_ID, RequestError
from wirelab.offline_model.wire.format_routes import routes as format_routes
from wirelab.offline_model.wire.strict import warm_up as import_validator
from wirelab.offline_model.wire.wire_format import CREATED
from wirelab.serving import BodyRefused, HttpLimits, ThreadedServer, read_within

MAX_BODY_BYTES = 1_000_000
MODEL_IDS = (MODEL_ID, *(f"{MODEL_ID}/{fault}" for fault in FAULTS))
# The MCP server's defaults (timeouts, connection cap), with this server's body limit; sessions
# are the MCP server's alone.
LIMITS = HttpLimits(max_body_bytes=MAX_BODY_BYTES)


async def _json_body(request: HTTPRequest) -> Any:
    """The body's JSON value, read within the app's limits and parsed in a worker thread (a megabyte
    of tiny objects takes a tenth of a second, which the event loop is spared)."""
    raw = await _read(request, request.app.state.limits)
    return await run_in_threadpool(_parse, raw)


def _parse(raw: bytes) -> Any:
    """`raw` as JSON, read by `json_text.loads`; a 400 for what it refuses, or for a lone surrogate."""
    try:
        body = json_text.loads(raw)
    except json_text.JsonTextError as error:
        parse = f"We could not parse the JSON body of your request: {error}."
        raise RequestError(400, f"{parse} The body must be one JSON object.") from error
    if b"\\u" in raw and json_text.lone_surrogate(body) is not None:
        lone = 'The request holds a lone UTF-16 surrogate escape (such as "\\ud800"), which is not a Unicode'
        raise RequestError(400, f"{lone} character. Send valid Unicode text.", None, "invalid_unicode")
    return body


async def _read(request: HTTPRequest, limits: HttpLimits) -> bytes:
    """The raw body, read within `limits` (`read_within`); 400 if the connection ended first."""
    try:
        return await read_within(request, limits)
    except BodyRefused as refused:
        size, seconds = f"{limits.max_body_bytes:,} bytes", f"{limits.body_seconds:g} seconds"
        message, code = {
            413: (f"The request body is larger than {size}, the offline model's limit.", "request_too_large"),
            408: (f"The request body did not all arrive within {seconds}.", "request_timeout"),
            400: ("The connection ended before the request body did.", "connection_ended"),
        }[refused.status]
        raise RequestError(refused.status, message, None, code) from None


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
    message = f"{request.method} {request.url.path}: {getattr(error, 'detail', 'error')}."
    return JSONResponse(RequestError(status, message).body(), status_code=status)


def create_app(limits: HttpLimits = LIMITS) -> Starlette:
    """The ASGI app of the offline model; it reads request bodies within `limits`."""
    app = Starlette(
        routes=[
            *format_routes(_json_body),  # Chat Completions, Responses, Messages and Gemini
            Route("/v1/models", list_models, methods=["GET"]),
            Route("/v1/models/{model_id:path}", get_model, methods=["GET"]),
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
