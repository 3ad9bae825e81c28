"""HTTP routes of the four wire formats: each reads its body, answers whole or streamed, and
writes errors in its own API's shape.

    POST /v1/chat/completions                            OpenAI's Chat Completions
    POST /v1/responses                                   OpenAI's Responses API
    POST /v1/messages                                    Anthropic's Messages API
    POST /v1beta/models/{model}:generateContent          Gemini (REST)
    POST /v1beta/models/{model}:streamGenerateContent    Gemini, streamed (`?alt=sse`)

`routes(read_body)` takes the server's body reader, so every format is read within the same limits.
Streams are Server-Sent Events: the Responses and Messages APIs name each event in an `event:`
line; Chat Completions and Gemini send bare `data:` lines, and Chat Completions ends with
`data: [DONE]`. A refused body that was not all read (408, 413, a connection that ended) closes the
connection. Nothing here understands a request: see `edge.py`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from wirelab.offline_model.budget import in_budget
from wirelab.offline_model.request import RequestError
from wirelab.offline_model.wire import gemini_api, messages_api, responses_api, responses_events
from wirelab.offline_model.wire.edge import complete, stream

BodyReader = Callable[[HTTPRequest], Awaitable[Any]]
Answer = Callable[[HTTPRequest, Any], Any]
# Characters that Python's `str.splitlines` (and so httpx's `iter_lines`) takes for line ends,
# which JSON leaves unescaped; the others it splits on are control characters JSON escapes.
LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})
SSE_HEADERS = {"cache-control": "no-cache"}
CLOSE = {"Connection": "close"}  # a body refused before its end is not read on: the connection ends


@dataclass(frozen=True)
class Format:
    """One API on the wire: its reply whole, its streamed events, and its error shape."""

    whole: Answer
    events: Answer
    error_body: Callable[[RequestError], dict[str, Any]]
    named: bool = True  # each event in an `event:` line
    done: bool = False  # a last `data: [DONE]`


async def _sse(events: Iterable[dict[str, Any]], named: bool, done: bool) -> AsyncIterator[str]:
    """Server-Sent Events, one `data:` line per event. A line ends only at CR or LF in the
    specification, but a client reading lines with httpx's `iter_lines` would cut one at
    U+0085 or U+2028 in a message: they are written escaped, as JSON allows."""
    for event in events:
        data = json.dumps(event, ensure_ascii=False).translate(LINE_BREAKS)
        yield (f"event: {event['type']}\n" if named else "") + f"data: {data}\n\n"
    if done:
        yield "data: [DONE]\n\n"


def _handler(read_body: BodyReader, api: Format) -> Callable[[HTTPRequest], Awaitable[Response]]:
    async def handle(request: HTTPRequest) -> Response:
        try:
            body = await read_body(request)
            if not _streamed(request, body):
                return JSONResponse(await in_budget(request, api.whole, request, body))
            events = await in_budget(request, lambda: list(api.events(request, body)))  # all, or an error
            return StreamingResponse(
                _sse(events, api.named, api.done), media_type="text/event-stream", headers=SSE_HEADERS
            )
        except RequestError as error:
            unread = error.status in (408, 413) or error.code == "connection_ended"
            headers = CLOSE if unread else None
            return JSONResponse(api.error_body(error), status_code=error.status, headers=headers)

    return handle


def _streamed(request: HTTPRequest, body: Any) -> bool:
    if request.url.path.endswith(":streamGenerateContent"):
        return True
    return isinstance(body, dict) and body.get("stream") is True


def _gemini(request: HTTPRequest, body: Any) -> dict[str, Any]:
    model, _, action = request.path_params["target"].partition(":")
    if action not in ("generateContent", "streamGenerateContent"):
        message = f"Method not found: {action or '(none)'}. Use generateContent or streamGenerateContent."
        raise RequestError(404, message)
    return gemini_api.generate(model, body)


CHAT = Format(
    lambda _, body: complete(body), lambda _, body: stream(body), RequestError.body, named=False, done=True
)
RESPONSES = Format(
    lambda _, body: responses_api.respond(body),
    lambda _, body: responses_events.events(responses_api.respond(body)),
    RequestError.body,
)
MESSAGES = Format(
    lambda _, body: messages_api.answer(body),
    lambda _, body: messages_api.events(messages_api.answer(body)),
    messages_api.error_body,
)
GEMINI = Format(
    _gemini, lambda r, body: gemini_api.chunks(_gemini(r, body)), gemini_api.error_body, named=False
)


def routes(read_body: BodyReader) -> list[Route]:
    """The routes of the four formats, each reading its body with `read_body`."""
    return [
        Route(path, _handler(read_body, api), methods=["POST"])
        for path, api in (
            ("/v1/chat/completions", CHAT),
            ("/v1/responses", RESPONSES),
            ("/v1/messages", MESSAGES),
            ("/v1beta/models/{target:path}", GEMINI),
        )
    ]
