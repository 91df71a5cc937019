"""``cspmines serve``: the engine behind a local web page and a JSON API.

The page (plain HTML, CSS and JavaScript served by the package) shows a
position with each covered cell's exact mine chance, lets a player edit a
position, play a seeded game, ask any agent for its move and replay a
benchmark game. The API is in :mod:`cspmines.web.api`; it needs the
``web`` extra (Starlette and uvicorn).

>>> from cspmines.web import create_app
>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.post("/api/solve", content="3x1x1\\n.1.").json()["fractions"]
[['1/2', None, '1/2']]
"""

from __future__ import annotations

from ..engine.budget import Limit
from .limits import SERVER_LIMIT, SERVER_MEMORY

__all__ = ["SERVER_LIMIT", "SERVER_MEMORY", "check_port", "create_app", "serve"]


def create_app(*, limit: Limit = SERVER_LIMIT, **limits):
    """The Starlette application: the page at ``/`` and the API under ``/api`` (see :mod:`cspmines.web.api`).

    ``limit`` is what every request may spend: its time bounds the counting (a position too wide to count
    in time answers with what could be proved, marked not exact), its memory what one request's solve may
    hold (a board too large for it answers 422, a count that would pass it stops and answers not exact).
    ``limits`` are ``max_body`` (bytes), ``max_games``, ``workers`` and ``busy_wait`` (seconds), as
    :mod:`cspmines.web.guard` describes.
    """
    from .api import build_app

    return build_app(limit=limit, **limits)


def check_port(host: str, port: int) -> None:
    """Refuse, in one line, a port this machine cannot listen on (in use, or not allowed)."""
    import socket

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            raise ValueError(f"cannot serve on {host}:{port}: {error.strerror or error}") from None


def serve(*, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, limit: Limit = SERVER_LIMIT,
          **limits) -> None:
    """Run the application with uvicorn until interrupted (on this machine only, by default)."""
    import uvicorn

    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(f"http://{host}:{port}/",)).start()
    uvicorn.run(create_app(limit=limit, **limits), host=host, port=port, log_level="warning")
