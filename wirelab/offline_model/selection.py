"""Stage 2b, select tools or none: rank the tools against each intent, and know when to call nothing.

    >>> weather = Tool("get_weather", "Current weather in a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}})
    >>> score("What's the weather in Paris?", weather)
    Match(points=3.0, own=3.0, topic=True, coverage=0.5, given=False)

A tool's words weigh by where they appear: its name 3, its description 2, its parameters' names,
descriptions and options 1. A request word counts once, at its best field's weight; words are compared as
*concepts* (`lexicon.concept`: "forecast" ~ "weather" ~ "天气"), a word of four letters or more matches a word
it begins ("temp" ~ "temperature") at 0.7, and generic words ("get", "data") count a quarter.

A tool is chosen (`Match.chosen`) when the request scores `THRESHOLD` and is *about* its topic: it names
most of the nouns of the tool's name (or a word of its description, for an uninformative name), or names
some and clearly gives every value the tool requires ("the lap count of runner 7 over 400 m" for
`lap_count(runner_id, track_length)`). Before any ranking, small talk ("thanks, that's all!"), an opinion
without a request ("I love trains") or a negated action ("don't convert it", "不要查天气") selects nothing.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from wirelab.offline_model import meaning
from wirelab.offline_model.binding import bind
from wirelab.offline_model.budget import spend
from wirelab.offline_model.calls import Bound, flips, gives_what_it_needs, takes
from wirelab.offline_model.evidence import ITEM_LEADS, Words
from wirelab.offline_model.extraction import QUOTED, extract
from wirelab.offline_model.free_text import command_span, told_span
from wirelab.offline_model.intents import DAYS, Piece, pieces, unwrap
from wirelab.offline_model.lexicon import (
    ACTION_WORDS,
    EN_NUMBERS,
    GENERIC,
    NEGATIONS,
    QUESTION_WORDS,
    SMALL_TALK,
    STOPWORDS,
    TOPIC_VERBS,
    concept,
    concepts_in,
    lexicon_list,
)
from wirelab.offline_model.lexicon import known as lexicon_knows
from wirelab.offline_model.names import addressed, speaker_before
from wirelab.offline_model.normalize import clean, identifier_words, segment
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import resolve
from wirelab.offline_model.spans import Spans
from wirelab.offline_model.units import unit_named

NAME_WEIGHT, DESCRIPTION_WEIGHT, PARAMETER_WEIGHT = 3.0, 2.0, 1.0
GENERIC_FACTOR, PREFIX_FACTOR = 0.25, 0.7
THRESHOLD = 2.0
STRONG, COVERAGE = 4.0, 0.35
TOPIC_SHARE = 0.5
MEANT_PIECES = 4  # the most pieces of a message whose pieces meaning may choose a tool for
MAX_PIECES = 32  # the most pieces meaning reads one by one; a longer listing is read as one text
RELATED_KEPT = 4096  # the most words a tool's profile remembers the related word of
VALUE_CONCEPTS = {"currency", "country", "language", "email", "date", "time", "url"}
OPINIONS = lexicon_list("opinions")
WISHES = lexicon_list("wishes")
OPENERS = lexicon_list("prepositions") | lexicon_list("statement_openers")  # "for two", "it's for …"
MESSAGE = concept("message")  # what a request that tells a person something names: "Text Oliver that …"


@dataclass(frozen=True)
class Profile:
    """A tool's words by field: concept -> weight, and the nouns that say what it is about."""

    weights: dict[str, float]
    topic: frozenset[str]
    own: frozenset[str]  # concepts of the name, the description and the enum options
    named: bool  # whether the topic comes from the name (else from the description)
    options: frozenset[str] = frozenset()  # concepts of the enum options
    related: dict[str, tuple[float, str | None]] = field(default_factory=dict, compare=False)  # `_weight`'s


@dataclass(frozen=True)
class Match:
    """How well one piece of a request matches one tool."""

    points: float
    own: float
    topic: bool
    coverage: float  # the share of the request's words the tool knows
    given: bool = False  # the request clearly gives every value the tool requires

    @property
    def chosen(self) -> bool:
        """About the tool's topic, matched broadly and strongly, or named and given all it
        needs; and above the threshold."""
        broad = self.own >= STRONG and self.coverage >= COVERAGE
        return self.own >= THRESHOLD and (self.topic or broad or self.given)


@dataclass(frozen=True)
class PlanItem:
    """One intent, the tool chosen for it, and (once bound) the arguments of its call."""

    request: str
    tool: Tool
    arguments: dict[str, Any] | None = None
    missing: tuple[str, ...] = ()  # required parameters the request gives no value for
    calls: tuple[Bound, ...] | None = field(default=None, compare=False, repr=False)  # bound once, read after


@lru_cache(maxsize=256)
def request_concepts(text: str) -> tuple[str, ...]:
    """The concepts of a request but those of its quoted values and written command (a message
    "更新文档", "run git log" name no tool), plus the kinds of value it holds: "20 EUR" a currency,
    and sending a message when it tells a person something (`names.addressed`: "let Dad know …")."""
    values = extract(bare := clean(text))
    command = command_span(bare)  # "… using git status" writes a command
    kinds = {v.kind for v in values} & VALUE_CONCEPTS | ({"command"} if command else set())
    units = {f"unit:{v.value}" for v in values if v.kind == "unit"}  # "kilograms" names the unit kg
    said = told_span(bare)  # what a person is told names no tool: "Tell Nadia I found her umbrella"
    quoted = [(v.start, v.end) for v in values if v.kind == "quoted"]
    blanks = quoted + [span for span in (command, said) if span]
    for start, end in blanks:
        bare = bare[:start] + " " * (end - start) + bare[end:]
    said = concepts_of(bare)
    told = [MESSAGE] if MESSAGE not in said and addressed(segment(bare)) else []
    return tuple(said + told) + tuple(sorted(kinds)) + tuple(sorted(units)) + tuple(_acronyms(bare))


def _acronyms(text: str) -> list[str]:
    """Initials of runs of two to four words: 'frequently asked questions' -> 'faq' (and 'fa', 'aq')."""
    initials = [t.norm[0] for t in segment(clean(text)) if t.kind == "word" and t.norm not in STOPWORDS]
    return ["".join(initials[i : i + n]) for n in (2, 3, 4) for i in range(len(initials) - n + 1)]


def concepts_of(text: str) -> list[str]:
    """The content concepts of a text, in order, without repeats."""
    tokens = [t for t in segment(clean(text)) if t.kind != "punct" and t.norm not in STOPWORDS]
    seen = [c for t in tokens for c in concepts_in(t.norm, t.kind == "han")]
    return list(dict.fromkeys(c for c in seen if not c.isdigit()))


@lru_cache(maxsize=512)
def profile(tool: Tool) -> Profile:
    """The tool's weighted words (cached: a tool is a frozen value)."""
    weights: dict[str, float] = {}
    name = concepts_of(" ".join(identifier_words(tool.name)))
    description = concepts_of(tool.description[:1000])
    parameters, options = _parameter_words(tool)
    for words, weight in (
        (parameters, PARAMETER_WEIGHT),
        (description, DESCRIPTION_WEIGHT),
        (name, NAME_WEIGHT),
    ):
        for word in words:
            weights[word] = max(weight, weights.get(word, 0.0))
    for option in options:  # a request that names an option names the tool's topic
        weights[option] = max(DESCRIPTION_WEIGHT, weights.get(option, 0.0))
    verbs = {concept(v) for v in TOPIC_VERBS}
    generic = GENERIC | {concept(w) for w in GENERIC}  # "controller" is the concept "control"
    nouns = [w for w in name if w not in generic and (w not in ACTION_WORDS or w in verbs) and len(w) > 1]
    if not nouns:  # a name that is only a verb says what the tool does: `tally`, `tally_scores`
        nouns = [w for w in name if w not in generic and w not in STOPWORDS and len(w) > 1]
    named = bool(nouns)
    if not named:
        first = tool.description.split(". ")[0]
        nouns = [w for w in concepts_of(first) if w not in GENERIC | ACTION_WORDS and w not in EN_NUMBERS]
    own = frozenset(name) | frozenset(description) | frozenset(options)
    return Profile(weights, frozenset(nouns), own, named, frozenset(options))


def _parameter_words(tool: Tool) -> tuple[list[str], list[str]]:
    """The concepts of the parameters' names, descriptions and enum values (up to 50 of each);
    and of the options longer than two letters ("PIZZA"), one that is a unit as `unit:kg`, so
    that any of the unit's names ("kilograms") names it."""
    parts, options, units = [], [], []
    properties = tool.parameters.get("properties", {})
    for name, schema in list(properties.items())[:50] if isinstance(properties, dict) else []:
        schema = resolve(schema, tool.parameters)
        enum = schema.get("enum")
        enum = enum[:50] if isinstance(enum, list) else []
        parts += [*identifier_words(name), str(schema.get("description", ""))[:300], *map(str, enum)]
        for option in enum:
            if unit := unit_named(str(option)):
                units.append(f"unit:{unit.symbol}")
            elif isinstance(option, str) and len(option) > 2:
                options.append(option)
    return concepts_of(" ".join(parts)), concepts_of(" ".join(options)) + units


def score(request: str, tool: Tool, shared: frozenset[str] = frozenset()) -> Match:
    """How well `request` matches `tool`; `shared` are topic words every offered tool has."""
    spend()
    known = profile(tool)
    points = own = 0.0
    hits: set[str] = set()
    words = request_concepts(request)
    for word in words:
        weight, hit = _weight(word, known)
        factor = GENERIC_FACTOR if word in GENERIC else 1.0
        points += weight * factor
        if hit and hit in known.own:
            own += weight * factor
        if hit:
            hits.add(hit)
    said = concepts_of(request)
    content = [w for w in said if w not in GENERIC]
    coverage = len([w for w in content if _weight(w, known)[1]]) / max(1, len(content))
    kinds = {"date"}.difference(said)  # a day written names no `concert_dates`: its topic is concerts
    hits = hits - kinds if known.topic - kinds else hits
    match = Match(points, own, _about(hits, known, shared), coverage)
    if not match.chosen and own >= THRESHOLD and hits & (known.topic - shared or known.topic):
        return Match(points, own, match.topic, coverage, gives_what_it_needs(request, tool))
    return match


def _weight(word: str, known: Profile) -> tuple[float, str | None]:
    """The weight of the tool's word that `word` is or shares a root with, and that word (remembered
    by the tool's profile: a long message to many tools asks for the same pairs again and again)."""
    if word in known.weights:
        return known.weights[word], word
    if word not in known.related:
        if len(known.related) >= RELATED_KEPT:
            known.related.clear()  # a long-lived server meets new words without end
        known.related[word] = _related(word, known)
    return known.related[word]


def _related(word: str, known: Profile) -> tuple[float, str | None]:
    if len(word) >= 4 and word.isascii() and ":" not in word:  # "unit:kg" is a value, not a word
        for other, weight in known.weights.items():
            if (
                len(other) >= 4
                and not (lexicon_knows(word) and lexicon_knows(other))  # the lexicon parts them: time, timer
                and (other.startswith(word) or word.startswith(other) or _same_root(word, other))
            ):
                return weight * PREFIX_FACTOR, other
    return 0.0, None


def _same_root(word: str, other: str) -> bool:
    """'reservation' ~ 'reserve': a shared beginning of six letters or more, most of the shorter word."""
    shared = len(os.path.commonprefix([word, other]))
    return shared >= 6 and shared >= 0.75 * min(len(word), len(other))


def _about(hits: set[str], known: Profile, shared: frozenset[str]) -> bool:
    """Whether the request names enough of what the tool is about: most of the nouns that tell
    it from the other tools offered (in `geo_area` and `geo_distance`, "geo" tells neither)."""
    topic = known.topic - shared or known.topic
    if hits & known.options:
        return True  # "5 kilograms into pounds" names two options of a tool that takes units
    if not topic:
        return bool(hits & known.own)
    return len(hits & topic) >= (math.ceil(len(topic) * TOPIC_SHARE) if known.named else 1)


def best_tool(request: str, tools: tuple[Tool, ...]) -> tuple[Tool | None, Match]:
    """The highest-scoring tool and its match: chosen first, then by its own words' points; of
    chosen tools tied on those, the one closest in meaning (`meaning.closest`)."""
    matches, best, top = by_words(request, tools)
    if tied := word_tie(matches, top):  # the words cannot tell them apart: their meaning can
        best = meaning.closest(request, tied)
        top = dict(matches)[best]
    return best, top


def by_words(request: str, tools: tuple[Tool, ...]) -> tuple[list[tuple[Tool, Match]], Tool | None, Match]:
    """Each tool's match, and the best by words alone: chosen first, then its own words' points,
    then all its points (the first listed on a tie)."""
    shared = shared_topic(tools)
    matches = [(tool, score(request, tool, shared)) for tool in tools]
    best, top = max(
        matches,
        key=lambda pair: (pair[1].chosen, pair[1].own, pair[1].points),
        default=(None, Match(0.0, 0.0, False, 0.0)),
    )
    return matches, best, top


def word_tie(matches: list[tuple[Tool, Match]], top: Match) -> tuple[Tool, ...]:
    """The chosen tools whose own words' points equal the best's, when there are two or more."""
    tied = tuple(tool for tool, match in matches if match.chosen and match.own == top.own)
    return tied if top.chosen and len(tied) > 1 else ()


def asks_for_nothing(text: str) -> bool:
    """Small talk, an opinion without a request (if the `chatter` probe agrees), or a negated action:
    no tool is wanted. Words in quotes are a value's: they greet and negate nothing ("'bye' to Italian")."""
    said = QUOTED.sub(" ", clean(text))
    told = addressed(segment(said))  # what a person is told is theirs: "Text Anna I love the flowers"
    said = said[: told[0][1]] if told else said
    words = [t for t in segment(said if said.strip(" ,.") else clean(text)) if t.kind != "punct"]
    tokens = [t.norm.rstrip("吧啊呀呢嘛") or t.norm for t in words]
    content = [t for t in tokens if t not in STOPWORDS]
    if not content or all(t in SMALL_TALK or t in DAYS for t in content):
        return True  # "thanks, that's all", "今天心情很好呀" ("today" asks for nothing)
    if tokens and tokens[0] in SMALL_TALK and ACTION_WORDS.isdisjoint(tokens) and len(content) <= 6:
        return True
    actions = [
        k
        for k, token in enumerate(tokens)
        if token in ACTION_WORDS and not speaker_before(tokens, k) or _opinion(tokens, k)
    ]
    lead = next((k for k, t in enumerate(tokens) if t not in SMALL_TALK and t != "please"), len(tokens))
    if lead + 1 < len(tokens) and meaning.negates(tokens[lead]):  # "Don't restart …", not "I never got …"
        actions = sorted({*actions, lead + 1})
    if not actions:
        return False
    # what it ends up asking, an opinion aside: "Stop, do not order a taxi", "Don't pause it, I love it"
    last = next((k for k in reversed(actions) if tokens[k] not in OPINIONS), actions[-1])
    if _negated(tokens, last) or "不" in tokens[last] and tokens[last] != "不":
        return True
    first = actions[0]
    opinion = tokens[first] in OPINIONS and ACTION_WORDS.isdisjoint(tokens[first:])
    return opinion and meaning.wants_no_tool(text)  # "I feel like a comedy tonight" may still ask


def _negated(tokens: list[str], action: int) -> bool:
    """Whether a negation stands among the three words before the action, or before the 把/将 phrase that puts
    its object first (不要把这封信寄出去: 不要 negates 寄; 把不要的旧文件删掉 negates nothing)."""
    fronted = [k for k in range(max(0, action - FRONTED_REACH), action) if tokens[k] in FRONTED_OBJECT]
    end = fronted[-1] if fronted else action
    return bool(set(tokens[max(0, end - 3) : end]) & NEGATIONS)


FRONTED_OBJECT = ("把", "将")  # Chinese markers that put a verb's object before the verb
FRONTED_REACH = 8  # words between such a marker and its verb, at most


def _opinion(tokens: list[str], k: int) -> bool:
    """An opinion word that states one: "I like trains", not "I would like to know …" nor one in a
    question ("what's the weather like in Nairobi?", "I wonder how long the queue is")."""
    if tokens[k] not in OPINIONS:  # first: the question words are read only for an opinion word
        return False
    return QUESTION_WORDS.isdisjoint(tokens) and not set(tokens[max(0, k - 2) : k]) & WISHES


def plan(text: str, tools: tuple[Tool, ...]) -> list[PlanItem]:
    """One item per intent that selects a tool (see `intents`).

    A piece that selects no tool belongs to the item before it ("…, with a play time of 20
    minutes"); one before the first item, or after a full stop, waits and joins the next item,
    unless the item before takes more of its values or, read whole, it means another tool
    (`_chosen`: 记录跑步5公里,用时30分钟,再…). Neighbouring items for one tool are one
    intent (its frames: "€12 in Lyon, €19 in Turin"), before `_absorbed` weighs them and after,
    unless the second names the tool again after "then" ("…; also, how long for the attic?") or
    flips a flag ("… with ice. What if it is without ice?"): a call again, which keeps what the
    first said (`sharing`).
    """
    text = unwrap(clean(text))
    items: list[tuple[int, int, Tool, bool]] = []
    wait: int | None = None
    found = pieces(text)
    for k, piece in enumerate(found):
        if asks_for_nothing(piece.text):
            continue
        before = (text[items[-1][0] : items[-1][1]], items[-1][2]) if items else None
        tool = _chosen(piece.text, tools, _stands_apart(found, k), before)
        start, then = piece.start if wait is None else wait, piece.joiner == "then"
        if tool is not None:
            waited = text[start : piece.start]
            if wait is not None and items and _serves_before(items[-1][2], tool, waited):
                _continue(items, start := piece.start)
            elif wait is not None and (own := _chosen(waited, tools, True, before)) not in (None, tool):
                items.append((wait, found[k - 1].end, own, False))  # the words meant a tool of their own
                start = piece.start
            again = bool(items) and items[-1][2] is tool and then
            items.append((start, piece.end, tool, again))
        elif wait is not None:
            continue  # still context for the next item: "Second, I have 36 and 48, and …"
        elif items and piece.joiner in ("and", "then", ",", "") and not (piece.sentence and then):
            _continue(items, piece.end)
        else:  # context for the next item ("Add eggs, milk and bread to my list")
            wait = start
            continue
        wait = None
    if wait is not None and items:
        _continue(items, len(text))
    if not items and wait is not None and not asks_for_nothing(text):
        tool, match = best_tool(text, tools)
        if tool is not None and match.chosen:
            items.append((0, len(text), tool, False))
    joiners = {p.start: p.joiner for p in found}
    merged = _merged(_absorbed(_merged(items, text), text, joiners), text)
    return [PlanItem(text[start:end], tool) for start, end, tool, _ in merged]


def _merged(items: list[tuple[int, int, Tool, bool]], text: str) -> list[tuple[int, int, Tool, bool]]:
    """Neighbouring items for one tool as one intent, unless the second asks again or flips a flag
    set by the item just before it (that item alone: the merged text grows, and reading it again
    for every item made a long message's cost grow with the square of its pieces)."""
    merged: list[tuple[int, int, Tool, bool]] = []
    before = ""
    for start, end, tool, again in items:
        if merged and merged[-1][2] is tool and not again and not flips(tool, before, text[start:end]):
            merged[-1] = (merged[-1][0], end, tool, merged[-1][3])
        else:
            merged.append((start, end, tool, again))
        before = text[start:end]
    return merged


def _absorbed(
    items: list[tuple[int, int, Tool, bool]], text: str, joiners: dict[int, str]
) -> list[tuple[int, int, Tool, bool]]:
    """The items, less those that are a frame or the context of a neighbour joined by "and" or
    a comma (`_frame_of`): "Hire a boat on Windermere for 2 hours *and on Coniston for 3
    hours*" asks for no `cafe_hours`, nor does "*For a 3 hour row*, hire a boat …"."""
    kept, k = list(items), 0
    while k < len(kept):
        start, end, tool, _ = kept[k]
        near = [j for j in (k - 1, k + 1) if 0 <= j < len(kept) and kept[j][2] is not tool]
        near = [j for j in near if joiners.get(kept[max(j, k)][0]) in ("and", ",")]
        if (host := next((j for j in near if _frame_of(text[start:end], tool, kept[j][2])), None)) is None:
            k += 1
            continue
        first, last, other, again = kept[host]
        kept[host] = (min(first, start), max(last, end), other, again)
        del kept[k]
    return kept


def _frame_of(part: str, tool: Tool, host: Tool) -> bool:
    """Whether `host` takes the values of `part`, and its own `tool` none (or no more, when `part`
    is only values or names `tool` only by a unit: "…, and for Lulworth on 3 May", "…, and another
    6 m x 2 m", whose unit is no word of a tool that takes one), while every word of it that names
    `tool` names `host` too: "hours" of "on Coniston for 3 hours" is a parameter of `hire_boat`
    as well as the name of `cafe_hours`; the date of the ferry's day is a tide table's day."""
    words = Words.of(part)  # the part's tokens and values, read once for both tools
    mine, theirs = profile(tool), profile(host)
    units = {f"unit:{v.value}" for v in words.values if v.kind == "unit"}  # "6 m" names no tool
    naming = [w for w in request_concepts(part) if _weight(w, mine)[1] in mine.own]
    named = [w for w in naming if w not in units]
    given, own = takes(host, words), takes(tool, words)
    if not given or own > (given if _only_values(words) or naming and not named else 0):
        return False
    return all(_weight(word, theirs)[1] for word in named)


def _only_values(part: Words) -> bool:
    """Whether every word of `part` but the small ones is in a value it gives ("for Lulworth on 3 May")."""
    held = Spans((v.start, v.end) for v in part.values if v.kind != "phrase")
    words = [t for t in part.tokens if t.kind != "punct" and t.norm not in STOPWORDS]
    return all(held.holds(t.start) for t in words)


def _chosen(piece: str, tools: tuple[Tool, ...], apart: bool, before: tuple[str, Tool] | None) -> Tool | None:
    """The tool the piece's words choose, unless it is a detail or a fact with no verb of a task
    ("for one person", "it's for a gift"); else, for a piece that stands apart, the one its
    meaning chooses if its words name no tool's topic ("How high is Kilimanjaro, and …" for
    `mountain_height`; 算一下5的阶乘 for `factorial`), it gives the tool a required value of its
    own, and the item `before` none it lacks ("…; her phone is +39 …" completes a parcel's)."""
    words = [t.norm for t in segment(piece) if t.kind != "punct"] or [""]
    if words[0] in OPENERS and not any(
        w in ACTION_WORDS and not _a_thing(words, k) for k, w in enumerate(words)
    ):
        return None
    tool, match = best_tool(piece, tools)
    if tool is not None and match.chosen:
        return tool
    if not apart or names_a_topic(piece, tools):
        return None
    meant = meaning_choice(piece, tools, meaning.CHOOSE).tool
    required = set(meant.parameters.get("required") or []) if meant else set()
    gives = not required or required & set(bind(meant, piece, guess=False))  # a value of its own
    return None if meant is None or not gives or before and _completes(before, piece) else meant


def _a_thing(words: list[str], k: int) -> bool:
    """Whether the verb of a task at `k` names a thing, after a determiner: "for the play", "it's
    on my shopping list" (two words back when it ends the piece)."""
    return bool(ITEM_LEADS & set(words[max(0, k - (2 if k == len(words) - 1 else 1)) : k]))


def _stands_apart(found: list[Piece], k: int) -> bool:
    """Whether piece k of a short message (`MEANT_PIECES` pieces at most) is set apart from a
    neighbour by a word or a sentence mark, not a bare comma: an intent of its own."""
    return 1 < len(found) <= MEANT_PIECES and any(p.joiner in ("and", "then", ".") for p in found[k : k + 2])


def _completes(before: tuple[str, Tool], piece: str) -> bool:
    """Whether `piece` gives the tool of the text before it a value that text does not."""
    text, tool = before
    return _leaves(bind(tool, f"{text}; {piece}", guess=False)) > _leaves(bind(tool, text, guess=False))


def _leaves(value: Any) -> int:
    """How many values a bound argument tree holds."""
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
    return 1 if items is None else sum(map(_leaves, items))


def plan_by_meaning(text: str, tools: tuple[Tool, ...]) -> list[PlanItem]:
    """One item per intent whose tool `meaning.choose` picks, for a message whose words choose no
    tool. As in `plan`, a piece that picks none belongs to the item before it (before the first,
    to the next); neighbours picking one tool are one intent. With no pick, the whole message is
    tried (`read_by_meaning`)."""
    readings = read_by_meaning(text, tools)
    if readings and readings[-1].whole:
        return [PlanItem(readings[-1].text, readings[-1].tool)] if readings[-1].tool else []
    items: list[tuple[int, int, Tool]] = []
    waiting: int | None = None
    for reading in readings:
        start, end, tool = reading.start, reading.end, reading.tool
        if tool is None:
            waiting = start if waiting is None and not items else waiting
            if items:
                items[-1] = (items[-1][0], end, items[-1][2])
        elif items and items[-1][2] is tool:
            items[-1] = (items[-1][0], end, tool)
        else:
            items.append((start if waiting is None else waiting, end, tool))
            waiting = None
    message = readings[0].message if readings else ""
    return [PlanItem(message[start:end], tool) for start, end, tool in items]


@dataclass(frozen=True)
class Reading:
    """What the meaning stage read of one piece of a message (`start:end` of the cleaned
    `message`), and its choice: None for a piece that asks for nothing."""

    message: str
    start: int
    end: int
    choice: meaning.Choice | None
    whole: bool = False  # the whole message, read because no piece picked a tool

    @property
    def text(self) -> str:
        return self.message[self.start : self.end]

    @property
    def tool(self) -> Tool | None:
        return self.choice.tool if self.choice else None


def read_by_meaning(text: str, tools: tuple[Tool, ...]) -> list[Reading]:
    """The meaning stage's reading of a message whose words choose no tool: each piece with its
    choice and, when there are several pieces and none picks a tool, the whole message last. A
    piece of several, read without what it refers to ("and sort it out"), needs `meaning.CHOOSE`."""
    text = unwrap(clean(text))
    found = [(p.start, p.end) for p in pieces(text)]
    found = found if len(found) <= MAX_PIECES else [(0, len(text))]  # a pasted listing is one text
    parts = [text[start:end] for start, end in found]
    meaning.encode(parts)  # one pass; each piece is read from the cache
    bar = meaning.AMONG if len(found) == 1 else meaning.CHOOSE
    choices = [None if asks_for_nothing(part) else meaning_choice(part, tools, bar) for part in parts]
    readings = [Reading(text, a, b, choice) for (a, b), choice in zip(found, choices, strict=True)]
    if len(found) > 1 and not any(reading.tool for reading in readings):
        readings.append(Reading(text, 0, len(text), meaning_choice(text, tools), whole=True))
    return readings


def names_a_topic(text: str, tools: tuple[Tool, ...]) -> bool:
    """Whether `text` names what some tool is about (`Match.topic`) though words chose none."""
    shared = shared_topic(tools)
    return any(score(text, tool, shared).topic for tool in tools)


def shared_topic(tools: tuple[Tool, ...]) -> frozenset[str]:
    """The topic words every offered tool has ("geo" in `geo_area` and `geo_distance`)."""
    return frozenset.intersection(*(profile(t).topic for t in tools)) if len(tools) > 1 else frozenset()


def meaning_choice(text: str, tools: tuple[Tool, ...], among: float = meaning.AMONG) -> meaning.Choice:
    """`meaning.choose` with this stage's lexical score as a feature, and its bar among several tools."""
    return meaning.choose(text, tools, own_points, among=among)


def own_points(text: str, tool: Tool) -> float:
    """The points of the tool's own words (name, description, options) that `text` names."""
    return score(text, tool).own


def _serves_before(before: Tool, after: Tool, context: str) -> bool:
    """Whether context between two intents gives the one before more values than the one
    after ("… the odds with dice? I roll 3 dice for a total of 12.")."""
    return before is not after and takes(before, words := Words.of(context)) > takes(after, words)


def _continue(items: list[tuple[int, int, Tool, bool]], end: int) -> None:
    """Add the piece ending at `end` to the last item."""
    items[-1] = (items[-1][0], end, *items[-1][2:])


def best_piece(text: str, tool: Tool) -> str:
    """The piece of `text` that matches `tool` best, or the whole text if none matches at all."""
    found = [piece.text for piece in pieces(text)] or [text]
    top = max(found, key=lambda piece: score(piece, tool).points)
    return top if score(top, tool).points > 0 else text
