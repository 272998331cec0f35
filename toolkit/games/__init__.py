"""Bundled game plugins, one package per game. Each exposes PLUGIN (see pyproject entry points)."""
