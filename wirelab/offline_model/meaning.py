"""Stage 2c, select by meaning: a multilingual sentence encoder and learned weights.

When the tools' words choose none of several tools, or name no lone tool's topic
(`selection.names_a_topic`), the request may still mean one: "get me up at seven" for an alarm
tool, 找几个咖啡的视频素材 for a tool described in English. This stage embeds the request and
each tool ("name words: description") with the course's encoder (`wirelab.encoder`: Universal
Sentence Encoder multilingual v3, one space for sixteen languages) and scores each tool by named
features:

    cosine       how close the request is to the tool, by meaning
    margin       that cosine minus the best other tool's (0 for a lone tool)
    lexical      the tool's own words the request names (`selection.score`), 0 to 1
    negated      the request holds a negation ("don't", "never", 不要, 先别)
    chatter      a linear probe on the request's vector: the log-odds that it wants no tool
                 (512 weights and a bias, fitted on the corpus's requests with the weights)
    typed_margin how many parameters binding fills with a value of their own kind (a duration
                 for a duration, a time, a currency, an option; not free text), 0 to 1, minus
                 the best other tool's (0 for a lone tool)
    fills        binding finds some value, not an empty one, for every parameter it requires

A logistic regression turns them into the probability that the tool is the one
wanted. Its weights are not written here: `scripts/train_offline_model.py` fits
them on the course's corpus (assets/offline_model_corpus.json) and writes
`data/meaning_weights.json`, stamped with the corpus's hash. A tool is chosen when its
probability is the highest and at least `CHOOSE` (one half); otherwise nothing is. `AMONG` is
enough among several tools, for a whole message whose words chose none and which the `chatter`
probe reads as wanting some tool (held out, `--folds`: 2,046 of 2,302 offers right, not 1,997).

Where the words choose and still tie (two tools name the same number of the
request's words: "the study is chilly, bring it up to 21" names a room that the
heating and the lights both take), `closest` picks the tool nearest in meaning.

Tool vectors are cached by their text (the encoder's cache), so a tool offered
again costs nothing; a request costs one encoder pass per piece (about 12 ms).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from wirelab.offline_model.binding import Binding, bind_evidence
from wirelab.offline_model.calls import bind_calls, fills_required, typed_values
from wirelab.offline_model.evidence import Words
from wirelab.offline_model.fit import Feature, read_weights  # a named feature; a checked weights file
from wirelab.offline_model.lexicon import DENIALS
from wirelab.offline_model.normalize import clean, identifier_words, segment
from wirelab.offline_model.request import Tool

ENCODER = "universal-sentence-encoder-multilingual-v3"  # wirelab.encoder.NAME, without loading it
WEIGHTS = Path(__file__).with_name("data") / "meaning_weights.json"
LEXICAL_SCALE = 6.0  # own points at which the lexical feature saturates
TYPED_SCALE = 2  # parameters filled with a typed value at which that count saturates
CHOOSE = 0.5  # the least probability that selects a tool
AMONG = 0.2  # …one of several tools, for a message that words chose none for and wants one
CHINESE_NEGATIONS = ("不要", "不用", "不必", "别")
LEADING_NEGATIONS = {"先别", "千万别", "可别"}


FEATURES = (
    Feature("cosine", "cosine of the request and 'name: description'", "'wake me at 6' vs an alarm tool"),
    Feature("margin", "cosine minus the best other tool's cosine", "0.2 when it stands out, < 0 when not"),
    Feature("lexical", "the tool's own words the request names, 0 to 1", "'convert 3 EUR' vs a money tool"),
    Feature("negated", "a negation word (0 or 1)", "'don't roll back the search service'"),
    Feature("chatter", "log-odds that the request wants no tool (a probe)", "'why is the sky blue?'"),
    Feature("typed_margin", "typed values minus the best other tool's", "'buzz me in 25 minutes'"),
    Feature("fills", "binding finds a value for every required parameter", "'from Ghent to Namur'"),
)
NAMES = tuple(f.name for f in FEATURES)


@dataclass(frozen=True)
class Weights:
    """The fitted model: one weight per feature, a bias, and the corpus they were fitted on."""

    weights: dict[str, float]
    bias: float
    corpus_sha256: str
    probe: np.ndarray  # 512 weights on a request's vector, then a bias: the log-odds it wants no tool

    def probability(self, features: dict[str, float]) -> float:
        z = self.bias + sum(self.weights[name] * features[name] for name in NAMES)
        return 1.0 / (1.0 + math.exp(-z))


@dataclass(frozen=True)
class Choice:
    """The tool chosen by meaning (None: none), every tool's features and probability, and the bar."""

    tool: Tool | None
    rows: tuple[tuple[Tool, dict[str, float], float], ...]
    bar: float = CHOOSE


@cache
def weights() -> Weights:
    """The weights in `data/meaning_weights.json` (written by scripts/train_offline_model.py)."""
    data = read_weights(WEIGHTS, NAMES)
    probe = np.array(data["probe"], dtype=np.float32)
    if probe.shape != (513,):
        raise ValueError(f"{WEIGHTS} has a probe of shape {probe.shape}, not (513,)")
    return Weights(dict(data["weights"]), float(data["bias"]), data["corpus_sha256"], probe)


def encode(texts: list[str]) -> np.ndarray:
    """Unit-length rows, one per text, from the encoder's cache where it has them (one pass for the rest)."""
    from wirelab import encoder  # loaded on first use, by the first request that needs it

    return encoder.encode(texts)


def cosines(request: str, tools: tuple[Tool, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The request's vector, and its cosine with each tool's text (one encoder pass)."""
    vectors = encode([request, *(tool_text(t) for t in tools)])
    return vectors[0], vectors[1:] @ vectors[0]


def negates(text: str) -> bool:
    """Whether `text` holds a negation word: "don't", "never", 不要, 别 and words that begin so (先别),
    but not the 不 of a yes-no question that asks "A or not A" (要不要带外套: take a coat or not?),
    nor a word that is an action too ("Stop the music" asks for an action on the music), nor one
    that leaves a value out ("a pizza without onions" still asks for a pizza)."""
    words = [t.norm for t in segment(clean(text))]
    return any(
        (w in DENIALS or w.startswith(CHINESE_NEGATIONS) or w in LEADING_NEGATIONS)
        and not (i and w.startswith(("不", "没")) and w[1:].startswith(words[i - 1]))
        for i, w in enumerate(words)
    )


@lru_cache(maxsize=2048)
def tool_text(tool: Tool) -> str:
    """What a tool means: the words of its name and its description ("find stock video: …")."""
    return f"{' '.join(identifier_words(tool.name))}: {tool.description[:500]}"


def _typed(tool: Tool, whole: Binding) -> float:
    """How many parameters one binding of the request fills with a value of their own kind, as a
    share of `TYPED_SCALE` (at most 1)."""
    return min(typed_values(tool, whole), TYPED_SCALE) / TYPED_SCALE


def _fills(request: str, tool: Tool, whole: Binding) -> float:
    """1 when binding finds a value for every parameter the tool requires (0 for a tool that
    requires nothing)."""
    required = tool.parameters.get("required")
    if not isinstance(required, list) or not required:
        return 0.0
    return float(any(fills_required(tool, b.arguments) for b in bind_calls(tool, request, whole)))


def _margins(values: np.ndarray) -> np.ndarray:
    """Each value minus the best of the others (0 for a lone one)."""
    if len(values) < 2:
        return np.zeros(len(values))
    top, second = np.sort(values)[::-1][:2]
    return values - np.where(values == top, second, top)


def features(
    request: str,
    tools: tuple[Tool, ...],
    lexical: Callable[[str, Tool], float],
    probe: np.ndarray,
    fitted: Weights | None = None,
) -> list[dict[str, float]]:
    """The features of each offered tool for `request` (see the module docstring). Given the
    `fitted` weights, `fills` (binding the request's frames, the dearest feature) is worked out
    only for a tool that it could lift to `AMONG`, the lowest bar: for the others it is 0, which
    changes no choice (a message of 20 pieces to 20 tools binds 400 times, not 800)."""
    vector, near = cosines(request, tools)
    chatter, negated = log_odds_no_tool(vector, probe), float(negates(request))
    words = Words.of(request)  # extracted once, read by binding for every tool
    wholes = [bind_evidence(tool, words) for tool in tools]
    typed = np.array([_typed(tool, whole) for tool, whole in zip(tools, wholes, strict=True)])
    margins, typed_margins = _margins(near), _margins(typed)
    rows = [
        {
            "cosine": float(near[i]),
            "margin": float(margins[i]),
            "lexical": min(lexical(request, tool), LEXICAL_SCALE) / LEXICAL_SCALE,
            "negated": negated,
            "chatter": chatter,
            "typed_margin": float(typed_margins[i]),
            "fills": 0.0,
        }
        for i, tool in enumerate(tools)
    ]
    for row, tool, whole in zip(rows, tools, wholes, strict=True):
        if fitted is None or fitted.probability(row | {"fills": 1.0}) >= AMONG:
            row["fills"] = _fills(request, tool, whole)
    return rows


def closest(request: str, tools: tuple[Tool, ...]) -> Tool:
    """The tool whose text is closest to `request` by cosine (the first listed on a tie)."""
    return tools[int(np.argmax(cosines(request, tools)[1]))]


def log_odds_no_tool(vector: np.ndarray, probe: np.ndarray) -> float:
    """The `chatter` probe on a request's vector: its 512 weights, then its bias."""
    return float(vector @ probe[:-1] + probe[-1])


def chatter(request: str) -> float:
    """The fitted `chatter` probe on `request`: the log-odds that it wants no tool."""
    return log_odds_no_tool(encode([request])[0], weights().probe)


def wants_no_tool(request: str) -> bool:
    """Whether the fitted `chatter` probe reads `request` as more likely to want no tool than one."""
    return chatter(request) > 0.0


def nearer(request: str, tool: Tool, tools: tuple[Tool, ...]) -> tuple[Tool, ...]:
    """The offered tools closer to `request` than `tool` is, closest first."""
    near = cosines(request, (tool, *tools))[1]
    order = np.argsort(-near[1:], kind="stable")
    return tuple(tools[i] for i in order if near[1 + i] > near[0])


def choose(
    request: str,
    tools: tuple[Tool, ...],
    lexical: Callable[[str, Tool], float],
    among: float = CHOOSE,
) -> Choice:
    """The most probable tool for `request` if its probability reaches `CHOOSE`, or `among` when
    several tools are offered and the `chatter` probe reads the request as wanting one."""
    fitted = weights()
    rows = features(request, tools, lexical, fitted.probe, fitted)
    scored = tuple((tool, row, fitted.probability(row)) for tool, row in zip(tools, rows, strict=True))
    best = max(scored, key=lambda item: item[2], default=None)
    bar = among if len(tools) > 1 and rows[0]["chatter"] < 0.0 else CHOOSE
    return Choice(best[0] if best and best[2] >= bar else None, scored, bar)
