"""Roots: a file tool may touch only the folders the user shared; traversal is refused.

MCP clients tell servers which folders they may work in (`roots/list`, each
root a `file://` URI). A server, or a host-side tool, must then resolve every
path it is given *inside* those roots, whatever the model or an injected
instruction wrote:

    >>> import tempfile
    >>> project = tempfile.TemporaryDirectory()  # the folder the user shared, say /home/ada/project
    >>> roots = Roots([project.name])
    >>> roots.resolve("notes/todo.md").relative_to(roots.folders[0]).as_posix()
    'notes/todo.md'
    >>> roots.resolve("../.ssh/id_rsa")
    Traceback (most recent call last):
    wirelab.security.roots.PathRejected: path '../.ssh/id_rsa' rejected: it resolves to ...,
    outside the allowed roots (...)
    >>> roots.resolve("%2e%2e/.ssh/id_rsa")
    Traceback (most recent call last):
    wirelab.security.roots.PathRejected: path '%2e%2e/.ssh/id_rsa' rejected:
    percent-encoded dots, slashes or percent signs are refused

A path is resolved the way the operating system would (`Path.resolve`:
`..` collapsed, symlinks followed), then must lie inside a root. Refused
before that: anything but a non-empty string, NUL bytes, backslashes, `~`,
URIs other than `file://` on this host, and percent-encoded dots, slashes or
percent signs (a layer that decodes once more would see a traversal).
Relative paths are taken from the first root. Left out: the race between
resolving and opening (a symlink swapped in between; `openat` with
`O_NOFOLLOW` closes it) and Windows drive letters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from wirelab.errors import ToolError

ENCODED_TRAVERSAL = re.compile(r"%(?:2e|2f|5c|25|00)", re.I)


class PathRejected(ToolError):
    """A path outside the roots, or written so that it cannot be judged safely."""

    def __init__(self, requested: Any, reason: str) -> None:
        super().__init__(
            "path_rejected",
            f"path {requested!r} rejected: {reason}",
            suggestion="Use a path inside the shared folders.",
        )


class Roots:
    """The folders a tool may read or write, and the check every path goes through."""

    def __init__(self, folders: Iterable[str | Path]) -> None:
        self.folders = [Path(folder).resolve() for folder in folders]
        if not self.folders:
            raise ValueError("Roots needs at least one folder")
        missing = [str(f) for f in self.folders if not f.is_dir()]
        if missing:
            raise ValueError(f"roots must be existing folders: {', '.join(missing)}")

    @classmethod
    def from_mcp(cls, roots: Iterable[Mapping[str, Any]]) -> Roots:
        """Roots from an MCP `roots/list` result's `roots`: [{"uri": "file:///…", "name": …}]."""
        return cls(_file_uri_path(root.get("uri"), root.get("uri")) for root in roots)

    def resolve(self, requested: Any) -> Path:
        """The real path `requested` names, if it lies inside a root; else `PathRejected`."""
        path = _plain_path(requested)
        candidate = Path(path) if Path(path).is_absolute() else self.folders[0] / path
        resolved = candidate.resolve()
        if not any(resolved.is_relative_to(folder) for folder in self.folders):
            raise PathRejected(
                requested,
                f"it resolves to {resolved}, outside the allowed roots ({', '.join(map(str, self.folders))})",
            )
        return resolved

    def uris(self) -> list[dict[str, str]]:
        """The roots as MCP describes them: [{"uri": "file:///…", "name": "…"}]."""
        return [{"uri": folder.as_uri(), "name": folder.name} for folder in self.folders]


def _plain_path(requested: Any) -> str:
    if not isinstance(requested, str) or not requested.strip():
        raise PathRejected(requested, "a path must be a non-empty string")
    if "\x00" in requested:
        raise PathRejected(requested, "it contains a NUL byte")
    path = _file_uri_path(requested, requested) if re.match(r"[A-Za-z][\w+.-]*:", requested) else requested
    if ENCODED_TRAVERSAL.search(path):
        raise PathRejected(requested, "percent-encoded dots, slashes or percent signs are refused")
    if "\\" in path:
        raise PathRejected(requested, "backslashes are refused: use / between folders")
    if path.startswith("~"):
        raise PathRejected(requested, "~ is not expanded: give a path inside the roots")
    return path


def _file_uri_path(uri: Any, requested: Any) -> str:
    """The local path of a `file://` URI on this host, percent-decoded once."""
    if not isinstance(uri, str):
        raise PathRejected(requested, "a root needs a string 'uri'")
    parts = urlsplit(uri)
    if parts.scheme != "file":
        raise PathRejected(requested, f"only file:// URIs name local files, not {parts.scheme}:")
    if parts.netloc not in ("", "localhost") or parts.query or parts.fragment:
        raise PathRejected(requested, "a file:// URI must name this host and carry no ?query or #part")
    path = unquote(parts.path)
    if "\x00" in path:
        raise PathRejected(requested, "it contains a NUL byte")
    return path
