"""Binding against the arguments the corpus's requests are annotated with (assets/offline_model_corpus.json):
the requests that name a tool of the catalogues or of the corpus's domains, and the binding section's
requests against its own invented tools. The floor is where binding stands now (issue 22): a change
that binds fewer of them fails, one that binds more raises it."""

from __future__ import annotations

import importlib.util
import json

from tests.offline_model.test_no_benchmark_leak import bfcl_cases, phrases, user_texts
from wirelab import bilingual_eval
from wirelab.offline_model.binding import bind
from wirelab.offline_model.training import CORPUS, ROOT

SPEC = importlib.util.spec_from_file_location("fit_binding", ROOT / "scripts" / "fit_binding.py")
# the corpus's annotated requests, and an argument compared, as the fit reads them
FIT_BINDING = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(FIT_BINDING)
FLOOR = 494  # of 718 annotated requests, binding as it stands


def test_every_annotation_names_parameters_its_tool_has():
    for tool, text, arguments in FIT_BINDING.annotated():
        assert set(arguments) <= set(tool.parameters.get("properties", {})), text


def test_binding_gives_the_annotated_arguments_of_at_least_the_floor():
    bound = [(arguments, bind(tool, text, guess=False)) for tool, text, arguments in FIT_BINDING.annotated()]
    right = sum(
        set(found) == set(arguments) and all(FIT_BINDING.same(arguments[k], found[k]) for k in arguments)
        for arguments, found in bound
    )
    assert right >= FLOOR, f"{right} of {len(bound)} requests bound as annotated (floor {FLOOR})"


def test_the_binding_requests_share_no_four_word_phrase_with_bfcl_or_the_eval_set():
    requests = json.loads(CORPUS.read_text(encoding="utf-8"))["binding_requests"]
    ours = set().union(*(phrases(item["text"]) for item in requests))
    assert ours
    assert not ours & set().union(*(phrases(t) for t in user_texts(bfcl_cases())))
    assert not ours & set().union(*(phrases(t) for t in user_texts(bilingual_eval.load())))
