"""Simulation: the engine contract, bots, the runner, metrics and reports."""
