"""The game state: a position as plain JSON data, the card table, and the moves that change a position.

- ``cards``: ``Cards``, one bundle's card table and manifest with the lookups
  the rules need, shared by every game of that bundle;
- ``positions``: the JSON state itself (its shape is described there), and the
  primitive moves: take a card out of its place, put it in another;
- ``board``: reading a position: where a card is, top cards, icon counts;
- ``teams``: who plays with whom, and what "opponent" means;
- ``fingerprints``: the contents of what a condition reads, so it is tested
  again only when they change.

Nothing here runs bytecode or asks a player: this is the bottom layer of the
runtime, read by the machine and the rules above it.
"""
