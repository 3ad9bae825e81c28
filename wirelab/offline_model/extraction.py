"""Stage 3, extract typed values: everything in a request that could fill a parameter.

    [(v.kind, v.value) for v in extract("Convert 250 euros to Japanese yen tomorrow")]
    # -> [('number', 250), ('currency', 'EUR'), ('currency', 'JPY'), ('date', 'tomorrow'),
    #     ('name', 'Japanese')]

Each `Value` knows its kind, its typed value, the words as written and where
it sits, so `binding` can use position cues ("from X to Y"). Kinds:

- `number`: digits (`1,250.5`, `-3`), English words ("ten", "twenty five",
  "two hundred") and Chinese numerals ("十五", "两千"); `unit` is the word after it.
- `date` / `time`: ISO dates, "May 1", weekdays, "today"/"tomorrow"/"明天"/"下周一",
  "3pm", "15:30". Kept as written: resolving "tomorrow" needs a clock, and the
  model must answer the same request the same way every day.
- `currency`, `country`, `language`: names in English or Chinese, ISO codes
  and symbols, from the CLDR data that `Babel` ships ("yen", "日元", "JPY", "¥").
- `email`, `url`, `quoted` ("…" or '…'), `code` (identifiers such as `A-123`,
  `#42`, `BA2490`, `AAPL`), `name` (capitalised words: "New York", "Thai";
  in Chinese, a word jieba tags as a place, person or organisation name: "北京").

Every pattern is anchored and bounded, so extraction is linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from babel import Locale

from wirelab.offline_model.dates import find_dates, stated_spans
from wirelab.offline_model.lexicon import (
    ACTION_WORDS,
    EN_NUMBERS,
    EN_SCALES,
    GENERIC,
    STOPWORDS,
    ZH_DIGITS,
    ZH_UNITS,
    known,
)
from wirelab.offline_model.normalize import Token, segment
from wirelab.offline_model.places import city, state_code
from wirelab.offline_model.units import Unit, unit_named

EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")
URL = re.compile(r"https?://[^\s\"'<>]{1,500}")
HOST = re.compile(
    r"(?<![\w.@/-])(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]{2,63}(?:\.[A-Za-z0-9-]{2,63}){0,6}\.[A-Za-z]{2,12})"
    r"(?::\d{1,5})?(?![\w@-])"
)
QUOTED = re.compile(r"\"([^\"\n]{1,500})\"|(?<!\w)'([^'\n]{1,500})'(?!\w)|`([^`\n]{1,500})`")
ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?Z?)?(?!\d)")
CODE = re.compile(r"(?<![\w#-])#?[A-Za-z0-9]{1,20}(?:[-_][A-Za-z0-9]{1,20}){0,4}(?![\w-])")
_STREET = r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Place|Pl|Court|Ct|Square)"
ADDRESS = re.compile(
    rf"(?<![\w-])\d{{1,6}} (?:[A-Z][\w'-]*\.? ){{1,4}}{_STREET}\b\.?"
    r"(?:, [A-Z][a-z]+(?: [A-Z][a-z]+){0,2}){0,3}(?:, [A-Z]{2}\b)?(?:, [A-Z][A-Za-z]+)?"
)
PHONE = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ -]?\(?\d{1,4}\)?){2,5}(?![\w-])")
CLOCK = re.compile(
    r"(?<![\d:])\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|(?<![\d:])\d{1,2}:\d{2}(?![\d:])", re.I
)
ZH_NUMBER = re.compile(r"[零〇一二两三四五六七八九十百千万亿]{1,12}")
SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW"}
ORDINAL_ENDS = {"st", "nd", "rd", "th", "am", "pm", "k"}
NAME_JOINERS = {"de", "da", "del", "of", "la", "le", "van", "von", "du", "los", "las", "san"}


@dataclass(frozen=True)
class Value:
    """One typed value found in the text: what it is, what it means, and where it is."""

    kind: str
    value: Any
    text: str
    start: int
    end: int
    unit: str = ""  # for a number, the unit written after it
    dimension: str = ""  # for a number, what its unit measures ("length", "time", …)
    unit_words: int = 0  # for a number, how many tokens its unit takes
    region: str = ""  # for a name, the name with the region written after it: "Riga, Latvia"


def extract(text: str, tokens: list[Token] | None = None) -> list[Value]:
    """Every value in `text` (already `normalize.clean`ed), in the order they appear."""
    tokens = segment(text) if tokens is None else tokens
    stated = stated_spans(text)  # "today is 2023.10.1" sets the day; it is not a value
    dates = [Value("date", text[a:b], text[a:b], a, b) for a, b in find_dates(tokens, text)]
    dates = [d for d in dates if not _overlaps(d, stated)]
    patterns = _patterns(text) + dates
    spans = [(v.start, v.end) for v in patterns if v.kind != "quoted"]
    found = patterns + [
        n for n in _numbers(tokens, text) if not _overlaps(n, spans)
    ]  # not 2026 of 2026-05-01
    taken = [(v.start, v.end) for v in found]
    names = [v for v in _names(tokens, text) if not _overlaps(v, taken)]
    world = _world_names(tokens, text)
    found += [
        w for w in world if not any(n.start <= w.start and w.end <= n.end and n.text != w.text for n in names)
    ]
    taken = [(v.start, v.end) for v in found]
    found += [n for n in names if not _overlaps(n, taken)]  # "Persian Empire" is a name; "Persian" a language
    found += _units(tokens, text, found)
    return sorted(found, key=lambda v: (v.start, -v.end))


def _units(tokens: list[Token], text: str, found: list[Value]) -> list[Value]:
    """Units named on their own ("in Fahrenheit") or after a number ("4 inches"), as written."""
    after_number = {v.end for v in found if v.kind == "number"}
    taken = [(v.start, v.end) for v in found if v.kind != "name"]
    units, k = [], 0
    while k < len(tokens):
        unit, written, length = unit_at(tokens, k, text)
        token = tokens[k]
        spelled = len(written) > 2 or token.kind == "han" or written.startswith("°")
        close = any(0 <= token.start - end <= 1 for end in after_number)
        if unit and (spelled or close) and written.casefold() not in STOPWORDS:
            value = Value("unit", unit.symbol, written, token.start, token.start + len(written), written)
            if not _overlaps(value, taken):
                units.append(value)
            k += length
        else:
            k += 1
    return units


def _overlaps(value: Value, spans: list[tuple[int, int]]) -> bool:
    return any(start < value.end and value.start < end for start, end in spans)


def _patterns(text: str) -> list[Value]:
    found = [Value("email", m.group(), m.group(), m.start(), m.end()) for m in EMAIL.finditer(text)]
    found += [Value("url", m.group(), m.group(), m.start(), m.end()) for m in URL.finditer(text)]
    urls = [(v.start, v.end) for v in found]
    for m in HOST.finditer(text):  # a host name or an IP address: "db.example.com", "10.0.0.5:8080"
        host = Value("url", m.group(), m.group(), m.start(), m.end())
        if not _overlaps(host, urls):
            found.append(host)
    for m in QUOTED.finditer(text):
        inner = next(g for g in m.groups() if g is not None)
        found.append(Value("quoted", inner, inner, m.start(), m.end()))
    found += [Value("time", m.group(), m.group(), m.start(), m.end()) for m in CLOCK.finditer(text)]
    for m in ADDRESS.finditer(text):  # "2020 Addison Street, Berkeley, CA": one place, not a number
        found.append(Value("name", m.group(), m.group(), m.start(), m.end()))
    for m in PHONE.finditer(text):  # "+39 333 1234567": one number to dial, not three values
        found.append(Value("code", m.group(), m.group(), m.start(), m.end()))
    addresses = [(v.start, v.end) for v in found if v.kind == "name"]
    for m in CODE.finditer(text):
        word = m.group()
        if _looks_like_code(word) and not any(a <= m.start() < b for a, b in addresses):
            found.append(Value("code", word.lstrip("#"), word, m.start(), m.end()))
    return found


def _looks_like_code(word: str) -> bool:
    """`A-123`, `#42`, `BA2490`, `ord_7`, `AAPL`: letters with digits, a `#`, or 2-5 capitals."""
    if word.startswith("#"):
        return len(word) > 1
    letters, digits = any(c.isalpha() for c in word), any(c.isdigit() for c in word)
    if letters and digits:
        measure = re.fullmatch(r"\d+(?:\.\d+)?([a-zµμ°]+)", word, re.I)  # "6cm", "5000m", "2nd"
        return not (measure and (unit_named(measure[1]) or measure[1].lower() in ORDINAL_ENDS))
    return word.isupper() and word.isalpha() and 2 <= len(word) <= 5


def _numbers(tokens: list[Token], text: str) -> list[Value]:
    """Digit numbers, English number words and Chinese numerals, each with the unit after it."""
    found, k = [], 0
    while k < len(tokens):
        token = tokens[k]
        if k and tokens[k - 1].text in ("^", "*") and tokens[k - 1].end == token.start:
            k += 1  # an exponent in a formula ("x^2", "m/s^2") is not a value of its own
            continue
        if token.kind == "number" and "," in token.text and _digits(token.text) is None:
            found += _comma_list(token)  # "5,10" written without a space is two numbers
            k += 1
            continue
        value, length = _number_at(tokens, k)
        if value is None:
            k += 1
            continue
        last = tokens[k + length - 1]
        negative = k > 0 and tokens[k - 1].text == "-" and tokens[k - 1].end == token.start
        start = tokens[k - 1].start if negative else token.start
        unit, written, words = unit_at(tokens, k + length, text)
        dimension = unit.dimension if unit else ""
        found.append(
            Value(
                "number",
                -value if negative else value,
                token.text,
                start,
                last.end,
                written,
                dimension,
                words,
            )
        )
        k += length
    return [value for value in found if not _count(value, found) and not _pronoun(value, tokens)]


def _pronoun(value: Value, tokens: list[Token]) -> bool:
    """'one with a radius of 5 …, the other …': "one" standing for a thing, not a number."""
    if value.text.casefold() != "one" or value.unit:
        return False
    after = next((t for t in tokens if t.start >= value.end), None)
    return after is None or after.norm in ("with", "of", "that", "which", "who", "and", "or", "is", "for")


def _count(value: Value, found: list[Value]) -> bool:
    """'two numbers: 40 and 50', 'two charges of 5C and 7C': a number word before a noun that
    is followed by at least that many numbers in digits counts them; it is not a value itself."""
    if value.kind != "number" or value.text[:1].isdigit() or value.unit or value.text.startswith("-"):
        return False
    later = [v for v in found if v.start > value.end and v.text[:1].isdigit()]
    return isinstance(value.value, int) and 1 < value.value <= len(later)


def unit_at(tokens: list[Token], k: int, text: str) -> tuple[Unit | None, str, int]:
    """The unit written from token k on ("km", "square meters", "m/s^2", "公里"), as written,
    and how many tokens it takes; one to five tokens, no wider gap than a space."""
    for length in range(min(5, len(tokens) - k), 0, -1):
        first, last = tokens[k], tokens[k + length - 1]
        written = text[first.start : last.end]
        if "  " in written or "," in written or length > 1 and first.kind == "han" and len(written) > 4:
            continue
        unit = unit_named(re.sub(r"\s+", " ", written))
        if unit:
            return unit, written, length
    if k < len(tokens) and tokens[k].kind == "han":  # jieba may keep a unit inside a word: "公里数"
        for end in range(len(tokens[k].text) - 1, 0, -1):
            unit = unit_named(tokens[k].text[:end])
            if unit:
                return unit, tokens[k].text[:end], 1
    return None, "", 0


def _comma_list(token: Token) -> list[Value]:
    found, at = [], token.start
    for part in token.text.split(","):
        number = _digits(part)
        if number is not None:
            found.append(Value("number", number, part, at, at + len(part)))
        at += len(part) + 1
    return found


def _number_at(tokens: list[Token], k: int) -> tuple[int | float | None, int]:
    token = tokens[k]
    if token.kind == "number":
        number = _digits(token.text)
        scale = tokens[k + 1].norm if k + 1 < len(tokens) else ""
        if number is not None and scale in EN_SCALES:  # "213 million", "8.5 billion"
            return _whole(number * EN_SCALES[scale]), 2
        return number, 1
    if token.kind == "word" and token.norm in EN_NUMBERS:
        total, length = EN_NUMBERS[token.norm], 1
        while k + length < len(tokens):
            word = tokens[k + length].norm
            if word in EN_NUMBERS and EN_NUMBERS[word] < 10 <= total and total % 10 == 0:
                total += EN_NUMBERS[word]
            elif word in EN_SCALES:
                total *= EN_SCALES[word]
            elif (
                word != "and"
                or k + length + 1 >= len(tokens)
                or tokens[k + length + 1].norm not in EN_NUMBERS
            ):
                break
            length += 1
        return total, length
    if token.kind == "han":
        match = ZH_NUMBER.fullmatch(token.text) or ZH_NUMBER.match(token.text)
        if (
            match
            and (len(match.group()) > 1 or match.group() not in "一两")
            or match
            and _han_unit(token, match)
        ):
            return chinese_number(match.group()), 1
    return None, 1


def _han_unit(token: Token, match: re.Match[str]) -> bool:
    return unit_named(token.text[match.end() :]) is not None


def _whole(number: float) -> int | float:
    return int(number) if float(number).is_integer() else number


def _digits(text: str) -> int | float | None:
    if ":" in text or "/" in text:
        return None
    plain = text.replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text) else text
    try:
        number = float(plain)
    except ValueError:
        return None
    return int(number) if number.is_integer() and "." not in plain else number


def chinese_number(text: str) -> int:
    """A Chinese numeral as an integer: '十五' -> 15, '两千三百' -> 2300, '一二三' -> 123."""
    if not any(ch in ZH_UNITS for ch in text):
        return int("".join(str(ZH_DIGITS[ch]) for ch in text))
    total, section, digit = 0, 0, 0
    for ch in text:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
        elif ch in ("万", "亿"):
            total = (total + section + digit) * ZH_UNITS[ch]
            section, digit = 0, 0
        else:
            section += (digit or 1) * ZH_UNITS[ch]
            digit = 0
    return total + section + digit


@lru_cache(maxsize=1)
def world_names() -> dict[str, tuple[str, str]]:
    """Lower-cased name -> (kind, ISO code) for currencies, countries and languages (CLDR, en and zh)."""
    table: dict[str, tuple[str, str]] = {}
    for tag in ("en", "zh"):
        locale = Locale.parse(tag)
        for kind, names in (
            ("language", locale.languages),
            ("country", locale.territories),
            ("currency", locale.currencies),
        ):
            for code, name in names.items():
                if kind == "country" and not code.isalpha():
                    continue
                table[name.casefold()] = (kind, code)
                if kind == "currency" and tag == "en":
                    table.setdefault(name.casefold() + "s", (kind, code))  # "Swiss francs"
                    last = name.casefold().split()[-1]
                    table.setdefault(last, (kind, code))
                    table.setdefault(last + "s", (kind, code))
    for short, code in (("dollar", "USD"), ("dollars", "USD"), ("pound", "GBP"), ("pounds", "GBP")):
        table[short] = ("currency", code)
    table |= {"euros": ("currency", "EUR"), "yuan": ("currency", "CNY"), "rmb": ("currency", "CNY")}
    return table


def _world_names(tokens: list[Token], text: str) -> list[Value]:
    """Currencies, countries and languages named by one to three words, a code or a symbol."""
    table, found, k = world_names(), [], 0
    while k < len(tokens):
        for length in (3, 2, 1):
            window = tokens[k : k + length]
            if len(window) < length or any(t.kind == "punct" and t.text not in SYMBOLS for t in window):
                continue
            phrase = text[window[0].start : window[-1].end].casefold()
            hit = table.get(phrase) or _code_or_symbol(window[0]) if length == 1 else table.get(phrase)
            if hit:
                written = text[window[0].start : window[-1].end]
                found.append(Value(hit[0], hit[1], written, window[0].start, window[-1].end))
                k += length - 1
                break
        k += 1
    return found


def _code_or_symbol(token: Token) -> tuple[str, str] | None:
    if token.text in SYMBOLS:
        return ("currency", SYMBOLS[token.text])
    if len(token.text) == 3 and token.text.isupper() and token.text in Locale.parse("en").currencies:
        return ("currency", token.text)
    return None


def _names(tokens: list[Token], text: str) -> list[Value]:
    """Proper nouns: runs of capitalised words ("New York"), and Chinese words the lexicon lacks."""
    found, k = _cities_after_prepositions(tokens, text), 0
    while k < len(tokens):
        token = tokens[k]
        if any(v.start <= token.start < v.end for v in found):
            k += 1
            continue
        if token.kind == "han" and _chinese_name(token):
            found.append(Value("name", token.text, token.text, token.start, token.end))
        elif token.capitalised and not _sentence_start_word(tokens, k):
            end = k
            while end + 1 < len(tokens) and (
                tokens[end + 1].capitalised
                or tokens[end + 1].norm in NAME_JOINERS
                and end + 2 < len(tokens)
                and tokens[end + 2].capitalised
            ):
                end += 1
            if _numbered(tokens, end):
                end += 1  # "Maroon 5", "Windows 10", "S&P 500": a number that ends a name
            phrase = text[token.start : tokens[end].end]
            if phrase not in ("I", "I'm", "I'd", "I'll", "I've") and not unit_named(phrase):
                region = _region(tokens, k, end, text)
                found.append(Value("name", phrase, phrase, token.start, tokens[end].end, region=region))
                if region and region.startswith(phrase + ","):  # "UK" of "London, UK": a name too
                    part = region[len(phrase) + 1 :].strip()
                    at = text.find(part, tokens[end].end)
                    found.append(Value("name", part, part, at, at + len(part)))
            k = end
        k += 1
    return found


def _numbered(tokens: list[Token], end: int) -> bool:
    """Whether the name ending at token `end` goes on with a whole number that counts nothing:
    nothing, a mark or a joining word comes after it ("Maroon 5, …", "Windows 10.")."""
    if end + 1 >= len(tokens) or not tokens[end + 1].text.isdigit():
        return False
    number, after = tokens[end + 1], tokens[end + 2] if end + 2 < len(tokens) else None
    spaced = number.start == tokens[end].end + 1
    return spaced and (after is None or after.kind == "punct" or after.norm in ("and", "or", "&"))


PLACE_PREPOSITIONS = {"in", "at", "near", "from", "to", "around", "for"}


def _cities_after_prepositions(tokens: list[Token], text: str) -> list[Value]:
    """Cities the gazetteer knows, written in any case after "in", "from", "to", …: "in berkeley",
    "in New york" (a capitalised name is found anyway; this finds the lower-case ones)."""
    found = []
    for k, token in enumerate(tokens[1:], start=1):
        if tokens[k - 1].norm not in PLACE_PREPOSITIONS or token.kind != "word" or token.norm in STOPWORDS:
            continue
        for length in (3, 2, 1):
            window = tokens[k : k + length]
            if len(window) == length and all(t.kind == "word" for t in window):
                written = text[window[0].start : window[-1].end]
                if not written.islower() and not written[0].isupper():
                    continue
                if city(written) and (length > 1 or not written[0].isupper()):
                    found.append(Value("name", written, written, window[0].start, window[-1].end))
                    break
    return found


CHINESE_NAMES = {"ns", "nr", "nrt", "nrfg", "nt", "nz", "eng"}  # jieba's tags for proper nouns


def _region(tokens: list[Token], first: int, end: int, text: str) -> str:
    """'Riga, Latvia' for the name 'Riga' when capitalised words follow its comma, else ''."""
    if end + 2 < len(tokens) and tokens[end + 1].text == "," and tokens[end + 2].capitalised:
        last = end + 2
        while last + 1 < len(tokens) and tokens[last + 1].capitalised:
            last += 1
        listed = last + 1 < len(tokens) and tokens[last + 1].norm in ("and", "or", "&", ",")
        return "" if listed else text[tokens[first].start : tokens[last].end]
    after = tokens[end + 1] if end + 1 < len(tokens) else None
    lower_state = (
        after is not None and after.text.islower() and len(after.text) > 2 and state_code(after.text)
    )
    if after is not None and after.kind == "word" and lower_state:
        return f"{text[tokens[first].start : tokens[end].end]}, {after.text}"  # "San Leandro california"
    return ""


def _chinese_name(token: Token) -> bool:
    """A Chinese proper noun by its part of speech: a place, a person, an organisation."""
    return token.tag in CHINESE_NAMES and token.text not in STOPWORDS and not known(token.text)


def _sentence_start_word(tokens: list[Token], k: int) -> bool:
    """A capital that only starts a sentence: 'Book a table', 'Identify the gene' (a known word,
    or one followed by a lower-case word, as an imperative is), not 'Paris', 'New York'."""
    starts = k == 0 or tokens[k - 1].text in (".", "?", "!", ":", ";", '"', "'", "(")
    if not starts:
        return False
    word = tokens[k].norm
    follower = tokens[k + 1] if k + 1 < len(tokens) else None
    lower_next = follower is not None and follower.kind == "word" and follower.text.islower()
    adverb = word.endswith("ly") and follower is not None and follower.text == ","  # "Ideally, …"
    return word in STOPWORDS or known(word) or _is_verb(tokens[k]) or lower_next or adverb


def _is_verb(token: Token) -> bool:
    return token.norm in ACTION_WORDS or token.norm in GENERIC


def list_items(phrase: str) -> list[str]:
    """Items of a written list: 'eggs, milk and bread' -> ['eggs', 'milk', 'bread']; '鸡蛋和牛奶' too."""
    parts = re.split(r",|;|、|，|\band\b|\bor\b|\bplus\b|和|与|及|以及|或", phrase)
    items = [_trim(part) for part in parts]
    return [item for item in items if item]


def _trim(text: str) -> str:
    tokens = text.split()
    while tokens and tokens[0].lower().strip(".,:;!?\"'") in STOPWORDS:
        tokens.pop(0)
    while tokens and tokens[-1].lower().strip(".,:;!?\"'") in STOPWORDS:
        tokens.pop()
    return " ".join(tokens).strip(" .,:;!?\"'")
