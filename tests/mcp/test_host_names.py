"""Tool names on the way to the model: sanitized, namespaced, collision-free, and mapped back."""

import itertools

import pytest

from wirelab.mcp.host import McpHost
from wirelab.mcp.server import Server, ServerTool
from wirelab.mcp.tool_names import CHAT_NAME, ToolNames, sanitize

LONG = "x" * 100 + ".export"
MCP_NAMES = ["search", "notes.add", "notes_add", "DATA_EXPORT_v2", LONG, "a" * 128, "über"]


def test_a_dot_becomes_an_underscore_and_a_clean_name_is_left_alone():
    names = ToolNames({None: ["notes.add", "search"]})
    assert names.chat_name(None, "notes.add") == "notes_add"
    assert names.chat_name(None, "search") == "search"
    assert sanitize("get user,now") == "get_user_now"


def test_every_chat_name_is_valid_distinct_and_maps_back_to_its_tool():
    tools = {"notes": MCP_NAMES, "web": MCP_NAMES, None: MCP_NAMES}
    names = ToolNames(tools)
    chat_names = [names.chat_name(ns, name) for ns, listed in tools.items() for name in listed]
    assert all(CHAT_NAME.match(chat) for chat in chat_names), chat_names
    assert len(set(chat_names)) == len(chat_names) == 3 * len(MCP_NAMES)
    for ns, listed in tools.items():
        for name in listed:
            assert names.original(names.chat_name(ns, name)) == (ns, name)


def test_two_servers_with_a_search_tool_get_two_names():
    names = ToolNames({"notes": ["search"], "web": ["search"]})
    assert names.chat_name("notes", "search") == "notes__search"
    assert names.chat_name("web", "search") == "web__search"
    assert names.original("web__search") == ("web", "search")


def test_names_that_sanitize_alike_both_get_a_hash_suffix_whatever_their_order():
    first = ToolNames({None: ["notes.add", "notes_add"]})
    second = ToolNames({None: ["notes_add", "notes.add"]})
    assert first.chat_name(None, "notes.add") != first.chat_name(None, "notes_add")
    assert all(first.chat_name(None, n).startswith("notes_add_") for n in ("notes.add", "notes_add"))
    assert dict(first) == dict(second)


def test_a_name_too_long_for_chat_completions_is_cut_to_64_and_stays_unique():
    names = ToolNames({"a-rather-long-server-label": [LONG, LONG + "2"]})
    chat = [names.chat_name("a-rather-long-server-label", n) for n in (LONG, LONG + "2")]
    assert all(len(c) == 64 and CHAT_NAME.match(c) for c in chat) and chat[0] != chat[1]


def test_a_server_cannot_take_another_tools_name_by_imitating_its_hash():
    names = ToolNames({None: ["notes.add", "notes_add"]})
    imitation = names.chat_name(None, "notes.add")
    attacked = ToolNames({None: ["notes.add", "notes_add", imitation]})
    assert len({chat for _, chat in attacked}) == 3
    assert attacked.original(attacked.chat_name(None, "notes.add")) == (None, "notes.add")


def test_an_unknown_chat_name_and_a_duplicate_listing_are_errors():
    with pytest.raises(KeyError):
        ToolNames({None: ["search"]}).original("web__search")
    with pytest.raises(ValueError, match="same tool name twice"):
        ToolNames({None: ["search", "search"]})


def _server() -> Server:
    server = Server("dotted", "0")
    calls = itertools.count()
    for name in ("notes.add", "notes.search"):
        server.add_tool(
            ServerTool(
                name, f"{name} for the test.", {"type": "object", "properties": {}}, lambda: next(calls)
            )
        )
    return server


def test_the_host_offers_sanitized_names_and_calls_the_servers_own_name():
    with McpHost.in_process(_server(), namespace="notes") as host:
        assert sorted(host.tools.names) == ["notes__notes_add", "notes__notes_search"]
        assert all(CHAT_NAME.match(spec["function"]["name"]) for spec in host.tools.specs())
        call = {"id": "c1", "type": "function", "function": {"name": "notes__notes_add", "arguments": "{}"}}
        assert host.execute([call], host.tools) == ["0"]
        assert host.names.original("notes__notes_add") == ("notes", "notes.add")
