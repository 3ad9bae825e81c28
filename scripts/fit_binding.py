"""Fit binding's weights (`fit.FEATURES`) on the corpus's annotated arguments (`train_offline_model.py`).

Each annotated request (the corpus's `requests` that name a tool, with their `arguments`, and its
`binding_requests` against `binding_tools`) is read as binding reads it: every (parameter, value)
pair no veto rules out is a row of `fit.features` and its place in the assignment, right when the
value, as the parameter takes it, is the annotated argument. Two more columns weigh an optional
parameter's value against leaving it empty: its own points less the `threshold`, and less
`phrase_bar` for unmarked words (once the hand constant `OPTIONAL_PHRASE`). The ways to fit, all
deterministic:
- a pairwise logistic regression (Newton's method, L2 penalty `PENALTIES`): a right pair against
  each wrong pair of the same parameter or the same value, and an optional value against none;
- an averaged perceptron on the greedy assignment itself (`greedy`, `corrections`), the requests
  in corpus order, from zero or from the weights once set by hand (`BY_HAND`), `EPOCH_CHOICES`.
Each way, and the hand-set weights, is scored by the requests `binding.bind` binds exactly as
annotated, on each fifth of the corpus by weights fitted without it (`held_out`); the file records
every figure, and the weights of `KEPT` (or of the best, when `KEPT` is None).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from wirelab.offline_model import binding, fit, training
from wirelab.offline_model.evidence import Evidence
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import slots_of

EPOCHS = 10
EPOCH_CHOICES = (1, 2, 5, 10)
OPTIONAL_ONLY = ("meant", "in_passing")  # the features of an optional parameter's value alone
RATE = 0.2  # the step from the hand-set weights by "small steps": they move a fifth as far per mistake
# The way whose weights are written; None writes the best held out. With `meant` (the encoder's cosine
# of a name, or of what a Chinese measure word counts, with the parameter) and `in_passing` (a name
# nothing ties to an optional parameter), and the corpus's kayak, poster and supplies rows, most fits
# bind more of the corpus held out than the hand-set weights (485 of 712): pairwise logistic up to
# 486, the averaged perceptron from zero 502, from the hand-set weights 503, with their bar kept 493,
# in small steps 511, moving only the bar and the two features 511. None is chosen: each fills
# optional parameters that BFCL's never-read half and the invented tests leave empty. Measured on
# this round's variants (benchmarks/bfcl.py through identity counts): from the hand-set weights with
# the bar kept, 59.6 -> 59.2 and 4 tests fail; in small steps, 59.1 and 1 test ("Order 4 jars");
# the bar and the two features only, 58.8 and 2 tests ("8 thunderclaps" taken as a cap). The corpus
# fills optional values more often than those do: rows that leave them empty are the next step.
KEPT: str | None = "by hand"
WHY = "kept: every fit fills more optional parameters than BFCL's never-read half does (59.6 -> 58.8-59.2)"
BY_HAND = Path(__file__).with_name("binding_weights_by_hand.json")
PENALTIES = (0.03, 0.1, 0.3, 1.0, 3.0)  # L2 of the pairwise fit, the best on held-out folds is kept
FOLDS = training.FOLDS
Annotated = tuple[Tool, str, dict[str, Any]]
Pair = tuple[str, int, bool, bool, dict[str, float]]  # slot, value index, right, optional bar applies, row


def annotated() -> list[Annotated]:
    """(tool, request, arguments) for every annotated request of the corpus."""
    corpus = training.load_corpus()
    data = json.loads(training.CORPUS.read_text(encoding="utf-8"))
    tools = {tool.name: tool for sets in corpus["domains"].values() for tool in sets["en"]}
    tools |= {t["name"]: Tool(t["name"], t["description"], t["parameters"]) for t in data["binding_tools"]}
    items = [*data["requests"], *data["binding_requests"]]
    return [(tools[i["tool"]], i["text"], i["arguments"]) for i in items if i["tool"] is not None]


def same(expected: Any, bound: Any) -> bool:  # also tests/offline_model/test_binding_corpus.py's
    """An annotated argument and a bound one: equal, in any case, or the annotation's list of names."""
    if expected == bound or str(expected).casefold() == str(bound).casefold():
        return True
    return isinstance(expected, str) and str(bound) in re.split(r",\s*|、|\s+and\s+", expected)


def exact(arguments: dict[str, Any], found: dict[str, Any]) -> bool:
    return set(found) == set(arguments) and all(same(arguments[k], found[k]) for k in arguments)


def pairs(tool: Tool, text: str, arguments: dict[str, Any]) -> list[Pair]:
    """Every pair binding weighs for the request's top-level scalar parameters, labelled."""
    evidence = Evidence.of(tool, text)
    slots = slots_of(tool.parameters, tool.parameters)
    binding._add_options(slots, evidence)
    commands = binding._commands(slots, evidence)
    scalar = [s for s in slots if s.kind not in ("array", "object", "boolean") and s.name not in commands]
    found = []
    for rank, index, typed, row in binding.weighed(scalar, evidence, every=True):
        slot, value = scalar[rank], evidence.values[index]
        right = slot.name in arguments and same(arguments[slot.name], typed)
        bar = not slot.required and value.kind not in fit.SPECIFIC and value.kind != "example"
        found.append((slot.name, index, right, bar, row))
    return found


def vector(row: dict[str, float], against_none: bool = False) -> np.ndarray:
    """A pair's features, then two columns for leaving an optional parameter empty: against that,
    the pair's own features (not its place) less the threshold, and less `phrase_bar` for unmarked words."""
    if not against_none:
        return np.array([row.get(name, 0.0) for name in fit.NAMES] + [0.0, 0.0])
    own = [0.0 if name in fit.PLACED else row.get(name, 0.0) for name in fit.NAMES]
    return np.array(own + [-1.0, -row.get("phrase", 0.0)])


def differences(found: list[Pair]) -> Iterator[np.ndarray]:
    """Right pair minus wrong pair, for rivals: the same parameter, or the same value; and an
    optional parameter's value against leaving it empty."""
    for a, b in combinations(found, 2):
        if a[2] != b[2] and (a[0] == b[0] or a[1] == b[1]):
            right, wrong = (a, b) if a[2] else (b, a)
            yield vector(right[4]) - vector(wrong[4])
    for pair in found:
        if pair[3]:
            yield vector(pair[4], True) * (1.0 if pair[2] else -1.0)


def newton(x: np.ndarray, penalty: float) -> np.ndarray:
    """Logistic regression without a bias on rows that should each score above zero, by Newton's
    method from zero with an L2 penalty: deterministic."""
    beta = np.zeros(x.shape[1])
    for _ in range(training.STEPS):
        p = 1.0 / (1.0 + np.exp(-x @ beta))
        gradient = x.T @ (p - 1.0) + penalty * beta
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + penalty * np.eye(len(beta))
        beta -= np.linalg.solve(hessian, gradient)
    return beta


def fit_weights(requests: list[list[Pair]], penalty: float) -> fit.Weights:
    """One logistic regression on the differences (no bias: a difference has none): the weights,
    the threshold and `phrase_bar`."""
    return on_hand_scale(newton(np.array([d for found in requests for d in differences(found)]), penalty))


def on_hand_scale(beta: np.ndarray) -> fit.Weights:
    """Fitted weights (features, threshold, phrase_bar) times the one factor that gives them the
    hand-set weights' mean size, and the hand-set bias (the threshold raised by as much): the
    assignment is the same at any scale and bias, but the stages after it compare points with
    margins and floors of that size (`calls.CLEARLY`, `frames.MARGIN`, `frames.MIN_START`, ...)."""
    hand = by_hand()
    size = np.abs([hand.weights[name] for name in fit.NAMES]).mean()
    beta = beta * size / max(float(np.abs(beta[: len(fit.NAMES)]).mean()), 1e-9)
    weights = {name: round(float(w), 4) for name, w in zip(fit.NAMES, beta, strict=False)}
    return fit.Weights(weights, hand.bias, round(float(beta[-2]) + hand.bias, 4), round(float(beta[-1]), 4))


def greedy(found: list[Pair], beta: np.ndarray) -> dict[str, Pair]:
    """The assignment `binding.assign` makes with weights `beta` (features, threshold, phrase_bar),
    as far as the pairs tell: the best pairs first, each parameter and value once; an optional
    parameter's value only above the bar."""
    scored = []
    for order, pair in enumerate(found):
        if pair[3] and vector(pair[4], True) @ beta < 0:
            continue
        scored.append((-(vector(pair[4]) @ beta), order, pair))
    taken: dict[str, Pair] = {}
    for _, _, pair in sorted(scored, key=lambda s: s[:2]):
        if pair[0] not in taken and pair[1] not in {p[1] for p in taken.values()}:
            taken[pair[0]] = pair
    return taken


def corrections(found: list[Pair], beta: np.ndarray) -> np.ndarray:
    """The perceptron's step for one request: toward each right pair the assignment missed, away
    from the pair it took instead, or from leaving an optional parameter empty, or from filling it."""
    taken = greedy(found, beta)
    right = {pair[0]: pair for pair in found if pair[2]}
    by_value = {pair[1]: pair for pair in taken.values()}
    step = np.zeros(len(beta))
    for slot in {pair[0] for pair in found}:
        want, got = right.get(slot), taken.get(slot)
        if want is got:
            continue
        if want is None and got is not None and got[3]:
            step -= vector(got[4], True)  # an optional parameter filled that should stay empty
        elif want is not None and got is not None:
            step += vector(want[4]) - vector(got[4])
        elif want is not None and want[3] and vector(want[4], True) @ beta < 0:
            step += vector(want[4], True)  # its value fell below the bar
        elif want is not None and want[1] in by_value:
            step += vector(want[4]) - vector(by_value[want[1]][4])  # another parameter took its value
    return step


def perceptron(requests: list[list[Pair]], epochs: int = EPOCHS, start: str = "zero") -> fit.Weights:
    """An averaged perceptron on the assignment itself, from zero or from the hand-set weights, the
    requests in corpus order: deterministic. From "hand, bar kept", the optional parameter's bar
    (threshold, phrase_bar) stays as set by hand and the features learn to clear it; by "small steps",
    every weight moves `RATE` as far per mistake; by "the bar and meaning only", only the bar and
    `OPTIONAL_ONLY` move."""
    hand = by_hand()
    beta = np.zeros(len(fit.NAMES) + 2)
    if start.startswith("hand"):
        beta = np.array([hand.weights[n] for n in fit.NAMES] + [hand.threshold - hand.bias, hand.phrase_bar])
    free = np.full(len(beta), RATE if start.endswith("small steps") else 1.0)
    free[-2:] = 0.0 if start.endswith("bar kept") else free[-2:]
    if start.endswith("the bar and meaning only"):
        free = np.array([float(n in OPTIONAL_ONLY) for n in fit.NAMES] + [1.0, 1.0])
    total = np.zeros(len(beta))
    for _ in range(epochs):
        for found in requests:
            beta += corrections(found, beta) * free
            total += beta
    mean = total / (epochs * len(requests))
    return on_hand_scale(mean)


def bound_exactly(items: list[Annotated], weights: fit.Weights) -> int:
    """How many requests `binding.bind` binds exactly as annotated with these weights."""
    with mock.patch.object(fit, "weights", lambda: weights):
        return sum(exact(arguments, binding.bind(tool, text, guess=False)) for tool, text, arguments in items)


def by_hand() -> fit.Weights:
    """The weights set by hand before the fit (kept in `BY_HAND` to compare with)."""
    data = fit.read_weights(BY_HAND, fit.NAMES)
    return fit.Weights(data["weights"], data["bias"], data["threshold"], 0.5)


def fitters() -> dict[str, Callable[[list[list[Pair]]], fit.Weights]]:
    """Each way to get the weights from the training requests, by name: the fits, and the hand-set
    weights to compare with (they take no data)."""
    found: dict[str, Callable[[list[list[Pair]]], fit.Weights]] = {"by hand": lambda _: by_hand()}
    for penalty in PENALTIES:
        found[f"pairwise logistic, L2 {penalty}"] = lambda requests, p=penalty: fit_weights(requests, p)
    for start in ("zero", "hand", "hand, bar kept", "hand, small steps", "hand, the bar and meaning only"):
        for epochs in EPOCH_CHOICES:
            found[f"averaged perceptron from {start}, {epochs} epochs"] = lambda r, e=epochs, s=start: (
                perceptron(r, e, s)
            )
    return found


def held_out(items: list[Annotated], requests: list[list[Pair]]) -> dict[str, list[int]]:
    """Requests bound exactly in each fold, by the weights each of `fitters` gives without it."""
    folds = np.arange(len(items)) % FOLDS
    figures: dict[str, list[int]] = {name: [] for name in fitters()}
    for k in range(FOLDS):
        test = [item for item, f in zip(items, folds, strict=True) if f == k]
        train = [found for found, f in zip(requests, folds, strict=True) if f != k]
        for name, fitter in fitters().items():
            figures[name].append(bound_exactly(test, fitter(train)))
    return figures


def best(figures: dict[str, list[int]]) -> str:
    """The way with the most requests bound exactly held out; on a tie, a fit before the hand, and
    the later (steadier: a larger penalty) of two fits."""
    return max(reversed(figures), key=lambda name: (sum(figures[name]), name != "by hand"))


def as_json(fitted: fit.Weights, way: str, rows: int, figures: dict[str, list[int]], sha: str) -> str:
    """The weights file's text."""
    data = {
        "about": "Binding's weights (fit.FEATURES), written by scripts/train_offline_model.py (scripts/"
        "fit_binding.py). Each way to get them (a pairwise logistic regression on the corpus's annotated "
        "arguments, by L2 penalty; an averaged perceptron on the assignment, from zero or from the weights "
        "once set by hand, by epochs; those hand-set weights) is scored by the requests it binds exactly "
        "as annotated on held-out fifths; `chosen` is written (see `why`). Do not edit: tests check it.",
        "corpus_sha256": sha,
        "chosen": way,
        "best_held_out": best(figures),
        "why": WHY if KEPT else "the most requests bound exactly held out",
        "pairs": rows,
        "held_out_exact": {k: " + ".join(map(str, v)) + f" = {sum(v)}" for k, v in figures.items()},
        "weights": fitted.weights,
        "bias": fitted.bias,
        "threshold": fitted.threshold,
        "phrase_bar": fitted.phrase_bar,
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def train() -> tuple[str, dict[str, list[int]]]:
    """The binding weights file's text, and the held-out figures."""
    items = annotated()
    requests = [pairs(*item) for item in items]
    figures = held_out(items, requests)
    way = KEPT or best(figures)
    fitted = fitters()[way](requests)
    rows = sum(len(found) for found in requests)
    return as_json(fitted, way, rows, figures, training.corpus_hash()), figures
