"""Lesson 12's hybrid search against standard alternatives, on every kb eval set, side by side.

    .venv/bin/python benchmarks/kb_fusion.py

Issue 26 asks for English MRR at least MiniLM's 0.954 on `assets/kb/eval.json`. This script
measures the changes tried for it, each against the course's hybrid search (RRF, k = 60, BM25
weighted by its coverage of the question), on the old English set, on the held-out English set
written before any of them was measured (`eval_heldout.json`), on the Chinese set and on both
cross-lingual sets:

- `rrf k=10`: a smaller RRF constant, so that first places count more;
- `convex`: a convex combination of min-max normalised scores (BM25 and cosine, each scaled to
  0..1 over the corpus), BM25's weight 0.5 times its coverage, the vectors' 0.5 (Bruch, Gai and
  Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", 2023);
- `no header`: RRF, the vectors embedding the chunk's text alone, without the document title
  and section heading that `Chunk.search_text` puts before it (BM25 keeps them);
- `centred`: RRF, passage and question vectors minus the passages' mean vector, re-normalised
  (a common fix for the anisotropy of sentence embeddings).

Each row prints hit@1, hit@5 and MRR (document level, as `wirelab.kb.evaluation`), then the
change in MRR against `rrf` with a 95% paired bootstrap interval over the questions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from wirelab.encoder import encode
from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import corpus_folder
from wirelab.kb.evaluation import EvalQuestion, load_eval_set
from wirelab.retrieval.fusion import reciprocal_rank_fusion
from wirelab.retrieval.lexical import top_k
from wirelab.retrieval.metrics import evaluate, reciprocal_rank

DEPTH = 50
SETS = [  # (corpus, eval file, label)
    ("en", "eval.json", "English"),
    ("en", "eval_heldout.json", "English, held out"),
    ("zh", "eval.json", "Chinese"),
    ("en", "eval_cross.json", "Chinese questions, English corpus"),
    ("zh", "eval_cross.json", "English questions, Chinese corpus"),
]
Ranker = Callable[[str], list[int]]  # question -> chunk positions, best first


def minmax(scores: np.ndarray) -> np.ndarray:
    low, high = scores.min(), scores.max()
    return (scores - low) / (high - low) if high > low else np.zeros_like(scores)


def rrf(kb: KnowledgeBase, cosines: Callable[[str], np.ndarray], k: int = 60) -> Ranker:
    def rank(question: str) -> list[int]:
        lexical = [i for i, _ in kb.lexical.rank(question, DEPTH)]
        rankings = [lexical, [i for i, _ in top_k(cosines(question), DEPTH)]]
        fused = reciprocal_rank_fusion(rankings, k=k, weights=[kb.lexical.coverage(question), 1.0])
        return [i for i, _ in fused]

    return rank


def convex(kb: KnowledgeBase, alpha: float = 0.5) -> Ranker:
    def rank(question: str) -> list[int]:
        weight = alpha * kb.lexical.coverage(question)
        bm25 = minmax(np.asarray(kb.lexical.scores(question), dtype=float))
        dense = minmax(np.asarray(kb.vectors.similarities(question), dtype=float))
        fused = (weight * bm25 + (1 - alpha) * dense) / (weight + 1 - alpha)
        return [int(i) for i in np.argsort(-fused, kind="stable")[:DEPTH]]

    return rank


def without_header(kb: KnowledgeBase) -> Callable[[str], np.ndarray]:
    matrix = encode([chunk.text for chunk in kb.chunks])
    return lambda question: matrix @ encode([question])[0]


def centred(kb: KnowledgeBase) -> Callable[[str], np.ndarray]:
    mean = kb.vectors.matrix.mean(axis=0)
    matrix = kb.vectors.matrix - mean
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)

    def cosines(question: str) -> np.ndarray:
        vector = encode([question])[0] - mean
        return matrix @ (vector / np.linalg.norm(vector))

    return cosines


def rankers(kb: KnowledgeBase) -> dict[str, Ranker]:
    return {
        "rrf": rrf(kb, kb.vectors.similarities),
        "rrf k=10": rrf(kb, kb.vectors.similarities, k=10),
        "convex": convex(kb),
        "no header": rrf(kb, without_header(kb)),
        "centred": rrf(kb, centred(kb)),
    }


def documents(kb: KnowledgeBase, positions: list[int]) -> list[str]:
    return list(dict.fromkeys(kb.chunks[i].doc_id for i in positions))[:10]


def paired_interval(base: np.ndarray, other: np.ndarray, draws: int = 5000) -> tuple[float, float]:
    """95% bootstrap interval of the mean of `other - base` over questions (fixed seed)."""
    differences = other - base
    samples = np.random.default_rng(0).integers(0, len(differences), (draws, len(differences)))
    means = differences[samples].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def report(kb: KnowledgeBase, questions: list[EvalQuestion]) -> None:
    relevant = [q.relevant for q in questions]
    base = None
    print(f"{'':12}{'hit@1':>7}{'hit@5':>7}{'mrr':>7}   MRR against rrf, 95% interval")
    for name, rank in rankers(kb).items():
        run = [documents(kb, rank(q.question)) for q in questions]
        scores = evaluate(run, relevant)
        reciprocal = np.array([reciprocal_rank(r, rel) for r, rel in zip(run, relevant, strict=True)])
        line = f"{name:<12}" + "".join(f"{scores[m]:>7.3f}" for m in ("hit@1", "hit@5", "mrr"))
        if base is None:
            base = reciprocal
        else:
            low, high = paired_interval(base, reciprocal)
            line += f"   {reciprocal.mean() - base.mean():+.3f} [{low:+.3f}, {high:+.3f}]"
        print(line)


def main() -> None:
    bases = {language: KnowledgeBase.build(corpus_folder(language)) for language in ("en", "zh")}
    for language, file, label in SETS:
        kb = bases[language]
        questions = load_eval_set(kb, corpus_folder(language) / file)
        print(f"\n{label} ({file}, {len(questions)} questions)")
        report(kb, questions)


if __name__ == "__main__":
    main()
