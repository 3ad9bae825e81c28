"""Lab checks: each names the mistake in one line until the code is right.

Lab conventions (labs 00–14; follow them for a new lab NN):

- The solved lab is `solutions/NN_<topic>_lab.ipynb`; `scripts/make_labs.py` makes
  `labs/NN_<topic>_lab.ipynb` from it (never edit labs/ by hand). Each exercise's
  answer sits between `### BEGIN SOLUTION: a one-line hint` and `### END SOLUTION`.
- Each exercise asks for more than its lesson showed line by line: a new case, a
  variant or a design choice, not the lesson's code typed again.
- After each exercise, a code cell tagged `check` calls one `check_…` function of
  `wirelab.check.lessonNN`, decorated with `@exercise`. The last cell, tagged
  `summary`, is `summary("NN")`. make_labs.py tags the lab's cells from the first
  exercise on `raises-exception`, so JupyterLab's Run All runs every cell even when
  an unfinished function raises in a demo cell.
- A check tries the learner's function on the cases that catch the usual wrong
  answers; `tests/wrong_solutions/NN/*.toml` holds at least three of those answers,
  each with the message fragment that must name its mistake.
- A check's message is written once, in both languages: `expect(ok, say("English", "中文"))`
  (`wirelab.edition.say` picks the lab's edition; labs/zh is Chinese). A lab's hints (the
  `### BEGIN SOLUTION:` lines) are translated in translations/zh/lab_hints.json.

In a notebook, a check prints one line and records its outcome instead of raising,
so Run All shows every exercise's status; `summary("NN")` lists them all and raises
once if any failed (which is what nbval and `./course check NN` see). Called from
plain Python (tests, scripts) a check raises `CheckFailed`:

    check_parse_arguments(parse_arguments)
    # ✓ parse_arguments turns the JSON string into a dict   (or)
    # ✗ parse_arguments('{"city": "Paris"}') returned '{"city": "Paris"}': json.loads it first
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from wirelab.edition import say


class CheckFailed(AssertionError):
    """A lab check that did not pass; the message says what to change."""

    def _render_traceback_(self) -> list[str]:
        return [f"✗ {self}"]


# module name -> its checks' names, in the order they are defined (= the lab's order)
CHECKS: dict[str, list[str]] = {}
# "module.check" -> (passed, the line shown)
OUTCOMES: dict[str, tuple[bool, str]] = {}
_last_pass: list[str] = []


def passed(message: str) -> None:
    """Report a passing check."""
    _last_pass[:] = [message]
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
        raise CheckFailed(
            say(f"{name} is not written yet. Hint: {e}", f"{name} 还没有写。提示：{e}")
        ) from None
    except CheckFailed:
        raise
    except Exception as e:
        raised = say(
            f"{name}(...) raised {type(e).__name__}: {e}", f"{name}(...) 抛出了 {type(e).__name__}：{e}"
        )
        raise CheckFailed(raised) from None


def in_notebook() -> bool:
    """True inside a Jupyter kernel, where a failed check reports instead of raising."""
    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


def exercise(check: Callable[..., None]) -> Callable[..., None]:
    """Record `check`'s outcome for `summary`; in a notebook, show a failure instead of raising."""
    CHECKS.setdefault(check.__module__, []).append(check.__name__)
    key = f"{check.__module__}.{check.__name__}"

    @functools.wraps(check)
    def run(*args: Any, **kwargs: Any) -> None:
        _last_pass.clear()
        try:
            check(*args, **kwargs)
        except CheckFailed as failed:
            _fail(key, str(failed), failed)
        except NotImplementedError as e:
            unwritten = say(f"a function is not written yet. Hint: {e}", f"有函数还没有写。提示：{e}")
            _fail(key, unwritten, CheckFailed(str(e)))
        except Exception as e:
            stopped = say(
                f"the check stopped on {type(e).__name__}: {e}", f"检查因 {type(e).__name__} 中止：{e}"
            )
            _fail(key, stopped, CheckFailed(str(e)))
        else:
            OUTCOMES[key] = (True, f"✓ {_last_pass[0] if _last_pass else check.__name__}")

    return run


def _fail(key: str, message: str, failed: CheckFailed) -> None:
    OUTCOMES[key] = (False, f"✗ {message}")
    if not in_notebook():
        if str(failed) == message:
            raise failed
        raise CheckFailed(message) from failed
    print(f"✗ {message}")


def summary(lesson: str) -> None:
    """List the status of every exercise of lab `lesson`; raise once if any is not passing."""
    module = f"wirelab.check.lesson{lesson.zfill(2)}"
    __import__(module)
    names = CHECKS.get(module, [])
    waiting = {name: (False, say(f"· {name} has not run yet", f"· {name} 还没有运行")) for name in names}
    lines = [OUTCOMES.get(f"{module}.{name}", waiting[name]) for name in names]
    done, total, lab = sum(ok for ok, _ in lines), len(names), lesson.zfill(2)
    print(say(f"Lab {lab}: {done} of {total} exercises pass", f"实验 {lab}：{total} 个练习中通过 {done} 个"))
    for _, line in lines:
        print(f"  {line}")
    if done < total:
        left = total - done
        raise CheckFailed(
            say(
                f"{left} of {total} exercises still to do (see above)",
                f"{total} 个练习中还有 {left} 个未完成（见上方）",
            )
        )
