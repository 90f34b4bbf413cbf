"""``python3 -m cardroom_bot``: run the bot's HTTP server."""

from .server import main

main()
