"""A non-editable install carries the games, layouts, fonts and schemas (toolkit/bundled)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).parent.parent


def _shipped() -> set[str]:
    """Files the wheel's package-data globs pick up under toolkit/ (links followed)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["toolkit"]
    package = REPO / "toolkit"
    return {
        str(path.relative_to(package / "bundled"))
        for pattern in patterns
        for path in package.glob(pattern)
        if path.is_file()
    }


def test_package_data_covers_every_bundled_file() -> None:
    wanted = {
        str(path.relative_to(REPO))
        for folder in ("content", "templates", "schemas")
        for path in (REPO / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert wanted <= _shipped()
    assert "templates/fonts/OFL.txt" in wanted


def test_installed_layout_finds_bundled_data_and_writes_to_the_current_folder(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    shutil.copytree(REPO / "toolkit", site / "toolkit", symlinks=False)  # links become copies
    work = tmp_path / "work"
    work.mkdir()
    code = (
        "from toolkit.content.game import bundled_games;"
        "from toolkit.home import repo_root, work_folder;"
        "print(repo_root()); print(work_folder()); print(','.join(bundled_games()))"
    )
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=work, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    root, folder, games = done.stdout.split()
    assert Path(root) == site / "toolkit" / "bundled"
    assert Path(folder) == work
    assert games == "drinking-heroes,muckle-stoater,tokaido,whisky-game"
    assert (Path(root) / "templates" / "fonts" / "NotoSans-Regular.ttf").is_file()


def test_wheel_carries_the_licences(tmp_path: Path) -> None:
    """The MIT licence pyproject declares, and the fonts' OFL, travel in the wheel."""
    import zipfile

    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(REPO), "-w", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("playset-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert any(n.endswith("licenses/templates/fonts/OFL.txt") for n in names)
