"""Dates and clock times: where a request writes one, and what a relative one means on a stated day.

    >>> import datetime
    >>> token = TODAY.set(datetime.date(2026, 3, 11))  # a Wednesday
    >>> resolve_date("tomorrow"), resolve_date("next Monday"), resolve_date("周五")
    ('2026-03-12', '2026-03-16', '2026-03-13')
    >>> TODAY.reset(token)

`date_values` finds "today", "tomorrow", weekdays ("next Monday"), month-day
dates ("May 1st") and their Chinese forms ("明天", "下周一"); `time_values`
clock times ("3pm", "15:30", "晚上七点", "half past six"). `resolve_date`
counts a relative one from `TODAY`, which the model sets from a date the
system message states ("Today is 11 March 2026", `reference_date`); without
one nothing is resolved, because the model never reads the clock: the same
request always gets the same answer.
"""

from __future__ import annotations

import bisect
import datetime
import math
import re
from collections.abc import Iterator
from contextvars import ContextVar

from wirelab.offline_model.lexicon import LISTS, alternatives, count_of, lexicon_numbers, lexicon_words
from wirelab.offline_model.normalize import Token
from wirelab.offline_model.spans import Spans
from wirelab.offline_model.values import Value

MONTHS = lexicon_words("months")
WEEKDAYS = lexicon_words("weekdays")
OFFSETS = lexicon_numbers("day_offsets")  # 前天: -2
EN_OFFSETS = {word: days for word, days in OFFSETS.items() if word.isascii()}
ZH_OFFSETS = alternatives(word for word in OFFSETS if not word.isascii())
_ZH_COUNT = r"[零一二两三四五六七八九十\d]{1,4}"
ZH_MONTH_DAY = re.compile(rf"([下上这])个?月({_ZH_COUNT})[号日]")  # 下个月一号: the 1st of next month
ZH_DAY = re.compile(rf"()({_ZH_COUNT})[号日]")  # 18号: the next 18th, this month's or the next one's
# 三天后, 两周后: in 3 days, 2 weeks
ZH_DAYS_LATER = re.compile(rf"({_ZH_COUNT})(天|周|个星期|星期)(?:以)?后")
ZH_DAYS = re.compile(
    rf"{ZH_OFFSETS}|(?:这|本|下|上)?(?:周|星期|礼拜)[一二三四五六日天]"
    rf"|{ZH_MONTH_DAY.pattern}|(?:下|上|这)(?:周|个月|月)|{ZH_DAYS_LATER.pattern}"
)
EN_RELATIVE = re.compile(  # "in three days", "a week from today", "two weeks later"
    r"\b(?:the )?day after tomorrow\b|\bin (\w+) (day|week)s?\b"
    r"|\b(\w+) (day|week)s? (?:from (?:now|today)|later)\b",
    re.I,
)
_MONTH = "(?P<m>" + "|".join(f"{month[:3]}(?:{month[3:]})?" for month in MONTHS) + "|sept)"  # "Jan", "Sept"
_YEAR = r"(?:,?\s*(?P<y>\d{4}))?"
_DAY = r"(?P<d>\d{1,2})(?:st|nd|rd|th)?"
WRITTEN_DATES = [
    re.compile(rf"\b{_MONTH}\.?\s*{_DAY}\b{_YEAR}(?!\d)", re.I),  # April 23rd, 2023; March.11, 2022
    re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}\b\.?{_YEAR}(?!\d)", re.I),  # 12th of March
    re.compile(rf"\b{_MONTH}\s+(?P<y>\d{{4}})\b(?P<d>)", re.I),  # July 2022 (its first day)
    # 2023.10.1, also before a full stop (not 1998.44.2 or 2023.10.1.5, codes)
    re.compile(r"(?<![\d.])(?P<y>\d{4})[./-](?P<m>1[0-2]|0?[1-9])[./-](?P<d>3[01]|[0-2]?\d)(?!\.?\d)"),
    re.compile(r"(?<![\d/-])(?P<m>\d{1,2})[/-](?P<d>\d{1,2})[/-](?P<y>\d{4})(?![\d/-])"),  # 04/23/2023
    re.compile(r"(?<![\d./-])(?P<y>\d{4})-(?P<m>1[0-2]|0[1-9])(?P<d>)(?![\d./-])"),  # 2026-03 (its first day)
    re.compile(r"(?:(?P<y>\d{4})年)?(?P<m>\d{1,2})月(?P<d>\d{1,2})[日号]"),  # 2026年3月20日, 3月20号
    re.compile(r"(?P<y>\d{4})年(?P<m>1[0-2]|0?[1-9])月(?P<d>)"),  # 2026年3月 (its first day)
]


def date_values(tokens: list[Token], text: str) -> list[Value]:
    """The dates a request writes; a date it gives as today's ("today is …") sets the day and is
    no value; a day written alone at the other end of a range is one ("from 4 to 9 June")."""
    stated = Spans([(start, found.end()) for start, found in _today_is(text)])  # context, not a value
    spans = [(a, b) for a, b in _find_dates(tokens, text) if not stated.overlaps(a, b)]
    found = [Value.at("date", text, a, b) for a, b in spans]
    return found + [Value("date", day, day, a, b) for a, b, day in _range_days(text, spans)]


def _find_dates(tokens: list[Token], text: str) -> list[tuple[int, int]]:
    """Where dates are written: relative days and weekdays, month-day dates with or without a
    year, numeric dates, in English and Chinese."""
    found = []
    for k, token in enumerate(tokens):
        if token.norm in EN_OFFSETS or token.norm in WEEKDAYS:
            start = (
                tokens[k - 1].start if k and tokens[k - 1].norm in ("next", "last", "this") else token.start
            )
            found.append((start, token.end))
    taken: list[tuple[int, int]] = []
    for pattern in WRITTEN_DATES:  # one pattern's matches never overlap each other
        clear = Spans(taken)
        taken += [(m.start(), m.end()) for m in pattern.finditer(text) if not clear.overlaps(*m.span())]
    found += taken
    found += [(m.start(), m.end()) for m in ZH_DAYS.finditer(text)]
    relative = [  # "the day after tomorrow", "in three days": what they hold is part of them
        (m.start(), m.end())
        for m in EN_RELATIVE.finditer(text)
        if m.group().startswith(("the", "day")) or _days_ahead(m.group()) is not None
    ]
    found += _days_of_month(tokens, Spans(found))
    return [(a, b) for a, b in found if not _inside(a, b, relative)] + relative


def _days_of_month(tokens: list[Token], taken: Spans) -> list[tuple[int, int]]:
    """A day of the month written alone, "18号", "3日": a count of 1 to 31, then 日 or 号, and
    no noun the number would name after it ("5号楼" is a building, "3日内" a span of days)."""
    found = []
    for k in range(len(tokens) - 1):
        day, mark = tokens[k], tokens[k + 1]
        after = tokens[k + 2].tag[:1] if k + 2 < len(tokens) else ""
        named = mark.text in ("日", "号") and after not in ("n", "f")
        if named and 1 <= (count_of(day.text) or 0) <= 31 and not taken.overlaps(day.start, mark.end):
            found.append((day.start, mark.end))
    return found


RANGE_START = re.compile(r"(?<![\d.,:/])(\d{1,2})(?:st|nd|rd|th)?\s*(?:to|until|till|through|-|–)\s*$", re.I)
RANGE_END = re.compile(r"^\s*(?:to|until|till|through|-|–)\s*(\d{1,2})(?:st|nd|rd|th)?(?![\d:.,/])", re.I)
ZH_RANGE_END = re.compile(r"^[^\d]{0,8}?(?<![\d月])(\d{1,2})[日号]")  # "6月4日取车，9号还车": the 9th
DAY_IN_DATE = re.compile(r"(?<!\d)(\d{1,2})(?![\d月/.:-])")  # the day of "9 June", "6月4日"
MONTH_NAMED = re.compile(r"[A-Za-z]{3}|月")


def _range_days(text: str, dates: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """A day written alone at the other end of a range from a date with its month ("from 4 to 9
    June", "6月4日取车，9号还车"): where it is, and that date with its day, as text."""
    found = []
    for start, end in dates:
        written = text[start:end]
        if not MONTH_NAMED.search(written) or len(DAY_IN_DATE.findall(written)) != 1:
            continue
        before = RANGE_START.search(text[max(0, start - 16) : start])
        after = (ZH_RANGE_END if "月" in written else RANGE_END).search(text[end : end + 12])
        for match, offset in ((before, max(0, start - 16)), (after, end)):
            if match and 1 <= int(match[1]) <= 31:
                day = DAY_IN_DATE.sub(match[1], written, count=1)
                found.append((offset + match.start(1), offset + match.end(1), day))
    return found


def _inside(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether one of `spans` (sorted, none overlapping) holds `start`..`end`."""
    k = bisect.bisect_right(spans, (start, math.inf)) - 1
    return k >= 0 and end <= spans[k][1]


TODAY_IS = re.compile(r"\b(?:today|today's date) is\s+(?:\w+day,?\s+)?|今天是", re.I)


def today_stated(text: str) -> datetime.date | None:
    """The date a message says today is ("…, today is Friday 3 May 2024"), or None."""
    return next(filter(None, (written_date(found.group()) for _, found in _today_is(text))), None)


def _today_is(text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """Each "today is" and the written date after it: where the phrase starts, and the date."""
    for match in TODAY_IS.finditer(text[:4000]):
        at = match.end()
        if found := next(filter(None, (pattern.match(text, at) for pattern in WRITTEN_DATES)), None):
            yield match.start(), found


def written_date(written: str, year: int | None = None) -> datetime.date | None:
    """The date a month-day or numeric date names; without a year, in `year` if given, else in
    `TODAY`'s year (or None)."""
    for pattern in WRITTEN_DATES:
        if not (m := pattern.fullmatch(written.strip())):
            continue
        named = (k for k, month in enumerate(MONTHS, 1) if month[:3] == m["m"][:3].lower())  # "Sept": 9
        month = int(m["m"]) if m["m"].isdigit() else next(named, 0)
        day = int(m["d"] or 1)
        month, day = (day, month) if month > 12 else (month, day)  # 23/10/2027: the day first
        year = int(m["y"]) if m["y"] else year or getattr(TODAY.get(), "year", None)
        try:
            return datetime.date(year, month, day) if year else None
        except ValueError:
            return None
    return None


def date_as_asked(written: str, description: str, year: int | None = None, clock: str = "") -> str:
    """A date written the way a description asks ("in the format MM/DD/YYYY", "month-day-year",
    "e.g. 2024-05-01", "'mm-yyyy'"), ISO 8601 when it says nothing; as written when it cannot be
    read. `year` is for a date written without one ("from May 3rd to May 5th 2024"); `clock` a
    time written with it, for a description that asks for a date and time ("YYYY-MM-DDTHH:MM:SS").

    >>> date_as_asked("June 3rd", "The day, in the format of month-day-year.", 2031)
    '06-03-2031'
    >>> date_as_asked("June 3, 2031", "When, e.g. 'YYYY-MM-DDTHH:MM:SS'.", clock="4pm")
    '2031-06-03T16:00:00'
    """
    resolved = resolve_date(written)
    date = datetime.date.fromisoformat(resolved) if resolved else written_date(written, year)
    if date is None:
        return written
    if clock and DATE_TIME.search(description) and (hour := _hour_minute(clock)):
        return datetime.datetime.combine(date, datetime.time(*hour)).isoformat()
    return date.strftime(_format_of(description))


_SPEC = re.compile(r"\b(y{3,4}|mm|dd)([-/.])(y{3,4}|mm|dd)\2(y{3,4}|mm|dd)\b", re.I)
_WORDS = re.compile(r"\b(year|month|day)[-/ ](year|month|day)[-/ ](year|month|day)\b", re.I)
_MONTH_YEAR = re.compile(r"\b(mm|yyyy)([-/.])(mm|yyyy)\b", re.I)
DATE_TIME = re.compile(r"T\s?HH|\dT\d|date[- ]?(?:and |& )?time|datetime|日期[和与及]?时间", re.I)
_EXAMPLES = [
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "%Y-%m-%d"),
    (re.compile(r"\b\d{2}/\d{2}/\d{4}\b"), "%m/%d/%Y"),
    (re.compile(r"\b\d{2}-\d{2}-\d{4}\b"), "%m-%d-%Y"),
]


def _format_of(description: str) -> str:
    """The `strftime` format a description asks a date in: a pattern ("MM/DD/YYYY", "yyyy.mm.dd"),
    an order in words ("month-day-year"), a month and year ("mm-yyyy") or an example date."""
    spec = _SPEC.search(description)
    parts = {"yyy": "%Y", "yyyy": "%Y", "mm": "%m", "dd": "%d", "year": "%Y", "month": "%m", "day": "%d"}
    if spec:
        return spec[2].join(parts[spec[i].lower()] for i in (1, 3, 4))
    words = _WORDS.search(description)
    if words and len({w.lower() for w in words.groups()}) == 3:
        return "-".join(parts[w.lower()] for w in words.groups())
    month_year = _MONTH_YEAR.search(description)
    if month_year and month_year[1].lower() != month_year[3].lower():
        return month_year[2].join(parts[month_year[i].lower()] for i in (1, 3))
    return next((fmt for pattern, fmt in _EXAMPLES if pattern.search(description)), "%Y-%m-%d")


TODAY: ContextVar[datetime.date | None] = ContextVar("TODAY", default=None)
ZH_WEEKDAYS = "一二三四五六日"


def reference_date(text: str) -> datetime.date | None:
    """The first whole date, with a year, that a text writes as `WRITTEN_DATES` read it ('Today is
    Wednesday, 11 March 2026.' -> 2026-03-11; '今天是2026年3月11日' too), or None."""
    dates = (m for pattern in WRITTEN_DATES for m in pattern.finditer(text[:2000]) if m["y"] and m["d"])
    found = sorted((m.start(), m.group()) for m in dates)
    return next(filter(None, (written_date(written) for _, written in found)), None)


def resolve_date(written: str) -> str | None:
    """A relative date as an ISO date, counted from `TODAY` (set from the conversation), else None.

    'tomorrow' -> '2026-03-12' when today is 2026-03-11; also weekdays ('Friday', 'next Monday'),
    '明天', '后天', '周五', '下周一'. Without a reference date nothing is resolved: the model
    never reads the clock, so the same request always gets the same answer.
    """
    if (today := TODAY.get()) is None:
        return None
    word = written.casefold().strip().removesuffix("'s").removesuffix("’s")  # "tomorrow's"
    if (offset := OFFSETS.get(word)) is None:
        offset = _days_ahead(word)
    if offset is not None:
        return (today + datetime.timedelta(days=offset)).isoformat()
    month_day = ZH_MONTH_DAY.fullmatch(word) or ZH_DAY.fullmatch(word)
    if month_day and (day := count_of(month_day[2])):
        month = today.month + {"下": 1, "上": -1, "这": 0, "": int(day < today.day)}[month_day[1]]
        year, month = today.year + (month - 1) // 12, (month - 1) % 12 + 1
        try:
            return datetime.date(year, month, day).isoformat()
        except ValueError:
            return None
    weekday, later = None, 0
    parts = word.split()
    if parts and parts[-1] in WEEKDAYS:
        weekday, later = WEEKDAYS.index(parts[-1]), 7 if parts[0] == "next" else 0
    elif word[-1:] in ZH_WEEKDAYS and word[:-1].lstrip("下这本上") in ("周", "星期", "礼拜"):
        weekday, later = ZH_WEEKDAYS.index(word[-1]), 7 if word.startswith("下") else 0
    if weekday is None:
        return None
    ahead = (weekday - today.weekday()) % 7 or 7
    if later:
        ahead = 7 - today.weekday() + weekday
    return (today + datetime.timedelta(days=ahead)).isoformat()


def _days_ahead(word: str) -> int | None:
    """Days from today that "the day after tomorrow", "in 3 days", "a week from today", "三天后" say."""
    if (m := EN_RELATIVE.fullmatch(word) or ZH_DAYS_LATER.fullmatch(word)) is None or m.lastindex is None:
        return None if m is None else 2  # the day after tomorrow
    count, unit = m[m.lastindex - 1], m[m.lastindex]
    days = 1 if count.casefold() in ("a", "an") else count_of(count)
    return None if days is None else days * (1 if unit.casefold() in ("day", "天") else 7)


CLOCK = re.compile(
    r"(?<![\d:])\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])|(?<![\d:])\d{1,2}:\d{2}(?![\d:])", re.I
)
DAYPART = re.compile(
    r"(?<![\d:])(\d{1,2})(?::(\d{2}))?(?: o'clock)? (?:in the (morning|afternoon|evening)|at (night))", re.I
)
ZH_CLOCK = re.compile(  # 八点一刻 8:15, 差五分九点 and 九点差五分 8:55, 傍晚6:30: a day part, then a time
    rf"(?P<part>凌晨|早上|上午|中午|下午|傍晚|晚上)?(?:差(?P<less>{_ZH_COUNT})分钟?)?(?:(?P<hour>{_ZH_COUNT})[点時时]"
    rf"(?:(?P<fraction>半|[一三]刻)|差(?P<to>{_ZH_COUNT})分钟?|过?(?P<minute>{_ZH_COUNT})(?P<fen>分)?)?"
    r"|(?(part)(?P<h>\d{1,2}):(?P<m>\d{2})|(?!)))"
)
_TAIL = (
    r"(?P<oclock> o'clock)?"
    r"(?:\s?(?P<mark>[ap])\.?m\b\.?| (?P<part>in the (?:morning|afternoon|evening)|at night|tonight))?"
)
SPOKEN_CLOCKS = [  # "ten past six", "a quarter to 8", "twenty minutes to nine"; "six pm", "ten o'clock"
    re.compile(
        r"\b(?:(?P<past>(?:a )?quarter|half|(?:[a-z]+|\d{1,2})(?: minutes?)?) past "
        rf"|(?P<to>(?:a )?quarter|(?:[a-z]+|\d{{1,2}}) minutes?) to )(?P<hour>[a-z]+|\d{{1,2}})\b{_TAIL}",
        re.I,
    ),
    re.compile(rf"\b(?P<hour>[a-z]+)(?= o'clock|\s?[ap]\.?m\b| in the | at night| tonight){_TAIL}", re.I),
]
_DAYS = rf"(?:this |on )?(?:{alternatives([*EN_OFFSETS, *WEEKDAYS])})|this (?:morning|afternoon|evening)"
_BARE = r"(?P<hour>\d{1,2})(?![\d:.,%/]|\s?(?:[ap]\.?m\b|o'clock|in the|at night))"
AT_HOUR = re.compile(  # "at 7 tomorrow", "tonight at 8", "at 3 this afternoon": a bare hour by a day
    rf"\bat {_BARE}(?=\s+(?P<after>{_DAYS})\b)|\b(?P<day>{_DAYS}) at {_BARE.replace('hour', 'h')}",
    re.I,
)
NAMED_TIMES = dict(line.split() for line in LISTS["clock_words"])  # "noon": 12:00
NAMED_CLOCK = re.compile(alternatives(NAMED_TIMES), re.I)
FRACTIONS = lexicon_numbers("clock_fractions")  # 一刻: 15
AFTERNOON = {"中午", "下午", "傍晚", "晚上"}


def time_values(text: str) -> list[Value]:
    """Clock times: "3pm", "15:30", "晚上七点" (19:00), "下午三点半" (15:30), "八点一刻" (08:15),
    "傍晚6:30" (18:30), "4 in the afternoon" (4pm), "quarter to four" (03:45), "at noon"; not
    "三点五公斤" (3.5 kg: a minute under ten is written with 分)."""
    found = []
    for m in ZH_CLOCK.finditer(text):
        hour = count_of(m["hour"] or m["h"])
        minute = FRACTIONS.get(m["fraction"] or "") or count_of(m["minute"] or m["m"] or "0")
        decimal = minute is not None and minute < 10 and m["minute"] and not m["fen"]  # 三点五: 3.5
        if hour is None or minute is None or hour >= 24 or minute >= 60 or decimal:
            continue
        hour, minute = _before(hour, minute, count_of(m["less"] or m["to"] or "0"))
        hour += 12 if m["part"] in AFTERNOON and hour < 12 else 0
        found.append(Value.matched("time", m, f"{hour:02d}:{minute:02d}"))
    said = Spans.of(found)
    found += [Value.matched("time", m) for m in CLOCK.finditer(text) if not said.overlaps(m.start(), m.end())]
    for m in DAYPART.finditer(text):  # "4 in the afternoon" is 4pm, "9 at night" 9pm
        half = "am" if (m[3] or "").lower() == "morning" else "pm"
        found.append(Value.matched("time", m, f"{m[1]}:{m[2] or '00'}{half}"))
    for pattern in SPOKEN_CLOCKS:
        clocks = Spans.of(found)
        found += [v for m in pattern.finditer(text) if not clocks.overlaps(*m.span()) and (v := _spoken(m))]
    clocks = Spans.of(found)
    found += [v for m in AT_HOUR.finditer(text) if not clocks.overlaps(*m.span()) and (v := _at_hour(m))]
    clocks = Spans.of(found)
    named = (m for m in NAMED_CLOCK.finditer(text) if not clocks.overlaps(m.start(), m.end()))
    return found + [Value.matched("time", m, NAMED_TIMES[m.group().casefold()]) for m in named]


def _at_hour(m: re.Match[str]) -> Value | None:
    """The hour of "at 7 tomorrow" (07:00), "tonight at 8" or "at 8 this evening" (20:00), the number
    alone as the value's text."""
    hour = int(m["hour"] or m["h"])
    if not 0 < hour < 24:
        return None
    evening = (m["day"] or m["after"]).casefold().endswith(("tonight", "afternoon", "evening")) and hour < 12
    which = "hour" if m["hour"] else "h"
    return Value("time", f"{hour + 12 * evening:02d}:00", m[which], m.start(which), m.end(which))


def _before(hour: int, minute: int, less: int) -> tuple[int, int]:
    """The time `less` minutes before hour:minute (0 < less < 60), else hour:minute itself."""
    return ((hour - 1) % 24, 60 - less) if 0 < less < 60 and minute == 0 else (hour, minute)


def _spoken(m: re.Match[str]) -> Value | None:
    """The clock time an English phrase says (`SPOKEN_CLOCKS`), or None: "half past seven in
    the evening" is 7:30pm, "twenty to nine" 08:40, "ten o'clock" 10:00."""
    said = m.groupdict()
    lead = re.sub(r"\s*minutes?$", "", (said.get("past") or said.get("to") or "").casefold())
    hour = count_of(m["hour"])
    minute = FRACTIONS.get(lead) or count_of(lead) if lead else 0
    marked = lead or m["oclock"] or m["mark"] or m["part"]  # "seven" alone is a number
    if not marked or hour is None or not 0 < hour <= 12 or minute is None or not 0 <= minute < 60:
        return None
    if said.get("to"):
        hour, minute = _before(hour, 0, minute)
    part = (m["part"] or "").casefold()
    morning = (m["mark"] or "").casefold() == "a" or part.endswith("morning")
    half = "am" if morning else "pm" if m["mark"] or part else ""
    return Value.matched("time", m, f"{hour}:{minute:02d}{half}" if half else f"{hour:02d}:{minute:02d}")


CLOCK_TIME = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?\s*([ap])?\.?\s*m?\.?\s*", re.I)


def _hour_minute(written: str) -> tuple[int, int] | None:
    """The hour (0-23) and minute of a clock time ("8pm", "20:30", "8:30 a.m."), or None."""
    if not (m := CLOCK_TIME.fullmatch(written.strip())) or int(m[1]) > 23 or m[2] and int(m[2]) > 59:
        return None
    return (int(m[1]) % 12 + 12 * (m[3].lower() == "p") if m[3] else int(m[1])), int(m[2] or 0)


def time_as_asked(written: str, description: str) -> str:
    """A clock time as a description asks for it: 24-hour "HH:MM" ("8pm" -> "20:00") unless it
    asks for AM/PM ("08:00 PM", or "08:00PM" after an example written so); as written when it
    is not a time.

    >>> time_as_asked("8pm", "Start time."), time_as_asked("8pm", "Format hh:mmAM or hh:mmPM.")
    ('20:00', '08:00PM')
    """
    if (hour_minute := _hour_minute(written)) is None:
        return written
    time = datetime.time(*hour_minute)
    joined = re.search(r"(?:XX|HH|hh|\d\d):(?:XX|MM|mm|\d\d)(?:AM|PM)", description)  # "hh:mmAM", "10:30PM"
    twelve = joined or re.search(r"\b(?:am/pm|a\.m\.|12-hour)\b", description, re.I)
    return time.strftime("%I:%M%p" if joined else "%I:%M %p" if twelve else "%H:%M")
