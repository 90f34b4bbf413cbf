"""A cardroom arena bot in plain Python (standard library only).

- :mod:`cardroom_bot.protocol`: the bot protocol's typed messages and the signature check;
- :mod:`cardroom_bot.strategy`: :func:`choose`, the policy to make your own;
- :mod:`cardroom_bot.server`: the HTTP server (``python3 -m cardroom_bot``);
- :mod:`cardroom_bot.stream`: the stream mode (``--connect URL --token T``): connects out.
"""

from .protocol import MAX_SKEW_SECONDS, MoveRequest, MoveResponse, verify
from .strategy import choose

__all__ = ["MAX_SKEW_SECONDS", "MoveRequest", "MoveResponse", "choose", "verify"]
