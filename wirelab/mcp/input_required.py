"""Multi round-trip requests (2026-07-28, SEP-2322): the client's side of an `InputRequiredResult`.

A server that needs the user or the model in the middle of a request answers it with

    {"resultType": "input_required",
     "inputRequests": {"confirm": {"method": "elicitation/create", "params": {...}}},
     "requestState": "<opaque>"}

The client fulfils each input request as it would a server's request (elicitation, sampling,
roots) and sends the original request again, under a new id, with `inputResponses` (one
result per key) and `requestState` exactly as received, left out when the server sent none:

>>> retry_params({"name": "book"}, {"resultType": "input_required"}, {"confirm": {"action": "accept"}})
{'name': 'book', 'inputResponses': {'confirm': {'action': 'accept'}}}

A result with no `resultType` is complete.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError

INPUT_REQUIRED = "input_required"
MAX_ROUNDS = 8  # input rounds for one request before the client gives up


def is_input_required(result: Any) -> bool:
    """Does the server ask for input before it can answer (`resultType: "input_required"`)?"""
    return isinstance(result, dict) and result.get("resultType") == INPUT_REQUIRED


async def input_responses(
    table: Mapping[str, jsonrpc.Handler], input_requests: Mapping[str, Any]
) -> dict[str, Any]:
    """The result of each input request, by its key, from the client's handlers (`table`).

    An input request the client cannot fulfil (no handler, or its handler fails) raises the
    `JsonRpcError` it would have answered.
    """
    if not isinstance(input_requests, Mapping):
        raise JsonRpcError(INVALID_PARAMS, "inputRequests must be an object")
    dispatcher = jsonrpc.Dispatcher(dict(table))
    responses = {}
    for key, asked in input_requests.items():
        if not isinstance(asked, Mapping) or not isinstance(asked.get("method"), str):
            raise JsonRpcError(INVALID_PARAMS, f"input request {key!r} names no method")
        responses[key] = await dispatcher.call(
            jsonrpc.request(key, asked["method"], asked.get("params") or {})
        )
    return responses


def retry_params(
    params: Mapping[str, Any] | None, result: Mapping[str, Any], responses: dict[str, Any]
) -> dict:
    """The original request's params with this round's `inputResponses` and `requestState`."""
    retry = {k: v for k, v in (params or {}).items() if k not in ("inputResponses", "requestState")}
    retry["inputResponses"] = responses
    if "requestState" in result:
        retry["requestState"] = result["requestState"]
    return retry
