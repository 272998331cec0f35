"""Every card face of the first language of the largest bundled game fits within one
preview revision's budget: when the check's fitting budget was trimmed to 2 M letters, the
preview's fifth of it (400,000) refused seven of the Whisky Game's fronts at a cold start
("no such image"). Counted by resolving and fitting each face, as the preview does before
drawing it, without drawing."""

from __future__ import annotations

from tests.conftest import REPO


def test_the_largest_bundled_game_s_first_page_fits_a_revision_s_budget():
    from toolkit.preview.draw import DrawError, _page
    from toolkit.preview.live import Preview
    from toolkit.render import textfit

    preview = Preview(REPO / "content" / "whisky-game")
    preview.load(check=False)
    lang = preview.first_lang
    faces = [t for t in preview.snap.targets.values() if t.kind == "face" and t.lang == lang]
    assert len(faces) > 200
    textfit.fit.cache_clear()
    refused = []
    for target in faces:
        try:
            _page(preview.shown, target)
        except DrawError as exc:
            refused.append((target.key, str(exc)[:120]))
    assert refused == []
