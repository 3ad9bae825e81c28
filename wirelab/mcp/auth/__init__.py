"""MCP authorization (2026-07-28 `basic/authorization/`): the client's OAuth flow, a local
authorization server, and the MCP server as a protected resource."""

from wirelab.mcp.auth.client import AuthorizationError, OAuth, approve_headlessly
from wirelab.mcp.auth.pkce import pkce_pair
from wirelab.mcp.auth.resource import ProtectedResource

__all__ = ["AuthorizationError", "OAuth", "ProtectedResource", "approve_headlessly", "pkce_pair"]
