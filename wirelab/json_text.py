"""JSON text read strictly: what `json.loads` lets through but a peer would choke on is refused,
with a message that names it. Every server the course runs reads its messages here: the
offline model's HTTP bodies, and JSON-RPC's (`wirelab.jsonrpc.decode` answers -32700 for it).

    >>> loads(b'{"city": "Paris", "days": 3}')
    {'city': 'Paris', 'days': 3}

Refused, each as a `JsonTextError`: bytes that are not UTF-8; text that is not JSON; NaN,
Infinity and numbers that overflow a float (no answer could carry them back as JSON); integers
too long to convert; nesting too deep to read; an object with the same key twice (peers disagree
on which one wins). `lone_surrogate` finds the strings JSON may escape but UTF-8 cannot carry.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonTextError(ValueError):
    """Why a text is refused, e.g. 'Expecting value at character 0'."""


def loads(data: str | bytes) -> Any:
    """The JSON value of `data`, or a `JsonTextError` for any of the module docstring's refusals."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise JsonTextError(
                f"the message is not valid UTF-8 (byte {e.start} is {data[e.start]:#04x})"
            ) from e
    try:
        return json.loads(
            data,
            parse_int=_int,
            parse_float=_finite,
            parse_constant=_no_constant,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as e:
        raise JsonTextError(f"{e.msg} at character {e.pos}") from e
    except RecursionError as e:
        raise JsonTextError("arrays or objects nested too deep") from e
    except JsonTextError:
        raise
    except ValueError as e:  # int() past Python's digit limit, raised before `_int` can say so
        raise JsonTextError(str(e)) from e


def lone_surrogate(value: Any) -> str | None:
    """The first string in `value` (keys included) holding a lone surrogate such as `\\ud800`.

    JSON may escape one (`"\\ud800"`), but it is not a character: UTF-8 cannot encode
    it, so no answer that echoes it could be sent (RFC 7493, I-JSON, forbids them).
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def shown(text: str, limit: int = 40) -> str:
    """`text` quoted for an error message: ASCII-escaped (a lone surrogate stays printable), cut short."""
    quoted = json.dumps(text[:limit])
    return quoted if len(text) <= limit else quoted[:-1] + '…"'


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object, refusing a key given twice: `{"jsonrpc": "1.0", "jsonrpc": "2.0"}`."""
    value = dict(pairs)
    if len(value) < len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise JsonTextError(f"the key {shown(twice)} appears twice in one object")
    return value


def _int(text: str) -> int:
    """An integer, refusing more digits than Python converts (4,300 by default; 0 is no limit)."""
    digits, limit = len(text.lstrip("-")), sys.get_int_max_str_digits()
    if limit and digits > limit:
        raise JsonTextError(f"an integer of {digits} digits is too long (at most {limit})")
    return int(text)


def _finite(text: str) -> float:
    """A float that JSON can carry back: 1e400 would become inf, which JSON has no text for."""
    value = float(text)
    if not math.isfinite(value):
        raise JsonTextError(f"the number {text} is out of range")
    return value


def _no_constant(text: str) -> float:
    raise JsonTextError(f"{text} is not JSON (Python reads it, other peers do not)")
