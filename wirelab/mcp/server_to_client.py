"""Requests that go the other way, from server to client: sampling, roots, elicitation.

`Session` inherits these. A tool reaches them through its `Context`
(`ctx.sample`, `ctx.list_roots`, `ctx.elicit`). Each request is sent only if
the client declared the capability in `initialize`, and each result is
checked (`wirelab.mcp.results`) before the tool sees it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Mapping
from typing import Any

from wirelab import jsonrpc
from wirelab.jsonrpc import JsonRpcError, Message
from wirelab.mcp.protocol import (
    CLIENT_REQUEST_TIMEOUT,
    SUPPORTED_PROTOCOL_VERSIONS,
    MissingClientCapability,
    Send,
    without_none,
)
from wirelab.mcp.results import (
    checked_elicit_result,
    checked_roots,
    checked_sampling_result,
    sampling_messages,
)
from wirelab.tools import JSONSchema

log = logging.getLogger("wirelab.mcp.server")


class ServerToClient:
    """The server-to-client requests of a session, and the responses that complete them.

    A mixin for `Session`, whose `send`, `notify`, `protocol_version` and
    `client_capabilities` it uses.
    """

    send: Send
    protocol_version: str | None
    client_capabilities: dict[str, Any]
    notify: Callable[[str, Mapping[str, Any] | None], None]

    def __init__(self) -> None:
        self.client_requests: dict[int, asyncio.Future] = {}  # ours to the client, by id
        self._client_request_ids = itertools.count(1)
        self._roots: list[dict[str, Any]] | None = None  # cached until roots/list_changed

    async def request(
        self, method: str, params: Mapping[str, Any] | None = None, *, timeout: float = CLIENT_REQUEST_TIMEOUT
    ) -> Any:
        """Send a request to the client and wait for its result; an error raises `JsonRpcError`.

        If the client does not answer within `timeout` seconds, or the tool
        that asked is itself cancelled, the client gets `notifications/cancelled`.
        """
        if self.protocol_version not in SUPPORTED_PROTOCOL_VERSIONS:
            raise RuntimeError(
                f"protocol {self.protocol_version} has no server-to-client requests: "
                "a 2026-07-28 server answers with an InputRequiredResult instead"
            )
        id = next(self._client_request_ids)
        future = self.client_requests[id] = asyncio.get_running_loop().create_future()
        self.send(jsonrpc.request(id, method, params))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.notify("notifications/cancelled", {"requestId": id, "reason": "no answer in time"})
            raise TimeoutError(f"the client did not answer {method} within {timeout} s") from None
        except asyncio.CancelledError:
            self.notify(
                "notifications/cancelled", {"requestId": id, "reason": "the request that needed it ended"}
            )
            raise
        finally:
            del self.client_requests[id]

    def take_client_response(self, response: Message) -> None:
        """Complete the request the client answered; a response to nothing is logged and dropped."""
        future = self.client_requests.get(response["id"])
        if future is None or future.done():
            log.warning("the client answered no pending request: id %r", response["id"])
        elif "error" in response:
            future.set_exception(JsonRpcError.from_object(response["error"]))
        else:
            future.set_result(response["result"])

    def require_client_capability(self, name: str, method: str) -> dict[str, Any]:
        """The client's declared capability `name`; `MissingClientCapability` if it has none."""
        declared = self.client_capabilities.get(name)
        if not isinstance(declared, dict):
            raise MissingClientCapability(
                f"the client did not declare {name!r} in initialize, so the server must not send {method}"
            )
        return declared

    async def create_message(
        self,
        messages: str | list[dict[str, Any]],
        max_tokens: int,
        *,
        system_prompt: str | None = None,
        model_preferences: dict[str, Any] | None = None,
        include_context: str | None = None,
        temperature: float | None = None,
        timeout: float = CLIENT_REQUEST_TIMEOUT,
    ) -> dict[str, Any]:
        """`sampling/createMessage`: the client's model writes one message; a string is one user turn.

        Returns the checked result: `role`, `content`, `model`, `stopReason`.
        """
        declared = self.require_client_capability("sampling", "sampling/createMessage")
        if include_context in ("thisServer", "allServers") and "context" not in declared:
            raise MissingClientCapability(
                f"includeContext {include_context!r} needs the client's "
                '"sampling.context" capability; omit it or use "none"'
            )
        params = without_none(
            messages=sampling_messages(messages),
            maxTokens=max_tokens,
            systemPrompt=system_prompt,
            modelPreferences=model_preferences,
            includeContext=include_context,
            temperature=temperature,
        )
        result = await self.request("sampling/createMessage", params, timeout=timeout)
        return checked_sampling_result(result)

    async def list_roots(self) -> list[dict[str, Any]]:
        """`roots/list`, asked once and cached until the client sends `roots/list_changed`."""
        self.require_client_capability("roots", "roots/list")
        if self._roots is None:
            self._roots = checked_roots(await self.request("roots/list"))
        return self._roots

    async def elicit(
        self, message: str, requested_schema: JSONSchema, *, timeout: float = CLIENT_REQUEST_TIMEOUT
    ) -> dict[str, Any]:
        """`elicitation/create` in form mode: `{"action": "accept", "content": {...}}`, or decline/cancel.

        Accepted content is checked against `requested_schema`.
        """
        declared = self.require_client_capability("elicitation", "elicitation/create")
        if declared and "form" not in declared:
            raise MissingClientCapability("the client declared elicitation without form mode")
        params = {"mode": "form", "message": message, "requestedSchema": requested_schema}
        result = await self.request("elicitation/create", params, timeout=timeout)
        return checked_elicit_result(result, requested_schema)
