"""PKCE (RFC 7636), S256 only: the code verifier a client keeps, and the challenge it sends.

The client sends the challenge with the authorization request and the verifier with the
token request; the authorization server hashes the verifier and compares, so a stolen
code is useless without the verifier (the RFC's own example, appendix B):

    >>> s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'

A verifier is 43 to 128 characters of the unreserved set `A-Z a-z 0-9 - . _ ~` (§4.1), and
an S256 challenge is 43 characters of base64url (§4.2); anything else is refused, never
hashed after a lossy encoding:

    >>> valid_verifier(""), valid_verifier("é" * 43), valid_challenge(s256("a" * 43))
    (False, False, True)

Not covered: the `plain` method (MCP clients must use S256, `basic/authorization.mdx`).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets

_VERIFIER = re.compile(r"[A-Za-z0-9\-._~]{43,128}")
_CHALLENGE = re.compile(r"[A-Za-z0-9\-_]{43}")


def valid_verifier(verifier: str) -> bool:
    """Is `verifier` a code verifier RFC 7636 §4.1 allows?"""
    return _VERIFIER.fullmatch(verifier) is not None


def valid_challenge(challenge: str) -> bool:
    """Could `challenge` be an S256 challenge (the base64url of 32 bytes, unpadded)?"""
    return _CHALLENGE.fullmatch(challenge) is not None


def s256(verifier: str) -> str:
    """The S256 code challenge of a PKCE verifier: BASE64URL(SHA256(verifier)), no padding;
    `ValueError` for a verifier RFC 7636 does not allow."""
    if not valid_verifier(verifier):
        raise ValueError("a code verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)")
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def pkce_pair() -> tuple[str, str]:
    """A fresh PKCE code verifier (64 random URL-safe characters) and its S256 challenge."""
    verifier = secrets.token_urlsafe(48)
    return verifier, s256(verifier)
