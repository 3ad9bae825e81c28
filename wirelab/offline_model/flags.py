"""Stage 4, flags: a boolean parameter's value, from the side of a switch the request says.

    >>> from wirelab.offline_model.request import Tool
    >>> from wirelab.offline_model.slots import slot_of
    >>> fan = Tool("set_fan", "Switch a fan.", {"type": "object", "properties": {"on": {"type": "boolean"}}})
    >>> on = slot_of("on", {"type": "boolean"}, True)
    >>> said = ("Kill the fan", "Don't stop the fan", "把风扇关掉")
    >>> [flag_value(on, Evidence.of(fan, text)) for text in said]
    [False, True, False]

A switch has two sides, listed in pairs in data/verbs.txt: what lets things run, pass or be seen (on,
open, enable, unmute, 开, 打开) and what stops them (off, close, disable, mute, kill, 关). A flag's own
name or description names one side ("enabled", "muted", "true to lock"); the request says one ("Kill the
lights", "unmute it"; "don't" before the word turns it over), and the flag is true when the two agree. A
flag that names no side is set when the request names it, or says every word its description has that
the tool's has not ("direct flights only"): true, false after a negation or before a side ("exclude
inactive", "safe search off"), or as its description's true or false side says ("false for imperial").
"""

from __future__ import annotations

import re
from typing import Any

from wirelab.offline_model.evidence import Evidence
from wirelab.offline_model.lexicon import STOPWORDS, VERBS, alternatives, concept, lexicon_list, lexicon_words
from wirelab.offline_model.normalize import clean, identifier_words, segment
from wirelab.offline_model.options import meant, negated
from wirelab.offline_model.slots import Slot


def _sides(pairs: list[str]) -> dict[str, tuple[bool, frozenset[int]]]:
    """A word's concept -> (whether it says the running side, the pairs it is in)."""
    sides: dict[str, tuple[bool, frozenset[int]]] = {}
    for pair, line in enumerate(pairs):
        for running, words in zip((True, False), line.split("|"), strict=True):
            for idea in {concept(w) for w in words.split()}:
                sides[idea] = (running, sides.get(idea, (running, frozenset()))[1] | {pair})
    return sides


SIDES = _sides(VERBS["sides"])
HAN_SIDES = [w for w in " ".join(VERBS["sides"]).split() if len(w) > 1 and not w.isascii()]
NEGATIONS = lexicon_list("negations", VERBS)
PREFIXES = frozenset(concept(w) for w in lexicon_list("flag_prefixes", VERBS))
TRUE_SIDE = re.compile(r"\btrue\b([^,;.，；。]*)", re.I)
SIDE_MEANS = rf"\s*(?:{alternatives(lexicon_words('side_means', VERBS))})\s*(?:the\s+|a\s+)?([^\W\d_]+)"
TRUE_MEANS, FALSE_MEANS = (re.compile(rf"\b{side}{SIDE_MEANS}", re.I) for side in ("true", "false"))
FLAG_WORDS = {"true": True, "false": False, "yes": True, "no": False}


def flag_value(slot: Slot, evidence: Evidence) -> bool | None:
    """The flag's value as the request sets it, None when it says nothing of it."""
    own = next((concept(w) for w in _own_words(slot) if concept(w) in SIDES), None)  # a side it names
    named_by = identifier_words(slot.name) or (slot.name.casefold(),)  # a Chinese name is one word: 加急
    words = {w for w in {concept(w) for w in named_by} - PREFIXES if w not in STOPWORDS}
    subject = words - SIDES.keys()  # what it switches: `wifi` of `enable_wifi`, nothing of `muted`
    named = [t for t in evidence.tokens if concept(t.norm) in subject]
    if own is not None and (named or not subject - evidence.tool_name):
        said = _said_side(evidence, SIDES[own][1])
        if said is not None:
            return said == SIDES[own][0]
    said = {concept(t.norm) for t in evidence.tokens}
    words = (words - evidence.tool_name or words) | _asked_whether(slot, said, evidence.tool_words)
    if _described(FALSE_MEANS, slot) & said - words:
        return False  # "true for metric, false for imperial", and the request says imperial
    found = [(t.start, t.end) for t in evidence.tokens if concept(t.norm) in words]
    found += [(v.start, v.end) for w in named_by for v in meant("flag", w, evidence)]  # 已归档: `archived`
    if not found:
        return None
    start, end = min(found)
    after = [concept(t.norm) for t in evidence.tokens if t.start >= end][:2]  # "safe search off"
    return next((SIDES[w][0] for w in after if w in SIDES), True) != negated(evidence, start, NEGATIONS)


def _own_words(slot: Slot) -> list[str]:
    """The words of the flag's name, then of its description's true side ("true to switch on"):
    where its own side of a switch is named."""
    true_side = " ".join(TRUE_SIDE.findall(str(slot.schema.get("description", ""))))
    return [*identifier_words(slot.name), *(t.norm for t in segment(clean(true_side)))]


def _said_side(evidence: Evidence, pairs: frozenset[int]) -> bool | None:
    """The side the request says where a command's verb stands ("Kill the fan", "Turn on …",
    "把灯关掉"; not a preposition in its middle: "a café on Elm St"), a word of the flag's own
    pair first, turned over by a negation right before it ("don't turn on"). A Chinese word is
    found in the text too: the segmenter may glue it to the noun before (门锁|上)."""
    said = [(t.start, t.end, concept(t.norm)) for t in evidence.tokens if concept(t.norm) in SIDES]
    said += [(m.start(), m.end(), concept(w)) for w in HAN_SIDES for m in re.finditer(w, evidence.text)]
    edges = _verb_places(evidence)
    said = sorted((start, end, idea) for start, end, idea in said if {start, end} & edges)
    said = [found for found in said if SIDES[found[2]][1] & pairs] or said
    return SIDES[said[0][2]][0] != negated(evidence, said[0][0], NEGATIONS) if said else None


def _verb_places(evidence: Evidence) -> set[int]:
    """Where a command's verb or its particle may start or end: its first word that is neither a
    small word nor a negation and the word after it, and its last word."""
    words = [t for t in evidence.tokens if t.kind != "punct"]
    first = next((k for k, t in enumerate(words) if t.norm not in STOPWORDS | NEGATIONS), len(words))
    return {place for t in [*words[first : first + 2], *words[-1:]] for place in (t.start, t.end)}


def _asked_whether(slot: Slot, said: set[str], tool_words: set[str]) -> set[str]:
    """The words a flag's description asks about: "是否加急" -> {加急}, "Whether to gift-wrap it" ->
    {gift-wrap}, "true for metric" -> {metric}; and its words not the tool's, all `said` ("direct
    flights only" for "Only direct flights")."""
    described = str(slot.schema.get("description", ""))
    m = re.match(r"\s*(?:是否|要不要|whether (?:to |it is |the )?|is it )(\S+)", described, re.I)
    content = [t.norm for t in segment(clean(described)) if t.kind != "punct" and t.norm not in STOPWORDS]
    words = {concept(w) for w in content} - tool_words
    asked = {concept(m[1].strip("。.,，?？").casefold())} if m else set()
    return _described(TRUE_MEANS, slot) | asked | (set() if words - said else words)


def _described(side: re.Pattern[str], slot: Slot) -> set[str]:
    """The words a flag's description gives one side ("true for metric" -> {metric})."""
    described = str(slot.schema.get("description", ""))
    return {concept(w.casefold()) for w in side.findall(described) if w.casefold() not in STOPWORDS}


def flag_option(slot: Slot, evidence: Evidence) -> Any:
    """An enum that is a flag in words (`["True", "False", "dontcare"]`), set as a boolean would
    be: "with free parking" picks "True" for `free_parking`, "no free parking" picks "False"."""
    flags = {FLAG_WORDS[str(o).casefold()]: o for o in slot.schema["enum"] if str(o).casefold() in FLAG_WORDS}
    if len(flags) < 2:
        return None
    said = flag_value(slot, evidence)
    return None if said is None else flags.get(said)
