"""The starter game's content, in every language it ships starter text for.

Kept as data (not templates) so each file is dumped from the same structures the loader will
read back, in just the languages asked for.
"""

from __future__ import annotations

from typing import Any

STARTER_LANGUAGES = ("fr", "es", "en")


def _t(fr: str, es: str, en: str) -> dict[str, str]:
    return {"fr": fr, "es": es, "en": en}


def manifest(game_id: str, title: str) -> dict[str, Any]:
    return {
        "id": game_id,
        "title": _t(title, title, title),
        "summary": _t(
            "Un jeu de cartes à compléter\u00a0: changez ce résumé.",
            "Un juego de cartas por completar: cambia este resumen.",
            "A card game to finish: change this summary.",
        ),
        "source_language": "en",
        "players": {"min": 2, "max": 4},
        "rules": {"hand_size": 3, "target_points": 10},
        "files": {
            "decks": ["decks/cards.yaml"],
            "glossary": "glossary.yaml",
            "rulebook": {},
        },
    }


def deck() -> dict[str, Any]:
    return {
        "id": "cards",
        "kind": "actions",
        "name": _t("Cartes Action", "Cartas de acción", "Action cards"),
        "size": "poker",
        "cards": [
            {
                "id": "advance",
                "name": _t("En avant", "Adelante", "Forward"),
                "text": _t(
                    "Avancez de {steps} cases.",
                    "Avanza {steps} casillas.",
                    "Move {steps} spaces.",
                ),
                "copies": 3,
                "params": {"steps": 2},
            },
            {
                "id": "treasure",
                "name": _t("Trésor", "Tesoro", "Treasure"),
                "text": _t(
                    "Marquez {points} points.",
                    "Gana {points} puntos.",
                    "Score {points} points.",
                ),
                "copies": 2,
                "params": {"points": 3},
            },
            {
                "id": "rest",
                "name": _t("Repos", "Descanso", "Rest"),
                "text": _t(
                    "Piochez une carte.",
                    "Roba una carta.",
                    "Draw a card.",
                ),
                "copies": 1,
            },
        ],
    }


def glossary(title: str) -> dict[str, Any]:
    return {
        "terms": [
            {
                "id": "title",
                "text": _t(title, title, title),
                "keep": True,
                "note": "The game's name, the same in every language (T004 is not a finding).",
            },
            {"id": "card", "text": _t("carte", "carta", "card")},
            {"id": "point", "text": _t("point", "punto", "point")},
        ]
    }


RULEBOOK = _t(
    """# {{ game.title }}

## Présentation

{{ game.summary }}

## Matériel

{{ decks.cards.total }} cartes Action. Pour {{ game.players.min }} à {{ game.players.max }} joueurs.

## But du jeu

Dès qu’un joueur atteint {{ rules.target_points }} points, finissez le tour de table, pour que
chacun ait joué autant de fois. Le plus de points gagne ; des joueurs à égalité se partagent la
victoire.

## Tour de jeu

Chaque joueur a une main de {{ rules.hand_size }} cartes. À votre tour, jouez une carte et
appliquez son texte, puis piochez.
""",
    """# {{ game.title }}

## Presentación

{{ game.summary }}

## Componentes

{{ decks.cards.total }} cartas de Acción. Para {{ game.players.min }} a
{{ game.players.max }} jugadores.

## Objetivo

Cuando un jugador llega a {{ rules.target_points }} puntos, se termina la ronda, para que todos
hayan jugado las mismas veces. Gana quien tenga más puntos; los empatados comparten la victoria.

## Turno

Cada jugador tiene una mano de {{ rules.hand_size }} cartas. En tu turno, juega una carta,
aplica su texto y roba.
""",
    """# {{ game.title }}

## Overview

{{ game.summary }}

## Components

{{ decks.cards.total }} Action cards. For {{ game.players.min }} to {{ game.players.max }} players.

## Goal

When a player reaches {{ rules.target_points }} points, finish the round so that everyone has
played as many turns. The most points wins; tied players share the win.

## A turn

Each player holds {{ rules.hand_size }} cards. On your turn, play a card, do what it says, then
draw.
""",
)
