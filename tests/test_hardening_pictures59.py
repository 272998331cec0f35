"""A picture's decode is priced by what it holds (probe 52-9, 52-10): a progressive JPEG's
scans each run over the whole picture (five of 40 M pixels and 100 scans: validate 7.2 s,
`export png` 11.7 s), and only the bytes of a file's pixel data pay for its pixels (a
private PNG chunk of zeros paid for five flat 40 M-pixel pictures: `build` 8.8 s)."""

from __future__ import annotations

import io

from PIL import Image

from toolkit.render import pictures


def _progressive(side: int, repeats: int = 0) -> bytes:
    """A flat grey progressive JPEG, its last scan repeated `repeats` more times (libjpeg
    decodes each, with a warning)."""
    image = Image.new("L", (side, side), 128)
    image.paste(40, (0, 0, 16, 16))
    out = io.BytesIO()
    image.save(out, "JPEG", progressive=True, quality=90)
    data = out.getvalue()
    end = data.rindex(b"\xff\xd9")
    last = data.rindex(b"\xff\xda")
    return data[:end] + data[last:end] * repeats + b"\xff\xd9"


def test_a_jpeg_of_many_scans_over_many_pixels_is_refused():
    usual = _progressive(2_400)  # 5.76 M pixels, Pillow's ~10 scans
    assert 5 <= pictures.jpeg_scans(usual) <= 12
    assert pictures._data_problem(usual) is None
    many = _progressive(2_400, repeats=85)  # under the 100-scan bound, ~90 × 5.76 M
    assert pictures.jpeg_scans(many) <= pictures.MAX_JPEG_SCANS
    problem = pictures._data_problem(many)
    assert problem is not None and "progressive JPEG of" in problem, problem
    assert "over 5,760,000 pixels" in problem
    small = _progressive(600, repeats=85)  # the same scans over 0.36 M pixels: cheap
    assert pictures._data_problem(small) is None


def test_only_a_pictures_pixel_data_pays_for_its_pixels():
    flat = io.BytesIO()
    Image.new("RGB", (3000, 3000), (200, 40, 40)).save(flat, "PNG")
    data = flat.getvalue()
    iend = data.rindex(b"IEND") - 4
    padding = b"\0" * 50_000
    chunk = len(padding).to_bytes(4, "big") + b"prVt" + padding + b"\0\0\0\0"
    padded = data[:iend] + chunk + data[iend:]
    Image.open(io.BytesIO(padded)).load()  # still a picture Pillow reads
    assert pictures.paid_bytes(padded) == pictures.paid_bytes(data) < len(data)
    jpeg = _progressive(400)
    comment = b"\xff\xfe" + (65_535).to_bytes(2, "big") + b"x" * 65_533
    commented = jpeg[:2] + comment + jpeg[2:]
    assert pictures.paid_bytes(commented) == pictures.paid_bytes(jpeg) < len(jpeg)


def test_padding_in_a_webp_a_gif_or_past_a_pngs_end_pays_for_nothing():
    # probe 54-4: an unknown RIFF chunk, bytes after a GIF's end, an IDAT chunk after a
    # PNG's IEND paid for five flat 40 M-pixel pictures (`build` 5.6 s + 4.6 s of system)
    picture = Image.new("RGB", (400, 400), (200, 40, 40))
    padding = b"\0" * 50_000
    webp, gif, png = io.BytesIO(), io.BytesIO(), io.BytesIO()
    picture.save(webp, "WEBP", lossless=True)
    picture.convert("P").save(gif, "GIF")
    picture.save(png, "PNG")
    plain = webp.getvalue()
    chunk = b"XTRA" + len(padding).to_bytes(4, "little") + padding
    padded = b"RIFF" + (len(plain) - 8 + len(chunk)).to_bytes(4, "little") + plain[8:] + chunk
    assert Image.open(io.BytesIO(padded)).size == (400, 400)
    assert pictures.paid_bytes(padded) == pictures.paid_bytes(plain) < len(plain)
    plain = gif.getvalue()
    assert pictures.paid_bytes(plain + padding) == pictures.paid_bytes(plain) < len(plain)
    comment = b"\x21\xfe" + (b"\xff" + b"c" * 255) * 100 + b"\0"  # a comment extension
    commented = plain[:-1] + comment + plain[-1:]
    assert pictures.paid_bytes(commented) == pictures.paid_bytes(plain)
    plain = png.getvalue()
    idat = len(padding).to_bytes(4, "big") + b"IDAT" + padding + b"\0\0\0\0"
    assert pictures.paid_bytes(plain + idat) == pictures.paid_bytes(plain) < len(plain)
