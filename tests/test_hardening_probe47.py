"""Probe 47: the fitting and layout budgets counted in units whose worst cost was ten times
what they were sized on (K6): 1,000 short texts a face, fitted from 96 pt down, took validate
12.4 s before the fitting budget stopped it; 1,400 short templated texts on 301 cards 10.6 s
before the layout budget did."""

from __future__ import annotations

from reportlab.lib.units import mm

from toolkit.render import textfit
from toolkit.render.face_units import WORDS_UNITS, printed_units


def test_each_wrap_counts_its_call_besides_its_letters():
    # a 6-letter word in a 60 x 85 mm box from 96 pt: wrapped at every size down to where
    # the word fits its width, each wrap going through 7 letters
    setting = textfit.Setting(96, 3, "regular", "en")
    found = textfit._fit("x0-a1b", 60 * mm, 85 * mm, setting)
    assert found.fits and found.size < 96
    wraps = round((96 - found.size) / textfit.STEP) + 1
    assert wraps > 100
    assert found.work >= len("x0-a1b") + wraps * textfit.WRAP_CALL


def test_a_size_passed_unwrapped_counts_too():
    # a long text in a small box: the large sizes are passed without a wrap, each counted
    setting = textfit.Setting(96, 90, "regular", "en")
    found = textfit._fit("word " * 200, 20 * mm, 10 * mm, setting)
    assert not found.fits
    assert found.work >= 1000 + 25 * textfit.PASSED_SIZE


class _Kind:
    prints: tuple[str, ...] = ()


class _Words(_Kind):
    prints = ("text",)


class _Item:
    def __init__(self, element: object) -> None:
        self.element = element


def test_an_element_printing_words_counts_more_layout_work_than_a_box():
    faces = [_Item(_Kind()), _Item(_Words()), _Item(_Words())]
    assert printed_units(faces) == 1 + 2 * WORDS_UNITS  # type: ignore[arg-type]
    assert WORDS_UNITS > 1
