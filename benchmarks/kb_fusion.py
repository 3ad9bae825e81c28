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
  (a common fix for the anisotropy of sentence embeddings);
- `rrf3`, `rrf3 cov`, `rrf3 script`: RRF of three rankings, BM25, the encoder and the character
  n-gram vectors (`dense="off"`), the n-grams weighted 1, by BM25's coverage of the question, or
  1 only when question and corpus share a script (both hold Chinese characters or neither);
- `doc rrf`, `chunk+doc`: passage and document evidence combined (Callan, "Passage-level evidence
  in document retrieval", 1994): each chunk's RRF score plus its document's RRF score (each
  ranking's documents in the order of their best chunk), the document's weighted 100 (documents
  first) or 1;
- `rm3 bm25`, `rm3 hybrid`: pseudo-relevance feedback on the BM25 side (RM3, Abdul-Jaleel et
  al., "UMass at TREC 2004"; Anserini's defaults: 10 feedback chunks from BM25 or from the
  hybrid search, 10 expansion terms, the question keeping half the weight), then RRF;
- `z-score sum`: CombSUM of z-scored BM25 and cosine scores, BM25 weighted by its coverage
  (Fox and Shaw, 1994; Montague and Aslam, "Relevance score normalization for metasearch", 2001);
- `csls`: RRF, each passage's cosine less its hubness, its mean cosine to its 10 nearest
  passages (cross-domain similarity local scaling, Conneau et al., 2018);
- `doc-smoothed`: RRF, each chunk's vector plus its document's mean vector (smoothing a passage
  with its cluster, as Liu and Croft's cluster-based retrieval does, 2004);
- `bm25 k1=.9 b=.4`, `bm25+`, `bm25l`: RRF with other BM25s from `bm25s`: Anserini's default
  parameters, and the BM25+ and BM25L variants (Lv and Zhai, 2011).

Each row prints hit@1, hit@5 and MRR (document level, as `wirelab.kb.evaluation`), then the
change in MRR against `rrf` with a 95% paired bootstrap interval over the questions. Under each
table, two ceilings on what fusing BM25's and the encoder's rankings can reach: the MRR of the
better of the two for each question, and the MRR if every question's relevant document were put
behind only the documents that both rankings place ahead of it (no fusion that keeps both
rankings' document order can do better; a fusion of chunks can break it, in either direction, since
it fuses chunks, not documents).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import bm25s
import numpy as np

from wirelab.encoder import encode
from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import corpus_folder
from wirelab.kb.evaluation import EvalQuestion, load_eval_set
from wirelab.retrieval.dense import CharNgramEmbedder, VectorIndex
from wirelab.retrieval.fusion import reciprocal_rank_fusion
from wirelab.retrieval.lexical import HAN, BM25Index, terms, top_k
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


def search_texts(kb: KnowledgeBase) -> list[str]:
    """What the knowledge base indexes of each chunk: its text under its title and heading."""
    return [chunk.search_text(kb.documents[chunk.doc_id].title) for chunk in kb.chunks]


def ngram_index(kb: KnowledgeBase) -> VectorIndex:
    texts = search_texts(kb)
    return VectorIndex(texts, CharNgramEmbedder(texts))


def han(text: str) -> bool:
    return HAN.search(text) is not None


def rrf3(kb: KnowledgeBase, ngrams: VectorIndex, rule: str, k: int = 60) -> Ranker:
    corpus_han = any(han(chunk.text) for chunk in kb.chunks)

    def weight(question: str) -> float:
        if rule == "all":
            return 1.0
        if rule == "coverage":
            return kb.lexical.coverage(question)
        return 1.0 if han(question) == corpus_han else 0.0  # "script"

    def rank(question: str) -> list[int]:
        rankings = [[i for i, _ in index.rank(question, DEPTH)] for index in (kb.lexical, kb.vectors, ngrams)]
        weights = [kb.lexical.coverage(question), 1.0, weight(question)]
        return [i for i, _ in reciprocal_rank_fusion(rankings, k=k, weights=weights)]

    return rank


def passage_and_document(kb: KnowledgeBase, share: float = 1.0) -> Ranker:
    """Chunk RRF plus `share` times the RRF of the documents, each ranked by its best chunk."""

    def rank(question: str) -> list[int]:
        weights = [kb.lexical.coverage(question), 1.0]
        chunk_rankings = [[i for i, _ in index.rank(question, DEPTH)] for index in (kb.lexical, kb.vectors)]
        doc_rankings = [list(dict.fromkeys(kb.chunks[i].doc_id for i in r)) for r in chunk_rankings]
        chunk_scores = dict(reciprocal_rank_fusion(chunk_rankings, weights=weights))
        doc_scores = dict(reciprocal_rank_fusion(doc_rankings, weights=weights))
        fused = {i: s + share * doc_scores[kb.chunks[i].doc_id] for i, s in chunk_scores.items()}
        return sorted(fused, key=lambda i: -fused[i])

    return rank


def rm3(kb: KnowledgeBase, feedback: str, docs: int = 10, words: int = 10, keep: float = 0.5) -> Ranker:
    """RRF of the vectors and BM25 with an RM3-expanded question (Abdul-Jaleel et al., 2004).

    The expansion terms are the `words` most probable under the relevance model of the first
    `docs` chunks (ranked by BM25, or by the hybrid search), each chunk weighted by its score;
    the question keeps `keep` of the weight (Anserini's defaults: 10, 10, 0.5).
    """
    counts = [Counter(terms(text)) for text in search_texts(kb)]
    base = rrf(kb, kb.vectors.similarities)

    def term_scores(words_and_weights: dict[str, float]) -> np.ndarray:
        total = np.zeros(len(kb.chunks))
        for word, weight in words_and_weights.items():
            # one stemmed term's BM25 scores (`BM25Index.scores` would tokenize and stem it again)
            total += weight * np.asarray(kb.lexical._retriever.get_scores([word]), dtype=float)
        return total

    def rank(question: str) -> list[int]:
        query = terms(question)
        if not query:
            return base(question)
        if feedback == "bm25":
            top = kb.lexical.rank(question, docs)
        else:
            top = [(i, 1.0 / (60 + r)) for r, i in enumerate(base(question)[:docs], 1)]
        mass = sum(score for _, score in top) or 1.0
        model: Counter[str] = Counter()
        for i, score in top:
            length = sum(counts[i].values())
            for word, count in counts[i].items():
                model[word] += score / mass * count / length
        expansion = dict(model.most_common(words))
        norm = sum(expansion.values()) or 1.0
        weights = Counter({w: keep / len(query) for w in query})
        for word, p in expansion.items():
            weights[word] += (1 - keep) * p / norm
        lexical = [i for i, _ in top_k(term_scores(weights), DEPTH)]
        vectors = [i for i, _ in kb.vectors.rank(question, DEPTH)]
        fused = reciprocal_rank_fusion([lexical, vectors], weights=[kb.lexical.coverage(question), 1.0])
        return [i for i, _ in fused]

    return rank


def standard(scores: np.ndarray) -> np.ndarray:
    """Scores as z-scores: less their mean, over their spread (all zero when they do not spread)."""
    spread = scores.std()
    return (scores - scores.mean()) / spread if spread > 0 else np.zeros_like(scores)


def zscore_sum(kb: KnowledgeBase) -> Ranker:
    """CombSUM of z-scored BM25 and cosine, BM25 weighted by coverage (Montague and Aslam, 2001)."""

    def rank(question: str) -> list[int]:
        bm25 = standard(np.asarray(kb.lexical.scores(question), dtype=float))
        dense = standard(np.asarray(kb.vectors.similarities(question), dtype=float))
        fused = kb.lexical.coverage(question) * bm25 + dense
        return [int(i) for i in np.argsort(-fused, kind="stable")[:DEPTH]]

    return rank


def hubness(matrix: np.ndarray, neighbours: int = 10) -> np.ndarray:
    """Each row's mean cosine to its `neighbours` nearest other rows (unit rows)."""
    between = matrix @ matrix.T
    np.fill_diagonal(between, -np.inf)
    return np.sort(between, axis=1)[:, -neighbours:].mean(axis=1)


def csls(kb: KnowledgeBase, neighbours: int = 10) -> Callable[[str], np.ndarray]:
    """Cosine less each passage's hubness: its mean cosine to its nearest passages (Conneau et al., 2018)."""
    hub = hubness(kb.vectors.matrix, neighbours)
    return lambda question: 2 * kb.vectors.similarities(question) - hub


def smoothed(kb: KnowledgeBase) -> Callable[[str], np.ndarray]:
    """Cosines with each chunk's vector plus its document's mean vector, re-normalised."""
    documents_of = np.array([chunk.doc_id for chunk in kb.chunks])
    matrix = kb.vectors.matrix.copy()
    for doc_id in set(documents_of):
        rows = documents_of == doc_id
        matrix[rows] += kb.vectors.matrix[rows].mean(axis=0)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return lambda question: matrix @ encode([question])[0]


def other_bm25(kb: KnowledgeBase, **parameters: object) -> Ranker:
    """RRF of the vectors and a BM25 index built by `bm25s.BM25(**parameters)`."""
    texts = search_texts(kb)
    lexical = BM25Index(texts)
    lexical._retriever = bm25s.BM25(**parameters)
    lexical._retriever.index([terms(text) for text in texts], show_progress=False)

    def rank(question: str) -> list[int]:
        rankings = [[i for i, _ in index.rank(question, DEPTH)] for index in (lexical, kb.vectors)]
        fused = reciprocal_rank_fusion(rankings, weights=[lexical.coverage(question), 1.0])
        return [i for i, _ in fused]

    return rank


def rankers(kb: KnowledgeBase) -> dict[str, Ranker]:
    ngrams = ngram_index(kb)
    return {
        "rrf": rrf(kb, kb.vectors.similarities),
        "rrf k=10": rrf(kb, kb.vectors.similarities, k=10),
        "convex": convex(kb),
        "no header": rrf(kb, without_header(kb)),
        "centred": rrf(kb, centred(kb)),
        "rrf3": rrf3(kb, ngrams, "all"),
        "rrf3 cov": rrf3(kb, ngrams, "coverage"),
        "rrf3 script": rrf3(kb, ngrams, "script"),
        "doc rrf": passage_and_document(kb, 100.0),
        "chunk+doc": passage_and_document(kb),
        "rm3 bm25": rm3(kb, "bm25"),
        "rm3 hybrid": rm3(kb, "hybrid"),
        "z-score sum": zscore_sum(kb),
        "csls": rrf(kb, csls(kb)),
        "doc-smoothed": rrf(kb, smoothed(kb)),
        "bm25 k1=.9 b=.4": other_bm25(kb, k1=0.9, b=0.4),
        "bm25+": other_bm25(kb, method="bm25+"),
        "bm25l": other_bm25(kb, method="bm25l"),
    }


def documents(kb: KnowledgeBase, positions: list[int]) -> list[str]:
    return list(dict.fromkeys(kb.chunks[i].doc_id for i in positions))[:10]


def paired_interval(base: np.ndarray, other: np.ndarray, draws: int = 5000) -> tuple[float, float]:
    """95% bootstrap interval of the mean of `other - base` over questions (fixed seed)."""
    differences = other - base
    samples = np.random.default_rng(0).integers(0, len(differences), (draws, len(differences)))
    means = differences[samples].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def ceilings(kb: KnowledgeBase, questions: list[EvalQuestion]) -> tuple[float, float]:
    """(MRR of the better ranking per question, MRR of the dominance bound), BM25 and vectors."""
    better, bound = [], []
    for q in questions:
        rankings = [index.rank(q.question, len(kb.chunks)) for index in (kb.lexical, kb.vectors)]
        runs = [list(dict.fromkeys(kb.chunks[i].doc_id for i, _ in ranking)) for ranking in rankings]
        better.append(max(reciprocal_rank(run, q.relevant) for run in runs))
        place = [{doc: n for n, doc in enumerate(run)} for run in runs]
        unseen = len(kb.documents)
        best = 0.0
        for doc in q.relevant:
            if all(doc not in p for p in place):
                continue
            ahead = {d for d in kb.documents if d not in q.relevant}
            ahead = {d for d in ahead if all(p.get(d, unseen) < p.get(doc, unseen) for p in place)}
            best = max(best, 1 / (1 + len(ahead)))
        bound.append(best)
    return float(np.mean(better)), float(np.mean(bound))


def report(kb: KnowledgeBase, questions: list[EvalQuestion]) -> None:
    relevant = [q.relevant for q in questions]
    base = None
    print(f"{'':16}{'hit@1':>7}{'hit@5':>7}{'mrr':>7}   MRR against rrf, 95% interval")
    for name, rank in rankers(kb).items():
        run = [documents(kb, rank(q.question)) for q in questions]
        scores = evaluate(run, relevant)
        reciprocal = np.array([reciprocal_rank(r, rel) for r, rel in zip(run, relevant, strict=True)])
        line = f"{name:<16}" + "".join(f"{scores[m]:>7.3f}" for m in ("hit@1", "hit@5", "mrr"))
        if base is None:
            base = reciprocal
        else:
            low, high = paired_interval(base, reciprocal)
            line += f"   {reciprocal.mean() - base.mean():+.3f} [{low:+.3f}, {high:+.3f}]"
        print(line)
    better, bound = ceilings(kb, questions)
    print(f"ceilings of fusing BM25 and vectors: better of the two {better:.3f}, dominance {bound:.3f}")


def main() -> None:
    bases = {language: KnowledgeBase.build(corpus_folder(language)) for language in ("en", "zh")}
    for language, file, label in SETS:
        kb = bases[language]
        questions = load_eval_set(kb, corpus_folder(language) / file)
        print(f"\n{label} ({file}, {len(questions)} questions)")
        report(kb, questions)


if __name__ == "__main__":
    main()
