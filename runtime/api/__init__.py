"""The public API: ``Game``, and what each seat may see of it.

- ``game``: ``Game``, the one object frontends, bots and tests use: create,
  answer, save, load, undo (docs/api.md);
- ``views``: a seat's view of a game, its decisions and events, with hidden
  cards as opaque handles, and handles resolved back to cards;
- ``faces``: cards as frontends draw them, with their English;
- ``wording``: how a decision reads to a person (the web table and the terminal);
- ``loading``: what a saved game must satisfy before the engine touches it.

``innoscript.runtime`` re-exports ``Game`` and its exceptions.
"""
