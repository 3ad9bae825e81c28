"""Access tokens as signed JWTs (PyJWT, ES256): what the authorization server issues and the MCP
server checks.

    >>> key = SigningKey.generate()
    >>> token = issue(key, issuer="http://as.local", audience="http://mcp.local/mcp", subject="ada",
    ...               client_id="c1", scopes={"notes:read"})
    >>> claims = verify(token, key.public_jwk(), issuer="http://as.local", audience="http://mcp.local/mcp")
    >>> claims["scope"]
    'notes:read'
    >>> verify(token, key.public_jwk(), issuer="http://as.local", audience="http://other.local/mcp")
    Traceback (most recent call last):
    wirelab.mcp.auth.tokens.InvalidToken: the token is for another resource, not http://other.local/mcp

The audience (`aud`) is the resource the token was asked for (RFC 8707): a
server accepts only tokens whose audience is itself, so a token stolen from,
or passed on by, another server is worthless here.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec

ALGORITHM = "ES256"


class InvalidToken(Exception):
    """The token is not one this server may accept; the message says why (never the token)."""


@dataclass(frozen=True)
class SigningKey:
    """An EC P-256 key pair with a key id."""

    private_key: ec.EllipticCurvePrivateKey
    kid: str

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(ec.generate_private_key(ec.SECP256R1()), secrets.token_hex(8))

    def public_jwk(self) -> dict[str, Any]:
        """The public half as a JWK, as a JWKS document lists it."""
        jwk = jwt.algorithms.ECAlgorithm.to_jwk(self.private_key.public_key(), as_dict=True)
        return {**jwk, "kid": self.kid, "alg": ALGORITHM, "use": "sig"}


def issue(
    key: SigningKey,
    *,
    issuer: str,
    audience: str,
    subject: str,
    client_id: str,
    scopes: set[str],
    lifetime: int = 3600,
) -> str:
    """A signed access token for `audience`, carrying the granted scopes."""
    now = int(time.time())
    claims = {
        "iss": issuer,
        "aud": audience,
        "sub": subject,
        "client_id": client_id,
        "scope": " ".join(sorted(scopes)),
        "iat": now,
        "exp": now + lifetime,
        "jti": secrets.token_hex(8),
    }
    return jwt.encode(claims, key.private_key, algorithm=ALGORITHM, headers={"kid": key.kid})


def verify(token: str, jwk: dict[str, Any], *, issuer: str, audience: str) -> dict[str, Any]:
    """The token's claims if its signature, issuer, audience and expiry are right; else `InvalidToken`."""
    try:
        public_key = jwt.PyJWK(jwk, algorithm=ALGORITHM).key
        return jwt.decode(
            token,
            public_key,
            algorithms=[ALGORITHM],
            audience=audience,
            issuer=issuer,
            options={"require": ["exp", "iss", "aud", "sub"]},
        )
    except jwt.InvalidAudienceError:
        raise InvalidToken(f"the token is for another resource, not {audience}") from None
    except jwt.ExpiredSignatureError:
        raise InvalidToken("the token has expired") from None
    except jwt.InvalidIssuerError:
        raise InvalidToken(f"the token was not issued by {issuer}") from None
    except jwt.InvalidSignatureError:
        raise InvalidToken("the token's signature does not verify") from None
    except jwt.PyJWTError as e:
        raise InvalidToken(f"the token is not a valid JWT: {type(e).__name__}") from None


def scopes_of(claims: dict[str, Any]) -> set[str]:
    return set(str(claims.get("scope", "")).split())
