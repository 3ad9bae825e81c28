"""MCP's extensions, built on the server and the client (lesson 18): Tasks (`tasks` on the
server, `task_client`, `task_example`) and MCP Apps (`apps` on the server, `app_host`,
`app_example`)."""
