"""The OAuth client never logs a token, a code or a PKCE verifier, nor shows one in the inspector.

The whole flow runs against our authorization server and protected MCP server: discovery,
registration, authorization with PKCE, a step-up to a wider scope, and a refresh. Every log
record at DEBUG (ours, httpx2's, httpcore's, the servers') and every row the inspector holds
or renders is then searched for each access and refresh token the authorization server
issued, and each authorization code and PKCE verifier it was sent (issue 23: both appeared
whole in the inspector's export, and the code in httpcore2's DEBUG log of the redirect's
`Location`). They travel in headers, URLs, form bodies and JSON answers; the inspector may
show their first characters, never a whole one.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.mcp.conftest import protected_servers
from wirelab.mcp.auth import OAuth, approve_headlessly
from wirelab.mcp.client import Client
from wirelab.mcp.transports.http.client import HttpTransport
from wirelab.widgets.inspector import WireInspector

pytestmark = pytest.mark.timeout(60)
LOGGERS = ("", "wirelab", "httpx2", "httpcore2", "uvicorn", "uvicorn.error", "uvicorn.access", "starlette")


@pytest.fixture
def everything_logged(caplog):
    """caplog at DEBUG for every logger, also those that do not propagate to the root."""
    quiet = []
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
        logger = logging.getLogger(name)
        if name and not logger.propagate:
            logger.addHandler(caplog.handler)
            quiet.append(logger)
    yield caplog
    for logger in quiet:
        logger.removeHandler(caplog.handler)


@pytest.fixture
def flow(everything_logged):
    """Run the whole flow with an inspector on the OAuth and MCP wires; the tokens issued."""
    issued = []
    with protected_servers() as (authority, mcp):
        tokens_for, exchange_code = authority.tokens_for, authority.exchange_code

        def redeemed(client, form):
            issued.append({"code": form["code"], "code_verifier": form["code_verifier"]})
            return exchange_code(client, form)

        authority.exchange_code = redeemed

        def recorded(grant):
            tokens = tokens_for(grant)
            issued.append(tokens)
            return tokens

        authority.tokens_for = recorded
        auth = OAuth(mcp.url, on_authorize=approve_headlessly)
        client = Client(HttpTransport(mcp.url, auth=auth, timeout=10), timeout=10)
        inspector = WireInspector(auth, client)

        async def session():
            try:
                async with client:
                    await client.list_tools()  # 401: discover, register, authorize
                    authority.token_lifetime = 1  # the next token is expired at once
                    await client.call_tool("search_notes", {"query": "stdio"})  # 403: step-up
                    await client.list_tools()  # expired: refresh
            finally:
                await auth.aclose()

        try:
            asyncio.run(session())
            inspector.traffic.drain()
            shown = [inspector.export_jsonl(), inspector._static_text(), inspector._static_html()]
        finally:
            inspector.close()
    log = [f"{r.name} {r.getMessage()} {r.exc_text or ''}" for r in everything_logged.records]
    return issued, shown, "\n".join(log), auth


KINDS = ("access_token", "refresh_token", "code", "code_verifier")


def secrets_of(issued):
    return [secret[kind] for secret in issued for kind in KINDS if kind in secret]


def test_the_flow_authorizes_steps_up_and_refreshes(flow):
    issued, shown, log, auth = flow
    assert auth.authorizations == 2  # to read, then to call (step-up)
    assert len(issued) > 2 and '"grant_type":"refresh_token"' in shown[0]  # and refreshed
    assert len(set(secrets_of(issued))) == len(secrets_of(issued)) == 2 * len(issued)
    assert sum("code" in secret for secret in issued) == 2  # two authorizations, two codes


def test_no_log_record_holds_a_token(flow):
    issued, shown, log, auth = flow
    assert "POST http" in log and "/token" in log, "the log did not see the token requests"
    assert "httpcore2.http11 send_request_body" in log, "the log was not at DEBUG"
    assert "receive_response_headers" in log and "location" in log, "the log did not see the redirect"
    leaked = [token[:12] for token in secrets_of(issued) if token in log]
    assert not leaked, f"tokens, codes or verifiers in the log: {leaked}"


def test_the_inspector_shows_only_the_start_of_each_token(flow):
    issued, shown, log, auth = flow
    rows = shown[0]
    assert '"method":"POST /token"' in rows
    for token in secrets_of(issued):
        assert token[:8] in rows  # the tap saw it, shortened
        assert not any(token in view for view in shown), f"token {token[:12]}… shown whole"
