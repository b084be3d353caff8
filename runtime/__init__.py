"""The InnoScript runtime: game state, the bytecode VM and the rules engine."""
