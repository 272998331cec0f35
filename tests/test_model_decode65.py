"""A kept model read back (toolkit.content.model_units) works out each shape of model once a
read, not once a model: its class, field names and fields set are checked for the first model
of that class and fields set, and every other such model is made from what was found."""

from __future__ import annotations

import marshal

import pytest

from tests.test_model_units import _same
from toolkit.content import model_units
from toolkit.content.plugin import plugin_for


def _glossary(terms: int) -> object:
    from toolkit.content.models.glossary import Glossary

    return Glossary.model_validate(
        {"terms": [{"id": f"term-{n}", "text": {"en": f"term {n}"}} for n in range(terms)]}
    )


def test_each_shape_is_looked_up_once_a_read(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = plugin_for(None)
    glossary = _glossary(40)
    payload = model_units.encoded(glossary, plugin)
    looked: list[object] = []
    real = model_units._Decoder.cls

    def counting(self: model_units._Decoder, place: object) -> type:
        looked.append(place)
        return real(self, place)

    monkeypatch.setattr(model_units._Decoder, "cls", counting)
    back = model_units.decoded(payload, plugin)
    _same(glossary, back)
    assert len(looked) == 2  # the glossary's class and its terms', not once a term


def test_models_of_one_class_with_other_fields_set_keep_their_own() -> None:
    """Two models of one class, one given a field the other leaves at its default: each is
    read back with its own fields set, and neither shares the other's set."""
    from toolkit.content.models.glossary import Glossary

    plugin = plugin_for(None)
    glossary = Glossary.model_validate(
        {
            "terms": [
                {"id": "a", "text": {"en": "a"}},
                {"id": "b", "text": {"en": "b"}, "keep": True},
                {"id": "c", "text": {"en": "c"}},
            ]
        }
    )
    back = model_units.decoded(model_units.encoded(glossary, plugin), plugin)
    _same(glossary, back)
    first, second, third = back.terms  # type: ignore[attr-defined]
    assert first.model_fields_set != second.model_fields_set
    assert first.model_fields_set == third.model_fields_set
    assert first.model_fields_set is not third.model_fields_set


def test_a_place_or_fields_set_of_another_kind_is_refused() -> None:
    plugin = plugin_for(None)
    for node in (
        ("m", ["class", "toolkit.content.models.glossary", "Glossary"], (), (), ()),
        ("m", ("class", "toolkit.content.models.glossary", "Glossary"), ["terms"], (), ()),
        ("m", ("class", "toolkit.content.models.glossary", "Glossary"), ("nothing",), (), ()),
    ):
        with pytest.raises(ValueError):
            model_units.decoded(marshal.dumps(node), plugin)
