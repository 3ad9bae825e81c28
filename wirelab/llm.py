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

A real provider that cannot be reached fails fast (a 3 s connect timeout, no
retries of a refused connection) with `ProviderUnreachable`: one paragraph
naming the URL, the model and the variables to change, not a long traceback.

Every client publishes its HTTP exchanges on `client.wire` (see `wirelab.wire`),
which is what the wire inspector widget watches.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import httpx2
import openai

from wirelab.edition import say
from wirelab.wire import Wire, WireMessage, parse_json

CHANNEL = "chat"
CONNECT_TIMEOUT_S = 3.0


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
        raise ProviderNotConfigured()
    return MODEL_ID


class ProviderNotConfigured(RuntimeError):
    """OPENAI_API_KEY is set but WIRELAB_MODEL is not; the message says what to set."""

    def __init__(self) -> None:
        base = os.environ.get("OPENAI_BASE_URL") or say("unset: the OpenAI API", "未设置，即 OpenAI API")
        super().__init__(
            say(
                "OPENAI_API_KEY is set, so the lessons use a real provider, but WIRELAB_MODEL is not "
                "set: set WIRELAB_MODEL to a model your provider serves (its documentation lists "
                f"the current ones; OPENAI_BASE_URL is now {base}), or unset OPENAI_API_KEY or set "
                "WIRELAB_OFFLINE=1 to use the offline model; then restart the kernel.",
                "已设置 OPENAI_API_KEY，课程因此改用真实的模型服务商，但没有设置 WIRELAB_MODEL："
                "请把 WIRELAB_MODEL 设为服务商提供的某个模型（当前可用的模型见服务商的文档；"
                f"OPENAI_BASE_URL 现在是 {base}），或者取消 OPENAI_API_KEY、设置 WIRELAB_OFFLINE=1 "
                "改用离线模型；然后重启内核。",
            )
        )

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


def client(wire: Wire | None = None, **options) -> openai.OpenAI:
    """An `openai.OpenAI` client for the configured provider, observed on `client.wire`."""
    if not using_offline_model():
        model_name()  # no model named: one clear paragraph now, not at the first request
    wire = wire or Wire()
    transport: httpx2.BaseTransport = httpx2.HTTPTransport()
    if using_offline_model():
        from wirelab.offline_model import shared_server

        options = {"base_url": shared_server().base_url, "api_key": "offline", **options}
    else:
        transport = ReachabilityTransport(transport)
        options = {"timeout": httpx2.Timeout(600.0, connect=CONNECT_TIMEOUT_S), "max_retries": 1, **options}
    http = httpx2.Client(transport=ObservedTransport(transport, wire))
    made = openai.OpenAI(http_client=http, **options)
    made.wire = wire
    return made


def describe_provider() -> str:
    """One line saying which model the lessons talk to."""
    if using_offline_model():
        return say(
            f"the offline model ({model_name()}), running on this machine",
            f"离线模型（{model_name()}），运行在本机上",
        )
    url = os.environ.get("OPENAI_BASE_URL") or say("the OpenAI API", "OpenAI API")
    return say(f"{url} with model {model_name()}", f"{url}，模型 {model_name()}")


class ProviderUnreachable(openai.APIConnectionError):
    """The real provider did not accept a connection; the message says what to change."""

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


class ReachabilityTransport(httpx2.BaseTransport):
    """Turns a failed connection to the provider into one clear `ProviderUnreachable`.

    Raising an `openai.OpenAIError` from the transport also stops the client's
    retries, so an unreachable provider costs one connect timeout, not three.
    """

    def __init__(self, inner: httpx2.BaseTransport) -> None:
        self._inner = inner

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            return self._inner.handle_request(request)
        except (httpx2.ConnectError, httpx2.ConnectTimeout) as error:
            message = _unreachable_message(str(request.url), parse_json(request.read()), error)
            raise ProviderUnreachable(message=message, request=request) from None

    def close(self) -> None:
        self._inner.close()


def _unreachable_message(url: str, body: object, error: Exception) -> str:
    model = body.get("model", "?") if isinstance(body, dict) else "?"
    reason = str(error) or type(error).__name__
    return (
        f"Cannot reach the model provider at {url} (model {model!r}): {reason}. "
        "The lessons use a real provider because OPENAI_API_KEY is set. "
        f"Check OPENAI_BASE_URL (now {os.environ.get('OPENAI_BASE_URL') or 'unset: the OpenAI API'}) "
        f"and WIRELAB_MODEL (now {os.environ.get('WIRELAB_MODEL') or 'unset'}), or unset "
        "OPENAI_API_KEY or set WIRELAB_OFFLINE=1 to use the offline model; then restart the kernel."
    )


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
