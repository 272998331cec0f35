"""Allow `python -m toolkit`."""

from toolkit.cli import main

main()
