"""Stage 2a, find the intents: cut a message into pieces that may each ask for something.

    >>> [(p.text, p.joiner) for p in pieces("Weather in Paris and convert 3 EUR to USD, then email Ann")]
    [('Weather in Paris', ''), ('convert 3 EUR to USD', 'and'), ('email Ann', 'then')]

A piece ends at a sentence mark (`. ? ! ;` and their Chinese forms; not the full stop of
"Mr." or "Inc."), at the end of a line, at "then", "also", the words that order tasks
("finally", "lastly", "secondly", …), "然后", "另外", "还有", "并且", "同时", "最后", and at
"and"/"plus"/"as well as"/"和". Never inside quotes, nor between two numbers ("50, 68 and 86")
or two Chinese names or days (伦敦和巴黎, 明天和后天). A message pasted in one pair of quotes
is read without them (`unwrap`). The cut is only a proposal: `selection.plan` keeps a piece
as its own intent only when it asks for a tool by itself, and otherwise glues it back to the
piece before ("a triangle with base 10 *and height 5*" is one intent, "weather in Paris *and
where is my order*" two). One linear scan over the tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

from wirelab.offline_model.budget import spend
from wirelab.offline_model.extraction import QUOTED
from wirelab.offline_model.lexicon import lexicon_list
from wirelab.offline_model.normalize import Token, clean, segment
from wirelab.offline_model.spans import Spans

STRONG = {"?", "!", ";", "。", "？", "！", "；"}
THEN = lexicon_list("intent_then")  # words that start another task
AND = lexicon_list("intent_and")
INSIDE = lexicon_list("intent_inside")  # "would also": the task goes on
DAYS = lexicon_list("day_words")  # "today and tomorrow" lists days, as 明天和后天 does
JOINER_RANK = ["", ",", ".", "and", "then"]  # of marks in a row, the one that says most
ABBREVIATIONS = lexicon_list("abbreviations")  # "Mr." ends no sentence
NAME_TAGS = ("ns", "nr", "t")  # jieba's tags of a place's and a person's name, and of a day


@dataclass(frozen=True)
class Piece:
    """A stretch of the message, and the word that joined it to the one before ('' for the first)."""

    text: str
    joiner: str
    start: int = 0  # where the piece starts and ends in `normalize.clean(message)`
    end: int = 0
    sentence: bool = False  # whether it starts a sentence (". Finally, …" joins by "then")


def unwrap(text: str) -> str:
    """The message without one pair of quotes around all of it: a request pasted in quotes is
    the request, not a quoted value.

    >>> unwrap('"Add 2 and 3, then double it."')
    'Add 2 and 3, then double it.'
    >>> unwrap('"Hello" is what I said')
    '"Hello" is what I said'
    """
    inner = text.strip()
    if len(inner) > 2 and inner[0] in "\"'" and inner[-1] == inner[0] and inner[0] not in inner[1:-1]:
        return inner[1:-1].strip()
    return text


def pieces(text: str) -> list[Piece]:
    """The message cut at every possible intent boundary (see the module docstring)."""
    text = clean(text)
    tokens = segment(text)
    found: list[Piece] = []
    quoted = Spans((m.start() + 1, m.end() - 1) for m in QUOTED.finditer(text))  # 'Are you in? Call me.'
    start, joiner, sentence = 0, "", True
    for k, token in enumerate(tokens):
        spend()
        if quoted.holds(token.start):
            continue
        cut = _cut_word(tokens, k)
        if cut is None and k and "\n" in text[tokens[k - 1].end : token.start]:  # a line per request
            cut, token = ".", Token("", "", "punct", token.start, token.start)
        if cut is None:
            continue
        if not text[start : token.start].strip(" ,.，、:：\n"):  # two marks in a row (". Finally,")
            joiner = max(joiner, cut, key=JOINER_RANK.index)
            sentence = sentence or cut == "."
        else:
            _add(found, text, start, token.start, joiner, sentence)
            joiner, sentence = cut, cut == "."
        start = token.end
    _add(found, text, start, len(text), joiner, sentence)
    return found


def _cut_word(tokens: list[Token], k: int) -> str | None:
    """The kind of boundary token k is: '.', 'then', 'and', or None."""
    token = tokens[k]
    if token.text in STRONG or token.text == "." and _ends_sentence(tokens, k):
        return "."
    if token.norm in THEN:
        return None if k and tokens[k - 1].norm in INSIDE and token.norm == "also" else "then"
    if _between_values(tokens, k):
        return None
    if token.norm in AND:
        return "and"
    inside = 0 < k < len(tokens) - 1 and tokens[k - 1].capitalised and tokens[k + 1].capitalised  # "Riga, LV"
    return "," if token.text in (",", "，") and not inside else None


def _between_values(tokens: list[Token], k: int) -> bool:
    """A comma or "and" that lists numbers ("50, 68 and 86 degrees", 半径为2和5), Chinese names
    of places or people (伦敦和巴黎的天气, 张三和李四) or days (明天和后天) joins values, not tasks."""
    if not 0 < k < len(tokens) - 1:
        return False
    before, after = tokens[k - 1], tokens[k + 1]
    days = before.norm in DAYS and after.norm in DAYS
    return before.kind == after.kind == "number" or before.tag[:2] == after.tag[:2] in NAME_TAGS or days


def _ends_sentence(tokens: list[Token], k: int) -> bool:
    """A full stop that ends a sentence: followed by a space or the end, not after a title or
    an abbreviation ("Mr. Lee", "Acme Inc. and …") or an initial ("J. Smith")."""
    if k and tokens[k - 1].end == tokens[k].start:
        before = tokens[k - 1]
        if before.norm in ABBREVIATIONS or len(before.text) == 1 and before.text.isupper():
            return False
    return k + 1 == len(tokens) or tokens[k + 1].start > tokens[k].end


def _add(found: list[Piece], text: str, start: int, end: int, joiner: str, sentence: bool) -> None:
    """Add text[start:end] as a piece, without the punctuation and connectives at its ends."""
    while start < end and text[start] in " ,.，、:：":
        start += 1
    while end > start and text[end - 1] in " ,.，、:：":
        end -= 1
    if start < end:
        found.append(Piece(text[start:end], joiner, start, end, sentence))
