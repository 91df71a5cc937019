"""``cspmines serve``: the engine in a local web page, on this machine."""

from __future__ import annotations

import sys

from ...extras import install_hint
from ...web import SERVER_MEMORY
from ..options import (
    Help,
    limit_of,
    memory_size,
    port,
    seconds,
    whole,
)

__all__ = ["add_parser", "run"]

HELP = """\
A local web page on the engine: paste or play a position, see every cell's exact
chance, ask any agent for its move, replay a bench game or a replay file. It listens
on this machine only (127.0.0.1) unless --host says otherwise. Needs the web extra:
pip install 'cspmines[web]' (in a checkout: pip install -e '.[web]').

examples:
  cspmines serve --open
  cspmines serve --port 8080 --time-limit 10
"""


def add_parser(commands) -> None:
    """The ``serve`` command's options, and :func:`run` to run it."""
    serve = commands.add_parser("serve", help="the engine in a local web page", description=HELP, formatter_class=Help)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (this machine only by default)")
    serve.add_argument("--port", type=port, default=8000, help="the port")
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument("--time-limit", type=seconds, default=5.0, help="seconds of counting a request may take")
    serve.add_argument("--memory", type=memory_size, default=SERVER_MEMORY, metavar="SIZE",
                       help="the memory one request's solve may hold (512M, 2G, or none; default 256M): a board too large "
                            "for it is refused (422), a count that would pass it stops, marked not exact")
    serve.add_argument("--max-body", type=whole(1), default=1_000_000, help="bytes a request's body may hold; past them, 413")
    serve.add_argument("--max-games", type=whole(1), default=1000, help="games kept, the least recently used dropped first")
    serve.add_argument("--workers", type=whole(1), default=4, help="requests counting at once")
    serve.add_argument("--busy-wait", type=seconds, default=10.0, help="seconds a request waits for a worker before 503")
    serve.set_defaults(run=run)


def run(args, out) -> int:
    import importlib.util

    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        raise ValueError(f"serve needs the web extra: {install_hint('web')}")
    from ...web import check_port, serve

    check_port(args.host, args.port)  # before saying it serves
    print(f"cspmines: serving on http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    serve(host=args.host, port=args.port, open_browser=args.open, limit=limit_of(args), max_body=args.max_body,
          max_games=args.max_games, workers=args.workers, busy_wait=args.busy_wait)
    return 0
