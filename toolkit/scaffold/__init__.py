"""`playset new`: a minimal game folder that validates clean and builds at once.

The folder is self-contained: its YAML files name JSON Schemas copied beside them
(`schemas/`), so an editor with the YAML language server completes and checks fields wherever
the folder lives, with no path back into the toolkit.
"""
