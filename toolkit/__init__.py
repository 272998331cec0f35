"""Playset: author, check, simulate and print tabletop games from YAML and Markdown content."""

__version__ = "0.1.0"
