"""Backoff with jitter: transient failures retried out of the model's sight, others raised at once."""

import pytest

from wirelab.errors import ToolError
from wirelab.retry import RetryPolicy, TransientError, is_transient, retrying
from wirelab.tools import tool


def flaky(failures, error=None):
    """A function that fails `failures` times, then answers."""
    calls, error = [], error or ConnectionError("reset by peer")

    def fetch() -> str:
        calls.append(1)
        if len(calls) <= failures:
            raise error
        return "data"

    return fetch, calls


def policy(**options):
    waits = []
    return RetryPolicy(sleep=waits.append, random=lambda: 0.5, **options), waits


def test_ceilings_double_from_the_base_up_to_the_cap():
    assert RetryPolicy(attempts=6, base_s=0.5, cap_s=4.0).ceilings() == [0.5, 1.0, 2.0, 4.0, 4.0]


def test_each_wait_is_a_random_share_of_its_ceiling():
    retry, _ = policy(attempts=3, base_s=1.0, cap_s=8.0)
    assert [retry.delay(0), retry.delay(1)] == [0.5, 1.0]


def test_a_transient_failure_is_retried_until_it_succeeds():
    retry, waits = policy(attempts=4, base_s=1.0)
    fetch, calls = flaky(2)
    assert retry.call(fetch) == "data"
    assert len(calls) == 3 and waits == [0.5, 1.0]


def test_after_the_last_attempt_the_failure_becomes_one_unavailable_error():
    retry, waits = policy(attempts=3)
    fetch, calls = flaky(10)
    with pytest.raises(ToolError) as caught:
        retry.call(fetch)
    assert caught.value.code == "unavailable" and len(calls) == 3 and len(waits) == 2
    assert "ConnectionError: reset by peer" in caught.value.message


def test_a_non_transient_error_is_raised_at_once_without_waiting():
    retry, waits = policy()
    fetch, calls = flaky(1, ToolError("not_found", "no order 7"))
    with pytest.raises(ToolError, match="no order 7"):
        retry.call(fetch)
    assert len(calls) == 1 and waits == []


@pytest.mark.parametrize(
    "error",
    [
        TimeoutError(),
        ConnectionResetError(),
        TransientError("busy"),
        TransientError("rate limited", status=429),
    ],
)
def test_timeouts_dropped_connections_and_retryable_statuses_are_transient(error):
    assert is_transient(error)


class HTTPError(Exception):
    def __init__(self, status_code):
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


@pytest.mark.parametrize(
    "error",
    [
        ValueError("bad"),
        KeyError("id"),
        HTTPError(404),
        HTTPError(400),
        ToolError("timeout", "a tool's own verdict"),
    ],
)
def test_bugs_client_errors_and_a_tools_own_errors_are_not_transient(error):
    assert not is_transient(error)


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_rate_limits_and_server_errors_are_transient(status):
    assert is_transient(HTTPError(status))


def test_on_retry_sees_each_retry_with_its_wait():
    seen = []
    retry = RetryPolicy(
        attempts=3,
        base_s=1.0,
        sleep=lambda s: None,
        random=lambda: 1.0,
        on_retry=lambda n, wait, e: seen.append((n, wait, type(e).__name__)),
    )
    retry.call(flaky(2)[0])
    assert seen == [(1, 1.0, "ConnectionError"), (2, 2.0, "ConnectionError")]


def test_a_retrying_tool_is_described_exactly_like_the_original():
    def weather(city: str) -> str:
        """Current weather.

        Args:
            city: A city.
        """
        return city

    wrapped = retrying(RetryPolicy())(weather)
    assert tool(wrapped).spec() == tool(weather).spec()
    assert wrapped(city="Oslo") == "Oslo"


@pytest.mark.parametrize("options", [{"attempts": 0}, {"base_s": -1}, {"base_s": 2, "cap_s": 1}])
def test_nonsense_policies_are_refused(options):
    with pytest.raises(ValueError):
        RetryPolicy(**options)
