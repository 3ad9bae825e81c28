"""Who a client is at an authorization server, and how it proves it at the token endpoint.

An `Identity` is a `client_id` and a method (RFC 6749 §2.3, RFC 7523): `none` (a public
client, PKCE only), `client_secret_basic` (the secret in an `Authorization: Basic`
header), `client_secret_post` (the secret in the form) or `private_key_jwt` (a
short-lived JWT signed with the client's key). `authenticated` adds the proof to a
token request:

    >>> authenticated(Identity("c1", "s3cret", "client_secret_post"), {"grant_type": "refresh_token"}, {})
    ({'grant_type': 'refresh_token', 'client_id': 'c1', 'client_secret': 's3cret'}, {})
    >>> authenticated(Identity("c1", "s3cret", "client_secret_basic"), {"grant_type": "refresh_token"}, {})
    ({'grant_type': 'refresh_token'}, {'Authorization': 'Basic YzE6czNjcmV0'})

How the client gets its identity (pre-registered, a client ID metadata document, or
dynamic registration) is `OAuth.identify` in `wirelab.mcp.auth.client`.
"""

from __future__ import annotations

import base64
import time
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import jwt

JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


@dataclass
class Identity:
    """Who the client is at one authorization server, and how it proves it at the token endpoint."""

    client_id: str
    client_secret: str | None = None
    method: str = "none"  # none, client_secret_basic, client_secret_post, private_key_jwt


def preregistered_method(secret: str | None, private_key_pem: str | None) -> str:
    """The method of a pre-registered client: its key, else its secret, else none."""
    if private_key_pem:
        return "private_key_jwt"
    return "client_secret_basic" if secret else "none"


def authenticated(
    identity: Identity,
    params: dict[str, str],
    metadata: dict[str, Any],
    private_key_pem: str | None = None,
    signing_algorithm: str = "ES256",
) -> tuple[dict[str, str], dict[str, str]]:
    """The token request's form and headers, with the proof `identity.method` names."""
    if identity.method == "client_secret_basic":
        pair = f"{quote(identity.client_id, safe='')}:{quote(identity.client_secret or '', safe='')}"
        return params, {"Authorization": "Basic " + base64.b64encode(pair.encode()).decode()}
    if identity.method == "private_key_jwt":
        assertion = client_assertion(identity.client_id, metadata, private_key_pem, signing_algorithm)
        return {**params, "client_assertion_type": JWT_BEARER, "client_assertion": assertion}, {}
    form = {**params, "client_id": identity.client_id}
    if identity.method == "client_secret_post":
        form["client_secret"] = identity.client_secret or ""
    return form, {}


def client_assertion(
    client_id: str, metadata: dict[str, Any], private_key_pem: str | None, algorithm: str
) -> str:
    """A signed JWT that proves this client holds its private key (RFC 7523 §2.2)."""
    assert private_key_pem
    now = int(time.time())
    claims = {
        "iss": client_id,
        "sub": client_id,
        "aud": metadata.get("issuer", metadata["token_endpoint"]),
        "iat": now,
        "exp": now + 300,
        "jti": str(uuid.uuid4()),
    }
    return jwt.encode(claims, private_key_pem, algorithm=algorithm)
