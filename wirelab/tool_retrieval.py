"""Many tools: send the model only the few that fit the request.

Every tool schema in a request costs prompt tokens on every turn, and a long
list of similar tools makes the choice harder. Three ways to send fewer:

- retrieval: index each tool's text (name, description, parameters) with
  BM25 (`wirelab.retrieval.lexical`, the same index as the capstone's) and send the
  top k for the request; `recall_at_k` measures how often the right tools are
  among them;
- group routing: pick a domain first (billing, travel, …), send its tools;
- dynamic injection: send a short catalogue and one `find_tools` tool; the
  full schemas of the tools it finds are added for the next turn.

    >>> no_parameters = {"type": "object", "properties": {}}
    >>> tools = [Tool(name, text, no_parameters, print) for name, text in [
    ...     ("refund_invoice", "Refund a paid invoice to the customer."),
    ...     ("get_invoice", "Look up an invoice by its number."),
    ...     ("book_flight", "Book a flight between two cities."),
    ...     ("get_weather", "Current weather for a city."),
    ... ]]
    >>> index = ToolIndex(tools)
    >>> index.search("refund my last invoice", k=2)
    ['refund_invoice', 'get_invoice']

Token cost is measured, not estimated: `prompt_tokens` reads the
`usage.prompt_tokens` the model reports (the offline model counts words and
symbols; `tiktoken` would need its vocabulary downloaded, so it is not used).
Left out: embeddings, learning from which tools were actually called.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from wirelab.retrieval.lexical import BM25Index
from wirelab.tools import Tool, ToolRegistry, tool

Retriever = Callable[[str, int], list[str]]
Groups = Mapping[str, tuple[str, Sequence[Tool]]]


def load_catalogue(path: str | Path) -> dict[str, tuple[str, list[Tool]]]:
    """Tools by domain from a JSON catalogue: `{"domains": {name: {"description", "tools"}}}`.

    Each tool is a spec (name, description, parameters); its function is a stub
    that echoes the call, enough for studying which tools get chosen.
    """
    domains = json.loads(Path(path).read_text(encoding="utf-8"))["domains"]
    return {
        name: (domain["description"], [_stub(spec) for spec in domain["tools"]])
        for name, domain in domains.items()
    }


def _stub(spec: Mapping[str, Any]) -> Tool:
    def echo(**arguments: Any) -> dict[str, Any]:
        return {"tool": spec["name"], "arguments": arguments, "result": "ok"}

    parameters = spec.get("parameters") or {"type": "object", "properties": {}}
    return Tool(spec["name"], spec["description"], parameters, echo)


def tool_text(t: Tool) -> str:
    """The words a tool is found by: its name split on `_`, description, parameter names and texts."""
    parts = [t.name.replace("_", " ").replace("-", " "), t.description]
    for name, prop in t.parameters.get("properties", {}).items():
        parts += [name.replace("_", " "), str(prop.get("description", ""))]
        parts += [str(value) for value in prop.get("enum", [])]
    return " ".join(parts)


class ToolIndex:
    """BM25 over tool texts: which tools fit a request, best first."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self.tools = list(tools)
        if not self.tools:
            raise ValueError("a ToolIndex needs at least one tool")
        self._bm25 = BM25Index([tool_text(t) for t in self.tools])

    def search(self, request: str, k: int = 5) -> list[str]:
        """The names of the (at most) `k` tools that share most with `request`."""
        if k < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        return [self.tools[i].name for i, _ in self._bm25.rank(request, k)]

    def registry(self, request: str, k: int = 5) -> ToolRegistry:
        """The top-k tools as a registry, ready for `run_tool_loop`."""
        by_name = {t.name: t for t in self.tools}
        return ToolRegistry(by_name[name] for name in self.search(request, k))


def recall(found: Sequence[str], expected: Iterable[str]) -> float:
    """The share of `expected` tools that are in `found`: (['a', 'b'], ['b', 'c']) -> 0.5."""
    wanted = set(expected)
    if not wanted:
        raise ValueError("an eval case must expect at least one tool")
    return len(wanted.intersection(found)) / len(wanted)


def recall_at_k(retrieve: Retriever, cases: Sequence[Mapping[str, Any]], k: int) -> float:
    """Mean recall of `retrieve(request, k)` over eval cases `{"request": ..., "tools": [...]}`."""
    if not cases:
        raise ValueError("no eval cases")
    return sum(recall(retrieve(case["request"], k), case["tools"]) for case in cases) / len(cases)


class GroupRouter:
    """Route a request to one domain of tools by BM25 over each domain's text.

    `groups` maps a domain to its description and tools; a domain's text is its
    description plus the texts of its tools.
    """

    def __init__(self, groups: Groups) -> None:
        if not groups:
            raise ValueError("a GroupRouter needs at least one group")
        self.groups = dict(groups)
        texts = [" ".join([about, *map(tool_text, tools)]) for about, tools in self.groups.values()]
        self._bm25 = BM25Index(texts)

    def route(self, request: str) -> str | None:
        """The domain that fits `request` best, or None when no domain shares a word with it."""
        best = self._bm25.rank(request, 1)
        return list(self.groups)[best[0][0]] if best else None

    def registry(self, request: str) -> ToolRegistry:
        """The routed domain's tools (none when no domain fits)."""
        domain = self.route(request)
        return ToolRegistry(self.groups[domain][1] if domain else [])


def catalogue(tools: Iterable[Tool]) -> str:
    """One short line per tool, its name and first sentence: far cheaper than full schemas."""
    return "\n".join(f"{t.name}: {t.description.split('. ')[0].rstrip('.')}" for t in tools)


def finder(index: ToolIndex, active: ToolRegistry, k: int = 3) -> Tool:
    """A `find_tools(query)` tool that adds the full schemas of the tools it finds to `active`.

    Its description is the catalogue, so the model sees every tool's name for
    a few tokens each; the loop sends `active.specs()` on every turn, so tools
    added here are callable from the next turn on.
    """

    def find_tools(query: str) -> dict[str, Any]:
        """Load the tools that fit `query`.

        Args:
            query: The user's request, in their words.
        """
        names = [n for n in index.search(query, k) if active.get(n) is None]
        for name in names:
            active.add(next(t for t in index.tools if t.name == name))
        return {"loaded": names, "now_available": active.names}

    about = "Find and load the tools for a task, by what the user asks. Available tools:\n" + catalogue(
        index.tools
    )
    return tool(find_tools, description=about)


def prompt_tokens(client: Any, model: str, tools: ToolRegistry, request: str) -> int:
    """The prompt tokens the model reports for one user message sent with `tools`."""
    with_tools = {"tools": tools.specs(), "tool_choice": "none"} if len(tools) else {}
    reply = client.chat.completions.create(
        model=model, messages=[{"role": "user", "content": request}], max_tokens=1, **with_tools
    )
    return reply.usage.prompt_tokens
