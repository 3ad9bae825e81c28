"""The model as pure functions: a request body in, a completion (or its chunks) out.

    >>> reply = complete({"model": "wirelab-offline", "messages": [{"role": "user", "content": "Hi"}]})
    >>> reply["object"], sorted(reply)
    ('chat.completion', ['choices', 'created', 'id', 'model', 'object', 'usage'])

Same body, same result, byte for byte. An invalid body raises `RequestError`.
No HTTP here (see `server.py`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wirelab.offline_model.policy import decide
from wirelab.offline_model.request import RequestError
from wirelab.offline_model.wire.validation import read_request
from wirelab.offline_model.wire.wire_format import Thought, chunks, completion, request_digest, written


def complete(body: dict[str, Any]) -> dict[str, Any]:
    """The `chat.completion` for a request body (a `stream` flag is ignored here)."""
    return completion(_thought(body))


def stream(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The `chat.completion.chunk`s for a request body; validated before the first chunk."""
    return chunks(_thought(body))


def _thought(body: dict[str, Any]) -> Thought:
    try:
        request = read_request(body)
        return written(request, decide(request), request_digest(body))
    except RecursionError as error:
        raise RequestError(400, "The request is nested too deeply for the offline model to read.") from error
