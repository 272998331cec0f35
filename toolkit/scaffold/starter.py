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


GITIGNORE = """# What `playset build`, `export` and `simulate` write: generated, never committed.
output/
"""

EXAMPLE_LAYOUT = """# yaml-language-server: $schema=../schemas/layout.schema.json
# An example card face, to copy and change: a deck uses it with
# `layout: example-card` (beside `size:` in decks/cards.yaml). Boxes are in mm from the
# card's top-left corner; negative values count from the right or bottom edge. Texts are
# Jinja over the card.
id: example-card
background: "#fbf6ea"
elements:
  - kind: box
    box: {x: 3, y: 3, w: -3, h: -3}
    stroke: "#2f4858"
    stroke_mm: 0.6
    radius_mm: 3
  - kind: text
    box: {x: 5, y: 5, w: -5, h: 10}
    text: "{{ card.name }}"
    style: bold
    size: {max: 13, min: 8}
    align: center
    valign: middle
    colour: "#2f4858"
  # the game's own icon, drawn from icons/token.svg (its currentColor parts in `colour`)
  - kind: icon
    box: {x: 20, y: 18, w: 23, h: 23}
    icon: token
    colour: "#2f4858"
  - kind: text
    box: {x: 6, y: 46, w: -6, h: -8}
    text: "{{ card.text or '' }}"
    size: {max: 10, min: 6.5}
    align: center
    valign: middle
"""

EXAMPLE_ICON = """<?xml version="1.0" encoding="UTF-8"?>
<!-- An example icon, to copy and change: `icon: token` in a layout, `:token:` in a text.
     Shapes are drawn as vectors; currentColor parts take the colour the layout gives. -->
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <circle cx="50" cy="50" r="42" fill="currentColor"/>
  <circle cx="50" cy="50" r="30" fill="#e8b931"/>
  <path d="M50 30 L56 45 L72 45 L59 55 L64 71 L50 61 L36 71 L41 55 L28 45 L44 45 Z"
        fill="currentColor"/>
</svg>
"""
