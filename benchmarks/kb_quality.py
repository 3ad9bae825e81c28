"""Print lesson 12's retrieval table (hit@1, hit@5, MRR per method) and rough timings.

    .venv/bin/python benchmarks/kb_quality.py [--dense auto|off] [--language en|zh]

`--language zh` measures the Chinese corpus (assets/kb/zh) on its Chinese eval set. MiniLM is an
English-only model, so for Chinese the vector side is the character n-gram embedder (`--dense off`
is implied) and BM25 reads jieba-segmented words.

Timings are wall-clock on whatever machine runs this: read them as orders of magnitude.
"""

from __future__ import annotations

import argparse
import time

from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import corpus_folder
from wirelab.kb.evaluation import format_table, load_eval_set, quality_table


def mean_ms(action, questions) -> float:
    """Average milliseconds of `action(question)` over the questions."""
    started = time.perf_counter()
    for question in questions:
        action(question.question)
    return (time.perf_counter() - started) * 1000 / len(questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dense", default="auto", choices=["auto", "off"])
    parser.add_argument("--language", default="en", choices=["en", "zh"])
    args = parser.parse_args()
    folder = corpus_folder(args.language)
    kb = KnowledgeBase.build(folder, dense="off" if args.language == "zh" else args.dense)
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
    print("\nmean query latency")
    for mode in ("bm25", "vector", "hybrid"):
        print(f"  {mode:<8}{mean_ms(lambda q, m=mode: kb.search(q, k=5, mode=m), questions):8.2f} ms")
    print(f"  {'rerank':<8}{mean_ms(lambda q: kb.search_reranked(q, k=5), questions):8.2f} ms")
    print(f"  {'answer':<8}{mean_ms(kb.answer, questions):8.2f} ms")


if __name__ == "__main__":
    main()
