"""Hardening: compiled template bytecode from the cache runs only if it is ours (a private
folder, an HMAC under a 0600 per-user key); a planted entry never runs."""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import stat
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from jinja2 import Environment
from jinja2.bccache import Bucket, BytecodeCache, bc_magic

from toolkit.render import jinja_cache
from toolkit.render.jinja_cache import CachedSandbox

SOURCE = "{{ 6 * 7 }}"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "playset" / "jinja"


def _name(source: str, prefix: str) -> str:
    return f"{prefix}-{hashlib.sha256(source.encode()).hexdigest()[:32]}"


def _evil_bucket(marker: Path, source: str, prefix: str) -> Bucket:
    """Bytecode that writes `marker` when loaded, under the key a sandbox uses for `source`."""
    env = Environment()
    name = _name(source, prefix)
    keys = getattr(jinja_cache, "SignedBytecodeCache", None)
    keyed = keys(Path("."), b"") if keys else BytecodeCache()
    bucket = Bucket(env, keyed.get_cache_key(name, None), "")
    bucket.checksum = BytecodeCache().get_source_checksum(source)
    bucket.code = compile(f"open({str(marker)!r}, 'w').write('ran')", "<evil>", "exec")
    return bucket


def _plant(folder: Path, marker: Path, source: str, prefix: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    bucket = _evil_bucket(marker, source, prefix)
    payload = bucket.bytecode_to_string()
    # Jinja's own file name (the former cache) and ours with a forged MAC
    (folder / f"__jinja2_{bucket.key}.cache").write_bytes(payload)
    (folder / f"{bucket.key}.signed").write_bytes(os.urandom(32) + payload)


def test_a_planted_entry_never_runs(cache, tmp_path):
    marker = tmp_path / "marker"
    _plant(cache, marker, SOURCE, "rulebook")
    try:
        out = CachedSandbox(keep_trailing_newline=True).template(SOURCE, "rulebook").render()
    except KeyError:  # the planted code ran, then the template had no `root` function
        out = None
    assert not marker.exists(), "planted bytecode ran"
    assert out == "42"


def test_a_planted_entry_never_runs_in_a_real_build(tmp_path):
    """End to end: a planted entry for every template a build compiles (known after one
    build in a scratch cache) is refused by the next `playset build`."""
    scratch, target = tmp_path / "scratch", tmp_path / "target"
    env = {**os.environ, "PLAYSET_CACHE": str(scratch)}
    build = [sys.executable, "-m", "toolkit", "build", "drinking-heroes", "--lang", "en"]
    done = subprocess.run([*build, "--out", str(tmp_path / "o1")], env=env, capture_output=True)
    assert done.returncode == 0, done.stderr
    made = scratch / "playset" / "jinja"
    signed = {p.stem: p.read_bytes()[32:] for p in made.glob("*.signed")}
    plain = {p.stem.removeprefix("__jinja2_"): p.read_bytes() for p in made.glob("__jinja2_*")}
    entries = signed or plain
    assert entries, "the build compiled no template through the cache"
    marker = tmp_path / "marker"
    folder = target / "playset" / "jinja"
    folder.mkdir(parents=True)
    evil = compile(f"open({str(marker)!r}, 'w').write('ran')", "<evil>", "exec")
    for key, payload in entries.items():
        stream = BytesIO(payload)
        assert stream.read(len(bc_magic)) == bc_magic
        checksum = pickle.load(stream)
        forged = bc_magic + pickle.dumps(checksum, 2) + marshal.dumps(evil)
        (folder / f"{key}.signed").write_bytes(os.urandom(32) + forged)
        (folder / f"__jinja2_{key}.cache").write_bytes(forged)
    env["PLAYSET_CACHE"] = str(target)
    done = subprocess.run([*build, "--out", str(tmp_path / "o2")], env=env, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


def test_the_cache_is_used_when_it_is_ours(cache, monkeypatch):
    CachedSandbox(keep_trailing_newline=True).template(SOURCE, "layout")
    assert len(list(cache.glob("*.signed"))) == 1
    key = cache / jinja_cache.KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.stat().st_mode) & 0o077 == 0
    fresh = CachedSandbox(keep_trailing_newline=True)

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled although the cache holds it")

    monkeypatch.setattr(fresh.env, "compile", no_compile)
    assert fresh.template(SOURCE, "layout").render() == "42"


@pytest.mark.parametrize("mode", [0o770, 0o777, 0o722])
def test_a_folder_others_may_write_is_not_used(cache, mode):
    cache.mkdir(parents=True)
    cache.chmod(mode)
    assert jinja_cache.cache_dir() is None
    assert CachedSandbox(keep_trailing_newline=True).env.bytecode_cache is None


def test_a_folder_of_another_user_is_not_used(cache):
    if os.getuid() != 0:
        pytest.skip("needs root to give a folder away")
    cache.mkdir(parents=True, mode=0o700)
    os.chown(cache, 65534, 65534)
    assert jinja_cache.cache_dir() is None


def test_a_key_others_may_read_or_a_linked_key_is_not_used(cache, tmp_path):
    assert jinja_cache.bytecode_cache() is not None
    key = cache / jinja_cache.KEY_FILE
    key.chmod(0o644)
    assert jinja_cache.bytecode_cache() is None
    key.unlink()
    elsewhere = tmp_path / "key"
    elsewhere.write_bytes(b"k" * 32)
    elsewhere.chmod(0o600)
    key.symlink_to(elsewhere)
    assert jinja_cache.bytecode_cache() is None
