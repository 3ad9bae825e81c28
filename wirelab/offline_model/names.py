"""Names in a request: currencies, countries and languages (CLDR), cities, and proper nouns.

    >>> from wirelab.offline_model.normalize import segment
    >>> [(v.kind, v.value) for v in world_values(segment("20 euros to 日元"), "20 euros to 日元")]
    [('currency', 'EUR'), ('currency', 'JPY')]

- `world_values`: currencies, countries and languages named in English or Chinese, by ISO code
  or by symbol, from the CLDR data `Babel` ships ("yen", "日元", "JPY", "¥").
- `proper_names`: runs of capitalised words ("New York", "Maroon 5"), with the region written
  after them ("Riga, Latvia"); Chinese words that jieba tags as a place, person or organisation
  ("北京") or that are listed beside a place; and cities the gazetteer knows, in any case, after
  a place preposition ("in berkeley").

A capital that only starts a sentence ("Book a table") is not a name.
"""

from __future__ import annotations

from functools import lru_cache

from babel import Locale

from wirelab.offline_model.budget import spend
from wirelab.offline_model.lexicon import (
    ACTION_WORDS,
    CURRENCY_NAMES,
    GENERIC,
    LISTS,
    ROMAN,
    STOPWORDS,
    known,
    lexicon_list,
    names_a_thing,
)
from wirelab.offline_model.normalize import Token
from wirelab.offline_model.places import city, level, state_code
from wirelab.offline_model.units import unit_named
from wirelab.offline_model.values import Value

SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW"}
NAME_JOINERS = lexicon_list("name_joiners")
TITLE_LINKS = lexicon_list("title_links")  # "of the" of "Lord of the Rings"
SMALL_WORDS = NAME_JOINERS | TITLE_LINKS | {"the"}  # the lower-case words inside a name or a title
CALLED = lexicon_list("called")  # "a meeting called Budget review"
NUMBER_FOLLOWERS = lexicon_list("prepositions") | {"and", "or", "&"}  # after a name's number
MEASURE_WORDS = lexicon_list("measure_words")  # between a Chinese count and what it counts: 8把椅子
TELLING = {  # a verb that tells a person something -> the words it needs after them
    verb.strip(): after.split() for verb, _, after in (line.partition("|") for line in LISTS["telling"])
}
TOLD = frozenset(word for needs in TELLING.values() for word in needs)  # "know" of "let Dad know"
KIN = lexicon_list("kin")  # "text mum", 跟妈妈说: a person named by who they are to the speaker
SPEAKER = ("I", "I'm", "I'd", "I'll", "I've")  # capitalised, yet no name nor part of one
SPEAKING = lexicon_list("speaker_does")  # the speaker does what the verb after says: "I'll tell him"
OWNERS = ("the", "my", "our")  # "let the team know": a noun so led names whom a message is for
SAID_NEXT = {mark for mark in LISTS["saying_marks"] if " " not in mark} | {":"}  # "Email the landlord that …"


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
                if kind == "country" and not code.isalpha() or kind == "currency" and code.startswith("X"):
                    continue  # regions ("419"); gold, funds, "unknown currency": no money a request converts
                table[name.casefold()] = (kind, code)
                if kind == "language" and tag == "zh" and name.endswith("语") and len(code) == 2:
                    table.setdefault(name[:-1] + "文", (kind, code))  # 德文 is written 德语, 法文 法语
                if kind == "currency" and tag == "en":
                    last = name.casefold().split()[-1]
                    for key in (name.casefold() + "s", last, last + "s"):  # "Swiss francs", "franc"
                        table.setdefault(key, (kind, code))
    return table | {name: ("currency", code) for name, code in CURRENCY_NAMES.items()}


def world_values(tokens: list[Token], text: str) -> list[Value]:
    """Currencies, countries and languages named by one to three words, a code or a symbol."""
    table, found, k = world_names(), [], 0
    while k < len(tokens):
        for length in (3, 2, 1):
            window = tokens[k : k + length]
            if len(window) < length or any(t.kind == "punct" and t.text not in SYMBOLS for t in window):
                continue
            phrase = text[window[0].start : window[-1].end].casefold()
            hit = table.get(phrase) or _code_or_symbol(window[0]) if length == 1 else table.get(phrase)
            end = window[-1].end
            if not hit and length == 1 and window[0].kind == "han" and (hit := _currency_led(phrase)):
                end -= 1
            if hit:
                found.append(Value(hit[0], hit[1], text[window[0].start : end], window[0].start, end))
                k += length - 1
                break
        k += 1
    return found


def _currency_led(word: str) -> tuple[str, str] | None:
    """The currency a Chinese word starts with when jieba keeps one character after it (兑, against)."""
    hit = world_names().get(word[:-1]) if len(word) > 2 else None
    return hit if hit and hit[0] == "currency" else None


def _code_or_symbol(token: Token) -> tuple[str, str] | None:
    if token.text in SYMBOLS:
        return ("currency", SYMBOLS[token.text])
    if len(token.text) == 3 and token.text.isupper() and token.text in Locale.parse("en").currencies:
        return ("currency", token.text)
    return None


def proper_names(tokens: list[Token], text: str, addressed_at: list[tuple[int, int]]) -> list[Value]:
    """Proper nouns: runs of capitalised words ("New York"), and Chinese words the lexicon lacks; the
    people told something (`addressed`, at `addressed_at`) among them, of sort "person"."""
    told = [Value.at("name", text, a, b, sort="person") for a, b in addressed_at]
    people = [value for value in told if not value.text[0].isupper()]  # "let mum know"; capitals: below
    found, k, seen = _cities_after_prepositions(tokens, text) + people, 0, 0
    named: set[int] = set()  # the characters that the names found so far hold
    while k < len(tokens):
        spend()
        token = tokens[k]
        named.update(p for v in found[seen:] for p in range(v.start, v.end))
        seen = len(found)
        if token.start in named:
            k += 1
            continue
        if token.kind == "han" and _han_name(tokens, k):
            # the kind it names ("西湖酒店", "杭州东站"), the places below it (北京市朝阳区)
            end = _places_below(tokens, _facility_end(tokens, k))
            sort = CHINESE_SORTS.get(token.tag, "") if end == k else "place"
            found.append(Value.at("name", text, token.start, tokens[end].end, sort=sort))
            k = end
        elif token.capitalised and not _sentence_start_word(tokens, k):
            end = k
            while end + 1 < len(tokens) and (
                tokens[end + 1].capitalised
                and tokens[end + 1].text not in SPEAKER  # "Text Mum I'm late"
                or ROMAN.fullmatch(tokens[end + 1].text) is not None
                and not _speaker(tokens, end + 1)
                or tokens[end + 1].norm in SMALL_WORDS
                and _joined(tokens, end + 1)  # "Roe v. Wade", "Maria de la Cruz"
                or _abbreviated(tokens, end)
            ):
                end += 1
            if _numbered(tokens, end):
                end += 1  # "Maroon 5", "Windows 10", "S&P 500": a number that ends a name
            end = _called_to_its_end(tokens, k, end)
            phrase = text[token.start : tokens[end].end]
            after = tokens[end + 1] if end + 1 < len(tokens) else None
            if after and after.kind == "word" and after.norm not in STOPWORDS:  # "Picasso's paintings"
                phrase = phrase.removesuffix("'s").removesuffix("’s")  # ("at Chez Marie's" stays)
            if phrase not in SPEAKER and not unit_named(phrase):
                region = _region(tokens, k, end, text)
                sort = "person" if (token.start, token.end) in addressed_at else ""  # "Send Paolo a message"
                found.append(
                    Value.at("name", text, token.start, token.start + len(phrase), region=region, sort=sort)
                )
                if region and region.startswith(phrase + ","):  # "UK" of "London, UK": a name too
                    part = region[len(phrase) + 1 :].strip()
                    at = text.find(part, tokens[end].end)
                    found.append(Value("name", part, part, at, at + len(part)))
            k = end
        k += 1
    return found


TITLES = lexicon_list("titles")
PERSON_TITLES = lexicon_list("person_titles")


def _abbreviated(tokens: list[Token], end: int) -> bool:
    """Whether the name ending at token `end` goes on through a full stop: after a title or an
    initial, before another capital ("Dr. Ruiz", "Ada K. Lin", "Port St. Lucie"), or at the end
    of initials ("U.S.", "U.K.")."""
    if end + 1 >= len(tokens) or tokens[end + 1].text != "." or tokens[end + 1].start != tokens[end].end:
        return False
    short = tokens[end].norm in TITLES or len(tokens[end].text) == 1 and tokens[end].text.isupper()
    after = tokens[end + 2] if end + 2 < len(tokens) else None
    initials = len(tokens[end].text) == 1 and end > 0 and tokens[end - 1].text == "."
    return short and (after is not None and after.capitalised or initials)


def _speaker(tokens: list[Token], k: int) -> bool:
    """Whether the "I" at token `k` is the speaker, not a name's numeral: a lower-case word other than
    a name's small words follows it ("Tell Sam I will be late"; not "Elizabeth I of England")."""
    after = tokens[k + 1].text if k + 1 < len(tokens) else ""
    return tokens[k].text == "I" and after.isalpha() and after.islower() and after not in SMALL_WORDS


def _joined(tokens: list[Token], k: int) -> bool:
    """Whether the small joining words around token `k` lead to a capital or an abbreviation
    that goes on with the name: "de" of "Maria de la Cruz", "van" of "Ludwig van Beethoven", and
    a title's small words when "the" ends them: "of the" of "Lord of the Rings"."""
    first = k
    while first > 0 and tokens[first - 1].norm in SMALL_WORDS and tokens[first - 1].text.islower():
        first -= 1
    while k + 1 < len(tokens) and tokens[k + 1].norm in SMALL_WORDS and tokens[k + 1].text.islower():
        k += 1
    words = [t.norm for t in tokens[first : k + 1]]
    linked = all(w in NAME_JOINERS for w in words) or len(words) > 1 and words[-1] == "the"
    return linked and k + 1 < len(tokens) and (tokens[k + 1].capitalised or _abbreviated(tokens, k))


def _numbered(tokens: list[Token], end: int) -> bool:
    """Whether the name ending at token `end` goes on with a whole number that counts nothing:
    nothing, a mark, a joining word or a preposition comes after it ("Maroon 5, …", "Windows
    10.", "Falcon 2 to 120 metres")."""
    if end + 1 >= len(tokens) or not tokens[end + 1].text.isdigit():
        return False
    number, after = tokens[end + 1], tokens[end + 2] if end + 2 < len(tokens) else None
    spaced = number.start == tokens[end].end + 1
    coded = after is not None and after.start == number.end and after.text in "-/_"  # "ISBN 978-0-13-…"
    return spaced and not coded and (after is None or after.kind == "punct" or after.norm in NUMBER_FOLLOWERS)


PLACE_PREPOSITIONS = lexicon_list("place_prepositions")


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
                after = tokens[k + length] if k + length < len(tokens) else None
                name_goes_on = after is not None and after.capitalised and not state_code(after.text)
                if city(written) and (length > 1 or not written[0].isupper()) and not name_goes_on:
                    found.append(Value("name", written, written, window[0].start, window[-1].end))
                    break
    return found


FACILITY_ENDS = lexicon_list("facility_ends")


def _facility(token: Token) -> bool:
    """A noun that names a kind of place or body, by its last character: 酒店, 机场, 东站, 公司."""
    return (token.tag == "n" or len(token.text) == 1) and token.text[-1:] in FACILITY_ENDS


def _facility_end(tokens: list[Token], k: int) -> int:
    """The last of up to two nouns after token `k` that names a place or body (华信|电子|有限公司), or `k`."""
    ends = [j for j in (k + 1, k + 2) if j < len(tokens) and _facility(tokens[j])]
    return max((j for j in ends if all(t.tag == "n" or _facility(t) for t in tokens[k + 1 : j])), default=k)


def _places_below(tokens: list[Token], end: int) -> int:
    """The last of the places written after token `end`, each a level below the one before it:
    浙江省|杭州市|西湖区, 北京|朝阳区 (see `places.level`)."""
    while end + 1 < len(tokens) and -1 <= level(tokens[end]) < level(tokens[end + 1]):
        end += 1
    return end


CHINESE_SORTS = {"ns": "place", "nr": "person", "nrt": "person", "nrfg": "person", "nt": "org"}
CHINESE_NAMES = {*CHINESE_SORTS, "nz", "eng"}  # jieba's tags for proper nouns


def _region(tokens: list[Token], first: int, end: int, text: str) -> str:
    """'Riga, Latvia' for the name 'Riga' when capitalised words follow its comma, else ''."""
    if (
        end + 2 < len(tokens)
        and tokens[end + 1].text == ","
        and tokens[end + 2].capitalised
        and tokens[end + 2].norm not in STOPWORDS | {tokens[first].norm}  # "Next, I'd …"; "Essen, Essen to …"
    ):
        last = end + 2
        while last + 1 < len(tokens) and tokens[last + 1].capitalised:
            last += 1
        listed = last + 1 < len(tokens) and (
            tokens[last + 1].norm in ("and", "or", "&")
            or tokens[last + 1].text == ","
            and last + 2 < len(tokens)
            and tokens[last + 2].capitalised  # "Riga, Latvia, Oslo, Norway" lists; "Riga, Latvia, in May" not
        )
        return "" if listed else text[tokens[first].start : tokens[last].end]
    after = tokens[end + 1] if end + 1 < len(tokens) else None
    lower_state = after and after.kind == "word" and after.text.islower() and len(after.text) > 2
    if lower_state and state_code(after.text):
        return f"{text[tokens[first].start : tokens[end].end]}, {after.text}"  # "San Leandro california"
    return ""


def _han_name(tokens: list[Token], k: int) -> bool:
    """A Chinese name: a proper noun by its tag, a noun before the kind of place it names (半岛酒店), or
    whatever jieba tags it, 从…到… (从大连到烟台), one listed beside a place (青岛、大连) or before 的《》."""
    token, before = tokens[k], tokens[k - 1] if k else Token("", "", "", 0, 0)
    facility = token.tag == "n" and _facility_end(tokens, k) > k
    framed = before.text.endswith("从") or before.text == "到" and any("从" in t.text for t in tokens[:k])
    near = [s for s in (-1, 1) if 0 <= k + 2 * s < len(tokens) and tokens[k + s].text in ("、", "和")]
    listed = token.tag[:1] != "n" and any(tokens[k + 2 * s].tag == "ns" for s in near)  # beside a place
    listed |= "".join(t.text for t in tokens[k + 1 : k + 3]) == "的《"  # 周远的《夜航船》: whose work it is
    named = _chinese_name(token, before.tag[:1] == "m" or before.text[-1:].isdigit())
    return named or (facility or ((framed or listed) and len(token.text) > 1)) and token.tag[:1] not in "rm"


def _chinese_name(token: Token, counted: bool = False) -> bool:
    """A Chinese proper noun by its part of speech: a place, a person, an organisation. A unit
    jieba tags as a place is no place; one it tags as a person is a person when no number
    counts it and it names no temperature scale: 牛顿的生平, not 五牛顿 nor 华氏."""
    unit = unit_named(token.text)
    person = unit is not None and token.tag.startswith("nr") and unit.dimension != "temperature"
    return (
        token.tag in CHINESE_NAMES
        and token.text not in STOPWORDS
        and not known(token.text)
        and (unit is None or person and not counted)
        and _currency_led(token.text) is None
        and not (counted and token.text[:1] in MEASURE_WORDS)  # 3张从…: the count's measure word
    )


def _called_to_its_end(tokens: list[Token], k: int, end: int) -> int:
    """A name after "called", "named" or "titled" runs on through its lower-case words, as a title in
    sentence case does, to the next small word or mark: "a meeting called Budget review in …"."""
    if not (k and tokens[k - 1].norm in CALLED):
        return end
    while end + 1 < len(tokens) and _runs_on(tokens[end + 1]):
        end += 1
    return end


NAMING = lexicon_list("naming")  # 标题, 名字: a name follows their 为, 是 or 叫 (标题为…, 名字叫…)


def called_runs(tokens: list[Token], text: str) -> list[Value]:
    """What a request names after "called", "named", "titled" or 名为, read as a quote: its words
    up to the next small word or mark, or up to 的 ("a folder named tax returns 2025", "一个叫年终聚餐
    的活动"). Not after a small word ("I called mom"), nor a 叫 that follows no measure word (叫车),
    nor a run a capital starts (`proper_names` reads it).

    >>> from wirelab.offline_model.normalize import segment
    >>> text = "a folder named tax returns 2025 on the desk"
    >>> [v.text for v in called_runs(segment(text), text)]
    ['tax returns 2025']
    """
    found = []
    for k, token in enumerate(tokens[:-1]):
        before = tokens[k - 1] if k else Token("", "", "", 0, 0)
        called = token.norm in CALLED and (token.kind == "han" or before.norm not in STOPWORDS)
        called &= token.norm != "叫" or before.text[-1:] in MEASURE_WORDS  # 一个叫…的, not 叫车
        named = token.norm in ("为", "是", "叫") and before.norm in NAMING
        if not (called or named) or tokens[k + 1].capitalised:
            continue
        end = k + 1
        while end < len(tokens) and not _ends_a_run(tokens[end]):
            end += 1
        if end > k + 1:
            found.append(Value.at("quoted", text, tokens[k + 1].start, tokens[end - 1].end))
    return found


def _runs_on(token: Token) -> bool:
    """A lower-case word that is no small word: how a sentence-case title goes on after its capital."""
    return token.kind == "word" and token.text.islower() and not _ends_a_run(token)


def _ends_a_run(token: Token) -> bool:
    """A mark, 的, or a small word of a spaced script: where a name after "called" (叫) stops."""
    small = token.kind == "word" and (token.norm in STOPWORDS or token.norm in NUMBER_FOLLOWERS)
    return token.kind == "punct" or token.text == "的" or small


def _sentence_start_word(tokens: list[Token], k: int) -> bool:
    """A capital that only starts a sentence: 'Book a table', 'Identify the gene' (a known word,
    or one followed by a lower-case word, as an imperative is), not 'Paris', 'New York'."""
    if not (k == 0 or tokens[k - 1].text in (".", "?", "!", ":", ";", '"', "'", "(")):
        return False
    word = tokens[k].norm
    follower = tokens[k + 1] if k + 1 < len(tokens) else None
    lower_next = follower is not None and follower.kind == "word" and follower.text.islower()
    adverb = word.endswith("ly") and follower is not None and follower.text == ","  # "Ideally, …"
    verb = word in ACTION_WORDS or word in GENERIC or not names_a_thing(word)  # "Book", "Rename": imperatives
    verb = verb or word in TELLING  # "Text Oliver that …"
    return word in STOPWORDS or known(word) or verb or lower_next or adverb or _marker(tokens, k)


def _marker(tokens: list[Token], k: int) -> bool:
    """A word that starts a sentence and, after a comma, a clause that starts with a pronoun or
    a small word: "Second, I'm …", "However, you …", "Later, we …", not "Lima, Peru"."""
    follower = tokens[k + 2] if k + 2 < len(tokens) else None
    return (
        follower is not None
        and tokens[k + 1].text == ","
        and follower.kind == "word"
        and (follower.norm in STOPWORDS or follower.text.islower())
        and city(tokens[k].text) is None
    )


def addressed(tokens: list[Token]) -> list[tuple[int, int]]:
    """Where the people a request tells something are named: right after a verb of `[telling]`,
    followed within three words by a word that verb needs, if any ("Text Oliver that …", "let the team
    know", 跟妈妈说, 给小李发消息); not "tell me", "let me know". A capitalised name, a `[kin]` word, a
    Chinese name jieba tags, 小 or 老 and a surname (小李), or up to three nouns after "the", "my" or
    "our" ("let the sales team know"), which a verb that needs no word after the person must see
    followed by what is said ("Email the landlord that …", "Page the web team: …")."""
    words = [t for t in tokens if t.kind != "punct" or t.text == ":"]
    norms = [t.norm for t in words]
    found = []
    for k, token in enumerate(words[:-1]):
        needs = TELLING.get(token.norm) if not speaker_before(norms, k) else None
        first, end = _person(words, k + 1) if needs is not None else (0, 0)
        wanted, within = (needs, 3) if needs or first == k + 1 else (SAID_NEXT, 1)
        if end and (
            not wanted or any(t.norm.startswith(w) for t in words[end : end + within] for w in wanted)
        ):
            found.append((words[first].start, words[end - 1].end))
    return found


def speaker_before(norms: list[str], k: int) -> bool:
    """Whether the speaker is the subject of the verb at `k`, within the two words before it: "I'll
    tell Omar myself", "…, we'll call one later", 我自己跟他说 say what they will do, not what they ask."""
    return not SPEAKING.isdisjoint(norms[max(k - 2, 0) : k])


def _person(words: list[Token], k: int) -> tuple[int, int]:
    """The first and the end token of a person named at `k` (nouns after an owner), or (0, 0)."""
    token, after = words[k], words[k + 1] if k + 1 < len(words) else None
    if token.norm in OWNERS:
        end = k + 1
        while end < min(k + 4, len(words)) and _group_word(words[end]):
            end += 1
        return (k + 1, end) if end > k + 1 else (0, 0)
    if token.norm in KIN or token.tag.startswith("nr") or token.capitalised and token.text not in SPEAKER:
        return k, k + 1
    familiar = token.kind == "han" and token.text[:1] in ("小", "老")  # 小李, 老张: 小 or 老 and a surname
    if familiar and len(token.text) == 2:
        return k, k + 1
    surname = after is not None and after.kind == "han" and len(after.text) == 1
    return (k, k + 2) if familiar and len(token.text) == 1 and surname else (0, 0)


def _group_word(token: Token) -> bool:
    """A word that may name whom a message is for after "the": "web" and "team" of "the web team"."""
    small = token.norm in STOPWORDS or token.norm in TOLD or token.norm in SAID_NEXT
    return token.kind == "word" and not small
