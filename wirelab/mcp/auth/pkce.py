"""PKCE (RFC 7636), S256 only: the code verifier a client keeps, and the challenge it sends.

The client sends the challenge with the authorization request and the verifier with the
token request; the authorization server hashes the verifier and compares, so a stolen
code is useless without the verifier (the RFC's own example, appendix B):

    >>> s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'

Not covered: the `plain` method (MCP clients must use S256, `basic/authorization.mdx`).
"""

from __future__ import annotations

import base64
import hashlib
import secrets


def s256(verifier: str) -> str:
    """The S256 code challenge of a PKCE verifier: BASE64URL(SHA256(verifier)), no padding."""
    digest = hashlib.sha256(verifier.encode("ascii", "replace")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def pkce_pair() -> tuple[str, str]:
    """A fresh PKCE code verifier (64 random URL-safe characters) and its S256 challenge."""
    verifier = secrets.token_urlsafe(48)
    return verifier, s256(verifier)
