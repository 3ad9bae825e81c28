"""Many tools: send the model only the few that fit the request.

Every tool schema in a request costs prompt tokens on every turn, and a long
list of similar tools makes the choice harder. Ways to send fewer:

- retrieval: index each tool's text (name, description, parameters) and send
  the top k for the request, ranked by BM25 (words), by the course's
  multilingual sentence encoder (meaning, in any of its 16 languages), or by
  both fused (`wirelab.retrieval`, the same code as the capstone's knowledge
  base); `recall_at_k` and `mean_reciprocal_rank` measure them on an eval set;
- group routing: pick a domain first (billing, travel, …), send its tools;
- deferred loading (tool search, as providers ship it): send a search tool and
  no schemas, or only the tools' names and descriptions; the full schemas of
  the tools the search finds are added for the next turn.

    >>> no_parameters = {"type": "object", "properties": {}}
    >>> tools = [Tool(name, text, no_parameters, print) for name, text in [
    ...     ("refund_invoice", "Refund a paid invoice to the customer."),
    ...     ("get_invoice", "Look up an invoice by its number."),
    ...     ("book_flight", "Book a flight between two cities."),
    ...     ("get_weather", "Current weather for a city."),
    ... ]]
    >>> index = ToolIndex(tools)
    >>> index.search("refund my last invoice", k=2, method="bm25")
    ['refund_invoice', 'get_invoice']
    >>> index.search("明天要带伞吗？", k=1)  # "do I need an umbrella tomorrow?"
    ['get_weather']

Token cost is measured, not estimated: `prompt_tokens` reads the
`usage.prompt_tokens` the model reports, and `tool_tokens` counts a list of
schemas the way the offline model does (words and symbols; `tiktoken` would
need its vocabulary downloaded, so it is not used). Left out: learning from
which tools were actually called.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from wirelab import bfcl
from wirelab.offline_model.wire.tokens import count_tokens
from wirelab.retrieval.dense import EncoderEmbedder, VectorIndex
from wirelab.retrieval.hybrid import hybrid_rank
from wirelab.retrieval.lexical import BM25Index
from wirelab.retrieval.metrics import reciprocal_rank
from wirelab.tools import Tool, ToolRegistry, tool

Retriever = Callable[[str, int], list[str]]
METHODS = ("bm25", "dense", "hybrid")
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


def bfcl_catalogue(
    categories: Sequence[str] = ("simple_python", "multiple"),
) -> tuple[list[Tool], list[dict]]:
    """A large catalogue: every distinct function of BFCL's `categories` as a tool (a stub), and
    each case as an eval case `{"request": the user's message, "tools": [the function it calls]}`.

    BFCL (`wirelab.bfcl`) ships a few hundred real-world function docs per category; a name
    seen twice keeps its first doc.
    """
    specs: dict[str, dict[str, Any]] = {}
    cases = []
    for case in (c for category in categories for c in bfcl.load(category)):
        for spec in bfcl.to_tools(case.functions):
            specs.setdefault(spec["function"]["name"], spec["function"])
        wanted = [bfcl.tool_name(name) for call in case.answer for name in call]
        cases.append({"request": case.messages[-1]["content"], "tools": wanted})
    return [_stub(spec) for spec in specs.values()], cases


def tool_text(t: Tool) -> str:
    """The words a tool is found by: its name split on `_`, description, parameter names and texts."""
    parts = [t.name.replace("_", " ").replace("-", " "), t.description]
    for name, prop in t.parameters.get("properties", {}).items():
        parts += [name.replace("_", " "), str(prop.get("description", ""))]
        parts += [str(value) for value in prop.get("enum", [])]
    return " ".join(parts)


class ToolIndex:
    """Tool texts indexed by BM25 and by the sentence encoder: which tools fit a request, best first."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self.tools = list(tools)
        if not self.tools:
            raise ValueError("a ToolIndex needs at least one tool")
        texts = [tool_text(t) for t in self.tools]
        self._bm25 = BM25Index(texts)
        self._vectors = VectorIndex(texts, EncoderEmbedder())

    def search(self, request: str, k: int = 5, method: str = "hybrid") -> list[str]:
        """The names of the (at most) `k` best tools for `request` by `method` (see `METHODS`)."""
        if k < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        if method == "hybrid":
            ranked = hybrid_rank(self._bm25, self._vectors, request)[:k]
        elif method in METHODS:
            ranked = (self._bm25 if method == "bm25" else self._vectors).rank(request, k)
        else:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        return [self.tools[i].name for i, _ in ranked]

    def retriever(self, method: str) -> Retriever:
        """`search` with `method` fixed, as `recall_at_k` takes it."""
        return lambda request, k: self.search(request, k, method)

    def registry(self, request: str, k: int = 5) -> ToolRegistry:
        """The top-k tools (hybrid) as a registry, ready for `run_tool_loop`."""
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


def mean_reciprocal_rank(retrieve: Retriever, cases: Sequence[Mapping[str, Any]], depth: int = 10) -> float:
    """Mean of 1 / (position of the first needed tool in `retrieve(request, depth)`), 0 if absent."""
    if not cases:
        raise ValueError("no eval cases")
    return sum(reciprocal_rank(retrieve(c["request"], depth), set(c["tools"])) for c in cases) / len(cases)


def retrieval_table(
    index: ToolIndex, cases: Sequence[Mapping[str, Any]], ks: Sequence[int] = (1, 3, 5)
) -> dict[str, dict[str, float]]:
    """`{method: {"Recall@1": ..., ..., "MRR": ...}}` for every method of `index` on `cases`."""
    table = {}
    for method in METHODS:
        retrieve = index.retriever(method)
        table[method] = {f"Recall@{k}": recall_at_k(retrieve, cases, k) for k in ks}
        table[method]["MRR"] = mean_reciprocal_rank(retrieve, cases)
    return table


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


def tool_tokens(tools: Iterable[Tool]) -> int:
    """Prompt tokens of `tools`' name, description and schema, counted as the offline model counts."""
    return sum(count_tokens(f"{t.name} {t.description} {json.dumps(t.parameters)}") for t in tools)


def listing_tokens(tools: Iterable[Tool]) -> int:
    """Prompt tokens of `tools`' names and descriptions alone, their parameter schemas deferred."""
    return sum(count_tokens(f"{t.name} {t.description}") for t in tools)


def tool_search(index: ToolIndex, active: ToolRegistry, k: int = 3) -> Tool:
    """A `tool_search(query)` tool that loads the `k` tools it finds into `active`, for the next turn.

    The deferred-loading pattern of the providers' tool search: the request carries this tool
    and none of the deferred schemas (OpenAI's `tool_search` with `defer_loading: true` on
    namespaces or MCP servers, Anthropic's tool search tool); only what a search returns is
    sent from then on. Unlike `finder`, its description lists no tool.
    """

    def tool_search(query: str) -> dict[str, Any]:
        """Search the deferred tools by what the user asks; the tools found become callable next turn.

        Args:
            query: What the user wants done, in their words.
        """
        names = [n for n in index.search(query, k) if active.get(n) is None]
        for name in names:
            active.add(next(t for t in index.tools if t.name == name))
        return {"loaded": names, "now_available": active.names}

    return tool(tool_search)
