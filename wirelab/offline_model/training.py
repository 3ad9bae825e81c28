"""Fit the meaning stage's weights on the course's own corpus (`scripts/train_offline_model.py`).

    >>> corpus = load_corpus()
    >>> len(corpus["requests"]), sorted(corpus["domains"])[:2]
    (410, ['billing', 'calendar'])
    >>> probe = chatter_probe(corpus)                  # doctest: +SKIP
    >>> fitted = fit(*examples(corpus), probe)         # doctest: +SKIP

The corpus (assets/offline_model_corpus.json) holds requests written for the
course against its tool catalogue (assets/tool_catalogue.json, Chinese
descriptions in assets/tool_catalogue_zh.json) and against tools invented for
the corpus (its `domains`: a kitchen, a media centre, a car), each naming the
tool it wants or none. Every request is offered tools in several ways, and each offered tool
is one row (the features of `meaning.features`, labelled 1 for the wanted tool,
else 0):
- its own domain's six tools, described in English and again in Chinese (so a
  Chinese request meets English descriptions, and the reverse);
- its own tool alone, and one tool of another domain alone (a lone tool that
  does not fit must not be called);
- a request that wants no tool meets two domains, in both languages, and three
  lone tools; one that is near a domain (about its topic without asking for an
  action, or negating one: "don't roll back the search service") meets that
  domain, in both languages, and each of its tools alone.
The weights come from a logistic regression fitted by Newton's method with a
small L2 penalty: deterministic, no random start. The `chatter` feature is itself
a logistic regression on the request's 512-dimensional vector (wants no tool, or
one); for the training rows it comes from a probe fitted without the request's
fifth of the corpus (`FOLDS`), so the weights see it as it will be on new text. Never BFCL, never the eval
set (tests check no four-word phrase is shared).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from wirelab.offline_model import meaning, selection
from wirelab.offline_model.request import Tool

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "assets" / "offline_model_corpus.json"
PENALTY = 0.01  # L2, on the weights (not the bias)
PROBE_PENALTY = 0.1  # L2 of the chatter probe (512 weights): the best of 0.01 to 3 on held-out folds
FOLDS = 5
STEPS = 30


def corpus_files(corpus: Path = CORPUS) -> list[Path]:
    """The corpus and the catalogues it names."""
    data = json.loads(corpus.read_text(encoding="utf-8"))
    return [corpus, *(ROOT / name for name in data["catalogues"])]


def corpus_hash(corpus: Path = CORPUS) -> str:
    """sha256 over the corpus, its catalogues and the encoder's name: what the weights depend on."""
    digest = hashlib.sha256(meaning.ENCODER.encode())
    for path in corpus_files(corpus):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def load_corpus(corpus: Path = CORPUS) -> dict[str, Any]:
    """`{"requests": [...], "domains": {name: {"en": tools, "zh": tools}}}` with tools as `Tool`s: the
    catalogue's domains and the corpus's own (invented tools, each described in both languages)."""
    data = json.loads(corpus.read_text(encoding="utf-8"))
    english, chinese = (json.loads((ROOT / n).read_text(encoding="utf-8")) for n in data["catalogues"])
    domains = {
        name: {
            "en": tuple(_tool(t) for t in domain["tools"]),
            "zh": tuple(_tool(t) for t in chinese["domains"][name]["tools"]),
        }
        for name, domain in english["domains"].items()
    }
    for name, invented in data.get("domains", {}).items():  # the corpus's own invented tools
        domains[name] = {lang: tuple(_tool(t) for t in invented[lang]) for lang in ("en", "zh")}
    return {"requests": data["requests"], "domains": domains}


def _tool(spec: dict[str, Any]) -> Tool:
    return Tool(spec["name"], spec["description"], spec["parameters"])


def offers(corpus: dict[str, Any]) -> Iterator[tuple[str, tuple[Tool, ...], str | None]]:
    """(request, tools offered, the tool wanted or None) for every way a request is offered tools."""
    domains = corpus["domains"]
    names = list(domains)
    home = {tool.name: name for name, sets in domains.items() for tool in sets["en"]}
    for k, item in enumerate(corpus["requests"]):
        text, wanted = item["text"], item["tool"]
        if wanted is not None:
            domain = home[wanted]
            other = domains[names[(names.index(domain) + 1) % len(names)]]["en"]
            own = next(t for t in domains[domain]["en"] if t.name == wanted)
            yield from ((text, domains[domain][lang], wanted) for lang in ("en", "zh"))
            yield text, (own,), wanted
            yield text, (other[k % len(other)],), None
        elif "near" in item:  # about a domain's topic, or a negated action: none of its tools
            yield from ((text, domains[item["near"]][lang], None) for lang in ("en", "zh"))
            yield from ((text, (tool,), None) for tool in domains[item["near"]]["en"])
        else:
            for name in (names[k % len(names)], names[(k + 3) % len(names)]):
                yield from ((text, domains[name][lang], None) for lang in ("en", "zh"))
            for j in range(3):
                tools = domains[names[(k + j) % len(names)]]["en"]
                yield text, (tools[(k + j) % len(tools)],), None


def logistic(x: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """Logistic regression by Newton's method with an L2 penalty: the weights of x's columns, then a bias."""
    if len(x) == 0 or len(x) != len(y):
        raise ValueError(f"need as many labels as rows, and some rows: {len(x)} rows, {len(y)} labels")
    design = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(design.shape[1])
    ridge = np.eye(design.shape[1]) * penalty
    ridge[-1, -1] = 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-design @ beta))
        gradient = design.T @ (p - y) + ridge @ beta
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + ridge
        beta -= np.linalg.solve(hessian, gradient)
    return beta


def chatter_probe(corpus: dict[str, Any], leave_out: int | None = None) -> np.ndarray:
    """The `chatter` probe (wants no tool: 1, or one: 0) fitted on the corpus's requests (without
    fold `leave_out`, if given)."""
    items = corpus["requests"]
    vectors = meaning.encode([item["text"] for item in items]).astype(np.float64)
    none = np.array([float(item["tool"] is None) for item in items])
    kept = np.arange(len(none)) % FOLDS != leave_out
    return logistic(vectors[kept], none[kept], PROBE_PENALTY).astype(np.float32)


def examples(corpus: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels: one row per tool offered, each request's `chatter` from the probe
    fitted without its fold."""
    folds = {item["text"]: k % FOLDS for k, item in enumerate(corpus["requests"])}
    probes = [chatter_probe(corpus, fold) for fold in range(FOLDS)]
    rows, labels = [], []
    for text, tools, wanted in offers(corpus):
        found = meaning.features(text, tools, selection.own_points, probes[folds[text]])
        for tool, row in zip(tools, found, strict=True):
            rows.append([row[name] for name in meaning.NAMES])
            labels.append(float(tool.name == wanted))
    return np.array(rows), np.array(labels)


def fit(x: np.ndarray, y: np.ndarray, probe: np.ndarray, corpus_sha256: str = "") -> meaning.Weights:
    """Logistic regression on the feature rows: weights for `meaning.NAMES`, and a bias."""
    beta = logistic(x, y, PENALTY)
    weights = {name: round(float(w), 6) for name, w in zip(meaning.NAMES, beta[:-1], strict=True)}
    return meaning.Weights(weights, round(float(beta[-1]), 6), corpus_sha256, probe)


def accuracy(fitted: meaning.Weights, x: np.ndarray, y: np.ndarray) -> float:
    """The share of rows whose probability falls on the side of their label."""
    p = np.array([fitted.probability(dict(zip(meaning.NAMES, row, strict=True))) for row in x])
    return float(np.mean((p >= meaning.CHOOSE) == (y == 1.0)))


def as_json(fitted: meaning.Weights, rows: int, train_accuracy: float) -> str:
    """The weights file's text."""
    data = {
        "about": "Weights of the offline model's meaning stage, written by scripts/train_offline_model.py; "
        "do not edit (a test fails when they are stale).",
        "corpus_sha256": fitted.corpus_sha256,
        "encoder": meaning.ENCODER,
        "rows": rows,
        "train_accuracy": round(train_accuracy, 4),
        "weights": fitted.weights,
        "bias": fitted.bias,
    }
    head = json.dumps(data, ensure_ascii=False, indent=1)[:-2]
    probe = [round(float(v), 6) for v in fitted.probe]
    return head + ',\n "probe": ' + json.dumps(probe) + "\n}\n"


def same_fit(text: str, written: str, tolerance: float = 1e-5) -> bool:
    """Whether a refit's weights file (`text`) says what the `written` one does: the same stamp and
    row count, each number within `tolerance`. Its last printed digit can differ between machines,
    whose floating point sums in different orders (6.448147 on one CPU, 6.448146 on another)."""
    return _close(json.loads(text), json.loads(written), tolerance)


def _close(a: Any, b: Any, tolerance: float) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], tolerance) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, tolerance) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= tolerance
    return a == b
