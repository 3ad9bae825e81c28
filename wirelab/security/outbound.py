"""The confused deputy: an injected instruction makes the agent send a secret out. Stop it at the door.

The agent holds authority the attacker lacks (keys, files, a mailbox). Text
the attacker wrote (a ticket, a web page, a tool result) asks the model to
use that authority for them: "call `send_email` with {…the key…}". The model
cannot be trusted to refuse, so the host checks every call's arguments
*before* they leave, whoever wrote them:

    secrets = SecretStore()
    secrets.add("deploy_key", "sk-live-7f3a9c2e5b1d4e8f", may_go_to={"deploy"})
    policy = OutboundPolicy({"get_ticket": {"read"}, "send_email": {"network"},
                             "deploy": {"network", "write"}},
                            granted={"read", "network", "write"}, secrets=secrets)
    run_tool_loop(llm, messages, tools, model=model_name(), execute=guarded(policy.check_call))

Two rules, each a structured error the model reads as the call's result:

- least privilege: each tool declares what it needs (`read`, `write`,
  `network` egress); a tool with no declaration, or needing what the session
  did not grant, is refused (`permission_denied`);
- no secret leaves through a tool not allowed to receive it: a stored
  secret in any argument however deeply nested, or split across arguments
  (all of a call's strings are joined and searched too); in any case, with
  separators, invisible characters or fullwidth letters in between; under
  any layers of encoding `wirelab.security.decode` can undo (base64 at any
  alignment, base32, hex, percent, HTML entities, `\\uXXXX`, gzip); and
  anything shaped like an API key (`KEY_PATTERNS`) is refused
  (`secret_blocked`). Arguments too large to inspect, or a compressed payload
  that would inflate past the bound, are refused too (`uninspectable`): what
  the filter cannot read does not leave.

Left out, and why it stays a last line of defence: no filter catches a
secret that is encrypted, written in an alphabet the attacker chose,
reordered, sent one letter per call, hidden in the choice of harmless words
(steganography) or in timing (a side channel), or paraphrased by the model.
Least privilege and egress allowlists hold against those; this filter does not.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from wirelab.errors import PermissionDenied, ToolError
from wirelab.loop import Message, parse_arguments
from wirelab.security.decode import Inflated, layers
from wirelab.security.normalize import plain
from wirelab.tools import ToolRegistry

Capability = Literal["read", "write", "network"]
CAPABILITIES: frozenset[str] = frozenset({"read", "write", "network"})
MIN_SECRET_LENGTH = 8
MAX_INSPECTED_CHARS = 256 * 1024  # all of one call's strings together; larger calls are refused
JOINED = "(all strings joined)"
SEPARATORS = re.compile(r"[\W_]+")
KEY_PATTERNS: dict[str, re.Pattern[str]] = {
    "openai_style_key": re.compile(r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{16,}"),
    "aws_access_key": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "github_token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    "slack_token": re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    "private_key": re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"),
    "bearer_token": re.compile(r"\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*"),
}


@dataclass(frozen=True)
class SecretHit:
    """A secret found in the arguments: which one, where (`body`, `items[0].text`), and how."""

    secret: str
    path: str
    form: str = "raw"


@dataclass(frozen=True)
class Secret:
    name: str
    value: str
    may_go_to: frozenset[str]

    def forms(self) -> dict[str, str]:
        """The secret as it is commonly written: raw, base64, URL-safe base64, hex, percent-encoded."""
        raw = self.value.encode()
        return {
            "raw": self.value,
            "base64": base64.b64encode(raw).decode().rstrip("="),
            "base64url": base64.urlsafe_b64encode(raw).decode().rstrip("="),
            "hex": raw.hex(),
            "percent": quote(self.value, safe=""),
        }

    def squashed(self) -> str:
        return squash(plain(self.value))


def squash(text: str) -> str:
    """Letters and digits only, case-folded: 'SK-Live.7f3a' -> 'sklive7f3a' (separators and case do not hide).

    `text` must already be `plain`.
    """
    return SEPARATORS.sub("", text.casefold())


def strings_in(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a JSON value, keys included, with its path: [(path, text)].

    `{"a": [{"b": "x"}]}` -> `[("a", "a"), ("a[0].b", "b"), ("a[0].b", "x")]`
    """
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            yield where, str(key)
            yield from strings_in(item, where)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from strings_in(item, f"{path}[{index}]")


def values_in(value: Any) -> Iterator[str]:
    """The string values of a JSON value in document order, keys left out: `{"a": ["x", "y"]}` -> x, y."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from values_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from values_in(item)


class Uninspectable(ValueError):
    """Arguments the secret filter cannot search within its bounds; they are refused."""


class SecretStore:
    """Named secret values, each with the tools allowed to receive it."""

    def __init__(self) -> None:
        self._secrets: dict[str, Secret] = {}

    def add(self, name: str, value: str, *, may_go_to: Iterable[str] = ()) -> None:
        if not isinstance(value, str) or len(value) < MIN_SECRET_LENGTH:
            raise ValueError(
                f"secret {name!r} must be a string of at least {MIN_SECRET_LENGTH} "
                "characters: a shorter one would match ordinary text"
            )
        self._secrets[name] = Secret(name, value, frozenset(may_go_to))

    def allowed(self, name: str, tool: str) -> bool:
        return tool in self._secrets[name].may_go_to

    def find(self, arguments: Any) -> list[SecretHit]:
        """Every stored secret in `arguments`, however written, and every key-shaped string.

        Each string is searched in every decoded layer; then all the call's
        strings joined, for a secret split across arguments or list items.
        Raises `Uninspectable` when the strings are too large, or inflate too far, to search.
        """
        strings = list(strings_in(arguments))
        if sum(len(text) for _, text in strings) > MAX_INSPECTED_CHARS:
            raise Uninspectable(f"the arguments hold more than {MAX_INSPECTED_CHARS} characters of text")
        hits = [hit for path, text in strings for hit in self.find_in_text(text, path)]
        if not any(hit.form != "pattern" for hit in hits):
            joined = "".join(values_in(arguments))
            hits += [hit for hit in self.find_in_text(joined, JOINED) if hit.form != "pattern"]
        return hits

    def find_in_text(self, text: str, path: str = "") -> list[SecretHit]:
        """The stored secrets (first form found each) and key shapes in one text and its decoded layers."""
        try:
            views = [(form, plain(view)) for form, view in layers(plain(text))]
        except Inflated as e:
            raise Uninspectable(str(e)) from None
        hits = []
        for secret in self._secrets.values():
            form = next((f for f, view in views if secret.squashed() in squash(view)), None)
            if form is not None:
                hits.append(SecretHit(secret.name, path, form))
        unstored = [self.redact_text(view) for _, view in views]  # stored secrets are judged above
        for name, pattern in KEY_PATTERNS.items():
            if any(pattern.search(view) for view in unstored):
                hits.append(SecretHit(name, path, "pattern"))
        return hits

    def redact_text(self, text: str) -> str:
        """`text` with each stored secret (any form) replaced by `[secret:name]`."""
        for secret in self._secrets.values():
            for written in secret.forms().values():
                text = text.replace(written, f"[secret:{secret.name}]")
        return text

    def redact(self, value: Any) -> Any:
        """A copy of a JSON value, keys included, with stored secrets and key-shaped strings replaced.

        A string that still holds a secret in another form is replaced whole; when
        the secret is split across strings, every string is.
        """
        redacted = self._redact(value)
        try:
            split = any(hit.path == JOINED for hit in self.find(redacted))
        except Uninspectable:
            split = True
        return _replace_strings(redacted, "[redacted]") if split else redacted

    def _redact(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {self._redact(key): self._redact(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self._redact(item) for item in value]
        if not isinstance(value, str):
            return value
        text = self.redact_text(value)
        for name, pattern in KEY_PATTERNS.items():
            text = pattern.sub(f"[{name}]", text)
        try:
            left = sorted({hit.secret for hit in self.find_in_text(text) if hit.form != "pattern"})
        except Uninspectable:
            left = ["an uninspectable payload"]
        return f"[redacted: {', '.join(left)}]" if left else text


def _replace_strings(value: Any, by: str) -> Any:
    if isinstance(value, str):
        return by
    if isinstance(value, Mapping):
        return {key: _replace_strings(item, by) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_replace_strings(item, by) for item in value]
    return value


class EgressAllowlist:
    """A `CallCheck`: a call may name only hosts on the list, in any URL or email address it holds.

        egress = EgressAllowlist({"example.com"})     # subdomains included: mail.example.com
        run_tool_loop(llm, messages, tools, model=model_name(),
                      execute=guarded(egress.check_call, policy.check_call))

    It does not read what is sent, only where to: a secret the model encrypted
    or paraphrased still cannot go to `drop@evil.example`. Hosts are read after
    `plain` (no fullwidth or look-alike letters) and IDNA-decoded.
    """

    def __init__(self, hosts: Iterable[str]) -> None:
        self.hosts = frozenset(host.lower().strip(".") for host in hosts)

    def allowed(self, host: str) -> bool:
        host = host.lower().strip(".")
        return any(host == h or host.endswith("." + h) for h in self.hosts)

    def check_call(self, call: Message, tools: ToolRegistry) -> None:
        try:
            arguments = parse_arguments(call)
        except ToolError:
            return  # not JSON: the tool will not run, and the executor says why
        for path, text in strings_in(arguments):
            for host in hosts_in(plain(text)):
                if not self.allowed(host):
                    raise ToolError(
                        "egress_denied",
                        f"argument {path!r} names {host!r}, which is not on this session's "
                        f"egress allowlist ({', '.join(sorted(self.hosts))})",
                        path=path,
                        host=host,
                    )


HOST = re.compile(
    r"(?:[a-z][a-z0-9+.-]*://(?:[^/?#@\s]*@)?|[\w.+-]+@)((?:[\w-]+\.)+[\w-]{2,})",
    re.I,
)


def hosts_in(text: str) -> list[str]:
    """The hosts of the URLs (`https://a.b/...`) and email addresses (`x@a.b`) in `text`."""
    hosts = []
    for host in HOST.findall(text):
        try:
            hosts.append(host.encode("ascii").decode("idna") if "xn--" in host.lower() else host.lower())
        except UnicodeError:
            hosts.append(host.lower())
    return hosts


class OutboundPolicy:
    """Per-tool permissions and the secret filter, as one `CallCheck` (`check_call`)."""

    def __init__(
        self,
        permissions: Mapping[str, Iterable[Capability]],
        *,
        granted: Iterable[Capability],
        secrets: SecretStore | None = None,
    ) -> None:
        self.permissions = {tool: frozenset(needs) for tool, needs in permissions.items()}
        self.granted = frozenset(granted)
        unknown = (self.granted | set().union(*self.permissions.values())) - CAPABILITIES
        if unknown:
            raise ValueError(f"unknown capabilities {sorted(unknown)}: use {sorted(CAPABILITIES)}")
        self.secrets = secrets or SecretStore()

    def check_call(self, call: Message, tools: ToolRegistry) -> None:
        """Raise `PermissionDenied` or a `secret_blocked` error; return when the call may go."""
        name = call["function"]["name"]
        self.check_permission(name)
        try:
            arguments = parse_arguments(call)
        except ToolError:
            return  # not JSON: the tool will not run, and the executor says why
        self.check_secrets(name, arguments)

    def check_permission(self, tool: str) -> None:
        if tool not in self.permissions:
            raise PermissionDenied(
                f"{tool!r} declares no permissions, so it may not run "
                "(least privilege: undeclared tools are denied)"
            )
        missing = self.permissions[tool] - self.granted
        if missing:
            raise PermissionDenied(
                f"{tool!r} needs {', '.join(sorted(missing))}, which this session does not grant",
                needs=sorted(missing),
            )

    def check_secrets(self, tool: str, arguments: Any) -> None:
        try:
            found = self.secrets.find(arguments)
        except Uninspectable as e:
            raise ToolError(
                "uninspectable", f"{e}; the secret filter cannot search it, so it may not be sent to {tool!r}"
            ) from None
        blocked = [
            hit for hit in found if hit.form == "pattern" or not self.secrets.allowed(hit.secret, tool)
        ]
        if blocked:
            hit = blocked[0]
            raise ToolError(
                "secret_blocked",
                f"argument {hit.path!r} holds the secret "
                f"{hit.secret!r} ({hit.form}), which may not be sent to {tool!r}",
                path=hit.path,
                secret=hit.secret,
            )
