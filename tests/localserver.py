"""The web application served on this machine for a test: uvicorn on 127.0.0.1, on a port the system picks
at run time and holds from the start.

The socket is bound (port 0) before the server starts and handed to it, so no other test run (pytest-xdist's
workers, a second checkout) can take the port between its choice and its use, as a probe socket closed and
bound again would allow.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def serving(app) -> Iterator[str]:
    """``app`` served until the block ends; yields its address, ``http://127.0.0.1:PORT``."""
    import uvicorn

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        for _ in range(400):  # a bounded wait for the start, polled
            if server.started or not thread.is_alive():
                break
            time.sleep(0.05)
        if not server.started:
            raise RuntimeError(f"the test server on 127.0.0.1:{port} did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()
