"""Allow `python -m toolkit`.

`-m` puts the current folder first on `sys.path`: run inside a game folder, a `typer.py`
or `pydantic.py` there was imported, its code run by `validate`. The toolkit imports
nothing from the current folder, so it comes off the path before anything else is imported
(a `toolkit/` folder there would be found first all the same: `python -P -m toolkit` is
safe from that too).
"""

import os
import sys

if sys.path and not sys.flags.safe_path:
    _here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    _first = os.path.abspath(sys.path[0] or os.curdir)
    if _first == os.path.abspath(os.curdir) and _first != _here:
        del sys.path[0]  # the current folder; kept when it is the checkout holding toolkit

from toolkit.cli import main  # noqa: E402

main()
