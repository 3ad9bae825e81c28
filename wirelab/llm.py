"""The model client every lesson uses: offline by default, a real provider on request.

    from wirelab.llm import client, model_name
    reply = client().chat.completions.create(model=model_name(), messages=[...])

With no configuration, `client()` is the real `openai.OpenAI` client pointed at
the course's offline model, which it starts on 127.0.0.1 the first time it is
needed. Setting environment variables switches every lesson to a real
OpenAI-compatible provider with no code change:

    OPENAI_API_KEY    the provider's key (its presence selects the provider)
    OPENAI_BASE_URL   the provider's endpoint (default: the OpenAI API)
    WIRELAB_MODEL     the model to ask (required with a real provider)
    WIRELAB_OFFLINE=1 forces the offline model even when a key is set

Every client publishes its HTTP exchanges on `client.wire` (see `wirelab.wire`),
which is what the wire inspector widget watches.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import httpx2
import openai

from wirelab.wire import Wire, WireMessage, parse_json

CHANNEL = "chat"


def using_offline_model() -> bool:
    """True unless a provider key is set (and WIRELAB_OFFLINE is not 1)."""
    return not os.environ.get("OPENAI_API_KEY") or os.environ.get("WIRELAB_OFFLINE") == "1"


def model_name() -> str:
    """The model to put in each request: WIRELAB_MODEL, else the offline model's id."""
    from wirelab.offline_model import MODEL_ID

    chosen = os.environ.get("WIRELAB_MODEL")
    if chosen:
        return chosen
    if not using_offline_model():
        raise RuntimeError(
            "OPENAI_API_KEY is set, so a real provider is used: "
            "set WIRELAB_MODEL to the model you want to call"
        )
    return MODEL_ID


def client(wire: Wire | None = None, **options) -> openai.OpenAI:
    """An `openai.OpenAI` client for the configured provider, observed on `client.wire`."""
    wire = wire or Wire()
    http = httpx2.Client(transport=ObservedTransport(httpx2.HTTPTransport(), wire))
    if using_offline_model():
        from wirelab.offline_model import shared_server

        options = {"base_url": shared_server().base_url, "api_key": "offline", **options}
    made = openai.OpenAI(http_client=http, **options)
    made.wire = wire
    return made


def describe_provider() -> str:
    """One line saying which model the lessons talk to."""
    if using_offline_model():
        return f"the offline model ({model_name()}), running on this machine"
    return f"{os.environ.get('OPENAI_BASE_URL', 'the OpenAI API')} with model {model_name()}"


class ObservedTransport(httpx2.BaseTransport):
    """An httpx2 transport that publishes each request and response on a `Wire`.

    The response is published when its body has been read to the end, so a
    streamed (SSE) response appears once, as the list of its events' data.
    """

    def __init__(self, inner: httpx2.BaseTransport, wire: Wire) -> None:
        self._inner, self._wire = inner, wire

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        if not self._wire.observed:
            return self._inner.handle_request(request)
        exchange, method = self._wire.next_exchange(), f"{request.method} {request.url.path}"
        self._wire.publish(
            WireMessage(CHANNEL, "client", "request", parse_json(request.read()), method, exchange)
        )
        response = self._inner.handle_request(request)

        def publish(body: bytes) -> None:
            kind = "error" if response.status_code >= 400 else "response"
            self._wire.publish(
                WireMessage(
                    CHANNEL,
                    "server",
                    kind,
                    _payload(request, response, body),
                    method,
                    exchange,
                    response.status_code,
                )
            )

        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_RecordingStream(response.stream, publish),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._inner.close()


def _payload(request: httpx2.Request, response: httpx2.Response, body: bytes) -> object:
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        replay = httpx2.Response(
            200, headers={"content-type": "text/event-stream"}, content=body, request=request
        )
        return [parse_json(event.data) for event in httpx2.EventSource(replay)]
    return parse_json(body)


class _RecordingStream(httpx2.SyncByteStream):
    """Passes a response body through while keeping a copy; reports it when closed."""

    def __init__(self, inner: httpx2.SyncByteStream, done: Callable[[bytes], None]) -> None:
        self._inner, self._done, self._parts = inner, done, []

    def __iter__(self) -> Iterator[bytes]:
        for part in self._inner:
            self._parts.append(part)
            yield part

    def close(self) -> None:
        self._inner.close()
        if self._done:
            done, self._done = self._done, None
            done(b"".join(self._parts))
