"""``burraco serve``: the table server (docs/server.md).

An ASGI application on Starlette: people play at tables through WebSockets, bots move on the
server, every move is committed to SQLite before anyone is told of it, and a restarted server
picks every table up where its last acknowledged move left it. Needs the ``server`` extra
(``pip install 'burraco[server]'``).

>>> from burraco.server import create_app
>>> app = create_app(db=":memory:")
"""

from ._app import Server, ServerConfig, create_app
from ._table import Limits, Retry

__all__ = ["Limits", "Retry", "Server", "ServerConfig", "create_app"]
