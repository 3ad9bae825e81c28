"""Print lesson 12's retrieval table (hit@1, hit@5, MRR per method) and rough timings.

    .venv/bin/python benchmarks/kb_quality.py [--dense auto|off] [--language en|zh]

`--language zh` measures the Chinese corpus (assets/kb/zh) on its Chinese eval set (BM25 reads
jieba-segmented words). The vectors come from the course's multilingual sentence encoder
(`--dense auto`) or from character n-grams (`--dense off`). Each corpus is also measured on its
cross-lingual eval set, `eval_cross.json`: the same questions asked in the other language. The
English corpus also has a held-out set, `eval_heldout.json`: paraphrase questions written after
the first measurements, before any change was tried on them (`benchmarks/kb_fusion.py`).

Timings are wall-clock on whatever machine runs this: read them as orders of magnitude. The
encoder's cache is emptied before each timed query, so they include embedding the question.
"""

from __future__ import annotations

import argparse
import time

from wirelab.encoder import shared_encoder
from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import corpus_folder
from wirelab.kb.evaluation import format_table, load_eval_set, quality_table


def mean_ms(action, questions) -> float:
    """Average milliseconds of `action(question)` over the questions, none of them cached."""
    started = time.perf_counter()
    for question in questions:
        shared_encoder().clear()  # time the encoder, not the cache: a new question each time
        action(question.question)
    return (time.perf_counter() - started) * 1000 / len(questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dense", default="auto", choices=["auto", "off"])
    parser.add_argument("--language", default="en", choices=["en", "zh"])
    args = parser.parse_args()
    folder = corpus_folder(args.language)
    kb = KnowledgeBase.build(folder, dense=args.dense)
    questions = load_eval_set(kb, folder / "eval.json")
    stats = kb.stats()
    print(
        f"{stats['documents']} documents, {stats['chunks']} chunks, "
        f"vector backend {stats['index']['vector_backend']}, "
        f"built in {stats['index']['build_seconds']:.2f} s"
    )
    print(f"{len(questions)} questions\n")
    print(format_table(quality_table(kb, questions)))
    for style in ("lexical", "paraphrase"):
        subset = [q for q in questions if q.style == style]
        print(f"\n{style} questions ({len(subset)})")
        print(format_table(quality_table(kb, subset)))
    heldout = folder / "eval_heldout.json"
    if heldout.exists():
        held = load_eval_set(kb, heldout)
        print(f"\nheld-out paraphrase questions ({len(held)})")
        print(format_table(quality_table(kb, held)))
    cross = load_eval_set(kb, folder / "eval_cross.json")
    print(f"\ncross-lingual: the same questions asked in the other language ({len(cross)})")
    print(format_table(quality_table(kb, cross)))
    print("\nmean query latency")
    for mode in ("bm25", "vector", "hybrid"):
        print(f"  {mode:<8}{mean_ms(lambda q, m=mode: kb.search(q, k=5, mode=m), questions):8.2f} ms")
    print(f"  {'rerank':<8}{mean_ms(lambda q: kb.search_reranked(q, k=5), questions):8.2f} ms")
    print(f"  {'answer':<8}{mean_ms(kb.answer, questions):8.2f} ms")


if __name__ == "__main__":
    main()
