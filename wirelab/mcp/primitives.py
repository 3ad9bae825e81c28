"""What a server offers, one dataclass per primitive, and the registry a session reads.

`ServerTool`, `ServerResource`, `ServerResourceTemplate` and `ServerPrompt`
each hold what the matching `…/list` method describes (`describe()`) and the
function that answers for it. `Registry` is what a `Session` needs from its
`Server`, so that the session module does not import the server module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from wirelab.mcp.protocol import without_none
from wirelab.tools import JSONSchema


@dataclass
class ServerTool:
    """A tool as `tools/list` describes it, plus the function `tools/call` runs."""

    name: str
    description: str
    input_schema: JSONSchema
    function: Callable[..., Any]
    output_schema: JSONSchema | None = None
    title: str | None = None
    annotations: dict[str, Any] | None = None
    context_parameter: str | None = None

    def describe(self) -> dict[str, Any]:
        return without_none(
            name=self.name,
            title=self.title,
            description=self.description,
            inputSchema=self.input_schema,
            outputSchema=self.output_schema,
            annotations=self.annotations,
        )


@dataclass
class ServerResource:
    """A resource with a fixed URI; `read()` returns its text (str) or its bytes."""

    uri: str
    name: str
    read: Callable[[], str | bytes]
    description: str | None = None
    mime_type: str | None = None
    title: str | None = None

    def describe(self) -> dict[str, Any]:
        return without_none(
            uri=self.uri,
            name=self.name,
            title=self.title,
            description=self.description,
            mimeType=self.mime_type,
        )


@dataclass
class ServerResourceTemplate:
    """Resources named by a URI template such as `notes://note/{slug}` (RFC 6570 level 1).

    `read(**variables)` returns the text or bytes, or raises `LookupError`
    when no resource has that URI.
    """

    uri_template: str
    name: str
    read: Callable[..., str | bytes]
    description: str | None = None
    mime_type: str | None = None
    title: str | None = None

    def describe(self) -> dict[str, Any]:
        return without_none(
            uriTemplate=self.uri_template,
            name=self.name,
            title=self.title,
            description=self.description,
            mimeType=self.mime_type,
        )

    def match(self, uri: str) -> dict[str, str] | None:
        """The template's variables in `uri`, e.g. `notes://note/stdio` -> `{"slug": "stdio"}`."""
        parts = re.split(r"\{(\w+)\}", self.uri_template)
        pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/?#]+)" for i, p in enumerate(parts))
        found = re.fullmatch(pattern, uri)
        return found.groupdict() if found else None


@dataclass
class ServerPrompt:
    """A prompt template; `render(**arguments)` returns a string or a list of messages."""

    name: str
    description: str
    arguments: list[dict[str, Any]]
    render: Callable[..., Any]
    title: str | None = None

    def describe(self) -> dict[str, Any]:
        return without_none(
            name=self.name, title=self.title, description=self.description, arguments=self.arguments
        )


Completer = Callable[[str], list[str]]


class Registry(Protocol):
    """What a session reads from its server (`wirelab.mcp.server.Server` is one)."""

    info: dict[str, Any]
    instructions: str | None
    page_size: int
    tools: dict[str, ServerTool]
    resources: dict[str, ServerResource]
    templates: dict[str, ServerResourceTemplate]
    prompts: dict[str, ServerPrompt]
    completers: dict[tuple[str, str], Completer]
    sessions: set[Any]

    def capabilities(self) -> dict[str, Any]: ...
