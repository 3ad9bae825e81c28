"""A mock interview in a terminal: questions against a timer, each self-graded on key points.

Two kinds of clock, as in the flashcards widget (`Flashcards.mock`):

- a whole set against `minutes` (`python -m wirelab.interview mock --minutes 15`): no new
  question starts once the time is spent;
- a limit per question, `mode="pitch"` (60 s, the one-minute 背诵版) or `mode="deep"`
  (180 s): the time from showing a question to the Enter that ends the spoken answer is
  measured, and an answer over the limit counts as missed, whatever key points it covered.
  A terminal cannot show a clock while you speak, so the limit is printed with the question.

`language="zh"` prints the prompts in Chinese (the labels are `wirelab.interview.language`'s,
shared with the widget); the questions themselves come already in their language
(`translated`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial

from wirelab.interview.bank import DrillError, Question, covered_enough
from wirelab.interview.language import LABELS, MODES, label
from wirelab.interview.progress import Progress


def format_minutes(seconds: float) -> str:
    """Seconds as minutes:seconds.

    >>> format_minutes(754)
    '12:34'
    """
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


def parse_hits(reply: str, total: int) -> int:
    """Key points the learner says they covered: `'1 3'` or `'1，3'` -> 2; `DrillError` on bad input."""
    numbers = reply.replace(",", " ").replace("，", " ").split()
    if not all(n.isdigit() and 1 <= int(n) <= total for n in numbers):
        raise DrillError(f"type numbers between 1 and {total}, separated by spaces")
    return len(set(numbers))


def mock_interview(
    questions: Sequence[Question],
    minutes: float | None,
    progress: Progress | None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    clock: Callable[[], float] = time.monotonic,
    *,
    mode: str | None = None,
    language: str = "en",
) -> list[tuple[str, bool]]:
    """Ask each question, reveal the model answer, self-grade; stop when time runs out.

    With `mode` ("pitch" or "deep") each question has its own limit and `minutes` must be
    None; without it the whole set runs against `minutes`. Prompts are in `language`.
    Returns (question id, answered) pairs; each is also recorded in `progress`.
    """
    if mode is not None and mode not in MODES:
        raise DrillError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if (mode is None) == (minutes is None):
        raise DrillError("give minutes for the whole set or a mode for each question: exactly one of the two")
    if language not in LABELS:
        raise DrillError(f"language must be one of {', '.join(LABELS)}, not {language!r}")
    text = partial(label, language)
    limit = MODES[mode] if mode else None
    if limit is not None:
        say(text("mock.mode." + str(mode), limit=format_minutes(limit)))
    start, results = clock(), []
    for number, question in enumerate(questions, 1):
        if limit is None:
            elapsed = clock() - start
            if elapsed >= minutes * 60:
                say("\n" + text("mock.time_up", done=len(results), total=len(questions)))
                break
            total = format_minutes(minutes * 60)
            timing = text("mock.set_clock", elapsed=format_minutes(elapsed), limit=total)
        else:
            timing = text("mock.answer_clock", limit=format_minutes(limit))
        say(
            f"\n[{number}/{len(questions)}] {question.topic} · {question.difficulty} · {timing}\n"
            f"{question.question}"
        )
        answered = _ask_and_grade(question, ask, say, text, clock, limit)
        if answered is None:
            break
        results.append((question.id, answered))
        if progress is not None:
            progress.record(question.id, answered)
    answered_count = sum(a for _, a in results)
    taken = format_minutes(clock() - start)
    say("\n" + text("mock.summary", answered=answered_count, graded=len(results), taken=taken))
    return results


def _ask_and_grade(
    question: Question,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    text: Callable[..., str],
    clock: Callable[[], float],
    limit: int | None,
) -> bool | None:
    """Whether the answer counts; None when the learner ends the session (end of input)."""
    try:
        over_time = False
        if limit is None:
            ask(text("mock.speak"))
        else:
            asked = clock()
            ask(text("mock.speak"))
            taken = clock() - asked
            over_time = taken > limit
            if over_time:
                say(text("mock.over_time", taken=format_minutes(taken), limit=format_minutes(limit)))
        say(f"\n{text('mock.model_answer')}{question.model_answer}\n{text('mock.key_points')}")
        say("\n".join(f"  {i}. {point}" for i, point in enumerate(question.key_points, 1)))
        say(text("mock.follow_ups") + text("mock.separator").join(question.follow_ups))
        total = len(question.key_points)
        while True:
            try:
                hits = parse_hits(ask(text("mock.covered")), total)
            except DrillError:
                say(text("mock.bad_numbers", total=total))
                continue
            answered = covered_enough(hits, total) and not over_time
            verdict = text("answered") if answered else text("mock.missed")
            say(text("mock.verdict", hits=hits, total=total, verdict=verdict))
            return answered
    except EOFError:
        return None
