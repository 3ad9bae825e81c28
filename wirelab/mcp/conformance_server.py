"""The fixture server the official conformance suite tests, built with our `Server`.

    python -m wirelab.mcp.conformance_server --port 3001
    npx @modelcontextprotocol/conformance server --url http://127.0.0.1:3001/mcp

It serves the tools, resources and prompts the suite's server scenarios ask
for by name (`test_simple_text`, `test://static-text`, `test_simple_prompt`, …),
as the scenario descriptions of `@modelcontextprotocol/conformance` 0.1.13
specify them.

Our `Server` makes only text content. Image, audio and embedded-resource
content, which some fixtures need, come from `FixtureServer`: a tool or
prompt marked `@blocks` returns content blocks as they are, and its session
passes them through. Not covered: the sampling and elicitation fixtures
(`test_sampling`, `test_elicitation`, …), since our server sends no requests to
the client; `conformance/expected-failures.yml` lists them.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
from collections.abc import Callable
from functools import partial
from typing import Any

from wirelab.mcp.protocol import Send
from wirelab.mcp.server import Context, Server, ServerTool
from wirelab.mcp.session import Session

IMAGE_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJ"
    "RU5ErkJggg=="
)  # one red pixel
AUDIO_WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="  # an empty WAV
JSON_SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": False,
}


def blocks(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a tool or prompt whose return value is content blocks, not text."""
    fn.returns_blocks = True  # type: ignore[attr-defined]
    return fn


def _image() -> dict[str, str]:
    return {"type": "image", "data": IMAGE_PNG, "mimeType": "image/png"}


def _embedded(uri: str, text: str, mime_type: str = "text/plain") -> dict[str, Any]:
    return {"type": "resource", "resource": {"uri": uri, "mimeType": mime_type, "text": text}}


class FixtureServer(Server):
    """A `Server` whose sessions pass through the content blocks of `@blocks` tools and prompts."""

    def connect(self, send: Send) -> Session:
        session = super().connect(send)
        session.handlers["tools/call"] = partial(self.call_tool, session.handlers["tools/call"])
        session.handlers["prompts/get"] = partial(self.get_prompt, session.handlers["prompts/get"])
        return session

    async def call_tool(self, call: Callable, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        result = await call(params, meta)
        tool = self.tools.get(params.get("name"))
        if tool and getattr(tool.function, "returns_blocks", False) and not result.get("isError"):
            result["content"] = json.loads(result["content"][0]["text"])  # our text, undone
        return result

    def get_prompt(self, get: Callable, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        result = get(params, meta)
        prompt = self.prompts.get(params.get("name"))
        if prompt and getattr(prompt.render, "returns_blocks", False):
            for message in result["messages"]:
                if isinstance(message["content"]["text"], dict):  # a block, not a text
                    message["content"] = message["content"]["text"]
        return result


def build_server() -> FixtureServer:
    """The conformance fixtures: tools, resources and prompts named as the scenarios expect."""
    server = FixtureServer("mcp-conformance-test-server", "1.0.0")
    _add_tools(server)
    _add_resources(server)
    _add_prompts(server)
    return server


# Complexity exception (tests/test_complexity.py): one nested tool per conformance scenario, each simple;
# splitting them hides the list.
def _add_tools(server: FixtureServer) -> None:  # noqa: C901
    @server.tool(description="Tests simple text content response")
    def test_simple_text() -> str:
        return "This is a simple text response for testing."

    @server.tool(description="Tests image content response")
    @blocks
    def test_image_content() -> list[dict[str, str]]:
        return [_image()]

    @server.tool(description="Tests audio content response")
    @blocks
    def test_audio_content() -> list[dict[str, str]]:
        return [{"type": "audio", "data": AUDIO_WAV, "mimeType": "audio/wav"}]

    @server.tool(description="Tests embedded resource content response")
    @blocks
    def test_embedded_resource() -> list[dict[str, Any]]:
        return [_embedded("test://embedded-resource", "This is an embedded resource content.")]

    @server.tool(description="Tests response with multiple content types (text, image, resource)")
    @blocks
    def test_multiple_content_types() -> list[dict[str, Any]]:
        return [
            {"type": "text", "text": "Multiple content types test:"},
            _image(),
            _embedded(
                "test://mixed-content-resource",
                json.dumps({"test": "data", "value": 123}),
                "application/json",
            ),
        ]

    @server.tool(description="Tests tool that emits log messages during execution")
    async def test_tool_with_logging(ctx: Context) -> str:
        for step, text in enumerate(
            ("Tool execution started", "Tool processing data", "Tool execution completed")
        ):
            if step:
                await asyncio.sleep(0.05)
            ctx.log("info", text)
        return "Tool with logging executed successfully"

    @server.tool(description="Tests tool that reports progress notifications")
    async def test_tool_with_progress(ctx: Context) -> str:
        for step, progress in enumerate((0, 50, 100)):
            if step:
                await asyncio.sleep(0.05)
            ctx.report_progress(progress, 100, f"Completed step {progress} of 100")
        return str(ctx.progress_token)

    @server.tool(description="Tests error response handling")
    def test_error_handling() -> str:
        raise RuntimeError("This tool intentionally returns an error for testing")

    @server.tool(description="Tests server-initiated sampling (sampling/createMessage)")
    async def test_sampling(ctx: Context, prompt: str) -> str:
        reply = await ctx.sample(prompt, max_tokens=100)
        return f"LLM response: {reply['content']['text']}"

    @server.tool(description="Tests server-initiated elicitation (elicitation/create)")
    async def test_elicitation(ctx: Context, message: str) -> str:
        return _elicited(await ctx.elicit(message, USER_INFO_SCHEMA))

    @server.tool(description="Tests elicitation with default values for every primitive type (SEP-1034)")
    async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
        return _elicited(await ctx.elicit("Please review and update the form fields", DEFAULTS_SCHEMA))

    @server.tool(description="Tests elicitation with the five enum schema variants (SEP-1330)")
    async def test_elicitation_sep1330_enums(ctx: Context) -> str:
        return _elicited(await ctx.elicit("Please select options from the enum fields", ENUMS_SCHEMA))

    server.add_tool(
        ServerTool(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
            JSON_SCHEMA_2020_12,
            lambda **arguments: f"JSON Schema 2020-12 tool called with: {json.dumps(arguments)}",
        )
    )


def _elicited(answer: dict[str, Any]) -> str:
    return f"Elicitation result: action={answer['action']}, content={json.dumps(answer.get('content', {}))}"


USER_INFO_SCHEMA = {
    "type": "object",
    "required": ["username", "email"],
    "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"},
    },
}
DEFAULTS_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {
            "type": "string",
            "description": "User status",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    },
}
_TITLED = [{"const": f"value{i}", "title": title} for i, title in enumerate(("First", "Second", "Third"), 1)]
ENUMS_SCHEMA = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": _TITLED},
        "legacyEnum": {
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {
            "type": "array",
            "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
        },
        "titledMulti": {"type": "array", "items": {"anyOf": _TITLED}},
    },
}


def _add_resources(server: FixtureServer) -> None:
    @server.resource(
        "test://static-text",
        name="static-text",
        title="Static Text Resource",
        description="A static text resource for testing",
    )
    def static_text() -> str:
        return "This is the content of the static text resource."

    @server.resource(
        "test://static-binary",
        name="static-binary",
        title="Static Binary Resource",
        description="A static binary resource (image) for testing",
        mime_type="image/png",
    )
    def static_binary() -> bytes:
        return base64.b64decode(IMAGE_PNG)

    @server.resource_template(
        "test://template/{id}/data",
        name="template",
        title="Resource Template",
        description="A resource template with parameter substitution",
        mime_type="application/json",
    )
    def template(id: str) -> str:
        return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})

    @server.resource(
        "test://watched-resource",
        name="watched-resource",
        title="Watched Resource",
        description="A resource a client can subscribe to",
    )
    def watched_resource() -> str:
        return "Watched resource content"


def _add_prompts(server: FixtureServer) -> None:
    @server.prompt(title="Simple Test Prompt", description="A simple prompt without arguments")
    def test_simple_prompt() -> str:
        return "This is a simple prompt for testing."

    @server.prompt(title="Prompt With Arguments", description="A prompt with required arguments")
    def test_prompt_with_arguments(arg1: str, arg2: str) -> str:
        """A prompt with required arguments.

        Args:
            arg1: First test argument
            arg2: Second test argument
        """
        return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"

    @server.completion("test_prompt_with_arguments", "arg1")
    def complete_arg1(typed: str) -> list[str]:
        return [word for word in ("paris", "park", "party") if word.startswith(typed)]

    @server.prompt(
        title="Prompt With Embedded Resource", description="A prompt that includes an embedded resource"
    )
    @blocks
    def test_prompt_with_embedded_resource(resourceUri: str) -> list[tuple[str, Any]]:  # noqa: N803
        """A prompt that includes an embedded resource.

        Args:
            resourceUri: URI of the resource to embed
        """
        return [
            ("user", _embedded(resourceUri, "Embedded resource content for testing.")),
            ("user", "Please process the embedded resource above."),
        ]

    @server.prompt(title="Prompt With Image", description="A prompt that includes image content")
    @blocks
    def test_prompt_with_image() -> list[tuple[str, Any]]:
        return [("user", _image()), ("user", "Please analyze the image above.")]


def main(argv: list[str] | None = None) -> None:
    """Serve the fixtures on 127.0.0.1 until interrupted."""
    import uvicorn

    from wirelab.mcp.transports.http.server import McpHttpApp
    from wirelab.serving import uvicorn_config

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=3001)
    options = parser.parse_args(argv)
    app = McpHttpApp(build_server())
    uvicorn.Server(uvicorn_config(app.starlette, app.limits, host=options.host, port=options.port)).run()


if __name__ == "__main__":
    main()
