"""How a client finds out where to get a token: the discovery chain of MCP authorization.

    401 + WWW-Authenticate ──> protected-resource metadata (RFC 9728)
                          ──> authorization-server metadata (RFC 8414 / OpenID discovery)

Each step tries a list of URLs in the order the specification gives (2026-07-28,
`basic/authorization/`, as 2025-11-25 did); these functions compute the lists, parse the
challenge, and check that the metadata names the server the client wants. The header's
URL is the only one tried when there is one: the well-known URLs are the fallback for a
challenge that names none.

    >>> parse_challenge('Bearer resource_metadata="https://mcp.example/prm", scope="files:read"')
    {'scheme': 'bearer', 'resource_metadata': 'https://mcp.example/prm', 'scope': 'files:read'}
    >>> resource_metadata_urls("https://mcp.example/public/mcp", "https://mcp.example/prm")
    ['https://mcp.example/prm']
    >>> resource_metadata_urls("https://mcp.example/public/mcp")  # doctest: +NORMALIZE_WHITESPACE
    ['https://mcp.example/.well-known/oauth-protected-resource/public/mcp',
     'https://mcp.example/.well-known/oauth-protected-resource']
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource"
OAUTH_SERVER = "/.well-known/oauth-authorization-server"
OPENID = "/.well-known/openid-configuration"

# one auth-param of RFC 9110 §11.2: name=token or name="quoted string"
_PARAM = re.compile(r'\s*([!#$%&\'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]*)\s*,?')


def parse_challenge(header: str) -> dict[str, str]:
    """The scheme (lower-cased) and parameters of one `WWW-Authenticate` challenge."""
    scheme, _, rest = header.strip().partition(" ")
    challenge = {"scheme": scheme.lower()}
    for name, value in _PARAM.findall(rest):
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        challenge[name.lower()] = value
    return challenge


def origin(url: str) -> str:
    """`scheme://host[:port]` of `url`."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def canonical_resource(url: str) -> str:
    """The server's canonical URI (RFC 8707): lower-case scheme and host, no fragment, no trailing `/`."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def resource_metadata_urls(server_url: str, from_header: str | None = None) -> list[str]:
    """Where protected-resource metadata may be: the header's URL when it names one; else the
    path-aware well-known URL, then the root one (RFC 9728 §3.1)."""
    if from_header:
        return [from_header]
    path = urlsplit(server_url).path.rstrip("/")
    urls = []
    if path:
        urls.append(origin(server_url) + PROTECTED_RESOURCE + path)
    urls.append(origin(server_url) + PROTECTED_RESOURCE)
    return urls


def authorization_server_metadata_urls(issuer: str) -> list[str]:
    """Where an authorization server's metadata may be, in the specification's order.

    With a path (`https://auth.example/tenant1`): RFC 8414 path insertion, OpenID
    path insertion, OpenID path appending. Without: RFC 8414, then OpenID.
    """
    base, path = origin(issuer), urlsplit(issuer).path.rstrip("/")
    if not path:
        return [base + OAUTH_SERVER, base + OPENID]
    return [base + OAUTH_SERVER + path, base + OPENID + path, base + path + OPENID]


def resource_matches(server_url: str, resource: str) -> bool:
    """Is `resource` (from the metadata) this server, or a URL above it on the same origin?

    A client must not ask for a token for some other resource a metadata
    document names: that token would be the one a malicious server wants.
    """
    server, named = urlsplit(canonical_resource(server_url)), urlsplit(canonical_resource(resource))
    if (server.scheme, server.netloc) != (named.scheme, named.netloc):
        return False
    return server.path == named.path or server.path.startswith(named.path + "/")
