"""Dates: where a request writes one, and what a relative one means on a stated day.

    >>> import datetime
    >>> token = TODAY.set(datetime.date(2026, 3, 11))  # a Wednesday
    >>> resolve_date("tomorrow"), resolve_date("next Monday"), resolve_date("周五")
    ('2026-03-12', '2026-03-16', '2026-03-13')
    >>> TODAY.reset(token)

`find_dates` finds "today", "tomorrow", weekdays ("next Monday"), month-day
dates ("May 1st") and their Chinese forms ("明天", "下周一"). `resolve_date`
counts a relative one from `TODAY`, which the model sets from a date the
system message states ("Today is 11 March 2026", `reference_date`); without
one nothing is resolved, because the model never reads the clock: the same
request always gets the same answer.
"""

from __future__ import annotations

import datetime
import re
from contextvars import ContextVar

from wirelab.offline_model.normalize import Token

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RELATIVE_DAYS = {"today", "tonight", "tomorrow", "yesterday", "now"}
ZH_DAYS = re.compile(
    r"今天|今晚|明天|后天|昨天|前天|大后天|(?:这|本|下|上)?(?:周|星期|礼拜)[一二三四五六日天]|(?:下|上|这)(?:周|个月|月)"
)


def find_dates(tokens: list[Token], text: str) -> list[tuple[int, int]]:
    """Where relative days, weekdays and month-day dates are written, in English and Chinese."""
    found = []
    for k, token in enumerate(tokens):
        word = token.norm
        if word in RELATIVE_DAYS or word in WEEKDAYS:
            start = (
                tokens[k - 1].start if k and tokens[k - 1].norm in ("next", "last", "this") else token.start
            )
            found.append((start, token.end))
        elif word in MONTHS and word != "may" or word == "may" and _day_near(tokens, k):
            found.append(_month_date(tokens, k, text))
    for m in ZH_DAYS.finditer(text):
        found.append((m.start(), m.end()))
    return found


def _day_near(tokens: list[Token], k: int) -> bool:
    near = tokens[k + 1 : k + 2] + tokens[max(0, k - 1) : k]
    return any(t.kind == "number" and t.text.isdigit() and int(t.text) <= 31 for t in near)


def _month_date(tokens: list[Token], k: int, text: str) -> tuple[int, int]:
    start, end = tokens[k].start, tokens[k].end
    if k + 1 < len(tokens) and tokens[k + 1].kind == "number":
        end = tokens[k + 1].end
        if end < len(text) and text[end : end + 2] in ("st", "nd", "rd", "th"):
            end += 2
    elif k and tokens[k - 1].kind == "number":
        start = tokens[k - 1].start
    return start, end


TODAY: ContextVar[datetime.date | None] = ContextVar("TODAY", default=None)
ZH_WEEKDAYS = "一二三四五六日"
ZH_OFFSETS = {"今天": 0, "今晚": 0, "明天": 1, "后天": 2, "大后天": 3, "昨天": -1, "前天": -2}
EN_OFFSETS = {"today": 0, "tonight": 0, "now": 0, "tomorrow": 1, "yesterday": -1}
DATE_IN_TEXT = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})|(\d{1,2}) ([A-Za-z]{3,9}) (\d{4})|([A-Za-z]{3,9}) (\d{1,2}),? (\d{4})"
)


def reference_date(text: str) -> datetime.date | None:
    """The first date a text states ('Today is Wednesday, 11 March 2026.' -> 2026-03-11), or None."""
    for match in DATE_IN_TEXT.finditer(text[:2000]):
        iso, (day, month, year), (month2, day2, year2) = (
            match.group(1, 2, 3),
            match.group(4, 5, 6),
            match.group(7, 8, 9),
        )
        try:
            if iso[0]:
                return datetime.date(int(iso[0]), int(iso[1]), int(iso[2]))
            name, number, year = (month, day, year) if day else (month2, day2, year2)
            months = [m for m in MONTHS if m.startswith(name.lower()[:3])]
            if months:
                return datetime.date(int(year), MONTHS.index(months[0]) + 1, int(number))
        except ValueError:
            continue
    return None


def resolve_date(written: str) -> str | None:
    """A relative date as an ISO date, counted from `TODAY` (set from the conversation), else None.

    'tomorrow' -> '2026-03-12' when today is 2026-03-11; also weekdays ('Friday', 'next Monday'),
    '明天', '后天', '周五', '下周一'. Without a reference date nothing is resolved: the model
    never reads the clock, so the same request always gets the same answer.
    """
    today = TODAY.get()
    if today is None:
        return None
    word = written.casefold().strip()
    offset = EN_OFFSETS.get(word, ZH_OFFSETS.get(word))
    if offset is not None:
        return (today + datetime.timedelta(days=offset)).isoformat()
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
