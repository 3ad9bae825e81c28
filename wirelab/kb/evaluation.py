"""Measure retrieval on the eval set: hit@k and MRR per method, as one table.

The eval set (`assets/kb/eval.json`; `assets/kb/zh/eval.json` for the Chinese corpus) lists
questions with the ids of the documents that answer them (and, for reference, the chunks).
`load_eval_set(kb)` reads the one of the notebook's language, as `load_documents()` does.
Ranking is scored at the document level: a method's chunk ranking becomes a document ranking
by keeping each document's first appearance. Methods: "bm25", "vector", "hybrid" (RRF of the
two) and "rerank" (hybrid, then `rerank`). The table is what the quality test, the benchmark
and lesson 12 print.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wirelab.kb.corpus import DEFAULT_CORPUS, default_corpus
from wirelab.kb.index import KnowledgeBase
from wirelab.retrieval.metrics import evaluate

DEFAULT_EVAL_SET = DEFAULT_CORPUS / "eval.json"  # the English one
METHODS = ("bm25", "vector", "hybrid", "rerank")
DEPTH = 10


@dataclass(frozen=True)
class EvalQuestion:
    """One question, its relevant document ids and chunk ids, and its style."""

    id: str
    question: str
    relevant: frozenset[str]
    chunks: tuple[str, ...]
    style: str


def load_eval_set(kb: KnowledgeBase, path: Path | None = None) -> list[EvalQuestion]:
    """Read the eval set (default: the one of `default_corpus()`, the notebook's language).

    A relevant id or chunk id that `kb` lacks is a `ValueError`.
    """
    path = default_corpus() / "eval.json" if path is None else Path(path)
    raw = json.loads(path.read_text(encoding="utf-8"))["questions"]
    questions = [
        EvalQuestion(q["id"], q["question"], frozenset(q["relevant"]), tuple(q.get("chunks", ())), q["style"])
        for q in raw
    ]
    for q in questions:
        unknown = sorted(q.relevant - set(kb.documents))
        unknown += [cid for cid in q.chunks if cid not in {c.id for c in kb.chunks}]
        if unknown or not q.relevant:
            raise ValueError(f"eval question {q.id}: unknown or missing ids {unknown}")
    return questions


def ranked_documents(kb: KnowledgeBase, question: str, method: str, depth: int = DEPTH) -> list[str]:
    """Document ids in the order `method` first ranks one of their chunks."""
    if method == "rerank":
        hits = kb.search_reranked(question, k=depth * 3)
    else:
        hits = kb.search(question, k=depth * 3, mode=method)
    return list(dict.fromkeys(hit.doc_id for hit in hits))[:depth]


def quality_table(
    kb: KnowledgeBase, questions: Sequence[EvalQuestion], methods: Sequence[str] = METHODS
) -> dict[str, dict[str, float]]:
    """`{method: {'hit@1': ..., 'hit@5': ..., 'mrr': ...}}` over `questions`."""
    relevant = [q.relevant for q in questions]
    return {
        method: evaluate([ranked_documents(kb, q.question, method) for q in questions], relevant)
        for method in methods
    }


def format_table(table: dict[str, dict[str, float]]) -> str:
    """The table as aligned text, one method per row."""
    metrics = list(next(iter(table.values())))
    lines = [f"{'method':<8}" + "".join(f"{name:>8}" for name in metrics)]
    for method, scores in table.items():
        lines.append(f"{method:<8}" + "".join(f"{scores[name]:>8.3f}" for name in metrics))
    return "\n".join(lines)
