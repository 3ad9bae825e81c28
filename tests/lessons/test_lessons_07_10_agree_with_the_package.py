"""What lessons 07-10 build by hand agrees with the package code they go on to use.

Each test takes the lesson's cells marked `# @reference <package object>` out of the
saved notebook (tests/notebook_code.py) and runs them next to `wirelab`: the JSON-RPC
dispatcher of 07, the tiny stdio server of 08, the URI template matcher and prompt renderer of 09, the tool
conversion of 10. Messages may be worded differently; what a peer acts on
(ids, results, error codes) must be the same.
"""

import asyncio
import importlib.util
import json
from pathlib import Path

import pytest

from tests.notebook_code import load_references, write_references
from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError, request
from wirelab.mcp.example import build_server
from wirelab.mcp.host import openai_tool_spec
from wirelab.mcp.server import Server, ServerResourceTemplate

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


# --- 07: the dispatcher ----------------------------------------------------

LINES_07 = [
    '{"jsonrpc": "2.0", "id": 0, "method": "add", "params": {"a": 2, "b": 3}}',
    '{"jsonrpc": "2.0", "id": "s", "method": "add", "params": {"a": 1.5, "b": 2}}',
    '{"jsonrpc": "2.0", "method": "log", "params": {"text": "hello"}}',
    '{"jsonrpc": "2.0", "id": 1, "method": "sub"}',
    '{"jsonrpc": "2.0", "method": "sub"}',
    '{"jsonrpc": "2.0", "id": 2, "method": "add", "params": {"a": "two"}}',
    '{"jsonrpc": "2.0", "id": 3, "method": "add"}',
    '{"jsonrpc": "2.0", "id": 4, "method": "crash"}',
    '{"jsonrpc": "2.0", "method": "crash"}',
    '{"jsonrpc": "2.0", "id": 5, "result": 7}',
    '{"jsonrpc": "2.0", "id": 6, "method": "add"',
    "{oops",
    "[1, 2]",
    "42",
    '{"jsonrpc": "1.0", "id": 7, "method": "add"}',
    '{"id": 8, "method": "add"}',
    '{"jsonrpc": "2.0", "id": true, "method": "add"}',
    '{"jsonrpc": "2.0", "id": {"x": 1}, "method": "add"}',
    '{"jsonrpc": "2.0", "id": 9, "method": 12}',
    '{"jsonrpc": "2.0", "id": 10, "method": "add", "params": [1, 2]}',
    '{"jsonrpc": "2.0", "id": 11}',
]


def outcome_07(response):
    if response is None:
        return None
    return response["id"], response["error"]["code"] if "error" in response else response["result"]


@pytest.fixture(scope="module")
def lesson07():
    return load_references(NOTEBOOKS / "07_jsonrpc_from_scratch.ipynb")


def package_dispatcher(lesson07) -> jsonrpc.Dispatcher:
    def add(params):
        try:
            return lesson07["add"](params)
        except lesson07["InvalidParams"] as e:
            raise JsonRpcError(INVALID_PARAMS, str(e)) from None

    return jsonrpc.Dispatcher({**lesson07["handlers"], "add": add})


async def package_answer(rpc: jsonrpc.Dispatcher, line: str):
    message, problem = jsonrpc.receive(line)
    return problem if problem else await rpc.handle(message)


@pytest.mark.parametrize("line", LINES_07)
def test_the_lessons_dispatcher_and_the_packages_give_the_same_answer(lesson07, line):
    message, problem = lesson07["parse_message"](line)
    mine = problem if problem else lesson07["dispatch"](message, lesson07["handlers"])
    theirs = asyncio.run(package_answer(package_dispatcher(lesson07), line))
    assert outcome_07(mine) == outcome_07(theirs)


def test_the_lessons_dispatcher_runs_a_notification_without_answering_it(lesson07):
    lesson07["logged"].clear()
    message, _ = lesson07["parse_message"]('{"jsonrpc": "2.0", "method": "log", "params": {"text": "x"}}')
    assert lesson07["dispatch"](message, lesson07["handlers"]) is None
    assert lesson07["logged"] == ["x"]


# --- 08: the tiny stdio server ----------------------------------------------


def tiny_server(tmp_path: Path):
    """Write the lesson's marked %%writefile cells to a file, as the notebook does, and import it."""
    (path,) = write_references(NOTEBOOKS / "08_mcp_server_over_stdio.ipynb", tmp_path)
    assert path.name == "tiny_server.py"
    spec = importlib.util.spec_from_file_location("tiny_server", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def calculator() -> Server:
    server = Server("calculator")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return server


def line(id, method, params=None) -> str:
    return json.dumps(request(id, method, params))


def hello(id, version="2025-11-25") -> str:
    return line(
        id,
        "initialize",
        {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
    )


def call(id, name, arguments) -> str:
    return line(id, "tools/call", {"name": name, "arguments": arguments})


SESSION_08 = [
    line(0, "tools/list"),
    line("p", "ping"),
    hello(1),
    json.dumps(jsonrpc.notification("notifications/initialized")),
    line(2, "tools/list"),
    call(3, "add", {"a": 2, "b": 3}),
    call(4, "add", {"a": "two", "b": 3}),
    call(5, "add", {"a": 2}),
    call(6, "add", {"a": True, "b": 1}),
    call(7, "divide", {"a": 1}),
    line(8, "tools/delete"),
    '{"jsonrpc": "2.0", "id": 9, "method": "ping"',
    "[1]",
]


def outcome_08(response):
    if response is None:
        return None
    if "error" in response:
        return response["id"], response["error"]["code"]
    result = response["result"]
    if "protocolVersion" in result:
        return response["id"], result["protocolVersion"]
    if "tools" in result:
        return response["id"], [t["name"] for t in result["tools"]]
    if "content" in result:
        failed = bool(result.get("isError"))
        return response["id"], failed, None if failed else result["content"]
    return response["id"], result


async def package_session_answers(lines: list[str]) -> list:
    session = calculator().connect(send=lambda message: None)
    answers = []
    for text in lines:
        message, problem = jsonrpc.receive(text)
        answers.append(problem if problem else await session.handle(message))
    return answers


def test_the_lessons_tiny_server_and_the_packages_server_answer_a_session_alike(tmp_path):
    tiny = tiny_server(tmp_path)
    mine = [tiny.answer(text) for text in SESSION_08]
    theirs = asyncio.run(package_session_answers(SESSION_08))
    assert [outcome_08(r) for r in mine] == [outcome_08(r) for r in theirs]


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2099-01-01", "0"])
def test_the_lessons_tiny_server_negotiates_the_version_as_the_package_does(tmp_path, version):
    mine = tiny_server(tmp_path).answer(hello(1, version))
    theirs = asyncio.run(package_session_answers([hello(1, version)]))[0]
    assert mine["result"]["protocolVersion"] == theirs["result"]["protocolVersion"]


# --- 09: templates and prompts ---------------------------------------------


@pytest.fixture(scope="module")
def lesson09():
    return load_references(NOTEBOOKS / "09_resources_and_prompts.ipynb")


@pytest.mark.parametrize(
    "template, uri",
    [
        ("notes://note/{slug}", "notes://note/stdio"),
        ("notes://note/{slug}", "notes://note/"),
        ("notes://note/{slug}", "notes://note/a/b"),
        ("notes://note/{slug}", "notes://note/x?y=1"),
        ("notes://note/{slug}", "xnotes://note/stdio"),
        ("notes://note/{slug}", "notes://note/stdio/"),
        ("files://{folder}/{name}", "files://src/main.py"),
        ("db://t.{name}", "db://tXusers"),
        ("db://t.{name}", "db://t.users"),
        ("a+b://{x}", "a+b://1"),
        ("a+b://{x}", "aab://1"),
    ],
)
def test_the_lessons_template_match_and_the_packages_agree(lesson09, template, uri):
    reference = ServerResourceTemplate(template, "t", lambda **variables: "").match(uri)
    assert lesson09["match"](template, uri) == reference


def prompt_server() -> Server:
    server = Server("prompts")

    @server.prompt(description="Ask for a two-sentence summary of a text.")
    def summarize(text: str, tone: str = "neutral") -> str:
        return f"Summarize in two sentences, in a {tone} tone:\n\n{text}"

    return server


def package_prompt(arguments: dict):
    session = prompt_server().connect(send=lambda message: None)
    return session.get_prompt({"name": "summarize", "arguments": arguments}, {})


@pytest.mark.parametrize("arguments", [{"text": "abc"}, {"text": "abc", "tone": "dry"}])
def test_the_lessons_prompt_and_the_packages_render_the_same_messages(lesson09, arguments):
    assert lesson09["render"](lesson09["summarize"], arguments) == package_prompt(arguments)


@pytest.mark.parametrize("arguments", [{}, {"tone": "dry"}, {"text": "abc", "colour": "blue"}])
def test_the_lessons_prompt_and_the_packages_refuse_the_same_arguments(lesson09, arguments):
    with pytest.raises(ValueError):
        lesson09["render"](lesson09["summarize"], arguments)
    with pytest.raises(JsonRpcError) as refused:
        package_prompt(arguments)
    assert refused.value.code == INVALID_PARAMS


# --- 10: MCP tools for the model --------------------------------------------


def example_tools() -> list[dict]:
    return build_server().connect(send=lambda message: None).list_tools({}, {})["tools"]


@pytest.mark.parametrize(
    "mcp_tool",
    [*example_tools(), {"name": "bare"}, {"name": "x", "description": "X.", "inputSchema": None}],
    ids=lambda tool: tool["name"],
)
def test_the_lessons_tool_conversion_and_the_packages_agree(mcp_tool):
    to_openai_tool = load_references(NOTEBOOKS / "10_mcp_client_and_host.ipynb")["to_openai_tool"]
    assert to_openai_tool(mcp_tool) == openai_tool_spec(mcp_tool)
