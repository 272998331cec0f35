"""SOURCE_DATE_EPOCH, as reproducible builds set it: the date written into PDFs (reportlab
reads the variable itself) and PO headers, instead of the clock's."""

from __future__ import annotations

import os
import re

LATEST = 253_402_300_799
"""9999-12-31 23:59:59 UTC: the last second `time.gmtime` turns into a four-digit year."""


def source_date_epoch() -> int | None:
    """The variable's whole number of seconds since 1970-01-01 UTC (None: unset or empty).
    Raises ValueError, naming the variable, for anything else: reportlab's `int()` of it
    failed inside the checks that draw (`²`, `12x`) or passed what `gmtime` cannot take."""
    given = os.environ.get("SOURCE_DATE_EPOCH")
    if given is None or not given.strip():
        return None
    text = given.strip()
    if re.fullmatch(r"[0-9]{1,12}", text, flags=re.ASCII) and int(text) <= LATEST:
        return int(text)
    raise ValueError(
        f"SOURCE_DATE_EPOCH={given!r} is not a whole number of seconds since 1970-01-01 UTC"
        f" (0 to {LATEST}, digits 0-9 only): set it so (reproducible builds use the last"
        " change's time, e.g. `git log -1 --format=%ct`) or unset it"
    )
