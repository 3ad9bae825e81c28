"""The wire classifies each message with the JSON-RPC module's own predicates."""

import pytest

from wirelab import jsonrpc
from wirelab.wire import WireMessage


@pytest.mark.parametrize(
    "payload, kind",
    [
        ({"jsonrpc": "2.0", "id": 1, "method": "ping"}, "request"),
        ({"jsonrpc": "2.0", "method": "notifications/initialized"}, "notification"),
        ({"jsonrpc": "2.0", "id": 1, "result": {}}, "response"),
        ({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}, "error"),
        ({"jsonrpc": "2.0", "result": {}}, "invalid"),  # a response names the request it answers
        ({"jsonrpc": "2.0", "id": 3}, "invalid"),
        ("{not json", "invalid"),
        ([{"jsonrpc": "2.0", "id": 1, "method": "ping"}], "invalid"),
    ],
)
def test_each_message_gets_its_kind(payload, kind):
    assert WireMessage.jsonrpc("mcp", "client", payload).kind == kind


@pytest.mark.parametrize(
    "payload",
    [
        jsonrpc.request(7, "tools/list"),
        jsonrpc.notification("notifications/progress", {"progress": 1}),
        jsonrpc.result_response(7, {"tools": []}),
    ],
)
def test_the_wire_and_the_jsonrpc_predicates_agree(payload):
    kind = WireMessage.jsonrpc("mcp", "server", payload).kind
    predicates = {
        "request": jsonrpc.is_request,
        "notification": jsonrpc.is_notification,
        "response": jsonrpc.is_response,
    }
    assert [name for name, holds in predicates.items() if holds(payload)] == [kind]
