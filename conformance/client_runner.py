"""Our MCP client as the conformance suite's client under test.

    npx @modelcontextprotocol/conformance client \\
        --command "python conformance/client_runner.py" --scenario auth/metadata-default

The suite starts a test server per scenario and runs this script with the
server's URL as its argument, the scenario's name in `MCP_CONFORMANCE_SCENARIO`
and, for some scenarios, credentials in `MCP_CONFORMANCE_CONTEXT` (JSON). Suites after
0.1.13 also name the scenario's revision in `MCP_CONFORMANCE_PROTOCOL_VERSION`: for
2026-07-28 the client speaks that stateless era, else 2025-11-25's.
The script behaves as one host would: it connects with `wirelab.mcp.transports.http.client`
(authorizing with `wirelab.mcp.auth.OAuth` when the server asks, the user's
approval played by following the redirect), lists the tools and calls each
once with arguments made from its schema, or makes the calls the scenario's
context names (`toolCalls`, as a user's requests would); a form the server asks for is
accepted as is, so its defaults apply. It exits 1, saying why, if any step fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from wirelab.mcp.auth import OAuth, approve_headlessly
from wirelab.mcp.transports.http.client import Era, connect_http

# the client ID metadata document the suite's CIMD scenario expects a client to use
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
# scenarios whose server lists tools to be looked at, not called (it serves no tools/call)
LIST_ONLY = {"json-schema-ref-no-deref"}
# scenarios that check what the client kept of a tool's schema: the host passes the schema it
# listed for one tool (the second name) verbatim to another (the first name)
ECHO_SCHEMA = {"json-schema-2020-12-preservation": ("json_schema_echo", "json_schema_2020_12_tool")}
EXAMPLE_VALUES = {"number": 1, "integer": 1, "string": "text", "boolean": True, "array": [], "object": {}}


def example_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """A value of the right type for each required property of a tool's input schema."""
    properties = schema.get("properties") or {}
    return {
        name: EXAMPLE_VALUES.get((properties.get(name) or {}).get("type", "string"), "text")
        for name in schema.get("required") or []
    }


def oauth_for(url: str, scenario: str, context: dict[str, Any]) -> OAuth:
    """The authorization the scenario's host would set up, with the credentials it was given."""
    return OAuth(
        url,
        on_authorize=approve_headlessly,
        client_name="wirelab-conformance-client",
        client_metadata_url=CLIENT_METADATA_URL,
        client_id=context.get("client_id"),
        client_secret=context.get("client_secret"),
        private_key_pem=context.get("private_key_pem"),
        signing_algorithm=context.get("signing_algorithm", "ES256"),
        grant="client_credentials"
        if scenario.startswith("auth/client-credentials")
        else "authorization_code",
    )


async def calls_to_make(
    client: Any, scenario: str, context: dict[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls the scenario names in its context (`toolCalls`), else one per listed tool.

    The tools are listed first in every case, as a host shows them before any call.
    """
    tools = await client.list_tools()
    if scenario in LIST_ONLY:
        return []
    if scenario in ECHO_SCHEMA:
        echo, focal = ECHO_SCHEMA[scenario]
        schema = next(tool["inputSchema"] for tool in tools if tool["name"] == focal)
        return [(echo, {"schema": schema})]
    if "toolCalls" in context:
        return [(call["name"], call.get("arguments") or {}) for call in context["toolCalls"]]
    return [(tool["name"], example_arguments(tool.get("inputSchema", {}))) for tool in tools]


async def accept_with_defaults(params: dict[str, Any]) -> dict[str, Any]:
    return {"action": "accept", "content": {}}


async def run(url: str, scenario: str, context: dict[str, Any], era: Era = "2025-11-25") -> list[str]:
    """Connect, list the tools, call each; the problems met (empty when all went well)."""
    auth = oauth_for(url, scenario, context)
    problems = []
    try:
        async with connect_http(
            url, auth=auth, timeout=20, on_elicitation=accept_with_defaults, era=era
        ) as client:
            for name, arguments in await calls_to_make(client, scenario, context):
                result = await client.call_tool(name, arguments)
                if result.get("isError"):
                    problems.append(f"{name}: {json.dumps(result['content'])[:300]}")
    finally:
        await auth.aclose()
    return problems


def main() -> int:
    url = sys.argv[1]
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    modern = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION") == "2026-07-28"
    try:
        problems = asyncio.run(run(url, scenario, context, "2026-07-28" if modern else "2025-11-25"))
    except Exception as e:  # the suite reads our exit status and stderr
        problems = [f"{type(e).__name__}: {e}"]
    for problem in problems:
        print(f"{scenario}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
