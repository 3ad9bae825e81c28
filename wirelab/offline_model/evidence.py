"""What a request offers binding: its tokens, its values, and the words around each value.

    >>> weather = Tool("get_weather", "Current weather in a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}})
    >>> evidence = Evidence.of(weather, "weather in Paris, then Rome")
    >>> [(v.kind, v.text) for v in evidence.values]
    [('name', 'Paris'), ('name', 'Rome')]
    >>> evidence.near(evidence.values[0], -1, 3)
    ([(1, 'weather')], ['in', 'weather'])

A piece of a message is read once (`Words`: its tokens and typed values, `extraction`);
`Evidence.of` starts each tool's evidence from them and adds *phrases*: runs of content words
no value covers ("water", "plasma membrane"), what a string parameter takes when nothing is
marked. `near` reads the words on either side of a value, the cues binding scores; `groups`
finds values written as a list ("Paris, Rome and Oslo", "10 and 20"). `used` and `chosen`
record what binding has taken; binding's reading (`Binding`) is handed on to the stages after it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from wirelab.offline_model.budget import spend
from wirelab.offline_model.extraction import extract
from wirelab.offline_model.free_text import PARTICLES, describes
from wirelab.offline_model.lexicon import (
    ACTION_WORDS,
    GENERIC,
    STOPWORDS,
    VERBS,
    concept,
    lexicon_list,
    names_a_thing,
    singular,
)
from wirelab.offline_model.normalize import (
    FUNCTION_TAGS,
    Token,
    clean,
    identifier_words,
    in_dictionary,
    segment,
)
from wirelab.offline_model.request import Tool
from wirelab.offline_model.spans import Spans
from wirelab.offline_model.values import Value

NOT_PHRASED = lexicon_list("determiners") | lexicon_list("text_leads") | lexicon_list("prepositions")
NOT_THINGS = FUNCTION_TAGS | {"m"}  # jieba's tags that name no thing, and numerals ("三")
PHRASE_WORDS = 4  # the longest phrase a string parameter takes from unmarked text
SPEAKER_IS = lexicon_list("speaker_is")  # "I'm curious", "we're planning": how the user is
DEGREE_WORDS = lexicon_list("degree_words")
LINKS, HEADS = lexicon_list("links"), lexicon_list("name_heads")  # HEADS: nouns a room's name ends in
STOPS = {",", ";", "(", ")", ".", "?", "!", "，", "。", "；"}
LIST_JOINERS, ITEM_LEADS = lexicon_list("list_joiners"), lexicon_list("item_leads")
LIST_GLUE = LIST_JOINERS | {"the"}
IN_STEP = lexicon_list("respectively")  # lists go in step; two things listed are a list
EACH = lexicon_list("for_each") - {"all"} | IN_STEP  # "both", 都, 分别 (not "all"): two phrases, each a call
WORDS = ("name", "phrase", "enum")  # the kinds a list of words holds
PHRASAL = (frozenset({"phrase"}), frozenset({"name", "phrase"}))  # lists of three at least
NAMED = {"name", "country", "language"}  # kinds one list holds together: "Thai, Greek and Mexican"
OBJECTS, SUBJECTS = (lexicon_list(name, VERBS) for name in ("objects", "subjects"))


def _tool_verb_apart(tokens: list[Token], own_words: set[str]) -> list[Token]:
    """The tokens, with the tool's own verb cut from a word jieba guessed by gluing it to the character
    before: 在大董订 cut 大 董订 is 大 董 订 (订, book, the tool's verb): the name keeps its last one."""
    cut = []
    for token in tokens:
        head, verb = token.text[:-1], token.text[-1:]
        glued = token.kind == "han" and len(token.text) == 2 and concept(verb) in own_words
        if glued and not in_dictionary(token.text):
            cut += [replace(token, text=head, norm=head, end=token.end - 1, tag="n")]
            cut += [replace(token, text=verb, norm=verb, start=token.end - 1, tag="v")]
        else:
            cut.append(token)
    return cut


def _without_tool_lead(
    values: list[Value], tokens: list[Token], tool_name: frozenset[str], own: set[str]
) -> list[Value]:
    """The values, less the tool's word where a capital starts the request with it: "Ship 0.5
    kg …" names nothing (a word of its description), "Page Jonas that …" names Jonas (a word
    of its name, `page_crew`; "New York" keeps "New" for a tool that adds a new event)."""
    first = values[0] if values and values[0].start == 0 and values[0].kind == "name" else None
    rest = [t for t in tokens[1:] if first and t.end <= first.end and t.kind != "punct"]
    words = tool_name if rest else own
    if first is None or concept(tokens[0].norm) not in words:
        return values
    if not rest:
        return values[1:]
    written = first.text[rest[0].start :]
    return [replace(first, value=written, text=written, start=rest[0].start), *values[1:]]


@lru_cache(maxsize=512)  # the tool's alone: worked out once, not for every piece it is offered
def _one_at_a_time(tool: Tool, properties: tuple[str, ...]) -> frozenset[str]:
    """The last word of the tool's name when its description says one of it and no parameter names
    it: "Draw one card from the deck" for `draw_card`, "Create a new UUID" for `new_uuid`; not
    "Search flights"."""
    words = re.findall(r"[^\W_]+", tool.description.casefold())
    ones = {w for k, w in enumerate(words) if set(words[max(k - 2, 0) : k]) & {"a", "an", "one", "single"}}
    named = {c for n in properties for w in identifier_words(n) for c in noun_kinds(w)}
    last = identifier_words(tool.name)[-1:]
    return frozenset(c for w in last if w in ones for c in noun_kinds(w)) - named


def noun_kinds(word: str) -> set[str]:
    """A noun's concept and its singular's ("dice": dice, die)."""
    return {concept(word), concept(singular(word))}


def _parts(word: str) -> list[str]:
    """A word of the tool's own text and, when hyphenated, its parts: "sound-effects" is
    "sound" and "effects" as well (a tool's word is no "," or ".": those are marks)."""
    return [word, *(part for part in word.split("-") if len(part) > 2 and "-" in word)]


@dataclass(frozen=True)
class Words:
    """A piece of a message read once: its clean text, its tokens and the values extraction
    finds in it. Every tool's `Evidence` of the piece starts from these."""

    text: str
    tokens: tuple[Token, ...]
    values: tuple[Value, ...]

    @classmethod
    @lru_cache(maxsize=16)  # a message's pieces and the turn before: at most 4,000 characters each
    def of(cls, text: str) -> Words:
        """The piece read once, however many stages and turns read it (extraction reads the text
        alone, so the same text always gives the same values)."""
        tokens = segment(text := clean(text))
        return cls(text, tuple(tokens), tuple(extract(text, tokens)))


Binding = tuple["Evidence", dict[str, Any]]  # a text read by binding: the evidence after it, the arguments


@dataclass
class Evidence:
    """One sub-request: its text, tokens and values, and which values are used."""

    text: str
    tokens: list[Token]
    values: list[Value]
    tool_words: set[str]
    used: set[int] = field(default_factory=set)
    starts: list[int] = field(default_factory=list)
    chosen: dict[str, int] = field(default_factory=dict)  # top-level parameter -> value index
    tool_name: frozenset[str] = frozenset()  # concepts of the tool's name
    own: str = ""  # the tool's name words and description, as the encoder compares them
    each: frozenset[str] = frozenset()  # what the tool does one of ("Draw one card": card)
    _holders: dict[int, list[Value]] = field(default_factory=dict, repr=False)  # token start -> values
    _ends: dict[int, list[Value]] = field(default_factory=dict, repr=False)  # end -> values ending there
    _indexed: tuple[int, int] = (0, 0)  # id() of the values list `_holders` indexes, and how many

    @classmethod
    def of(cls, tool: Tool, text: str | Words) -> Evidence:
        """What `text` offers `tool`: the piece's values, less those that name the tool or its
        parameters, plus its phrases. Given the piece's `Words`, it extracts nothing again
        unless the tool's verb re-cuts a token."""
        words = text if isinstance(text, Words) else Words.of(text)
        own = " ".join(identifier_words(tool.name)) + " " + tool.description[:500]
        own_words = {concept(w) for t in segment(clean(own)) if t.kind != "punct" for w in _parts(t.norm)}
        tokens = _tool_verb_apart(words.tokens, own_words)
        values = list(words.values) if tokens == list(words.tokens) else extract(words.text, tokens)
        tool_name = frozenset(concept(w) for w in identifier_words(tool.name))
        values = _without_tool_lead(values, tokens, tool_name, own_words)
        properties = tool.parameters.get("properties", {}) if isinstance(tool.parameters, dict) else {}
        properties = [str(n) for n in properties] if isinstance(properties, dict) else []
        labels = {n.casefold() for n in properties} | {w for n in properties for w in identifier_words(n)}
        spelled = re.sub(r"\W", "_", tool.name).casefold()  # "the 'geo.lookup' function" names the tool
        values = [v for v in values if re.sub(r"\W", "_", str(v.value)).casefold() != spelled]
        values = [v for v in values if not (v.kind == "code" and v.text.casefold() in labels)]
        evidence = cls(words.text, tokens, values, own_words, starts=[t.start for t in tokens])
        evidence.tool_name, evidence.own = tool_name, own.strip()
        named = {*tool_name, *(concept(w) for n in properties for w in identifier_words(n))}
        evidence.each = _one_at_a_time(tool, tuple(properties))
        evidence.values += evidence._phrases(named, HEADS & {n.casefold() for n in properties})
        return evidence

    def _phrases(self, named: set[str], heads: frozenset[str]) -> list[Value]:
        """Runs of up to `PHRASE_WORDS` content words no other value covers ("plasma membrane"), with
        the parameter's name of `heads` after them ("dining room" for `room`): what a string parameter
        takes when the text marks nothing. A word that says how the user is ("I'm curious") starts none."""
        found: list[Value] = []
        run: list[Token] = []
        speaking = False  # in the words that say how the user is: "I'm a big fan of …"
        for k, token in enumerate([*self.tokens, None]):
            if token is not None and token.norm in SPEAKER_IS:
                speaking = True
            elif token is not None and self._in_phrase(k, named):
                if not speaking:
                    run.append(token)
                continue
            elif token is None or token.norm not in DEGREE_WORDS:
                speaking = False
            if token is not None and token.norm == "of" and run and self._noun_follows(k, named):
                run.append(token)  # "law of gravity", "jar of honey": one name for one thing
                continue
            if run and run[-1].norm == "of":
                run.pop()
            if run:  # the whole run, then shorter ones from its start; an owner's name without its 's
                owner = token is not None and concept(token.norm) in self.tool_name  # "my bedroom's lights"
                owner = owner and run[-1].text[-2:] in ("'s", "’s")
                head = token is not None and token.norm in heads  # "the dining room": a room's name, whole
                for end in [len(run)] if head else range(len(run), 0, -1):
                    if end <= PHRASE_WORDS and run[end - 1].norm != "of":
                        stop = token.end if head else run[end - 1].end - 2 * (owner and end == len(run))
                        words = self.text[run[0].start : stop]
                        found.append(Value("phrase", words, words, run[0].start, stop))
                run = []
        return found + self._modifiers()

    def _in_phrase(self, k: int, named: set[str]) -> bool:
        """Whether token `k` is a word of a phrase: a thing's word that is no verb here, or a
        verb's participle that describes the thing named next ("a creaking door"), a thing the
        tool's or a parameter's name names too ("the staging namespace")."""
        token = self.tokens[k]
        if self._phrase_word(token, named):
            return not self._a_verb(k)
        before, after = self.tokens[k - 1] if k else None, self.tokens[k + 1 : k + 2]
        if after and concept(after[0].norm) in named:
            return describes(before, token, after, thing=True)
        return describes(before, token, after) and self._noun_follows(k, named)

    def _a_verb(self, k: int) -> bool:
        """Whether token `k` is a verb: after a subject pronoun ("I dropped my keys"), or first in
        its sentence (after small words only: "Please dim …") before a determiner, an object or a
        verb's particle ("Dim the hall", "Turn on …"), unless a plural noun ("Lights on")."""
        if k > 0 and self.tokens[k - 1].norm in SUBJECTS:
            return True
        start = k
        while start > 0 and self.tokens[start - 1].norm in STOPWORDS:
            start -= 1
        after = self.tokens[k + 1].norm if k + 1 < len(self.tokens) else ""
        token = self.tokens[k]
        plural = singular(token.norm) != token.norm and not token.norm.endswith("ss")
        first = start == 0 or self.tokens[start - 1].text in STOPS
        return token.kind == "word" and first and not plural and after in OBJECTS | PARTICLES

    def _noun_follows(self, k: int, named: set[str]) -> bool:
        return k + 1 < len(self.tokens) and self._phrase_word(self.tokens[k + 1], named)

    def _modifiers(self) -> list[Value]:
        """The kind a hyphenated compound names by its first part: "solar" of "solar-powered",
        "wood" of "wood-fired" (the second part a verb's participle)."""
        found = []
        for token in self.tokens:
            head, _, rest = token.text.partition("-")
            thing = head.isalpha() and names_a_thing(head.casefold())
            if rest and thing and not names_a_thing(rest.casefold()):
                found.append(Value("phrase", head, head, token.start, token.start + len(head)))
        return found

    def _phrase_word(self, token: Token, named: set[str]) -> bool:
        if token.kind not in ("word", "han") or token.norm in STOPWORDS or token.norm in ACTION_WORDS:
            return False
        if token.norm in NOT_PHRASED or concept(token.norm) in named or singular(token.norm) in GENERIC:
            return False
        if not names_a_thing(token.norm) or token.kind == "han" and token.tag[:1] in NOT_THINGS:
            return False  # jieba's verbs, adverbs, particles, measure words…: "来", "点", "到", "里"
        return not any(v.kind not in ("enum", "example") for v in self.holding(token))

    def near(self, value: Value, step: int, limit: int) -> tuple[list[tuple[int, str]], list[str]]:
        """Words next to `value` (`step` -1: before it, nearest first; +1: after it): the content words
        with their distance (small words cost nothing), and every word seen, small ones included.
        Stops at a comma or sentence mark, at another value, and after `limit` content words."""
        spend()
        k = bisect.bisect_left(self.starts, value.start) - 1 if step < 0 else self._after(value)
        content: list[tuple[int, str]] = []
        seen: list[str] = []
        while 0 <= k < len(self.tokens) and len(content) < limit:
            token = self.tokens[k]
            if step < 0 and token.norm == "的" and k > 0 and self._inside_other(self.tokens[k - 1], value):
                k -= 2  # "上海的王芳": what is before "上海的" is before 王芳 too
                continue
            if token.text in STOPS or self._inside_other(token, value):
                break
            if token.kind != "punct" or token.text in ("=", ":"):
                seen.append(token.norm)
                if token.norm not in STOPWORDS and token.norm not in LINKS and token.kind != "punct":
                    content.append((len(content) + 1, token.norm))
            k += step
        return content, seen

    def _after(self, value: Value) -> int:
        k = bisect.bisect_left(self.starts, value.end)
        return k + value.unit_words

    def _inside_other(self, token: Token, value: Value) -> bool:
        """Whether the token belongs to another value; one that touches this value ("$" in
        "$2,000") is part of it, and so are the words a number leads with a hyphen ("4-star")."""
        others = [v for v in self.holding(token) if v is not value and v.kind not in (*WORDS, "example")]
        led = {value.start} if token.kind != "number" and self.text.startswith("-", value.end) else set()
        return any(v.end != value.start and v.start not in {value.end, *led} for v in others)

    def used_spans(self) -> list[tuple[int, int]]:
        """Where the values other parameters took are written (`used`), as (start, end) pairs."""
        return [(self.values[k].start, self.values[k].end) for k in self.used]

    def holding(self, token: Token) -> list[Value]:
        """The values that hold the token (`v.start <= token.start < v.end`)."""
        self._index()
        return self._holders.get(token.start, [])

    def numbers_just_before(self, position: int) -> list[Value]:
        """The numbers that end at `position` or one character before it ("500 US", "5km")."""
        self._index()
        return [v for end in (position, position - 1) for v in self._ends.get(end, []) if v.kind == "number"]

    def _index(self) -> None:
        """Index `values` by the tokens they hold and by where they end, adding the values added
        since the last call: asking every value about every token was quadratic."""
        source, seen = self._indexed
        if source != id(self.values) or len(self.values) < seen:  # a new list, not a longer one
            self._holders, self._ends, seen = {}, {}, 0
        for value in self.values[seen:]:
            first = bisect.bisect_left(self.starts, value.start)
            for start in self.starts[first : bisect.bisect_left(self.starts, value.end)]:
                self._holders.setdefault(start, []).append(value)
            self._ends.setdefault(value.end, []).append(value)
        self._indexed = (id(self.values), len(self.values))

    def groups(self) -> list[list[int]]:
        """Runs of values of one kind written as a list ("Paris, Rome and Oslo", "10 and 20")."""
        found: list[list[int]] = []
        last, prior = None, None  # the last value listed, and the one before it
        for k, value in enumerate(self.values):
            if value.kind in ("unit", "enum", "example", "phrase"):
                continue  # a number's unit ("20 minutes and 15 minutes") or an option's name
            if last is not None and value.start < self.values[last].end:
                continue  # overlaps the value before (a name that is also a country)
            if last is not None and self._listed(self.values[last], value, prior):
                found[-1].append(k)
            else:
                found.append([k])
            prior, last = self.values[last] if last is not None else None, k
        return [group for group in found if len(group) > 1]

    def _listed(self, before: Value, value: Value, prior: Value | None) -> bool:
        """Whether `value` is listed after `before`, the same word after each ("20 degrees and 18 degrees",
        20度和23度) or not; not when it begins a set as `prior` did, the same word after both and not
        after `before` ("3 raised to 4 and 5 raised to 3": 5 is no second exponent)."""
        first, last = (bisect.bisect_left(self.starts, at) for at in (before.end, value.start))  # the gap
        then, said, anew = (self._word_after(v) for v in (before, value, prior))
        gap = [t.norm for t in self.tokens[first:last] if t.end <= value.start]
        gap = gap[before.unit_words :] if before.unit == value.unit else gap
        gap = gap[1:] if said not in LIST_GLUE and gap[:1] == [said] else gap  # "20 degrees and 18 degrees"
        alike = value.kind == before.kind or {value.kind, before.kind} <= NAMED
        again = words_before(self, before) & words_before(self, value)  # "on 1000 and on 5000"
        listed = alike and bool(set(gap) & LIST_JOINERS) and set(gap) <= LIST_GLUE | ITEM_LEADS | again
        return listed and not (anew is not None and anew == said != then)

    def _word_after(self, value: Value | None) -> str | None:
        """The word or Chinese word right after a value, if one follows it."""
        k = bisect.bisect_left(self.starts, value.end) if value else len(self.tokens)
        return next((t.norm for t in self.tokens[k : k + 1] if t.kind in ("word", "han")), None)


def word_lists(evidence: Evidence, least: int = 0) -> list[list[int]]:
    """Names, phrases and options written as a list, not names alone (`Evidence.groups` has those):
    "brie, gouda and roquefort", "a poodle, a beagle and a husky", "tennis and squash", 人民广场、
    徐家汇和陆家嘴. Two bare phrases are one thing ("ham and cheese"); a number's unit ("12 ft") or the
    word after it ("1230 degrees", 3晚) is listed with nothing (a unit with no number is a word: "in
    celsius and kelvin"), nor are a name and a phrase ("to Maria and keep it"). The words before the
    first value may come again before each ("in Camden and in Brixton", "for a Santoku and for a
    Nakiri"): then two values, or names alone, are a list too. Of the readings at one place, the
    longest is the list's, an option before a phrase ("porcelain piece", "porcelain"). `least`: the
    fewest values a list may have (2 for a parameter that takes one)."""
    values = evidence.values
    counted = {v.end + gap for v in values if v.kind == "number" for gap in (0, 1)}  # "1230 degrees", "3晚"
    units = Spans((v.start, v.end) for v in values if v.kind == "unit" and v.start in counted)
    words = [k for k, v in enumerate(values) if v.kind in WORDS and v.start not in counted]
    words = [k for k in words if not units.overlaps(values[k].start, values[k].end)]
    words.sort(key=lambda k: (values[k].start, -values[k].end, values[k].kind != "enum"))
    chains: list[list[int]] = []
    repeated: set[int] = set()  # the chains whose lead word comes again
    for k in words:  # in order: a value joins the list of the value before it, or starts one
        if chains and values[k].start < values[chains[-1][-1]].end:
            continue  # another reading of the words a listed value covers
        first = values[chains[-1][0]] if chains else None
        lead = words_before(evidence, first) | alike(evidence, first, values[k]) if first else set()
        joint = _joint(evidence, values[chains[-1][-1]], values[k]) if chains else None
        if joint is not None and joint <= LIST_JOINERS | ITEM_LEADS | lead:
            chains[-1].append(k)
            repeated |= {len(chains) - 1} if lead & joint - LIST_JOINERS else set()
        else:
            chains.append([k])
    each = not {t.norm for t in evidence.tokens} & EACH  # "卧室和书房的灯都打开": each of two things
    shortest = {frozenset({"name"}): len(values) + 1} | dict.fromkeys(PHRASAL, 2 + each)  # names: `groups`
    kinds = [frozenset(values[k].kind for k in chain) for chain in chains]
    fewest = [least or (2 if n in repeated else shortest.get(kinds[n], 2)) for n in range(len(chains))]
    return [c for n, c in enumerate(chains) if len(c) >= fewest[n]]


def words_before(evidence: Evidence, value: Value) -> set[str]:
    """The two words right before a value ("for a" of "for a Santoku"), if they are words."""
    k = bisect.bisect_left(evidence.starts, value.start)
    return {t.norm for t in evidence.tokens[max(0, k - 2) : k] if t.kind == "word"}


def alike(evidence: Evidence, one: Value, other: Value) -> set[str]:
    """The words said both before and right after two values alike: "to 780 and to 815", "3 of
    ochre and 5 of white", "the porch lamp and the garage lamp", 客厅灯和书房灯; any currency
    after each is one word, as one unit is (200欧元和50英镑)."""
    after = [bisect.bisect_left(evidence.starts, value.end) for value in (one, other)]
    money = {v.start for v in evidence.values if v.kind == "currency"}
    words = [
        {"¤" if t.start in money else t.norm for t in evidence.tokens[k : k + 1] if t.kind in ("word", "han")}
        for k in after
    ]
    units = {one.unit.casefold()} & {other.unit.casefold()} - {""}  # "5 kg … 8 kg": one unit
    return words_before(evidence, one) & words_before(evidence, other) | words[0] & words[1] | units


def _joint(evidence: Evidence, before: Value, value: Value) -> set[str] | None:
    """The words between two values when a list joiner is among them, else None."""
    low, high = (bisect.bisect_left(evidence.starts, at) for at in (before.end, value.start))
    gap = {t.norm for t in evidence.tokens[low:high]}
    return gap if gap & LIST_JOINERS else None
