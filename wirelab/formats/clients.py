"""Clients for each format, pointed at the offline model and observed on a `Wire`.

    client = anthropic_client()        # anthropic.Anthropic(base_url=<the offline model>)

The `openai` client comes from `wirelab.llm.client()` (Chat Completions and the
Responses API share it). The `anthropic` SDK appends `/v1/messages` to its
base URL, so it gets the server's root. Gemini is plain HTTP here (`httpx2`,
which both SDKs are built on), since its REST shape is what lesson 17 shows.
Exchanges are published on the client's `wire`, which the wire inspector
watches; a streamed reply appears as the list of its events.
"""

from __future__ import annotations

import anthropic
import httpx2

from wirelab.llm import ObservedTransport
from wirelab.wire import Wire


def root_url() -> str:
    """The offline model's address without '/v1': 'http://127.0.0.1:PORT'."""
    from wirelab.offline_model import shared_server

    return shared_server().base_url.removesuffix("/v1")


def anthropic_client(wire: Wire | None = None) -> anthropic.Anthropic:
    """The real `anthropic` SDK pointed at the offline model; exchanges published on `.wire`."""
    http = http_client(wire)
    client = anthropic.Anthropic(base_url=root_url(), api_key="offline", http_client=http, max_retries=0)
    client.wire = http.wire  # type: ignore[attr-defined]
    return client


def http_client(wire: Wire | None = None) -> httpx2.Client:
    """An `httpx2` client (both SDKs are built on it) whose exchanges are published on `.wire`."""
    wire = wire or Wire()
    client = httpx2.Client(transport=ObservedTransport(httpx2.HTTPTransport(), wire), timeout=60)
    client.wire = wire  # type: ignore[attr-defined]
    return client
