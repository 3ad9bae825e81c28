"""Streamable HTTP, in both eras: the server side (`server`, with `checks` and `running`) and
the client side (`client`, with `param_headers`)."""
