"""Lab 16's checks name the mistake: each wrong SDK server or client gets its own message."""

from typing import Annotated, TypedDict

import pytest
from mcp import Client
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import Field

from wirelab.check import CheckFailed
from wirelab.check.lesson16 import check_countdown_server, check_sdk_search, check_units_server

pytestmark = pytest.mark.timeout(90)


class Reading(TypedDict):
    fahrenheit: float


def units(convert, *, described: bool = True, structured: bool = True):
    def build() -> MCPServer:
        server = MCPServer("units", log_level="WARNING")
        hint = Annotated[float, Field(description="Degrees Celsius.")] if described else float

        def to_fahrenheit(celsius: hint) -> Reading:  # type: ignore[valid-type]
            """Convert Celsius to Fahrenheit."""
            return Reading(fahrenheit=convert(celsius))

        if not structured:
            to_fahrenheit.__annotations__["return"] = str
        server.tool(structured_output=structured)(to_fahrenheit)
        return server

    return build


def test_the_right_units_server_passes(capsys):
    check_units_server(units(lambda c: c * 9 / 5 + 32))
    assert capsys.readouterr().out.startswith("✓")


def test_a_wrong_formula_is_named_with_the_expected_value():
    with pytest.raises(CheckFailed, match="212.0"):
        check_units_server(units(lambda c: c * 5 / 9 + 32))


def test_a_parameter_without_a_description_points_to_annotated():
    with pytest.raises(CheckFailed, match="Annotated"):
        check_units_server(units(lambda c: c * 9 / 5 + 32, described=False))


def test_a_plain_text_result_asks_for_a_typeddict():
    with pytest.raises(CheckFailed, match="TypedDict"):
        check_units_server(units(lambda c: str(c * 9 / 5 + 32), structured=False))


def test_a_builder_that_returns_nothing_is_named():
    with pytest.raises(CheckFailed, match="return the MCPServer"):
        check_units_server(lambda: None)


def test_a_countdown_that_reports_no_progress_is_caught():
    def build() -> MCPServer:
        server = MCPServer("countdown", log_level="WARNING")

        @server.tool()
        async def countdown(ctx: Context, steps: int = 3) -> str:
            """Count down."""
            return "done"

        return server

    with pytest.raises(CheckFailed, match="report_progress"):
        check_countdown_server(build)


def test_a_search_that_returns_the_result_object_instead_of_its_text_is_caught():
    async def sdk_search(transport, query):
        async with Client(transport, mode="legacy") as client:
            names = [t.name for t in (await client.list_tools()).tools]
            return names, await client.call_tool("search_notes", {"query": query})

    with pytest.raises(CheckFailed, match="content"):
        check_sdk_search(sdk_search)


def test_a_synchronous_search_is_refused_before_it_runs():
    with pytest.raises(CheckFailed, match="async def"):
        check_sdk_search(lambda transport, query: ([], ""))
