"""Binding against the arguments the corpus's requests are annotated with (assets/offline_model_corpus.json):
the requests that name a tool of the catalogues or of the corpus's domains, and the binding section's
requests against its own invented tools. The floor is where binding stands now (issue 22): a change
that binds fewer of them fails, one that binds more raises it."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.offline_model.test_no_benchmark_leak import bfcl_cases, phrases, user_texts
from wirelab import bilingual_eval
from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool
from wirelab.offline_model.training import CORPUS, load_corpus

FLOOR = 252  # of 365 annotated requests, binding as it stands


def _annotated() -> list[tuple[Tool, str, dict[str, Any]]]:
    corpus = load_corpus()
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    tools = {tool.name: tool for sets in corpus["domains"].values() for tool in sets["en"]}
    tools |= {t["name"]: Tool(t["name"], t["description"], t["parameters"]) for t in data["binding_tools"]}
    items = [*data["requests"], *data["binding_requests"]]
    return [(tools[i["tool"]], i["text"], i["arguments"]) for i in items if i["tool"] is not None]


def _same(expected: Any, bound: Any) -> bool:
    """An annotated argument and a bound one: equal, in any case, or the annotation's list of names."""
    if expected == bound or str(expected).casefold() == str(bound).casefold():
        return True
    return isinstance(expected, str) and str(bound) in re.split(r",\s*|、|\s+and\s+", expected)


def test_every_annotation_names_parameters_its_tool_has():
    for tool, text, arguments in _annotated():
        assert set(arguments) <= set(tool.parameters.get("properties", {})), text


def test_binding_gives_the_annotated_arguments_of_at_least_the_floor():
    bound = [(arguments, bind(tool, text, guess=False)) for tool, text, arguments in _annotated()]
    right = sum(
        set(found) == set(arguments) and all(_same(arguments[k], found[k]) for k in arguments)
        for arguments, found in bound
    )
    assert right >= FLOOR, f"{right} of {len(bound)} requests bound as annotated (floor {FLOOR})"


def test_the_binding_requests_share_no_four_word_phrase_with_bfcl_or_the_eval_set():
    requests = json.loads(CORPUS.read_text(encoding="utf-8"))["binding_requests"]
    ours = set().union(*(phrases(item["text"]) for item in requests))
    assert ours
    assert not ours & set().union(*(phrases(t) for t in user_texts(bfcl_cases())))
    assert not ours & set().union(*(phrases(t) for t in user_texts(bilingual_eval.load())))
