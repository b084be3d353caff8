"""Serving games to people: the JSON protocol, its transports and store, the card editor, the terminal.

- ``protocol``: the JSON protocol, one message at a time, the same over every
  transport: seats and tokens, views, answers, saves (docs/protocol.md);
- ``server``: the transports (stdio and WebSocket) and the web app's files
  (``web/``);
- ``store``: what a store of games promises, and games kept in SQLite,
  written at every decision;
- ``pgstore``: games kept in PostgreSQL, shared by several servers, which
  tell each other of their writes;
- ``sandbox``: the card editor's live check, and a typed card played once in a
  child process with limits;
- ``terminal``: ``innoscript play``, a game in the terminal.

This is the top layer of the runtime: it may use everything below it, and
nothing imports it but the command line.
"""
