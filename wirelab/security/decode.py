"""Undo the encodings a text may wear, layer by layer, with bounds: what a filter must look inside.

A secret, or an instruction, can leave as `c2stbGl2ZS0…` (base64),
`73:6B:2D…` (hex), `%25...` (percent-encoded twice), `&#115;k-…` (HTML
entities), `\\u0073k-…` (escapes written out), base32, or base64 of gzip.
`layers` decodes every such layer it can find, and the layers inside those:

    >>> layers("key: c2stbGl2ZS03ZjNh")
    [('raw', 'key: c2stbGl2ZS03ZjNh'), ('unwrapped', 'key:c2stbGl2ZS03ZjNh'),
     ('base64', 'key: sk-live-7f3a'), ('unwrapped>base64', 'key:sk-live-7f3a')]

The form names the encodings from the outside in (`base64>gzip` is base64 of
gzip); `unwrapped` is the text with its whitespace removed (base64 or hex
broken over lines). Each run of base64 is decoded at its four alignments, so
a payload glued to a prefix (`keyc2tt…`) is still found; a run is replaced by
what it decodes to only when that reads as text. Everything is bounded:
`MAX_DEPTH` layers, `MAX_VIEWS` texts, `MAX_CHARS` per text, and
decompression stops at `MAX_INFLATED` bytes (`Inflated` is raised when it
would go past: a zip bomb is refused, not unpacked).

Encodings the attacker chooses (encryption, a private alphabet, one letter
per call, a paraphrase) cannot be undone here, or anywhere: see lesson 13.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import zlib
from collections.abc import Callable, Iterator
from urllib.parse import unquote

MAX_DEPTH = 4
MAX_VIEWS = 32
MAX_CHARS = 1 << 18
MAX_INFLATED = 1 << 16
MIN_RUN = 12  # shorter runs are ordinary words, not payloads
READABLE = 0.9  # the share of printable characters that makes decoded bytes text

BASE64_RUN = re.compile(rf"[A-Za-z0-9+/_-]{{{MIN_RUN},}}={{0,2}}")
BASE32_RUN = re.compile(rf"[A-Za-z2-7]{{{MIN_RUN + 4},}}={{0,6}}")
HEX_RUN = re.compile(rf"(?:(?:0x|\\x)?[0-9A-Fa-f]{{2}}[\s:,.-]?){{{MIN_RUN // 2},}}")
ESCAPE = re.compile(r"\\u\{([0-9A-Fa-f]{1,6})\}|\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})|\\U([0-9A-Fa-f]{8})")
UNREADABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd]")  # controls, undecodable bytes
GZIP = b"\x1f\x8b"
COMPRESSED = (GZIP, b"\x78\x01", b"\x78\x5e", b"\x78\x9c", b"\x78\xda")


class Inflated(ValueError):
    """A compressed payload that would inflate past `MAX_INFLATED` bytes."""


def layers(text: str) -> list[tuple[str, str]]:
    """`text` and every decoded layer found in it: [(form, text)], raw first; see the module docstring."""
    seen, views, queue = {text}, [("raw", text)], [("raw", text, 0)]
    while queue and len(views) < MAX_VIEWS:
        form, current, depth = queue.pop(0)
        for step, decoded in decodings(current[:MAX_CHARS]) if depth < MAX_DEPTH else ():
            if decoded not in seen and len(views) < MAX_VIEWS:
                seen.add(decoded)
                name = step if form == "raw" else f"{form}>{step}"
                views.append((name, decoded))
                queue.append((name, decoded, depth + 1))
    return views


def decodings(text: str) -> Iterator[tuple[str, str]]:
    """`text` with one kind of encoding undone wherever it occurs: [(form, text)], one per kind."""
    for name, decode in TEXT_DECODERS.items():
        decoded = decode(text)
        if decoded != text:
            yield name, decoded
    for name, pattern, decode in BINARY_DECODERS:
        forms: set[str] = set()

        def readable(match: re.Match[str], decode=decode, forms=forms, name=name) -> str:
            found = [(form, t) for data in decode(match.group()) for form, t in _as_text(name, data)]
            forms.update(form for form, _ in found)
            return " ".join(t for _, t in found) if found else match.group()

        decoded = pattern.sub(readable, text)
        if decoded != text:
            yield "|".join(sorted(forms)), decoded


def _as_text(name: str, data: bytes) -> Iterator[tuple[str, str]]:
    """`data` as text when it reads as text (gzip and zlib inflated first): [(form, text)]."""
    if data.startswith(COMPRESSED):
        inflated = inflate(data)
        if inflated is not None:
            yield from _as_text(f"{name}>{'gzip' if data.startswith(GZIP) else 'zlib'}", inflated)
        return
    decoded = data.decode("utf-8", "replace")
    if len(decoded) >= 4 and len(UNREADABLE.findall(decoded)) <= (1 - READABLE) * len(decoded):
        yield name, decoded


def inflate(data: bytes) -> bytes | None:
    """gzip or zlib `data` inflated, None if it is not; `Inflated` past `MAX_INFLATED` bytes."""
    inflater = zlib.decompressobj(wbits=47)  # 32 + 15: gzip or zlib header, detected
    try:
        out = inflater.decompress(data, MAX_INFLATED)
    except zlib.error:
        return None
    if inflater.unconsumed_tail:
        raise Inflated(f"a compressed payload inflates past {MAX_INFLATED} bytes")
    return out


def _percent(text: str) -> str:
    return unquote(text) if "%" in text else text


def _entities(text: str) -> str:
    return html.unescape(text) if "&" in text else text


def _escapes(text: str) -> str:
    if "\\" not in text:
        return text
    return ESCAPE.sub(lambda m: chr(min(int(next(g for g in m.groups() if g), 16), 0x10FFFF)), text)


def _base64(run: str) -> Iterator[bytes]:
    """The run decoded at each of the 4 starting offsets (standard and URL-safe alphabets alike)."""
    body = run.rstrip("=").replace("-", "+").replace("_", "/")
    for start in range(4):
        part = body[start:]
        part = part[: len(part) - len(part) % 4] if len(part) % 4 == 1 else part
        try:
            yield base64.b64decode(part + "=" * (-len(part) % 4))
        except binascii.Error:
            continue


def _base32(run: str) -> Iterator[bytes]:
    part = run.rstrip("=").upper()
    for tried in (part + "=" * (-len(part) % 8), part[: len(part) - len(part) % 8]):
        try:
            yield base64.b32decode(tried)
            return
        except binascii.Error:
            continue


def _hex(run: str) -> Iterator[bytes]:
    digits = re.sub(r"0x|\\x|[^0-9A-Fa-f]", "", run)
    for start in (0, 1):
        part = digits[start:]
        yield bytes.fromhex(part[: len(part) - len(part) % 2])


def _unwrapped(text: str) -> str:
    return re.sub(r"\s+", "", text)


TEXT_DECODERS: dict[str, Callable[[str], str]] = {
    "unwrapped": _unwrapped,
    "percent": _percent,
    "html": _entities,
    "escapes": _escapes,
}
BINARY_DECODERS: list[tuple[str, re.Pattern[str], Callable[[str], Iterator[bytes]]]] = [
    ("hex", HEX_RUN, _hex),
    ("base64", BASE64_RUN, _base64),
    ("base32", BASE32_RUN, _base32),
]
