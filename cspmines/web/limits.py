"""What one request to the server may spend unless the server is told otherwise."""

from __future__ import annotations

from ..engine.budget import Limit

__all__ = ["SERVER_LIMIT", "SERVER_MEMORY"]

#: What one request's solve may hold unless ``--memory`` says otherwise: a quarter of the engine's
#: default, so that the four workers counting at once keep the server near a gigabyte.
SERVER_MEMORY = 256 << 20

#: What one request may spend unless told otherwise: 5 seconds of counting, :data:`SERVER_MEMORY`.
SERVER_LIMIT = Limit(time=5.0, memory=SERVER_MEMORY)
