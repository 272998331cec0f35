"""`playset lsp`: the checks, names and fixes of a game folder in the editor, over the
Language Server Protocol (pygls): diagnostics as you type, completion of the game's own
names, hover, go to definition and code actions."""
