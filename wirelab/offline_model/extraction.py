"""Stage 3, extract typed values: everything in a request that could fill a parameter.

    >>> [(v.kind, v.value) for v in extract("Convert 250 euros to Japanese yen tomorrow")]
    [('number', 250), ('currency', 'EUR'), ('currency', 'JPY'), ('date', 'tomorrow')]

Each `values.Value` knows its kind, its typed value, the words as written and where it sits, so
`binding` can use position cues ("from X to Y"). Kinds:

- `number`: digits (`1,250.5`, `-3`, `213 million`), English words ("ten", "twenty five") and
  Chinese numerals ("十五", "两千"), with the unit written after it and what that unit measures
  (`units`: "5 km" is a length, "5%" a percentage). A number word that counts the numbers after
  it ("two numbers: 40 and 50") and "one" as a pronoun are not values; nor is a number inside a
  date, an address or a code.
- `date` / `time`: weekdays, "today"/"tomorrow"/"明天"/"下周一", month-day dates with or without
  a year ("April 23rd, 2023", "12th of March"), numeric dates ("2023.10.1"), "3pm", "15:30"
  (`dates`). A date a message gives as today's ("today is …") is context, not a value.
- `currency`, `country`, `language`: CLDR names in English or Chinese, codes and symbols; `name`:
  proper nouns, places with their region, cities the gazetteer knows, street addresses (`names`).
- `email`, `url` (also bare hosts and IP addresses), `quoted` ("…" or '…'), `code` (identifiers
  such as `A-123`, `#42`, `BA2490`, `AAPL`, phone numbers, and any word of letters and digits
  joined by marks, kept whole: `v3.2.1-beta`, `parseConfig`), `unit` (a unit named on its own:
  "in Fahrenheit").

Every pattern is anchored and bounded, so extraction is linear in the text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import replace

from wirelab.offline_model.budget import spend
from wirelab.offline_model.dates import date_values, time_values
from wirelab.offline_model.lexicon import (
    EN_NUMBERS,
    QUESTION_WORDS,
    ROMAN,
    SCALES,
    STOPWORDS,
    ZH_DIGITS,
    ZH_NUMERALS,
    alternatives,
    chinese_number,
    count_of,
    lexicon_list,
    lexicon_words,
    singular,
)
from wirelab.offline_model.names import (
    MEASURE_WORDS,
    NUMBER_FOLLOWERS,
    addressed,
    called_runs,
    proper_names,
    world_values,
)
from wirelab.offline_model.normalize import FUNCTION_TAGS, HAN, Token, has_chinese, segment
from wirelab.offline_model.spans import Spans
from wirelab.offline_model.units import UNIT_NAMES, Unit, unit_named
from wirelab.offline_model.values import Value

# Chinese writes no spaces: a value's edge is any character but a word character of a spaced script
# (W), so "发邮件到ann@x.org告诉她" holds the address alone and "给+86 138 0013 8000发短信" the number
W = f"[^\\W{HAN}]"
EMAIL = re.compile(
    rf"(?<![.+-])(?<!{W})(?:{W}|[.+-]){{1,64}}@(?:{W}|-){{1,63}}(?:\.(?:{W}|-){{1,63}}){{1,8}}"
)
URL = re.compile(rf"https?://[^\s\"'<>{HAN}，。！？、；：（）【】]{{1,500}}")
HOST = re.compile(
    rf"(?<![.@/-])(?<!{W})(?:\d{{1,3}}(?:\.\d{{1,3}}){{3}}|[A-Za-z0-9-]{{2,63}}(?:\.[A-Za-z0-9-]{{2,63}}){{0,6}}"
    rf"\.[A-Za-z]{{2,12}})(?::\d{{1,5}})?(?![@-])(?!{W})"
)
QUOTED = re.compile(  # 'It's open' holds an apostrophe; none sits beside a Chinese character
    rf"\"([^\"\n]{{1,500}})\"|(?<!{W})'((?:[^'\n]|'(?=[A-Za-z])){{1,500}})'(?!{W})"
    r"|`([^`\n]{1,500})`|《([^《》\n]{1,500})》"  # a title in 《》 is quoted, as one in “” is
)
CODE = re.compile(  # not from inside a decimal: "1.25x" is no code "25x"
    r"(?<![A-Za-z0-9_#/-])(?<!\d\.)#?[A-Za-z0-9]{1,20}(?:[-_/][A-Za-z0-9]{1,20}){0,4}(?![A-Za-z0-9_/-])"
)
PATH = re.compile(
    rf"(?<![/\\.])(?<!{W})(?:[A-Za-z]:[\\/]|\.{{0,2}}/|~/)?(?:(?:{W}|[.-]){{1,64}}[\\/]){{0,12}}(?:{W}|-){{1,64}}"
    rf"\.[A-Za-z][A-Za-z0-9]{{0,7}}(?![/\\])(?!{W})"
)
FOLDER = re.compile(
    rf"(?<![/\\.])(?<!{W})(?:[A-Za-z]:[\\/]|\.{{0,2}}/|~/)(?:(?:{W}|[.-]){{1,64}}[\\/]?){{0,12}}(?![/\\])(?!{W})"
)
_STREET = f"(?:{'|'.join(lexicon_words('street_types'))})"
ADDRESS = re.compile(
    rf"(?<![\w-])\d{{1,6}} (?:[A-Z][\w'-]*\.? ){{1,4}}{_STREET}\b\.?"
    r"(?:, [A-Z][a-z]+(?: [A-Z][a-z]+){0,2}){0,3}(?:, [A-Z]{2}\b)?(?:, [A-Z][A-Za-z]+)?"
)
MENTION = re.compile(rf"(?<![.@])(?<!{W})@({W}(?:(?:{W}|[.-]){{0,48}}{W})?)")  # a handle, without its @
_DIALLED = (  # "+39 333 1234567", "(555) 123-4567", "212 555 0147", "138-1234-5678", "07700 900123"
    r"\+\d{1,3}(?:[ -]?\(?\d{1,4}\)?){2,5}|\(\d{2,4}\) ?\d{3,4}[ .-]?\d{4}"
    r"|\d{3}(?P<sep>[ .-])\d{3,4}(?P=sep)\d{4}|0\d{4} \d{6}"
)
PHONE = re.compile(rf"(?<![+])(?<!{W})(?:{_DIALLED})(?!-)(?!{W})")
ZH_NUMBER = re.compile(f"[{ZH_NUMERALS}]{{1,12}}")
SCIENTIFIC = re.compile(r"[+-]?\d+(?:\.\d+)?[eE][+-]?\d+")  # "1.6e-19", "3e8": a number, no code
POWER_OF_TEN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) ?[x×*] ?10 ?\^ ?([+-]?\d{1,3})(?![\d.])")
_DECIMAL = f"[{ZH_NUMERALS}]{{1,12}}(?:点[零一二三四五六七八九]{{1,6}})?|\\d{{1,12}}(?:\\.\\d{{1,6}})?"
ZH_PERCENT = re.compile(rf"百分之\s?(?P<n>{_DECIMAL})")  # 百分之三十五: 35 %
FILE_EXTENSIONS = lexicon_list("file_extensions")
YEAR_SPAN = re.compile(rf"(?<!-)(?<!{W})(?:1[6-9]|2\d)\d\d[-/–](?:\d\d|(?:1[6-9]|2\d)\d\d)(?![/-])(?!{W})")
ORDINAL_UNITS = {"second"}  # a unit only after a number: "5 second" but "the second one"
SCALE_NAMES = {"celsius", "fahrenheit", "kelvin"}  # units written with a capital: "in Celsius"
WORD_TAGS = ("n", "i", "j", "l")  # jieba's nouns, names, idioms: 三里屯, 三明治 hold a numeral
NUMBER_ENDS = lexicon_list("number_ends")


def extract(text: str, tokens: list[Token] | None = None) -> list[Value]:
    """Every value in `text` (already `normalize.clean`ed), in the order they appear."""
    tokens = segment(text) if tokens is None else tokens
    found = _identifiers(_patterns(text) + date_values(tokens, text), text)
    said = Spans.of(found)
    found += [v for v in called_runs(tokens, text) if not said.overlaps(v.start, v.end)]
    found += [v for v in _written_numbers(text) if not said.overlaps(v.start, v.end)]  # "an hour and a half"
    clear = Spans.of(v for v in found if v.kind != "quoted")  # a number in quotes is one, 2026-05-01 none
    found += [n for n in _numbers(tokens, text) if not clear.overlaps(n.start, n.end)]
    told = addressed(tokens)  # the people told something: "Email Jordan that …"
    names = _with_model_codes(proper_names(tokens, text, told), found, text)
    taken = Spans.of(_unnumbered(found, names))
    names = [v for v in names if not taken.overlaps(v.start, v.end)]
    found = _unnumbered(found, names)  # "Maroon 5": the name holds its number
    holders = _holders(names)  # "Persian" inside "Persian Empire" is no language
    people = Spans(told)  # "Jordan" so told is a person, no country
    found += [
        w
        for w in world_values(tokens, text)
        if not any(w.end <= n.end and n.text != w.text for n in holders.get(w.start, ()))
        and not people.overlaps(w.start, w.end)
    ]
    taken = Spans.of(found)  # "Persian Empire" is a name; "Persian" a language
    found += [n for n in names if not taken.overlaps(n.start, n.end)]
    found += _units(tokens, text, found)
    return sorted(_catalogue_numbers(found, text), key=lambda v: (v.start, -v.end))


def _catalogue_numbers(found: list[Value], text: str) -> list[Value]:
    """The values, and one more where one may be read two ways: a code of capitals and a whole number
    of 3+ digits after it that counts nothing ("NGC 7000", not "USD 100" nor "AAPL 2024"), two whole
    numbers a hyphen joins that no range reads ("40-1187"; not "10-12"), or a number hyphened to the
    word it counts or against a unit's capital ("a 52-card deck", "12V": 52, 12). Binding picks."""
    world = {v.start for v in found if v.kind in ("currency", "country", "language")}
    numbers = {v.start: v for v in found if v.kind == "number" and not v.unit and v.text.isdigit()}
    pairs = [(v, numbers[v.end + 1]) for v in found if _catalogued(v, numbers.get(v.end + 1), world, text)]
    joined = ((v, numbers.get(v.end + 1)) for v in numbers.values() if text[v.end : v.end + 1] == "-")
    pairs += [(v, w) for v, w in joined if w and (w.text[0] == "0" or not v.value < w.value < 10 * v.value)]
    counts = ((re.fullmatch(r"(\d{1,9})(?:-[a-z]{3,}|[A-Z])", v.text), v) for v in found if v.kind == "code")
    numbers_of = [Value("number", int(m[1]), m[1], v.start, v.start + len(m[1])) for m, v in counts if m]
    return found + numbers_of + [Value.at("code", text, code.start, number.end) for code, number in pairs]


def _catalogued(code: Value, number: Value | None, world: set[int], text: str) -> bool:
    if number is None or code.kind != "code" or not code.text.isalpha() or code.start in world:
        return False
    follower = re.match(r"\s*(\w*)", text[number.end :])[1].casefold()  # what the number counts
    counts_nothing = not follower or follower in NUMBER_FOLLOWERS  # as after a name's number
    return counts_nothing and len(number.text) >= 3 and not 1900 <= number.value < 2100


def _unnumbered(found: list[Value], names: list[Value]) -> list[Value]:
    """The values `found` but a number without a unit that ends one of `names` ("Maroon 5")."""
    ends = Spans((n.end - 1, n.end) for n in names if n.text[-1:].isdigit())
    return [v for v in found if v.kind != "number" or v.unit or not ends.holds(v.end - 1)]


def _holders(names: list[Value]) -> dict[int, list[Value]]:
    """Each character's position -> the names that hold it: built once, so whether a name holds
    a value ("Persian" inside "Persian Empire") is asked of the few names there, not of all."""
    holders: dict[int, list[Value]] = {}
    for name in names:
        for position in range(name.start, name.end):
            holders.setdefault(position, []).append(name)
    return holders


def _with_model_codes(names: list[Value], found: list[Value], text: str) -> list[Value]:
    """A name that a code finishes is one name, a product's: "Nimbus K20", "Galaxy S23"; the
    code goes from `found` (changed in place) and the name takes its end."""
    joined = []
    for name in names:
        code = next((v for v in found if v.kind == "code" and name.start < v.start < name.end < v.end), None)
        if code is not None and len(text[name.start : code.start].strip()) > 3:  # not "ID U123": a label
            found.remove(code)
            name = Value.at("name", text, name.start, code.end)
        joined.append(name)
    return joined


def _units(tokens: list[Token], text: str, found: list[Value]) -> list[Value]:
    """Units named on their own ("in Fahrenheit") or after a number ("4 inches"), as written."""
    after_number = {v.end for v in found if v.kind == "number"}
    taken = Spans.of(v for v in found if v.kind != "name")
    people = {v.start for v in found if v.kind == "name" and v.sort == "person"}  # 牛顿的生平
    units, k = [], 0
    while k < len(tokens):
        spend()
        unit, written, length = unit_at(tokens, k, text)
        token = tokens[k]
        spelled = len(written) > 2 or token.kind == "han" or written.startswith("°")
        spaced = token.start - 1 in after_number and token.kind != "han"  # not 米 of "250克米线"
        close = token.start in after_number or spaced  # "4 inches", "4inches"
        ordinal = written.casefold() in ORDINAL_UNITS and not close  # "the second circle"
        named = (
            written.istitle() and written.casefold() not in SCALE_NAMES or token.start in people
        ) and not close
        if unit and (spelled or close) and written.casefold() not in STOPWORDS and not (ordinal or named):
            value = Value("unit", unit.symbol, written, token.start, token.start + len(written), written)
            if not taken.overlaps(value.start, value.end):
                units.append(value)
            k += length
        else:
            k += 1
    return units


def _patterns(text: str) -> list[Value]:
    """The values patterns find: addresses on the web, quotes, clock times, street addresses,
    phone numbers, paths, year spans and codes, each clear of those found before it."""
    found = [Value.matched("email", m) for m in EMAIL.finditer(text)]
    found += [Value.matched("url", m) for m in URL.finditer(text)]
    found += _hosts(found, text)
    for m in QUOTED.finditer(text):
        inner = next(g for g in m.groups() if g is not None)  # its text is what the marks hold
        found.append(Value("quoted", inner, inner, m.start(), m.end()))
    found += time_values(text)
    found += [Value.matched("name", m) for m in ADDRESS.finditer(text)]  # "2020 Addison Street, Berkeley, CA"
    found += [Value.matched("code", m) for m in PHONE.finditer(text)]  # "+39 333 1234567": one number to dial
    found += _paths(found, text)
    found += [Value.matched("code", m) for m in YEAR_SPAN.finditer(text)]  # "the 1998-99 term": one span
    found += [Value("code", m[1], m[0], *m.span()) for m in MENTION.finditer(text)]  # "@mara.k": "mara.k"
    taken = Spans.of(v for v in found if v.kind in ("name", "url", "email", "code", "quoted"))
    codes = (m for m in CODE.finditer(text) if _looks_like_code(m.group()) and not taken.holds(m.start()))
    return found + [Value.matched("code", m, m.group().lstrip("#")) for m in codes]


WORD = re.compile(r"[^\s,;!?()\[\]{}<>\"'`]{3,200}")  # a run of text between spaces and marks
IDENTIFIER = re.compile(r"[A-Za-z0-9][\w.:/-]*[A-Za-z0-9]")
HOST_PORT = re.compile(r"[A-Za-z][\w.-]*:\d{1,5}")  # "localhost:8080": a host and a port
MEASURE = re.compile(rf"{SCIENTIFIC.pattern}|[+-]?\d+(?:,\d{{3}})*(?:\.\d+)?(?:-?[^\W\d_]+)?(?:/[^\W\d_]+)?")
OWN = ("date", "time", "email", "quoted")  # values an identifier never takes in


def _identifiers(found: list[Value], text: str) -> list[Value]:
    """Identifiers written as one word, kept whole: "2.0.0rc1", "v3.2.1-beta", "978-0-13-468599-1",
    "img.io/app/web:2.4", "parseConfig"; the shorter values inside one go.

    >>> [v.value for v in _identifiers([], "pin it at 2.0.0rc1, then read 978-0-13-468599-1.")]
    ['2.0.0rc1', '978-0-13-468599-1']
    """
    own = Spans.of(v for v in found if v.kind in OWN or v.kind == "url" and "://" in v.text)
    held = {(v.start, v.end) for v in found}  # "10.0.0.5:8080": a host read whole already
    ends = ((m.start(), m.start() + len(m.group().rstrip(".:"))) for m in WORD.finditer(text))
    spans = [(a, b) for a, b in ends if _identifier(text[a:b]) and (a, b) not in held]
    whole = [Value.at("code", text, a, b) for a, b in spans if not own.overlaps(a, b)]
    inside = Spans.of(whole)
    return [v for v in found if not inside.overlaps(v.start, v.end)] + whole


def _identifier(word: str) -> bool:
    """Whether a word is an identifier no other pattern reads whole: letters and digits joined by
    marks ("v3.2.1-beta", "db:5432/app"), three or more numbers joined by one mark (an ISBN), or
    a lower-case word with a capital inside ("parseConfig"); not a number with its unit ("5.5km")."""
    if not IDENTIFIER.fullmatch(word) or MEASURE.fullmatch(word) or HOST_PORT.fullmatch(word):
        return False
    if any(c.isalpha() for c in word):
        camel = re.fullmatch(r"[a-z]{2,}[A-Z][A-Za-z0-9]*", word) is not None
        return camel or len(re.split(r"[.:/_-]", word)) > 1 and any(c.isdigit() for c in word)
    return any(len(word.split(mark)) > 2 and word.replace(mark, "").isdigit() for mark in ".-")


def _hosts(found: list[Value], text: str) -> list[Value]:
    """Host names and IP addresses ("10.0.0.5:8080") outside the e-mail addresses and URLs `found`;
    "notes.txt" is a file, not a host."""
    urls = Spans.of(found)
    hosts = (m for m in HOST.finditer(text) if m.group().rsplit(".", 1)[-1].casefold() not in FILE_EXTENSIONS)
    return [Value.matched("url", m) for m in hosts if not urls.overlaps(m.start(), m.end())]


def _paths(found: list[Value], text: str) -> list[Value]:
    """File and folder paths clear of the values `found`: "D:/logs/a.log", "~/notes"."""
    seen = list(found)  # what the next run must be clear of, the paths found so far included
    for m in _each_clear_of(seen, PATH.finditer(text), FOLDER.finditer(text)):
        foldered = any(mark in m.group() for mark in "/\\")
        stem, _, extension = m.group().rpartition(".")
        known = extension.casefold() in FILE_EXTENSIONS and len(stem) > 1  # "U.K." is no file
        if (foldered or known) and len(m.group()) > 2:
            seen.append(Value.matched("code", m))
    return seen[len(found) :]


def _each_clear_of(found: list[Value], *runs: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    """The matches of each run in turn that overlap no value in `found`, which the caller may extend as it
    goes: one run's matches never overlap each other, so what the caller adds is seen from the next run on."""
    for run in runs:
        taken = Spans.of(found)
        yield from (m for m in run if not taken.overlaps(m.start(), m.end()))


def _looks_like_code(word: str) -> bool:
    """`A-123`, `#42`, `BA2490`, `ord_7`, `AAPL`: letters with digits, a `#`, or 2-5 capitals."""
    if word.startswith("#"):
        return len(word) > 1
    if ROMAN.fullmatch(word) or SCIENTIFIC.fullmatch(word):
        return False  # "Pope Leo XIII", "Rocky II": a numeral of a name; "3e8" a number
    measure = re.fullmatch(r"\d+(?:\.\d+)?-?([a-zµμ°]+(?:/[a-z]+)?)", word, re.I)  # "6cm", "2nd", "5km/h"
    if measure and (unit_named(measure[1]) or measure[1].lower() in NUMBER_ENDS):
        return False
    letters, digits = any(c.isalpha() for c in word), any(c.isdigit() for c in word)
    joined = "_" in word.strip("_") or "/" in word and letters  # "unit_price", "2021/KX88"
    return joined or letters and digits or word.isupper() and word.isalpha() and 2 <= len(word) <= 5


def _numbers(tokens: list[Token], text: str) -> list[Value]:
    """Digit numbers, English number words and Chinese numerals, each with the unit after it;
    not a number word that counts the numbers after it, nor "one" standing for a thing."""
    found, k = [], 0
    while k < len(tokens):
        values, length = _numbers_at(tokens, k, text)
        found += values
        k += length
    digits = sorted(v.start for v in found if v.text[:1].isdigit())
    starts = [t.start for t in tokens]
    return _ranged([v for v in found if not _count(v, digits) and not _pronoun(v, tokens, starts)], text)


RANGE_MARKS = lexicon_list("range_marks")


def _ranged(numbers: list[Value], text: str) -> list[Value]:
    """Numbers with the unit a range gives both ends: in 五至十公里 or "3 to 5 days" the first
    is 5 km and 3 days too."""
    ranged = list(numbers)
    for k in range(len(ranged) - 1):
        low, high = ranged[k], ranged[k + 1]
        unit = unit_named(high.unit) if high.unit else None  # 五天's 天 too (`_measured`)
        if not low.unit and unit and text[low.end : high.start].strip().casefold() in RANGE_MARKS:
            ranged[k : k + 2] = [replace(v, unit=high.unit, dimension=unit.dimension) for v in (low, high)]
    return ranged


def _numbers_at(tokens: list[Token], k: int, text: str) -> tuple[list[Value], int]:
    """The numbers written from token k on, and how many tokens they take."""
    token = tokens[k]
    if k and tokens[k - 1].text in ("^", "*") and tokens[k - 1].end == token.start:
        return [], 1  # an exponent in a formula ("x^2", "m/s^2") is not a value of its own
    if token.kind == "number" and _digits(token.text) is None and LISTED.search(token.text):
        return _comma_list(token), 1  # "5,10" written without a space is two numbers, "130/85" too
    value, length = _number_at(tokens, k)
    if value is None:
        return _hyphened_count(token), 1
    measured = _measured(value, tokens, k, length, text)
    return [measured], length + measured.unit_words  # 千 of "5千米" is the unit's, no number


def _hyphened_count(token: Token) -> list[Value]:
    """A number word hyphened to the word it counts or measures, read as a digit's is ("a five-day
    trip": 5 days, "a twenty-sided die": 20); "one" only before a unit ("a one-way ticket" counts
    nothing, "a one-hour slot" is 1 hour)."""
    head, _, tail = token.norm.rpartition("-")
    number = _word_number(head) if token.kind == "word" and head and tail.isalpha() else None
    unit = unit_named(tail)
    if number is None or number == 1 and unit is None:
        return []
    measured = (tail, unit.dimension) if unit else ("", "")
    return [Value("number", number, token.text[: len(head)], token.start, token.start + len(head), *measured)]


def _measured(value: int | float, tokens: list[Token], k: int, length: int, text: str) -> Value:
    """The number `value` written in tokens k to k + length, with its sign ("-3", not the "-" of
    "5-3") and the unit written after it ("5 km", "a 5-day forecast": the hyphen touching both)."""
    token, last, after = tokens[k], tokens[k + length - 1], k + length
    minus = k > 0 and tokens[k - 1].text == "-" and tokens[k - 1].end == token.start
    negative = minus and not (
        k > 1 and tokens[k - 2].kind == "number" and tokens[k - 2].end == tokens[k - 1].start
    )
    hyphened = (
        after + 1 < len(tokens)
        and tokens[after].text == "-"
        and last.end == tokens[after].start
        and tokens[after].end == tokens[after + 1].start
    )
    unit, written, words = unit_at(tokens, after + 1, text) if hyphened else (None, "", 0)
    if unit:
        words += 1  # the hyphen
    else:
        unit, written, words = unit_at(tokens, after, text)
    rest = ZH_NUMBER.sub("", token.text, count=1) if token.kind == "han" and length == 1 else ""
    if not unit and rest and (unit := unit_named(rest)):
        written = rest  # 七天 is 7 days, as 7天 is: jieba keeps 天 with 七
    rate = re.search(r"每[^\W\d每]{1,2}$", text[: token.start])  # 每秒8米: 8 米每秒, a speed
    if unit and rate and unit_named(written + rate[0]):
        unit, written = unit_named(written + rate[0]), written + rate[0]
    start = tokens[k - 1].start if negative else token.start
    dimension = unit.dimension if unit else ""
    return Value(
        "number", -value if negative else value, token.text, start, last.end, written, dimension, words
    )


_N = f"[{ZH_NUMERALS}\\d]{{1,4}}"
_ZH_UNIT = "|".join(re.escape(name) for name in UNIT_NAMES if not name.isascii())
_COUNT = r"an?|[a-z]+|\d{1,3}"
HALVES = [  # a count and a half of a unit is one number: "an hour and a half" is 1.5 hours
    re.compile(rf"\b(?P<n>{_COUNT}) (?P<unit>[a-z]+) and a half\b", re.I),  # "a mile and a half"
    re.compile(rf"\b(?P<n>{_COUNT}) and a half (?P<unit>[a-z]+)\b", re.I),  # "two and a half hours"
    re.compile(r"\bhalf (?:of )?an? (?P<unit>[a-z]+)\b", re.I),  # "half an hour"
    re.compile(rf"(?P<n>{_N})个半(?P<unit>{_ZH_UNIT})"),  # 一个半小时
    re.compile(rf"(?P<n>{_N})(?P<unit>{_ZH_UNIT})半"),  # 两天半
    re.compile(rf"半个?(?P<unit>{_ZH_UNIT})"),  # 半小时, 半个月
]
ZH_DECIMAL = re.compile(rf"(?P<n>{_N}点[零一二三四五六七八九\d]{{1,4}})(?P<unit>{_ZH_UNIT})?")  # 3.5


def _written_numbers(text: str) -> list[Value]:
    """Numbers written with words or marks around them: a power of ten ("6.02 x 10^23"), a Chinese
    percentage (百分之六十: 60 %), a count and a half of a unit ("two and a half hours", 一个半小时:
    2.5 and 1.5, with the unit) and a Chinese decimal (三点五: 3.5)."""
    powers = POWER_OF_TEN.finditer(text)
    found = [Value("number", _digits(f"{m[1]}e{m[2]}"), m.group(), *m.span()) for m in powers]
    for m in ZH_PERCENT.finditer(text):  # "per hundred"
        found.append(Value("number", _zh_number(m["n"]), m.group(), *m.span(), "%", "percent"))
    for m in _each_clear_of(found, *(pattern.finditer(text) for pattern in HALVES)):
        written = m.groupdict().get("n") or "0"
        count = 1 if written.casefold() in ("a", "an") else count_of(written)
        if count is not None and (unit := unit_named(m["unit"])):
            found.append(Value("number", count + 0.5, m.group(), *m.span(), m["unit"], unit.dimension))
        elif count is not None and (scale := SCALES.get(m["unit"].casefold())):  # "half a dozen": 6
            found.append(Value("number", int((count + 0.5) * scale), m.group(), *m.span()))
    for m in _each_clear_of(found, ZH_DECIMAL.finditer(text)):
        number, unit = _zh_number(m["n"]), unit_named(m["unit"] or "")
        found.append(
            Value("number", number, m.group(), *m.span(), m["unit"] or "", unit.dimension if unit else "")
        )
    return found


def _zh_number(written: str) -> int | float:
    """A number in digits or Chinese numerals, 点 its decimal point: "三点五" -> 3.5, "六十" -> 60."""
    whole, _, tenths = written.partition("点")
    number = _digits(whole) if whole[0].isdigit() else chinese_number(whole)
    return float(f"{number}.{''.join(str(count_of(ch)) for ch in tenths)}") if tenths else number or 0


POINTERS = lexicon_list("pointers")  # "the back one": a "one" after them is a thing
ONE_FOLLOWERS = lexicon_list("one_followers")  # "one with a radius of 5": a thing


def _pronoun(value: Value, tokens: list[Token], starts: list[int]) -> bool:
    """'one with a radius of 5 …, the other …', 'the back one too': "one" standing for a thing,
    not a number. `starts` are the tokens' starts."""
    if value.text.casefold() != "one" or value.unit or value.value != 1:  # "one hundred" is 100
        return False
    k = bisect.bisect_left(starts, value.end)
    after = tokens[k] if k < len(tokens) else None
    first = bisect.bisect_left(starts, value.start)
    before = [t.norm for t in tokens[max(0, first - 2) : first]]
    pointed = bool(before[-1:]) and before[-1] in POINTERS or len(before) == 2 and before[0] in POINTERS
    return pointed or after is None or after.norm in ONE_FOLLOWERS  # "which one", "the blue one"


def _count(value: Value, digits: list[int]) -> bool:
    """'two numbers: 40 and 50', 'two charges of 5C and 7C': a number word before a noun that
    is followed by at least that many numbers in digits counts them; it is not a value itself.
    `digits` are the sorted starts of the numbers written in digits."""
    if value.kind != "number" or value.text[:1].isdigit() or value.unit or value.text.startswith("-"):
        return False
    if not isinstance(value.value, int) or value.value < 2:
        return False
    later = len(digits) - bisect.bisect_right(digits, value.end)
    return later >= value.value


def unit_at(tokens: list[Token], k: int, text: str) -> tuple[Unit | None, str, int]:
    """The unit written from token k on ("km", "square meters", "m/s^2", "公里"), as written,
    and how many tokens it takes; one to five tokens, no wider gap than a space."""
    for length in range(min(5, len(tokens) - k), 0, -1):
        first, last = tokens[k], tokens[k + length - 1]
        written = text[first.start : last.end]
        if "  " in written or "," in written or length > 1 and first.kind == "han" and len(written) > 4:
            continue
        if unit := unit_named(re.sub(r"\s+", " ", written)):
            return unit, written, length
    return None, "", 0


LISTED = re.compile(r",|^\d{2,4}/\d{2,4}$")  # "5,10", or two readings ("130/85"), not a fraction ("3/4")


def _comma_list(token: Token) -> list[Value]:
    """The numbers of "5,10,15" or "130/85", written without spaces."""
    found, at = [], token.start
    for part in re.split("[,/]", token.text):
        if (number := _digits(part)) is not None:
            found.append(Value("number", number, part, at, at + len(part)))
        at += len(part) + 1
    return found


def _number_at(tokens: list[Token], k: int) -> tuple[int | float | None, int]:
    """The number written from token k on, in digits ("8.5 billion"), English words ("twenty five")
    or a Chinese numeral ("两千"), and how many tokens it takes."""
    token = tokens[k]
    if token.kind == "number":
        number = _digits(token.text)
        scale = tokens[k + 1].norm if k + 1 < len(tokens) else ""
        if number is not None and scale in SCALES:  # "213 million", "8.5 billion", "30万"
            scaled = number * SCALES[scale]
            return (int(scaled) if float(scaled).is_integer() else scaled), 2
        return number, 1
    scaled = token.norm in ("a", "an") and k + 1 < len(tokens) and tokens[k + 1].norm in SCALES
    if token.kind == "word" and (_word_number(token.norm) is not None or scaled):  # "a dozen": 12
        return _number_words(tokens, k)
    if token.kind == "han":
        whole = ZH_NUMBER.fullmatch(token.text)  # a word with a numeral in it is a name: 三里屯
        match = whole or (ZH_NUMBER.match(token.text) if token.tag[:1] not in WORD_TAGS else None)
        one = (
            match is not None and match.group() in "一两" and (match.group() == "一" or token.tag[:1] != "m")
        )
        # 一 ("一下", "一起") counts only before a unit; 两 whenever it is a numeral ("两个人", "两张")
        if match and (not one or k + 1 < len(tokens) and unit_named(tokens[k + 1].text) is not None):
            after = tokens[k + 1] if k + 1 < len(tokens) and match.end() == len(token.text) else token
            if after.start == token.end and after.text in ZH_DIGITS and token.text[-1] in "百千万":
                return chinese_number(token.text + after.text), 2  # 两百 五 is 250
            return chinese_number(match.group()), 1
    return None, 1


def _word_number(word: str) -> int | None:
    """A number one English word writes: "seven", "forty", "twenty-five"."""
    tens, _, unit = word.partition("-")
    if unit:
        pair = EN_NUMBERS.get(tens, 0), EN_NUMBERS.get(unit, 10)
        return sum(pair) if pair[0] >= 20 and pair[0] % 10 == 0 and 0 < pair[1] < 10 else None
    return EN_NUMBERS.get(word)


def _number_words(tokens: list[Token], k: int) -> tuple[int, int]:
    """The number English words write from token k on, and how many tokens they take: "two
    thousand five hundred and twenty-one" is 2521; "one two three" are three numbers."""
    first = _word_number(tokens[k].norm)
    total, group, length = 0, 1 if first is None else first, 1  # "a hundred"
    while k + length < len(tokens):
        word, scaled = tokens[k + length].norm, tokens[k + length - 1].norm in SCALES
        number = _word_number(word)
        ahead = k + length + 1 < len(tokens) and _word_number(tokens[k + length + 1].norm) is not None
        if number is not None and _joins(group, number, total):
            group += number
        elif word in SCALES and group and SCALES[word] == 100:
            group *= 100
        elif word in SCALES and group:
            total, group = total + group * SCALES[word], 0
        elif word != "and" or not scaled or not ahead:
            break
        length += 1
    return total + group, length


def _joins(group: int, number: int, total: int) -> bool:
    """Whether `number` goes on the number written so far, `total` thousands and more and `group` below them:
    "twenty" then "five", "hundred" then "twelve", "thousand" then "six"; not "one" then "two"."""
    last = group % 100
    return (
        last == 0 and bool(group or total) and number < 100 or last >= 20 and last % 10 == 0 and number < 10
    )


def _digits(text: str) -> int | float | None:
    """A number written in digits ("1,250.5", "42"), or None (a clock time, a fraction)."""
    if ":" in text or "/" in text:
        return None
    plain = text.replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text) else text
    try:
        number = float(plain)
    except ValueError:
        return None
    return int(number) if number.is_integer() and "." not in plain else number


def counted(text: str, value: Value) -> str:
    """The thing a Chinese count with a measure word counts: "8把椅子" -> "椅子", "三本书" ->
    "书"; "" for a count of nothing ("5个", "3 days").

    >>> eight, three = Value("number", 8, "8", 0, 1), Value("number", 3, "3", 0, 1)
    >>> counted("8把椅子，每把", eight), counted("3 days", three)
    ('椅子', '')
    """
    after = text[value.end : value.end + 40]
    measured = value.text[-1:] in MEASURE_WORDS and value.text[-1:] != value.text
    if not measured and after[:1] not in MEASURE_WORDS:
        return ""
    clause = re.split(r"[\d,.;!?，。；！？]", after if measured else after[1:])[0]
    return _han_item(clause.rpartition("的")[2] or clause)  # 四张去大连的船票: what 的 leads to


def _han_item(text: str) -> str:
    """A Chinese item: its first run of words that name things, after the verbs and function
    words that lead it and a place before a locative ("帮我带牙膏" -> "牙膏", "冰箱里有茄子" -> "茄子",
    "番茄可以炒什么" -> "番茄"); nothing for a thing a question word asks about ("炒什么菜")."""
    run: list[Token] = []
    for token in segment(text):
        numeral = token.tag[:1] == "m" and any(ch in ZH_NUMERALS for ch in token.text)
        function = token.kind == "punct" or token.tag[:1] in FUNCTION_TAGS or token.tag[:1] == "s" or numeral
        if token.text in QUESTION_WORDS:
            return text[run[0].start : run[-1].end] if run else ""
        if function and run and token.tag[:1] == "f":
            run = []  # "冰箱里": a place before a locative, where the things are
        elif function and run:
            break
        elif not function:
            run.append(token)
    return text[run[0].start : run[-1].end] if run else ""


RELATIVE = ("that", "which", "who", "whose", "whom")  # a clause that says which item, or what of it
ITEM_BREAKS = re.compile(alternatives(lexicon_list("list_joiners") | {";", "，"}))


def list_items(phrase: str) -> list[str]:
    """Items of a written list: 'eggs, milk and bread' -> ['eggs', 'milk', 'bread']; '鸡蛋和牛奶' too."""
    parts = ITEM_BREAKS.split(phrase)
    items = [_trim(part) for part in parts]
    return [item for item in items if item]


def _trim(text: str) -> str:
    """An item without small words at its ends, and without the count before it, its name then
    in the singular: "two green apples" -> "green apple" (how many is another parameter's)."""
    if has_chinese(text):
        return _han_item(text)
    tokens = text.split()
    clause = next((k for k, t in enumerate(tokens) if t.casefold() in RELATIVE), len(tokens))
    tokens = tokens[:clause]  # "the eggs that are on sale": eggs; "which we ran out of" says what one is
    while tokens and tokens[0].lower().strip(".,:;!?\"'") in STOPWORDS:
        tokens.pop(0)
    while tokens and tokens[-1].lower().strip(".,:;!?\"'") in STOPWORDS:
        tokens.pop()
    if len(tokens) > 1 and (tokens[0].isdigit() or tokens[0].lower() in EN_NUMBERS):
        counted = tokens[0] not in ("1", "one")
        tokens = tokens[1:]
        if of := next((k for k in (1, 2) if k < len(tokens) - 1 and tokens[k].lower() == "of"), 0):
            tokens, counted = tokens[of + 1 :], False  # "two jars of honey", "a ten kilo sack of flour"
        if counted and tokens[-1].isalpha():
            tokens[-1] = singular(tokens[-1])
    return " ".join(tokens).strip(" .,:;!?\"'")
