"""Chat Completions names for MCP tools: sanitized, namespaced, and mapped back.

An MCP tool name SHOULD be 1–128 characters from `A-Z a-z 0-9 _ - .`
(2025-11-25, server/tools, "Tool names"; a SHOULD, so servers break it too).
Chat Completions accepts only `^[a-zA-Z0-9_-]{1,64}$`, and two servers may
both offer `search`. So a host gives every tool a chat name and keeps the
mapping both ways; it never parses a chat name back:

    >>> names = ToolNames({"notes": ["search", "notes.add"], "web": ["search"]})
    >>> names.chat_name("notes", "notes.add")
    'notes__notes_add'
    >>> names.original("web__search")
    ('web', 'search')

Rules: each character outside `[a-zA-Z0-9_-]` becomes `_`; with a namespace
(the host's own label for the server, not its self-declared `serverInfo.name`,
which need not be unique) the name is `namespace__tool`; a name that is then
too long, empty, or shared by two tools is cut and ends in `_` plus 8 hex
digits of a hash of (namespace, tool). The same tool lists always give the
same names, whatever their order. A single server's tools may go without a
namespace (`{None: [...]}`): clean names then reach the model unchanged.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping

CHAT_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_LENGTH = 64
SEPARATOR = "__"
HASH_DIGITS = 8

Original = tuple[str | None, str]  # (namespace, MCP tool name)


def sanitize(name: str) -> str:
    """`name` with every character Chat Completions refuses replaced: 'notes.add' -> 'notes_add'."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", name)


def _hashed(candidate: str, original: Original, attempt: int) -> str:
    digest = hashlib.sha256(f"{original[0]}\0{original[1]}\0{attempt}".encode()).hexdigest()[:HASH_DIGITS]
    return f"{candidate[: MAX_LENGTH - HASH_DIGITS - 1]}_{digest}"


class ToolNames:
    """The chat name of every (namespace, tool) and the way back; built from whole tool lists."""

    def __init__(self, tools: Mapping[str | None, Iterable[str]]) -> None:
        originals = [(namespace, name) for namespace, names in tools.items() for name in names]
        if len(set(originals)) != len(originals):
            raise ValueError("a server listed the same tool name twice; tool names must be unique")
        candidates = {o: self._candidate(*o) for o in originals}
        self._to_chat = self._resolve(candidates)
        self._to_original = {chat: original for original, chat in self._to_chat.items()}

    @staticmethod
    def _candidate(namespace: str | None, name: str) -> str:
        return sanitize(name) if namespace is None else f"{sanitize(namespace)}{SEPARATOR}{sanitize(name)}"

    @staticmethod
    def _resolve(candidates: dict[Original, str], tries: int = 5) -> dict[Original, str]:
        """Hash-suffix every name that is too long, empty or shared, until all are distinct."""
        chosen = {o: c if 0 < len(c) <= MAX_LENGTH else _hashed(c, o, 0) for o, c in candidates.items()}
        for attempt in range(tries):
            holders: dict[str, list[Original]] = defaultdict(list)
            for original, chat in chosen.items():
                holders[chat].append(original)
            shared = [o for group in holders.values() if len(group) > 1 for o in group]
            if not shared:
                return chosen
            chosen.update({o: _hashed(candidates[o], o, attempt) for o in shared})
        raise ValueError(f"could not give distinct names to {sorted(map(str, shared))}")

    def chat_name(self, namespace: str | None, name: str) -> str:
        """The name the model sees for tool `name` of server `namespace`."""
        return self._to_chat[(namespace, name)]

    def original(self, chat_name: str) -> Original:
        """(namespace, MCP tool name) for a name the model used; KeyError for one never offered."""
        return self._to_original[chat_name]

    def __iter__(self) -> Iterator[tuple[Original, str]]:
        return iter(self._to_chat.items())

    def __len__(self) -> int:
        return len(self._to_chat)
