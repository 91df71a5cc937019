"""What one request to the server may spend unless the server is told otherwise."""

from __future__ import annotations

from ..engine.budget import Limit

__all__ = ["ENDGAME_SHARE", "SERVER_LIMIT", "SERVER_MEMORY"]

#: What one request's solve may hold unless ``--memory`` says otherwise: a quarter of the engine's
#: default, so that the four workers counting at once keep the server near a gigabyte.
SERVER_MEMORY = 256 << 20

#: What one request may spend unless told otherwise: 5 seconds of counting, :data:`SERVER_MEMORY`.
SERVER_LIMIT = Limit(time=5.0, memory=SERVER_MEMORY)

#: The share of a request's time left, once the dead cells and 50/50s are found, that the endgame's value search
#: may take (2 s of the default 5): the page asks for it with every solve, and a position of some ten thousand
#: layouts or more can search for the whole time; past its share it answers proven bounds.
ENDGAME_SHARE = 0.4
