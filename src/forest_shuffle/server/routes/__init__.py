"""The server's routes, one router per concern (docs/web.md, "Modules").

- :mod:`.deps`: the dependencies every router uses (the service, the coach, the hub, the
  seat token of a request);
- :mod:`.games`: cards, levels, games, actions, invites, rematches, the lobby's list;
- :mod:`.coaching`: Suggest, the review and replays;
- :mod:`.sockets`: the WebSocket hub and its route;
- :mod:`.pages`: the page, its static files and the OpenAPI pages.
"""
