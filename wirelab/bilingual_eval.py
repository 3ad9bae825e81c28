"""The course's own function-calling eval set, in English and Chinese, and its scorer.

    from wirelab import bilingual_eval
    outcomes = bilingual_eval.run()                   # every case, through wirelab.llm.client()
    bilingual_eval.table(outcomes)                    # pass rate per category and language

`assets/bilingual_eval.json` holds 301 cases in thirteen categories: paraphrase
(53, 40 of them with a verb that implies the tool without sharing its words:
"wake me at half past six" for an alarm), chit-chat, thanks, negation, topic
without action, enums sharing values, nested objects, lists, relative dates,
several intents, follow-ups (some changing one value: "and by train?"),
corrections after an error result (in the shapes APIs use: a flat `field` and
`message`, a validation `detail` list, a JSON-pointer `errors` list, problem
details, plain text, MCP `isError`) and cross-lingual requests (65: Chinese
requests for tools described in English, English ones for tools described in
Chinese; a case's `language` is that of the request). Each case is a
conversation (a system message gives today's date, so "tomorrow" has one right
answer), the names of the tools it offers (from the file's own catalogue), and
the calls a good model makes: none for chit-chat, thanks, negation and topics.

A case passes when the model makes exactly the expected calls, in any order.
Arguments are judged as BFCL judges them: each lists its accepted values, `""`
among them meaning it may be left out, and an argument not listed must be left
out. Strings match ignoring case, spaces and punctuation; numbers by value;
arrays as multisets; objects key by key by the same rules.

The set is a held-out yardstick, written for the course: it shares no
four-word phrase with BFCL, and its phrases never appear in the offline model
(tests check both). Left out: partial credit and free-text answers.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "assets" / "bilingual_eval.json"
MAY_BE_OMITTED = ""
_IGNORED = re.compile(r"[\s\W_]+")  # spaces and punctuation, in any script


@dataclass(frozen=True)
class Case:
    """One conversation, the tools it offers, and the calls that answer it (none: no call)."""

    id: str
    category: str
    language: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    expected: list[dict[str, Any]]


@dataclass(frozen=True)
class Outcome:
    """What the model called for one case; `reason` says why it failed."""

    case: Case
    calls: list[dict[str, Any]]
    ok: bool
    reason: str = ""


def load(path: str | Path = DEFAULT_PATH) -> list[Case]:
    """The cases, each with its tools as Chat Completions `tools`."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    catalogue = {tool["function"]["name"]: tool for tool in data["tools"]}
    try:
        return [
            Case(
                item["id"],
                item["category"],
                item["language"],
                item["messages"],
                [catalogue[name] for name in item["tools"]],
                item["expected"],
            )
            for item in data["cases"]
        ]
    except KeyError as error:
        raise ValueError(f"{path}: a case lacks a field or names an unknown tool ({error})") from error


def judge(case: Case, calls: Sequence[Mapping[str, Any]]) -> Outcome:
    """Does `calls` (`[{"name", "arguments"}]`) match the case's expected calls, in any order?"""
    calls = [dict(call) for call in calls]
    if len(calls) != len(case.expected):
        return Outcome(case, calls, False, f"{len(calls)} calls, expected {len(case.expected)}")
    unmatched = list(range(len(calls)))
    for expected in case.expected:
        match = next((i for i in unmatched if _call_matches(expected, calls[i])), None)
        if match is None:
            return Outcome(case, calls, False, f"no call matches {_compact(expected)}")
        unmatched.remove(match)
    return Outcome(case, calls, True)


def _call_matches(expected: Mapping[str, Any], call: Mapping[str, Any]) -> bool:
    arguments = call.get("arguments")
    return call.get("name") == expected["name"] and _object_matches(expected["arguments"], arguments)


def _object_matches(pattern: Mapping[str, list[Any]], value: Any) -> bool:
    """Every key of `value` is expected, and every expected key is there unless it may be omitted."""
    if not isinstance(value, dict) or not set(value) <= set(pattern):
        return False
    return all(
        (MAY_BE_OMITTED in accepted)
        if key not in value
        else any(value_matches(a, value[key]) for a in accepted)
        for key, accepted in pattern.items()
    )


def value_matches(accepted: Any, value: Any) -> bool:
    """One accepted value against what the model sent (see the module docstring for the rules).

    value_matches("New York", "new-york") -> True;  value_matches(2, 2.0) -> True
    value_matches(["a", "b"], ["b", "a"]) -> True;   value_matches(10, "10") -> False
    """
    if accepted == MAY_BE_OMITTED:
        return False
    if isinstance(accepted, dict):
        return _object_matches(accepted, value)
    if isinstance(accepted, list):
        return isinstance(value, list) and _same_multiset(accepted, value)
    if isinstance(accepted, bool) or isinstance(value, bool):
        return accepted is value
    if isinstance(accepted, int | float):
        return isinstance(value, int | float) and abs(accepted - value) < 1e-9
    return isinstance(value, str) and normalize(accepted) == normalize(value)


def _same_multiset(accepted: list[Any], values: list[Any]) -> bool:
    if len(accepted) != len(values):
        return False
    left = list(range(len(values)))
    for item in accepted:
        match = next((i for i in left if value_matches(item, values[i])), None)
        if match is None:
            return False
        left.remove(match)
    return True


def normalize(text: str) -> str:
    """NFKC, case-folded, without spaces or punctuation: `"Luigi's  Pizza"` -> `"luigispizza"`."""
    return _IGNORED.sub("", unicodedata.normalize("NFKC", text).casefold())


def _compact(call: Mapping[str, Any]) -> str:
    return json.dumps(call, ensure_ascii=False)[:200]


def calls_of(reply: Any) -> list[dict[str, Any]]:
    """A Chat Completions reply's tool calls as `[{"name", "arguments"}]`; bad JSON stays a string."""
    calls = []
    for call in reply.choices[0].message.tool_calls or []:
        try:
            arguments = json.loads(call.function.arguments or "{}")
        except json.JSONDecodeError:
            arguments = call.function.arguments
        calls.append({"name": call.function.name, "arguments": arguments})
    return calls


def run_case(case: Case, client: Any, model: str) -> Outcome:
    """Send one case to the model and judge its reply."""
    import openai

    try:
        reply = client.chat.completions.create(model=model, messages=case.messages, tools=case.tools)
    except openai.APIError as error:
        return Outcome(case, [], False, f"request failed: {str(error)[:200]}")
    return judge(case, calls_of(reply))


def run(cases: Iterable[Case] | None = None, client: Any = None, model: str | None = None) -> list[Outcome]:
    """Every case (all of `load()` unless given) through the model, in order."""
    from wirelab import llm

    client = client or llm.client()
    model = model or llm.model_name()
    return [run_case(case, client, model) for case in (load() if cases is None else cases)]


def scores(outcomes: Iterable[Outcome], by: str = "category") -> dict[str, tuple[int, int]]:
    """`{group: (passed, total)}` grouped by a case field (`category` or `language`), in first-seen order."""
    grouped: dict[str, tuple[int, int]] = {}
    for outcome in outcomes:
        key = getattr(outcome.case, by)
        passed, total = grouped.get(key, (0, 0))
        grouped[key] = (passed + outcome.ok, total + 1)
    return grouped


def pass_rate(outcomes: Sequence[Outcome]) -> float:
    """The share of cases passed."""
    if not outcomes:
        raise ValueError("no outcomes to score")
    return sum(outcome.ok for outcome in outcomes) / len(outcomes)


def table(outcomes: Sequence[Outcome]) -> str:
    """Markdown: pass rate per category, split by language, and overall."""
    by_language = {
        language: scores([o for o in outcomes if o.case.language == language])
        for language in scores(outcomes, by="language")
    }
    languages = list(by_language)
    rows = [
        "| category | " + " | ".join(languages) + " | all |",
        "|---|" + "---:|" * (len(languages) + 1),
    ]
    for category, (passed, total) in scores(outcomes).items():
        cells = [_cell(*by_language[lang].get(category, (0, 0))) for lang in languages]
        rows.append(f"| {category} | " + " | ".join(cells) + f" | {_cell(passed, total)} |")
    overall = [_cell(*_sum(by_language[lang].values())) for lang in languages]
    rows.append("| **all** | " + " | ".join(overall) + f" | {_cell(*_sum(scores(outcomes).values()))} |")
    return "\n".join(rows)


def _sum(pairs: Iterable[tuple[int, int]]) -> tuple[int, int]:
    pairs = list(pairs)
    return sum(p for p, _ in pairs), sum(t for _, t in pairs)


def _cell(passed: int, total: int) -> str:
    return f"{passed}/{total} ({passed / total:.0%})" if total else "–"
