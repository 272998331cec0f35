"""Rendering: print-and-play PDFs and the text measures `validate` shares with `build`."""
