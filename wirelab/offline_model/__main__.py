"""Serve the offline model in the foreground: `python -m wirelab.offline_model [--port N]`.

Then point any OpenAI client at it, or try it with curl:

    curl http://127.0.0.1:8808/v1/chat/completions -H 'content-type: application/json' \\
      -d '{"model": "wirelab-offline", "messages": [{"role": "user", "content": "Hi"}]}'
"""

from __future__ import annotations

import argparse

import uvicorn

from wirelab.offline_model.wire.server import LIMITS, create_app
from wirelab.serving import uvicorn_config


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m wirelab.offline_model", description="Serve the course's offline model."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8808, help="port (default 8808)")
    options = parser.parse_args(argv)
    print(f"offline model at http://{options.host}:{options.port}/v1 (Ctrl-C stops it)")
    uvicorn.Server(uvicorn_config(create_app(), LIMITS, host=options.host, port=options.port)).run()


if __name__ == "__main__":
    main()
