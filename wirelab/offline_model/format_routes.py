"""HTTP routes for the other wire formats: each reads its body, answers or streams, and writes
errors in its own API's shape.

    POST /v1/responses                                   OpenAI's Responses API
    POST /v1/messages                                    Anthropic's Messages API
    POST /v1beta/models/{model}:generateContent          Gemini (REST)
    POST /v1beta/models/{model}:streamGenerateContent    Gemini, streamed (`?alt=sse`)

`routes(read_body)` takes the server's body reader, so that every format is
read within the same limits (size, time, JSON that parsers read alike).
Streams are Server-Sent Events: the Responses and Messages APIs name each event
in an `event:` line; Gemini sends bare `data:` lines. Nothing here
understands a request: see `edge.py`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from wirelab.offline_model import gemini_api, messages_api, responses_api, responses_events
from wirelab.offline_model.budget import in_budget
from wirelab.offline_model.request import RequestError

BodyReader = Callable[[HTTPRequest], Awaitable[Any]]
LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})
SSE_HEADERS = {"cache-control": "no-cache"}


def _sse(events: Iterable[dict[str, Any]], named: bool) -> AsyncIterator[str]:
    async def lines() -> AsyncIterator[str]:
        for event in events:
            data = json.dumps(event, ensure_ascii=False).translate(LINE_BREAKS)
            yield (f"event: {event['type']}\n" if named else "") + f"data: {data}\n\n"

    return lines()


def _handler(
    read_body: BodyReader,
    answer: Callable[[HTTPRequest, Any], Any],
    events: Callable[[Any], Iterable[dict[str, Any]]],
    error_body: Callable[[RequestError], dict[str, Any]],
    named: bool,
) -> Callable[[HTTPRequest], Awaitable[Response]]:
    async def handle(request: HTTPRequest) -> Response:
        try:
            body = await read_body(request)
            whole = await in_budget(request, answer, request, body)  # stops when the client leaves
            if _streamed(request, body):
                chunks = list(events(whole))
                return StreamingResponse(
                    _sse(chunks, named), media_type="text/event-stream", headers=SSE_HEADERS
                )
            return JSONResponse(whole)
        except RequestError as error:
            headers = {"Connection": "close"} if error.status in (408, 413) else None
            return JSONResponse(error_body(error), status_code=error.status, headers=headers)

    return handle


def _streamed(request: HTTPRequest, body: Any) -> bool:
    if request.url.path.endswith(":streamGenerateContent"):
        return True
    return isinstance(body, dict) and body.get("stream") is True


def _gemini(request: HTTPRequest, body: Any) -> dict[str, Any]:
    model, _, action = request.path_params["target"].partition(":")
    if action not in ("generateContent", "streamGenerateContent"):
        raise RequestError(
            404, f"Method not found: {action or '(none)'}. Use generateContent or streamGenerateContent."
        )
    return gemini_api.generate(model, body)


def routes(read_body: BodyReader) -> list[Route]:
    """The routes of the Responses, Messages and Gemini formats."""
    return [
        Route(
            "/v1/responses",
            _handler(
                read_body,
                lambda _, b: responses_api.respond(b),
                responses_events.events,
                responses_api.error_body,
                named=True,
            ),
            methods=["POST"],
        ),
        Route(
            "/v1/messages",
            _handler(
                read_body,
                lambda _, b: messages_api.answer(b),
                messages_api.events,
                messages_api.error_body,
                named=True,
            ),
            methods=["POST"],
        ),
        Route(
            "/v1beta/models/{target:path}",
            _handler(read_body, _gemini, gemini_api.chunks, gemini_api.error_body, named=False),
            methods=["POST"],
        ),
    ]
