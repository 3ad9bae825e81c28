"""Exponential backoff with jitter, for system errors the model never sees.

A network blip, a 503 or a rate limit is not the model's fault and not its
business: retrying is the host's job. `RetryPolicy.call` retries transient
failures with "full jitter" delays (a random wait between 0 and
`min(cap_s, base_s * 2**attempt)`), so many clients that failed together do
not all come back together:

    >>> policy = RetryPolicy(attempts=4, base_s=0.5, cap_s=4.0)
    >>> policy.ceilings()  # the longest wait before attempts 2, 3 and 4
    [0.5, 1.0, 2.0]

Only the last failure becomes a result, a structured `unavailable` error.
Errors that are not transient (a bad argument, a missing record) are raised at
once: retrying them only repeats them. `sleep` and `random` are injectable so
tests never wait; `on_retry(retry, wait_s, error)` lets a host log each retry.
Left out: retry budgets shared across calls, honouring a Retry-After header.
"""

from __future__ import annotations

import functools
import random as random_module
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from wirelab.errors import ToolError

T = TypeVar("T")

TRANSIENT_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class TransientError(Exception):
    """A failure worth retrying; `status` is the HTTP status when there was one."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def is_transient(error: BaseException) -> bool:
    """True for timeouts, dropped connections and retryable HTTP statuses (429, 5xx)."""
    if isinstance(error, ToolError):
        return False
    if isinstance(error, TimeoutError | ConnectionError):
        return True
    status = getattr(error, "status", None) or getattr(error, "status_code", None)
    return isinstance(error, TransientError) or status in TRANSIENT_STATUS


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. `attempts` counts the first try too."""

    attempts: int = 4
    base_s: float = 0.2
    cap_s: float = 5.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)
    random: Callable[[], float] = field(default=random_module.random, compare=False)
    on_retry: Callable[[int, float, Exception], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"attempts must be at least 1, not {self.attempts}")
        if self.base_s < 0 or self.cap_s < self.base_s:
            raise ValueError(f"need 0 <= base_s <= cap_s, got base_s={self.base_s}, cap_s={self.cap_s}")

    def ceilings(self) -> list[float]:
        """The longest wait before each retry: base_s, 2*base_s, 4*base_s, … capped at cap_s."""
        return [min(self.cap_s, self.base_s * 2**n) for n in range(self.attempts - 1)]

    def delay(self, retry: int) -> float:
        """The wait before retry number `retry` (0-based): uniform in [0, ceiling]."""
        return self.ceilings()[retry] * self.random()

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)`, retried on transient errors; gives up with `unavailable`."""
        retry = 0
        while True:
            try:
                return fn(*args, **kwargs)
            except Exception as e:
                if not is_transient(e):
                    raise
                if retry == self.attempts - 1:
                    raise _gave_up(fn, self.attempts, e) from e
                wait = self.delay(retry)
                if self.on_retry:
                    self.on_retry(retry + 1, wait, e)
                self.sleep(wait)
                retry += 1


def _gave_up(fn: Callable[..., Any], attempts: int, error: Exception) -> ToolError:
    name = getattr(fn, "__name__", "the service")
    return ToolError(
        "unavailable",
        f"{name} failed {attempts} times: {type(error).__name__}: {error}",
        suggestion="The service is down for now: tell the user, do not retry at once.",
        retryable=True,
    )


def retrying(policy: RetryPolicy) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorate a tool function so transient failures are retried inside it.

    The wrapper keeps the function's name, docstring and signature, so
    `wirelab.tools.tool` describes it exactly as it describes the original.
    """

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> T:
            return policy.call(fn, *args, **kwargs)

        return wrapper

    return decorate
