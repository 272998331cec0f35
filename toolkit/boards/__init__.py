"""Board kinds, one module each: the model a board file holds and how it is drawn.

Each module registers its `BoardKind` (`toolkit.content.models.board.register_board_kind`);
the registry finds every module here, and a package outside the toolkit adds a kind through the
`playset.boards` entry point group. Like the games, this room sits above content and
rendering: content validates boards through the registry without importing drawing code, and
each kind imports its drawing code when it draws (it is too slow to import for `validate`).
"""
