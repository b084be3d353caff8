"""The runtime's tools: testing and measuring the rules.

- ``scenario``: scenario files, a position, an action and answers, and the
  position expected afterwards (``scenario_check``: their input checks;
  ``scenario_results``: which pass and which effects they run, kept by content);
- ``catalog``: every card with its scenarios and whether each effect is covered;
- ``coverage``: bytecode and branch coverage of the scenarios;
- ``simulate``: seeded games played by bots, locally or on Ray;
- ``soak``: seeded games in checked mode, invariants after every answer.

Tools drive games through the engine, the API and the bots; nothing below
imports a tool.
"""
