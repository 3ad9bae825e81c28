"""A mock interview in a terminal: questions against a timer, each self-graded on key points."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from wirelab.interview.bank import DrillError, Question, covered_enough
from wirelab.interview.progress import Progress


def format_minutes(seconds: float) -> str:
    """Seconds as minutes:seconds.

    >>> format_minutes(754)
    '12:34'
    """
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


def parse_hits(reply: str, total: int) -> int:
    """Key points the learner says they covered: `'1 3'` -> 2; raises `DrillError` on bad input."""
    numbers = reply.replace(",", " ").split()
    if not all(n.isdigit() and 1 <= int(n) <= total for n in numbers):
        raise DrillError(f"type numbers between 1 and {total}, separated by spaces")
    return len(set(numbers))


def mock_interview(
    questions: Sequence[Question],
    minutes: float,
    progress: Progress | None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    clock: Callable[[], float] = time.monotonic,
) -> list[tuple[str, bool]]:
    """Ask each question, reveal the model answer, self-grade; stop when time runs out.

    Returns (question id, answered) pairs; each is also recorded in `progress`.
    """
    start, results = clock(), []
    for number, question in enumerate(questions, 1):
        elapsed = clock() - start
        if elapsed >= minutes * 60:
            say(f"\nTime is up after {len(results)} of {len(questions)} questions.")
            break
        say(
            f"\n[{number}/{len(questions)}] {question.topic} · {question.difficulty} · "
            f"{format_minutes(elapsed)} of {format_minutes(minutes * 60)}\n{question.question}"
        )
        answered = _ask_and_grade(question, ask, say)
        if answered is None:
            break
        results.append((question.id, answered))
        if progress is not None:
            progress.record(question.id, answered)
    say(f"\nAnswered {sum(a for _, a in results)} of {len(results)} in {format_minutes(clock() - start)}.")
    return results


def _ask_and_grade(question: Question, ask: Callable[[str], str], say: Callable[[str], None]) -> bool | None:
    """None when the learner ends the session (end of input)."""
    try:
        ask("Answer out loud, then press Enter to see the model answer... ")
        say(f"\nModel answer: {question.model_answer}\nKey points:")
        say("\n".join(f"  {i}. {point}" for i, point in enumerate(question.key_points, 1)))
        say("Follow-ups: " + " | ".join(question.follow_ups))
        while True:
            try:
                total = len(question.key_points)
                hits = parse_hits(ask("Numbers of the key points you covered: "), total)
                answered = covered_enough(hits, total)
                say(f"{hits}/{total} key points: {'answered' if answered else 'missed'}.")
                return answered
            except DrillError as exc:
                say(str(exc))
    except EOFError:
        return None
