"""Lab checks: each fails with one specific, helpful line until the code is right.

A check cell in a lab calls a function from `wirelab.check.lessonNN`. The
function exercises the learner's code on a few cases and either prints a
tick line or raises `CheckFailed`, which IPython shows as one line instead
of a traceback:

    check_parse_arguments(parse_arguments)
    # ✓ parse_arguments turns the JSON string into a dict   (or)
    # ✗ parse_arguments('{"city": "Paris"}') returned '{"city": "Paris"}': json.loads it first
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class CheckFailed(AssertionError):
    """A lab check that did not pass; the message says what to change."""

    def _render_traceback_(self) -> list[str]:
        return [f"✗ {self}"]


def passed(message: str) -> None:
    """Report a passing check."""
    print(f"✓ {message}")


def expect(condition: bool, message: str) -> None:
    """Fail the check with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the learner's `fn`; an unfinished stub or a crash becomes a clear CheckFailed."""
    name = getattr(fn, "__name__", repr(fn))
    try:
        return fn(*args, **kwargs)
    except NotImplementedError as e:
        raise CheckFailed(f"{name} is not written yet. Hint: {e}") from None
    except CheckFailed:
        raise
    except Exception as e:
        raise CheckFailed(f"{name}(...) raised {type(e).__name__}: {e}") from None
