"""What a client offers the server (the specification's client features): sampling, roots, elicitation.

    >>> declared_capabilities(on_sampling=None, roots=[], on_elicitation=None)
    {'roots': {'listChanged': True}}
    >>> sorted(offered(on_sampling=None, roots=[], on_elicitation=None))
    ['ping', 'roots/list']

`wirelab.mcp.client.Client` declares these capabilities in `initialize` and answers the
server's requests from this table; a feature it was given no handler for is -32601.
Each request is checked before its handler sees it (`wirelab.mcp.protocol`); an
accepted form is checked after, once each property the user left empty has its
schema `default` (SEP-1034):

    >>> with_defaults({"properties": {"age": {"type": "integer", "default": 36}}}, {"name": "Ada"})
    {'name': 'Ada', 'age': 36}

Not covered: sampling with tools, URL-mode elicitation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from wirelab import jsonrpc
from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.protocol import (
    ELICIT_ACTIONS,
    argument_problems,
    check_elicitation_request,
    check_sampling_request,
)

RequestHandler = Callable[[dict[str, Any]], dict[str, Any] | Awaitable[dict[str, Any]]]
USER_REJECTED = -1  # the code sampling.mdx gives for "User rejected sampling request"


class Declined(Exception):
    """Raised by an `on_sampling` handler when the user refuses; the server gets error -1."""


def checked_roots(roots: Sequence[dict[str, str]]) -> list[dict[str, str]]:
    """Roots to offer: each a `{"uri": "file://...", "name": ...}`; anything else is a ValueError."""
    for root in roots:
        if not (isinstance(root, dict) and str(root.get("uri", "")).startswith("file://")):
            raise ValueError(f'a root is {{"uri": "file:///path", "name": "..."}}, got {root!r}')
    return [dict(root) for root in roots]


def declared_capabilities(
    on_sampling: RequestHandler | None,
    roots: Sequence[dict[str, str]] | None,
    on_elicitation: RequestHandler | None,
) -> dict[str, Any]:
    """What a client declares in `initialize`: only what it was given handlers for."""
    given = {"sampling": on_sampling, "roots": roots, "elicitation": on_elicitation}
    declared = {"sampling": {}, "roots": {"listChanged": True}, "elicitation": {"form": {}}}
    return {name: declared[name] for name, handler in given.items() if handler is not None}


def offered(
    on_sampling: RequestHandler | None,
    roots: Sequence[dict[str, str]] | None,
    on_elicitation: RequestHandler | None,
) -> dict[str, jsonrpc.Handler]:
    """The table of what the server may ask the client; anything else is -32601."""
    table: dict[str, jsonrpc.Handler] = {"ping": lambda params: {}}
    if on_sampling is not None:
        table["sampling/createMessage"] = lambda params: sample(on_sampling, params)
    if roots is not None:
        table["roots/list"] = lambda params: {"roots": roots}
    if on_elicitation is not None:
        table["elicitation/create"] = lambda params: elicit(on_elicitation, params)
    return table


async def sample(on_sampling: RequestHandler, params: dict[str, Any]) -> dict[str, Any]:
    """Check a `sampling/createMessage`, then ask `on_sampling`; `Declined` becomes -1."""
    check_sampling_request(params)
    try:
        return await _outcome(on_sampling, params)
    except Declined as e:
        raise JsonRpcError(USER_REJECTED, str(e) or "User rejected sampling request") from None


async def elicit(on_elicitation: RequestHandler, params: dict[str, Any]) -> dict[str, Any]:
    """Check an `elicitation/create` (form mode only), ask `on_elicitation`, check its answer."""
    check_elicitation_request(params)
    schema = params["requestedSchema"]
    result = await _outcome(on_elicitation, params)
    if not isinstance(result, dict) or result.get("action") not in ELICIT_ACTIONS:
        raise ValueError(
            f"on_elicitation returned {result!r}: return an action, one of {', '.join(ELICIT_ACTIONS)}"
        )
    if result["action"] == "accept":
        result = {**result, "content": with_defaults(schema, result.get("content"))}
    if result["action"] == "accept" and argument_problems(schema, result.get("content")):
        raise ValueError(
            "on_elicitation accepted content that breaks the requested schema: "
            + "; ".join(argument_problems(schema, result.get("content")))
        )
    return result


def with_defaults(schema: dict[str, Any], content: Any) -> Any:
    """Accepted form content with each property's schema `default` where the user left it empty."""
    if content is None:
        content = {}
    if not isinstance(content, dict):
        return content
    filled = dict(content)
    for name, spec in (schema.get("properties") or {}).items():
        if isinstance(spec, dict) and "default" in spec and filled.get(name) is None:
            filled[name] = spec["default"]
    return filled


async def _outcome(handler: RequestHandler, params: dict[str, Any]) -> Any:
    outcome = handler(params)
    return await outcome if isinstance(outcome, Awaitable) else outcome
