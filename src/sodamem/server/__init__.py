"""``sodamem serve``: HTTP for programs, MCP for agents and HTML for people, all thin adapters over ``Memory``.

``create_app(ServeSettings(...))`` builds the ASGI application; nothing here runs at import time.
"""
