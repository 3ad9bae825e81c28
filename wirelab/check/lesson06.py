"""Checks for lab 06: Recall@k computed right, and a retriever that finds the needed tools."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.tool_retrieval import load_catalogue, recall_at_k

ASSETS = Path(__file__).resolve().parents[2] / "assets"
GROUPS = load_catalogue(ASSETS / "tool_catalogue.json")
TOOLS = [t for _, tools in GROUPS.values() for t in tools]
CASES = json.loads((ASSETS / "tool_retrieval_eval.json").read_text(encoding="utf-8"))
REQUIRED_RECALL_AT_5 = 0.8


@exercise
def check_recall_at_k(learner_recall_at_k: Any) -> None:
    ranked = {"q1": ["a", "b", "c"], "q2": ["x", "b", "y"], "q3": ["z"]}
    cases = [
        {"request": "q1", "tools": ["a"]},
        {"request": "q2", "tools": ["b", "c"]},
        {"request": "q3", "tools": ["a"]},
    ]

    def retrieve(request: str, k: int) -> list[str]:
        return ranked[request][:k]

    for k, want in ((1, 1 / 3), (2, 0.5), (3, 0.5)):
        got = attempt(learner_recall_at_k, retrieve, cases, k)
        expect(isinstance(got, float | int), f"recall_at_k returned {got!r}: return a number")
        if abs(got - want) > 1e-9:
            raise CheckFailed(
                f"with k={k} recall_at_k returned {got:.3f}, expected {want:.3f}: per "
                "case, the share of its expected tools found in retrieve(request, k) "
                "(q2 needs 2 tools: finding 1 counts 0.5), then the mean over cases"
            )
    passed("recall_at_k averages, per request, the share of needed tools found in the top k")


@exercise
def check_retriever(retrieve: Any) -> None:
    first = attempt(retrieve, CASES[0]["request"], 5)
    expect(
        isinstance(first, list) and all(isinstance(n, str) for n in first),
        f"retrieve returned {first!r}: return a list of tool names",
    )
    expect(len(first) <= 5, f"retrieve(..., 5) returned {len(first)} names: at most k")
    score = attempt(recall_at_k, retrieve, CASES, 5)
    missed = [c["request"] for c in CASES if not set(c["tools"]) <= set(retrieve(c["request"], 5))]
    if score < REQUIRED_RECALL_AT_5:
        raise CheckFailed(
            f"Recall@5 is {score:.0%}, {REQUIRED_RECALL_AT_5:.0%} needed; e.g. missed "
            f"{missed[0]!r}. Score each tool by the request words found in its name and "
            "description (lower-case both, split on non-letters)"
        )
    passed(f"your retriever reaches Recall@5 = {score:.0%} on {len(CASES)} requests")
