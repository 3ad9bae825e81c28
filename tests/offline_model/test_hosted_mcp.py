"""The Responses API's hosted MCP tool: the offline model connects to a running course MCP server."""

import json

import openai
import pytest

from tests.conftest import free_port
from wirelab.formats import enable_hosted_mcp
from wirelab.mcp.example import build_server
from wirelab.mcp.transports.http.server import serve_http
from wirelab.offline_model.wire import hosted_mcp


@pytest.fixture(autouse=True)
def course_client():
    enable_hosted_mcp()


@pytest.fixture(scope="module")
def notes_url():
    with serve_http(build_server()) as running:
        yield running.url


def _mcp(url, approval="never", label="notes"):
    return {"type": "mcp", "server_label": label, "server_url": url, "require_approval": approval}


ASK = "Search the notes for stdio"


def test_tools_are_listed_and_a_call_runs_on_the_server_without_approval(client, notes_url):
    response = client.responses.create(model="wirelab-offline", input=ASK, tools=[_mcp(notes_url)])
    kinds = [item.type for item in response.output]
    assert kinds == ["mcp_list_tools", "mcp_call", "message"]
    listed, call = response.output[0], response.output[1]
    assert "search_notes" in [tool.name for tool in listed.tools]
    assert call.name == "search_notes" and json.loads(call.arguments)["query"] and call.error is None
    assert call.output and call.output.split()[0] in response.output_text


def test_an_approval_request_waits_until_it_is_approved(client, notes_url):
    first = client.responses.create(model="wirelab-offline", input=ASK, tools=[_mcp(notes_url, "always")])
    assert [item.type for item in first.output] == ["mcp_list_tools", "mcp_approval_request"]
    request = first.output[1]
    approve = {"type": "mcp_approval_response", "approval_request_id": request.id, "approve": True}
    second = client.responses.create(
        model="wirelab-offline",
        previous_response_id=first.id,
        input=[approve],
        tools=[_mcp(notes_url, "always")],
    )
    assert [item.type for item in second.output] == ["mcp_call", "message"]
    assert second.output[0].approval_request_id == request.id and second.output[0].output


def test_a_refused_approval_runs_nothing_and_the_model_says_so(client, notes_url):
    first = client.responses.create(model="wirelab-offline", input=ASK, tools=[_mcp(notes_url, "always")])
    refuse = {"type": "mcp_approval_response", "approval_request_id": first.output[1].id, "approve": False}
    second = client.responses.create(
        model="wirelab-offline",
        previous_response_id=first.id,
        input=[refuse],
        tools=[_mcp(notes_url, "always")],
    )
    assert [item.type for item in second.output] == ["message"]
    assert "not approve" in second.output_text


def test_require_approval_never_for_named_tools_only(client, notes_url):
    approval = {"never": {"tool_names": ["search_notes"]}}
    response = client.responses.create(model="wirelab-offline", input=ASK, tools=[_mcp(notes_url, approval)])
    assert response.output[1].type == "mcp_call"


def test_a_server_that_is_down_gives_a_clean_error_item(client):
    down = f"http://127.0.0.1:{free_port()}/mcp"
    response = client.responses.create(model="wirelab-offline", input=ASK, tools=[_mcp(down)])
    assert [item.type for item in response.output] == ["mcp_list_tools", "message"]
    assert response.output[0].error.startswith("Error retrieving tool list from MCP server: 'notes'.")
    assert response.status == "completed"


def test_only_servers_on_this_machine_are_reached(client):
    with pytest.raises(openai.BadRequestError, match="only MCP servers on this machine"):
        client.responses.create(model="wirelab-offline", input=ASK, tools=[_mcp("http://192.0.2.1/mcp")])


def test_an_approval_passed_back_as_explicit_items_runs_the_call(client, notes_url):
    tools = [_mcp(notes_url, "always")]
    first = client.responses.create(model="wirelab-offline", input=ASK, tools=tools, store=False)
    items = [{"role": "user", "content": ASK}, *[item.model_dump(exclude_none=True) for item in first.output]]
    approve = {"type": "mcp_approval_response", "approval_request_id": first.output[1].id, "approve": True}
    second = client.responses.create(
        model="wirelab-offline", input=[*items, approve], tools=tools, store=False
    )
    assert [item.type for item in second.output] == ["mcp_call", "message"]
    with pytest.raises(openai.BadRequestError, match="No approval request found"):
        lost = {**approve, "approval_request_id": "mcpr_lost"}
        client.responses.create(model="wirelab-offline", input=[*items, lost], tools=tools, store=False)


def test_a_streamed_response_sends_the_mcp_events(client, notes_url):
    with client.responses.stream(model="wirelab-offline", input=ASK, tools=[_mcp(notes_url)]) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_response()
    for kind in (
        "response.mcp_list_tools.completed",
        "response.mcp_call.in_progress",
        "response.mcp_call_arguments.done",
        "response.mcp_call.completed",
    ):
        assert kind in kinds
    assert [item.type for item in final.output] == ["mcp_list_tools", "mcp_call", "message"]


def test_without_an_mcp_client_the_offline_model_says_how_to_get_one(client, notes_url):
    hosted_mcp._connector.clear()
    with pytest.raises(openai.BadRequestError, match="enable_hosted_mcp"):
        client.responses.create(model="wirelab-offline", input=ASK, tools=[_mcp(notes_url)])
