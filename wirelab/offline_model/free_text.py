"""Free text for string parameters: the words after a parameter's name, or what is left over.

    >>> labelled_text({"text"}, set(), 'a note with text water the plants, thanks')
    'water the plants'

A `query`, `message` or `content` parameter holds text, not a typed value. Two
readings, tried in order:

- `labelled_text`: what follows the parameter's own name ("…with text water
  the plants", "a note saying buy milk"), up to the end of its clause;
- `remainder`: the request without the tool's words, the action words and the
  values other parameters took; the first clause that keeps any words.

A text the request marks ("saying …", "titled …", "about …", 内容是…) takes the place of
what the assignment gave the parameter (`marked_text`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wirelab.encoder import encode
from wirelab.offline_model.lexicon import (
    ACTION_WORDS,
    ARTICLES,
    LISTS,
    STOPWORDS,
    VERBS,
    ZH_NUMERALS,
    alternatives,
    concepts_in,
    lexicon_list,
    lexicon_words,
    names_a_thing,
)
from wirelab.offline_model.names import SPEAKING, TELLING, TOLD, addressed
from wirelab.offline_model.normalize import FUNCTION_TAGS, HAN, Token, clean, segment
from wirelab.offline_model.spans import Spans
from wirelab.offline_model.units import unit_named

PARTICLES = lexicon_list("particles", VERBS)
HEARERS = ("me", "us", "him", "her", "them")  # whom a message is for: "Poke me to …"
SAYING = ("说", "讲", "say", "saying", "says")  # what a message says follows: 跟他说一声…, "saying …"
FEW = "几"  # "a few", a numeral: "几个"
DE = "的"  # what joins a modifier to its head noun
CLAUSE_ENDS = (",", ";", "?", "!", "，", "。")
LEADS = [lead + " " for lead in LISTS["text_leads"]]  # "a note saying buy milk"
REMINDING = lexicon_list("reminding_words")  # what asks to be reminded, not what of
MODIFIER_LEADS = lexicon_list("modifier_leads")
PURPOSES = set(LISTS["purpose_leads"])  # "… for my slideshow": what the thing is for
STARTS = PARTICLES | {lead for lead in LISTS["text_leads"] if " " not in lead}  # "Note down that …"


def labelled_text(names: set[str], tool_words: set[str], text: str) -> str | None:
    """The clause after the first word of `names` that is not one of the tool's own words."""
    names = names - tool_words
    tokens = segment(clean(text))
    for k, token in enumerate(tokens):
        if token.norm in names and k + 1 < len(tokens):
            rest = text[token.end :].lstrip(" :=-–—")
            for lead in LEADS:
                rest = rest.removeprefix(lead)
            clause = rest.split(",")[0].split(";")[0].strip(" .?!\"'")
            return clause or None
    return None


def after_colon(text: str, used: Sequence[tuple[int, int]] = ()) -> str | None:
    """What a request gives after its last colon, when that is the end of it and says something
    (two words, or two Chinese characters): "Read this aloud: the shop opens at nine" -> "the shop
    opens at nine", "发短信:我到楼下了" (`clean` writes "：" so) -> "我到楼下了", and no value another
    parameter took (`used`) is in it; a clock's colon ("at 4:30 pm") labels nothing.

    >>> after_colon("Read this aloud: the shop opens at nine"), after_colon("Call Ann at 4:30 pm")
    ('the shop opens at nine', None)
    """
    at = max((m.start() for m in re.finditer(r"(?<!\d):|:(?!\d)", text)), default=-1)
    head, tail = text[: max(at, 0)], text[at + 1 :].strip(" \"'")
    says = len(tail.split()) > 1 or len(re.findall(f"[{HAN}]", tail)) > 1
    whole = not any(start > at for start, _ in used)
    return None if at < 0 or not says or not whole or not head.strip() or "//" in tail[:2] else tail


def remainder(
    tokens: list[Token],
    text: str,
    used: list[tuple[int, int]],
    tool_words: set[str],
    clause: bool,
    content: bool = False,
) -> str:
    """`text` without the tool's words, action words and the `used` spans (see the module docstring).

    With `clause`, only the first comma-separated clause that keeps any words; without it (a
    list's items), not the unit of a number another parameter took either. With `content` (a
    note's or a message's text), the Chinese verbs and prepositions of what is to be done stay:
    "提醒我周四买牛奶" -> "买牛奶", "给房东打电话", not "牛奶", "房东打电话"; and when no clause names a
    thing, words of doing with nothing they are done to or for: "提醒我三点开会" -> "开会" (not 替我起草
    nor a verb of one character).
    """
    kept: list[Token] = []
    taken = Spans(used)
    purpose = _purpose(tokens) if clause and not content else set()
    saying = False  # within what a message says (after 说, "saying"): its verbs are its own
    for k, token in enumerate(tokens):
        measured = taken.holds(token.start - 1) or taken.holds(token.start - 2)
        previous = tokens[k - 1].norm if k else ""
        saying = content and token.text not in CLAUSE_ENDS and (saying or previous in SAYING)
        led = content and (token.tag[:1] == "p" or previous in {*STARTS, "to"} or saying)
        # "Text Mum I'm late": the verb that tells the person taken is no part of what is said
        told = token.norm in TELLING and k + 1 < len(tokens) and taken.holds(tokens[k + 1].start)
        action = (token.norm in ACTION_WORDS or told) and not led  # 给房东打电话, "a memo saying order paper"
        action |= content and token.norm in REMINDING or token.start in purpose  # 记得带伞, "… for my talk"
        if taken.holds(token.start):
            kept.append(Token(",", ",", "punct", token.start, token.end))
        elif _tool_word(token, tool_words) and not _written_whole(token, text) or action:
            continue
        elif not clause and measured and unit_named(token.norm) is not None:
            continue  # a list's items: not the unit of a number another parameter took ("30 minutes")
        else:
            kept.append(token)
    clauses: list[list[Token]] = [[]]
    for token in kept:
        if clause and token.text in CLAUSE_ENDS:
            clauses.append([])
        else:
            clauses[-1].append(token)
    for part in clauses:
        trimmed = trim(part)  # with `content`, words of doing alone say nothing: trimmed once more
        if content and (trimmed or _heard(part)[1]):  # what is said is said, small words too: 说我到了
            trimmed = trim(part, content)
        if trimmed:
            return join(trimmed, text)
    doing = [trim(part, content) for part in clauses] if content else []
    return next((join(d, text) for d in doing if all(t.tag[:1] != "p" for t in d) and _worded(d)), "")


def _worded(tokens: list[Token]) -> bool:
    """Whether a Chinese word of two characters or more is among the tokens: 开会 says what is to
    be done, a verb of one character (成 of 翻译成, 去) alone says nothing."""
    return any(t.kind == "han" and len(t.text) > 1 for t in tokens)


def _purpose(tokens: list[Token]) -> set[int]:
    """Where the words are that say what a thing is for, from "for my" to the end of the
    clause: "photos of lighthouses for my slideshow" looks for lighthouses."""
    held: set[int] = set()
    inside = False
    for k, token in enumerate(tokens):
        after = tokens[k + 1].norm if k + 1 < len(tokens) else ""
        if inside := inside and token.text not in CLAUSE_ENDS or f"{token.norm} {after}" in PURPOSES:
            held.add(token.start)
    return held


HEAD_NEAR = 0.25  # a tail this close to the tool's own text names the tool's thing…
HEAD_MARGIN = 0.2  # …when this much closer than what comes before it


def without_tool_head(value: str, own: str) -> str:
    """A Chinese value without a trailing head that names the tool's own thing, by the encoder
    (what is left names the subject), dividing where 的 does if it can: "关于登山的纪录片" for
    a tool that finds documentaries -> "登山"; "一碗牛肉面的价格" for a price tool -> "牛肉面"."""
    text = clean(value)
    tokens = trim(segment(text))
    if not own or not any(t.kind == "han" for t in tokens):
        return value
    splits = [k for k in range(1, len(tokens)) if trim(tokens[:k]) and tokens[k].kind == "han"]
    after_de = [k for k in splits if tokens[k - 1].text == DE]
    splits = after_de or splits  # "X的Y" divides where 的 does
    if not splits:
        return value
    heads = [join(trim(tokens[:k]), text) for k in splits]
    tails = [join(tokens[k:], text) for k in splits]
    vectors = encode([*heads, *tails, own])
    near = vectors[:-1] @ vectors[-1]
    gains = near[len(splits) :] - near[: len(splits)]
    best = max(range(len(splits)), key=lambda k: gains[k])
    return value if near[len(splits) + best] < HEAD_NEAR or gains[best] < HEAD_MARGIN else heads[best]


def trim(tokens: list[Token], content: bool = False) -> list[Token]:
    """The tokens without stopwords, punctuation and Chinese function words at either end
    ("来点爵士乐" -> "爵士乐": 来 is a verb, 点 a measure word); with `content`, the words of
    doing stay ("买牛奶", "给花浇水", "renew the lease")."""
    tokens, told = _heard(tokens) if content else (tokens, False)
    start, end = 0, len(tokens)
    while start < end and _leading(tokens[:end], start, content) and not (told and _says(tokens[start])):
        start += 1
    while end > start and (
        tokens[end - 1].kind == "punct" if told else _edge(tokens[end - 1], content, last=True)
    ):
        end -= 1  # what is said ends where it is said: 说我快到了, "… saying the gate is locked"
    return tokens[start:end]


def _heard(tokens: list[Token]) -> tuple[list[Token], bool]:
    """A message's words after whom it asks to be told, when they start it, and whether they
    are said to someone in Chinese: "Poke me to water the orchids" -> "to water the orchids";
    跟管理员说一声我们中午出发 -> 一声我们中午出发 (a preposition and the hearer before 说, or nothing)."""
    for k, token in enumerate(tokens[:3]):
        if token.norm in HEARERS and tokens[k + 1 : k + 2] and tokens[k + 1].norm in ("to", "that"):
            return tokens[k + 1 :], False
        if token.norm in SAYING and (k == 0 or tokens[0].tag[:1] == "p" or tokens[0].norm in STOPWORDS):
            return tokens[k + 1 :], True
    return tokens, False


def _says(token: Token) -> bool:
    """A word that starts what is said: a Chinese pronoun or word of when (我们 of 我们中午到, 下午
    of 下午的会改了), or any word of a spaced script ("say we are on our way")."""
    return token.kind == "han" and token.tag[:1] in ("r", "t") or token.kind == "word"


def _tool_word(token: Token, tool_words: set[str]) -> bool:
    """A word of the tool's own text, not a small one: "the" and "for" of 'Search the library
    for recordings' stay inside what is asked for ("a pair of avocets by the sluice")."""
    parts = concepts_in(token.norm, token.kind == "han")  # 发短信: send + 短信, a text message
    return (
        parts[0] in tool_words or parts[1:] != [] and set(parts[1:]) <= tool_words
    ) and token.norm not in STOPWORDS


def _written_whole(token: Token, text: str) -> bool:
    """Any part of an e-mail address ("a.b@x.example"): no word of the tool's to leave out."""
    before, after = text[max(0, token.start - 64) : token.start], text[token.end : token.end + 64]
    return "@" in re.findall(r"\S*$", before)[0] + token.text + re.findall(r"^\S*", after)[0]


def _doing(token: Token) -> bool:
    """A Chinese preposition, or a verb that is no small word nor a tool's action: part of what
    is to be done (买 of 买牛奶, 给 of 给花浇水)."""
    verb = token.tag[:1] == "v" and token.norm not in STOPWORDS and token.norm not in ACTION_WORDS
    return token.kind == "han" and (token.tag[:1] == "p" or verb)


def _leading(tokens: list[Token], k: int, content: bool) -> bool:
    """Token `k`, first of what is left, starts no value: a small word or a mark (`_edge`, not an article that
    starts a message's sentence: "the jib is torn"), a verb's particle or the word that says a text follows
    ("Note down that …", "a note saying …"); without `content`, a word that is only a verb or an adverb ("Put
    on some bedtime stories"), unless it describes the thing named next ("a creaking door")."""
    token, after = tokens[k], tokens[k + 1 : k + 2]
    titled = token.start > 0 and token.capitalised and bool(after) and after[0].capitalised  # "in The Hobbit"
    if token.norm in ARTICLES and after and (titled or content and not _leading(tokens, k + 1, content)):
        return False
    if _edge(token, content) or token.norm in STARTS:
        return True
    verb = token.kind == "word" and not names_a_thing(token.norm)
    return not content and verb and not describes(tokens[k - 1] if k else None, token, tokens[k + 1 :])


def describes(before: Token | None, token: Token, after: list[Token], thing: bool = False) -> bool:
    """Whether `token`, a verb's participle after a small word and before a thing's word (`thing`:
    the next word is known to name one), says what the thing is like, as an adjective does:
    "creaking" of "a creaking door"."""
    participle = token.kind == "word" and token.norm.endswith(("ed", "ing")) and token.norm not in STOPWORDS
    noun = [t.norm for t in after[:1] if t.kind == "word" and t.norm not in STOPWORDS]
    lead = before is not None and before.norm in MODIFIER_LEADS
    return participle and lead and bool(noun) and (thing or names_a_thing(noun[0]))


def _edge(token: Token, content: bool = False, last: bool = False) -> bool:
    """A stopword or a mark; or a Chinese word that names no thing (a verb used as a noun does,
    jieba's `vn`: 设计 of 设计评审会), a numeral or a one-character
    measure word (not a noun jieba tags `m`: "来点爵士乐"); with `content`, not a word of doing (a
    preposition that is the `last` word is one), and a word of when (周五, 明早: jieba's `t`) is one:
    a note says what, not when."""
    doing = _doing(token) and not (last and token.tag[:1] == "p")
    if content and (doing or token.tag[:1] == "t"):
        return not doing
    if token.norm in STOPWORDS or token.kind == "punct":
        return True
    numeral = token.tag[:1] == "m" and (
        len(token.text) == 1 or any(ch in ZH_NUMERALS or ch == FEW for ch in token.text)
    )
    return token.kind == "han" and (token.tag[:1] in FUNCTION_TAGS and token.tag != "vn" or numeral)


def join(tokens: list[Token], text: str) -> str:
    """The tokens as written: the original text between them where they are adjacent."""
    pieces = [tokens[0].text]
    for previous, token in zip(tokens, tokens[1:], strict=False):
        gap = text[previous.end : token.start]
        pieces.append((gap if gap.strip() == "" and len(gap) < 3 else " ") + token.text)
    return "".join(pieces)


COMMAND_LEAD = re.compile(
    rf"(?:{alternatives(lexicon_words('command_leads'))})\s+"
    r"(?:(?:the|this|a|an)\s+)?(?:(?:exact|following|shell|terminal)\s+)?(?:commands?\b\s*:?\s*)?"
    r"|\bcommands?\s*:?\s+",
    re.I,
)
NOT_A_PROGRAM = lexicon_list("not_programs")


def command_span(text: str) -> tuple[int, int] | None:
    """Where a request writes out a shell command: after the last of what introduces one
    ("using", "run", "the command") followed by what can be one, the rest of its sentence.

    >>> for text in ("show my files using ls -la ~/notes", "free some space, run the command du -sh /tmp.",
    ...              "tidy the build using the make clean command", "show my files, please"):
    ...     span = command_span(text)
    ...     print(text[span[0] : span[1]] if span else None)
    ls -la ~/notes
    du -sh /tmp
    make clean
    None
    """
    found = None
    for lead in COMMAND_LEAD.finditer(text):
        rest = re.split(r"[.?!;](?:\s|$)|,\s+(?:and|then|please)\b", text[lead.end() :] + " ")[0]
        rest = re.sub(r"\s+commands?\s*$", "", rest.rstrip())
        words = rest.split()
        if words and words[0].casefold().strip("'\"`") not in NOT_A_PROGRAM and len(words) <= 12:
            start, end = lead.end(), lead.end() + len(rest)
            while start < end and text[start] in "'\"`":
                start += 1
            while end > start and text[end - 1] in "'\"`":
                end -= 1
            found = (start, end)
    return found


MARKED = [  # (what starts a text, the words of the names of the parameters that take it)
    (LISTS[marks], lexicon_list(takers) | extra)
    for marks, takers, extra in (
        ("saying_marks", "said_parameters", frozenset()),
        ("naming_marks", "named_parameters", lexicon_list("naming")),
        ("topic_marks", "topic_parameters", frozenset()),
    )
]
ANY_MARK = alternatives(mark for marks, _ in MARKED for mark in marks)
TEXT_END = re.compile(rf"[,;!?，。；！？]|\.(?:\s|$)|\s+and\s+(?:{ANY_MARK})", re.I)  # "… and say …"
ENDERS = alternatives(lexicon_words("name_enders"))
OWNED = re.compile(rf"\s+(?:{alternatives(STOPWORDS)})\s+(?:{ENDERS})\b|{DE}")  # "… on the board"
QUOTES = {'"': '"', "'": "'", "《": "》", "『": "』"}


def marked_text(names: set[str], text: str, typed: Sequence[tuple[int, int]] = ()) -> str | None:
    """What a request writes after a word that marks a parameter's text (`MARKED`, by the words of
    the parameter's name): a message's after "saying" or 说, a title's after "titled" or 标题是, a
    topic's after "about"; quoted, or to the end of its clause or an "and" with another such word (a
    name or a topic: to "on the …", "for my …" or 的); without the values other parameters took
    (`typed`) that end it, nor the small words before them ("… at 3pm"); not a quote one took.

    >>> marked_text({"message"}, "Text Ann saying the gate is locked, and pin it")
    'the gate is locked'
    >>> marked_text({"text"}, "Remind me at 6 that the van comes at noon", [(37, 41)])
    'the van comes'
    """
    text = clean(text)
    if (start := _text_start(names, text)) is None:
        return None
    if text[start : start + 1] in QUOTES and Spans(typed).holds(start):
        return None  # a quote another parameter took
    if text[start : start + 1] in QUOTES and (close := text.find(QUOTES[text[start]], start + 1)) > start + 1:
        return text[start + 1 : close].strip() or None
    said = names & MARKED[0][1] and not names & (MARKED[1][1] | MARKED[2][1])  # a message says "on my desk"
    ends = [
        m.start() for m in (TEXT_END.search(text, start), None if said else OWNED.search(text, start)) if m
    ]
    end = start + len(text[start : min([*ends, len(text)])].rstrip(" .?!\"'"))
    while (cut := min((a for a, b in typed if start < a < end <= b), default=start)) > start:
        words = text[start:cut].split(" ")
        while len(words) > 1 and words[-1].casefold() in STOPWORDS | {""}:
            words.pop()  # "… at noon": not "at"
        end = start + len(" ".join(words))
    return text[start:end].strip() or None


def _text_start(names: set[str], text: str) -> int | None:
    """Where the text marked for a parameter named by `names` starts: after its mark ("saying", 说,
    "titled"), or, for what a message says, at the speaker's word, or a Chinese word, right after the
    person a request tells, with no mark ("Text Mum I'm running late", "Tell Sam we'll be there at 5",
    提醒王芳带伞), or after the word the telling verb needs, or "to", there ("Let Tom know I need the
    car", "Remind Leo to call")."""
    marks = [mark for marks, takers in MARKED if names & takers for mark in marks]
    if not marks:
        return None
    tokens = segment(text)
    bounds = {at for t in tokens for at in (t.start, t.end)}
    pattern = re.compile(alternatives(marks), re.I)
    if found := next((m for m in pattern.finditer(text) if {m.start(), m.end()} <= bounds), None):
        start = found.end()
        while (again := pattern.match(text, _after(text, start))) and again.end() in bounds:
            start = again.end()  # "… that says Bake Sale", "saying that …"
        return _after(text, start)
    if not names & MARKED[0][1]:
        return None
    ends = {end for _, end in addressed(tokens)}
    pairs = list(zip(tokens[1:], tokens, strict=False))
    leads = TOLD | {"to", ":"}  # "let Tom know …", "remind Leo to …", "Message Lucas: …"; not 发 of 发个消息
    led = {t.end for t, before in pairs if before.end in ends and t.norm in leads and t.kind != "han"}
    # the speaker's word, or any Chinese word but a particle or 说, 发… (跟他说, 发邮件): 提醒王芳带伞
    chinese = [t for t in tokens if t.kind == "han" and t.tag[:1] != "u"]
    opens = {t.end for t in chinese if not t.norm.startswith(tuple(TOLD))}
    opens |= {t.end for t in tokens if t.norm in SPEAKING}
    told = (t for t, before in pairs if before.end in led or before.end in ends and t.end in opens)
    return next((t.start for t in told), None)


def told_span(text: str) -> tuple[int, int] | None:
    """Where a request writes, after the person it tells, what they are to be told (`_text_start`
    for a message, to the end of its clause): "Tell Nadia I found her umbrella" asks for no umbrella."""
    told = addressed(segment(text))
    start = _text_start({"message"}, text) if told else None
    if start is None or start < told[0][1]:
        return None
    return start, end.start() if (end := TEXT_END.search(text, start)) else len(text)


def _after(text: str, at: int) -> int:
    """Where the text goes on after `at`, past spaces and a colon."""
    return len(text) - len(text[at:].lstrip(" :"))
