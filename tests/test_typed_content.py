"""The typed views of loaded content the G checks and compilers read: a plugin's rules model
(`rules_of`) and a file holding a given model (`ValidFile.of`)."""

from __future__ import annotations

import pytest

from toolkit.content.game import LoadedFile, ValidFile, bundled_games, load_game
from toolkit.content.models.board import GraphBoard, RoadBoard
from toolkit.content.plugin import rules_of
from toolkit.games.tokaido.models import TokaidoRules
from toolkit.games.whisky_game.models import WhiskyRules


@pytest.fixture(scope="module")
def whisky():
    return load_game(bundled_games()["whisky-game"])


def test_rules_of_gives_the_plugins_rules_model(whisky):
    rules = rules_of(whisky.manifest, WhiskyRules)
    assert isinstance(rules, WhiskyRules)
    assert rules.goal_regions == whisky.manifest.rules.goal_regions


def test_rules_of_refuses_another_games_model_and_a_missing_manifest(whisky):
    with pytest.raises(TypeError, match="TokaidoRules"):
        rules_of(whisky.manifest, TokaidoRules)
    with pytest.raises(TypeError):
        rules_of(None, object)


def test_valid_file_keeps_the_file_and_types_its_model(whisky):
    board_file = next(f for f in whisky.boards if f.model is not None)
    graph = ValidFile.of(board_file, GraphBoard)
    assert graph is not None
    assert (graph.rel, graph.doc, graph.model) == (board_file.rel, board_file.doc, board_file.model)
    assert isinstance(graph, LoadedFile)


def test_valid_file_is_none_for_another_kind_an_invalid_file_or_no_file(whisky):
    board_file = next(f for f in whisky.boards if f.model is not None)
    assert ValidFile.of(board_file, RoadBoard) is None
    assert ValidFile.of(LoadedFile(board_file.rel, board_file.doc, None), GraphBoard) is None
    assert ValidFile.of(None, GraphBoard) is None
