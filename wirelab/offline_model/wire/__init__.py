"""The offline model's wire side: every API it speaks, on one side of the pipeline it answers with.

Each request arrives in one of four wire formats and leaves in the same one; in between, the one
understanding in the package above (`policy.decide` and its stages) reads it as a Chat Completions
`Request` and decides a `Reply`. Here: the HTTP app (`server`, `format_routes`), the Chat
Completions request read and checked as the real API does (`validation`, `tool_schemas`) and its
reply written whole or streamed (`wire_format`, `tokens`), strict mode and structured answers
(`strict`) in the pure functions the server and the package's `complete` and `stream` share
(`edge`), and the other formats, each rewritten as a Chat Completions body and written back
in its own shape (`responses_api`, `responses_events`, `hosted_mcp`, `messages_api`, `gemini_api`).
"""
