"""BFCL, the Berkeley Function Calling Leaderboard, run through the real `openai` client.

    from wirelab import bfcl
    cases = bfcl.load("simple_python")[:10]
    results = bfcl.run(cases)                      # the offline model, or your provider
    bfcl.scores(results)["simple_python"].accuracy

The cases and BFCL's own checker come from the `bfcl-eval` package (installed
without its dependencies: `./course` does it). Each case is a conversation and
the tool docs BFCL wrote in its own dialect ("Gorilla" types such as `dict`,
`float`, `tuple`, `any`; dotted names like `math.factorial`). `to_tools` turns
them into Chat Completions tools the way BFCL's OpenAI handler does (types
mapped to JSON Schema, dots to `_`), the case is sent with `wirelab.llm.client()`
(so `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `WIRELAB_MODEL` select a real
provider), and the reply's tool calls go back to BFCL's form `[{name: {arg: value}}]`
for `ast_checker`. That checker compares the *parsed* call with a list of
accepted values per parameter (`""` marks one that may be left out), not a
string with a string. In the irrelevance categories no tool fits the request:
any call is wrong.

Covered: the single-turn Python categories in `CATEGORIES`. Left out: the
multi-turn, memory, web-search, Java and JavaScript categories, and BFCL's
prompting (non-tool-calling) mode.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

CATEGORIES = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_irrelevance",
)
PACKAGE = "bfcl-eval==2026.3.23"
NO_CALL = "ast_decoder:decoder_failed"  # BFCL's name for "no parsable call" when one was expected
CALLED_ANYWAY = "irrelevance_error:decoder_success"  # BFCL's name for a call in an irrelevance case
REQUEST_FAILED = "request_failed"  # ours: the provider answered with an error

# Gorilla's type names -> JSON Schema's, as BFCL's GORILLA_TO_OPENAPI maps them for Python.
JSON_TYPES = {
    "integer": "integer",
    "number": "number",
    "float": "number",
    "string": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "tuple": "array",
    "dict": "object",
    "object": "object",
    "any": "string",
}


@dataclass(frozen=True)
class Case:
    """One BFCL test: the conversation, the tool docs, and the accepted calls (None: no call)."""

    id: str
    category: str
    messages: list[dict[str, Any]]
    functions: list[dict[str, Any]]
    answer: list[dict[str, Any]] | None

    @property
    def irrelevance(self) -> bool:
        return self.answer is None


@dataclass(frozen=True)
class Result:
    """What the model called for one case and BFCL's verdict on it."""

    case: Case
    calls: list[dict[str, Any]]
    valid: bool
    error_type: str = ""
    error: str = ""


@dataclass
class Score:
    """One category's accuracy and its errors by BFCL error type."""

    total: int = 0
    correct: int = 0
    errors: Counter = field(default_factory=Counter)

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0


def installed() -> bool:
    """True when `bfcl-eval` is importable (`./course` installs it)."""
    return importlib.util.find_spec("bfcl_eval") is not None


def data_dir() -> Path:
    """The folder of BFCL's data files inside the installed package."""
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(
            f"BFCL's data is not installed: run ./course once, or pip install --no-deps '{PACKAGE}'"
        )
    return Path(spec.origin).parent / "data"


def load(category: str, ids: Iterable[str] | None = None) -> list[Case]:
    """The cases of one category, in BFCL's order; only `ids` if given (an unknown id is an error)."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown BFCL category {category!r}: choose one of {', '.join(CATEGORIES)}")
    wanted = set(ids) if ids is not None else None
    answers = _answers(category)
    cases = []
    for entry in _read_lines(data_dir() / f"BFCL_v4_{category}.json"):
        if wanted is None or entry["id"] in wanted:
            messages = [message for turn in entry["question"] for message in turn]
            answer = None if "irrelevance" in category else answers[entry["id"]]
            cases.append(Case(entry["id"], category, messages, entry["function"], answer))
    missing = (wanted or set()) - {case.id for case in cases}
    if missing:
        raise ValueError(f"no {category} case has the id(s) {', '.join(sorted(missing))}")
    return cases


def load_ids(ids: Iterable[str]) -> list[Case]:
    """The cases with these ids (e.g. a stored sample), grouped by category."""
    ids = list(ids)
    by_category = {category: [i for i in ids if category_of(i) == category] for category in CATEGORIES}
    return [case for category, chosen in by_category.items() if chosen for case in load(category, chosen)]


def category_of(case_id: str) -> str:
    """`live_simple_12-3-0` -> `live_simple`; `parallel_multiple_7` -> `parallel_multiple`."""
    stem = case_id.split("-")[0].rsplit("_", 1)[0]
    if stem not in CATEGORIES:
        raise ValueError(f"{case_id!r} is not an id of a BFCL category this module runs")
    return stem


def _answers(category: str) -> dict[str, list[dict[str, Any]]]:
    if "irrelevance" in category:
        return {}
    path = data_dir() / "possible_answer" / f"BFCL_v4_{category}.json"
    return {entry["id"]: entry["ground_truth"] for entry in _read_lines(path)}


def _read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def stratified_sample(size: int, seed: int) -> list[str]:
    """`size` case ids drawn evenly across `CATEGORIES` with `random.Random(seed)`."""
    draw, ids = random.Random(seed), []
    for index, category in enumerate(CATEGORIES):
        share = size // len(CATEGORIES) + (index < size % len(CATEGORIES))
        ids += draw.sample([case.id for case in load(category)], share)
    return ids


# --- BFCL's tool docs -> Chat Completions tools ---------------------------------------------


def tool_name(name: str) -> str:
    """Chat Completions names allow `[a-zA-Z0-9_-]`: `math.factorial` -> `math_factorial`."""
    return name.replace(".", "_")


def to_tools(functions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """BFCL function docs as the `tools` of a Chat Completions request."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool_name(doc["name"]),
                "description": doc.get("description", ""),
                "parameters": {**to_schema(doc.get("parameters", {})), "type": "object"},
            },
        }
        for doc in functions
    ]


def to_schema(gorilla: Mapping[str, Any]) -> dict[str, Any]:
    """One Gorilla-typed schema as JSON Schema: `{"type": "dict"}` -> `{"type": "object"}`."""
    schema = dict(gorilla)
    schema["type"] = JSON_TYPES.get(str(gorilla.get("type", "string")), "string")
    if isinstance(gorilla.get("properties"), Mapping):
        schema["properties"] = {key: to_schema(value) for key, value in gorilla["properties"].items()}
    if isinstance(gorilla.get("items"), Mapping):
        schema["items"] = to_schema(gorilla["items"])
    return schema


def from_tool_calls(tool_calls: Sequence[Any] | None) -> list[dict[str, Any]]:
    """The reply's tool calls in BFCL's form `[{name: {arg: value}}]`; bad JSON raises ValueError."""
    calls = []
    for call in tool_calls or []:
        arguments = json.loads(call.function.arguments or "{}")
        if not isinstance(arguments, dict):
            raise ValueError(f"arguments of {call.function.name} are not a JSON object: {arguments!r}")
        calls.append({call.function.name: arguments})
    return calls


# --- BFCL's checker --------------------------------------------------------------------------

CHECKER_MODEL = "wirelab"  # the model name the checker is told; only its name-mangling rule matters


@cache
def _ast_checker() -> Callable[..., dict[str, Any]]:
    """BFCL's `ast_checker`, imported without the provider SDKs it never uses.

    The checker module imports `MODEL_CONFIG_MAPPING` from `constants/model_config.py`,
    which imports a handler for every provider (anthropic, cohere, boto3, google-genai,
    ...), only to read one flag: whether that model's tool names had dots replaced by
    `_`. We send every name that way, so a one-entry stand-in module saying so is put
    in `sys.modules` for the import and taken out again afterwards.
    """
    name = "bfcl_eval.constants.model_config"
    stand_in = types.ModuleType(name, "Stand-in: the one flag BFCL's AST checker reads.")
    stand_in.MODEL_CONFIG_MAPPING = {CHECKER_MODEL: types.SimpleNamespace(underscore_to_dot=True)}
    already = sys.modules.setdefault(name, stand_in)
    try:
        from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    finally:
        if already is stand_in:
            del sys.modules[name]
    return ast_checker


def check(case: Case, calls: list[dict[str, Any]]) -> Result:
    """BFCL's verdict on the calls the model made for `case`."""
    if case.irrelevance:
        if calls:
            return Result(case, calls, False, CALLED_ANYWAY, "a tool was called, but none fits the request")
        return Result(case, calls, True)
    if not calls:
        return Result(case, calls, False, NO_CALL, "no tool was called")
    from bfcl_eval.constants.enums import Language

    checker = _ast_checker()
    verdict = checker(case.functions, calls, case.answer, Language.PYTHON, case.category, CHECKER_MODEL)
    if verdict["valid"]:
        return Result(case, calls, True)
    return Result(case, calls, False, verdict.get("error_type", "unknown"), _first_error(verdict))


def _first_error(verdict: Mapping[str, Any]) -> str:
    errors = verdict.get("error") or [""]
    first = errors[0]
    return first if isinstance(first, str) else json.dumps(first, ensure_ascii=False, default=str)


# --- Running cases ---------------------------------------------------------------------------


def run_case(case: Case, client: Any, model: str) -> Result:
    """Send one case to the model and check its reply."""
    import openai

    try:
        tools = {"tools": to_tools(case.functions)} if case.functions else {}  # a few offer none
        reply = client.chat.completions.create(model=model, messages=case.messages, **tools)
    except openai.APIError as error:
        return Result(case, [], False, REQUEST_FAILED, str(error)[:300])
    try:
        calls = from_tool_calls(reply.choices[0].message.tool_calls)
    except ValueError as error:
        return Result(case, [], False, NO_CALL, str(error)[:300])
    return check(case, calls)


def run(
    cases: Iterable[Case], client: Any = None, model: str | None = None, workers: int = 1
) -> list[Result]:
    """Every case through the model (`wirelab.llm.client()` unless given), in order.

    `workers` > 1 sends that many requests at once, which a hosted provider
    rewards; the offline model answers one at a time anyway.
    """
    from wirelab import llm

    client = client or llm.client()
    model = model or llm.model_name()
    cases = list(cases)
    if workers <= 1:
        return [run_case(case, client, model) for case in cases]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda case: run_case(case, client, model), cases))


def scores(results: Iterable[Result]) -> dict[str, Score]:
    """Accuracy and error types per category, in `CATEGORIES` order."""
    by_category: dict[str, Score] = {}
    for result in results:
        score = by_category.setdefault(result.case.category, Score())
        score.total += 1
        score.correct += result.valid
        if not result.valid:
            score.errors[result.error_type] += 1
    return {category: by_category[category] for category in CATEGORIES if category in by_category}


def overall(results: Sequence[Result]) -> float:
    """The share of all cases passed (unweighted by category)."""
    if not results:
        raise ValueError("no results to score")
    return sum(result.valid for result in results) / len(results)
