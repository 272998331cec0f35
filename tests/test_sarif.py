"""SARIF and GitHub annotations as their consumers read them: the official SARIF validator
(Microsoft's SARIF Multitool, with GitHub's ingestion rules) accepts the output for a game in
the current folder, given by absolute path, and in a folder whose name has a space."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case

MULTITOOL = os.environ.get("SARIF_MULTITOOL") or shutil.which("Sarif.Multitool")


def _sarif(run_cli, game: Path, cwd: Path, monkeypatch) -> str:
    monkeypatch.chdir(cwd)
    result = run_cli("validate", str(game), "--format", "sarif")
    assert result.exit_code == 1, result.output
    return result.stdout


def _cases(tmp_path: Path, run_cli, monkeypatch) -> dict[str, str]:
    spaced = build_case(FIXTURES / "broken" / "unknown-field", tmp_path / "sp ace")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return {
        "relative with a space": _sarif(run_cli, Path("sp ace"), tmp_path, monkeypatch),
        "absolute, outside the current folder": _sarif(run_cli, spaced, elsewhere, monkeypatch),
    }


def test_sarif_uris_are_relative_and_encoded_or_absolute_file_uris(tmp_path, run_cli, monkeypatch):
    logs = _cases(tmp_path, run_cli, monkeypatch)
    relative = json.loads(logs["relative with a space"])["runs"][0]
    location = relative["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "sp%20ace/decks/cards.yaml", "uriBaseId": "%SRCROOT%"}
    assert relative["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    absolute = json.loads(logs["absolute, outside the current folder"])["runs"][0]
    uri = absolute["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///") and uri.endswith("/sp%20ace/decks/cards.yaml")
    driver = absolute["tool"]["driver"]
    assert driver["version"]
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"]


@pytest.mark.skipif(MULTITOOL is None, reason="SARIF Multitool not installed (see .ci/run)")
def test_the_official_sarif_validator_accepts_the_output(tmp_path, run_cli, monkeypatch):
    for name, log in _cases(tmp_path, run_cli, monkeypatch).items():
        path = tmp_path / f"{name.split()[0]}.sarif"
        path.write_text(log, encoding="utf-8")
        done = subprocess.run(
            [
                MULTITOOL,
                "validate",
                str(path),
                "--rule-kind",
                "Sarif;Gh",
                "-o",
                str(tmp_path / "out.sarif"),
                "--log",
                "ForceOverwrite",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        errors = [line for line in done.stdout.splitlines() if ": error " in line]
        assert done.returncode == 0 and errors == [], (name, done.stdout)


def test_github_annotations_name_files_relative_to_the_current_folder(
    tmp_path, run_cli, monkeypatch
):
    build_case(FIXTURES / "broken" / "unknown-field", tmp_path / "game")
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    result = run_cli("validate", "../game", "--format", "github")
    assert result.stdout.startswith("::error file=../game/decks/cards.yaml,line="), result.stdout


AZURE = {
    "TF_BUILD": "True",
    "SYSTEM_COLLECTIONURI": "https://dev.azure.com/acme/",
    "SYSTEM_TEAMPROJECT": "games",
    "SYSTEM_DEFINITIONID": "12",
    "BUILD_DEFINITIONNAME": "playset-ci",
    "SYSTEM_PHASEID": "3f1c5b8e-2d4a-4c7e-9b1a-6e2f0d9c8a71",
    "SYSTEM_PHASENAME": "Job",
    "BUILD_SOURCEBRANCH": "refs/heads/main",
    "BUILD_BUILDID": "345",
}


def test_the_driver_says_where_to_learn_about_it_and_the_run_its_category(
    tmp_path, run_cli, monkeypatch
):
    monkeypatch.delenv("TF_BUILD", raising=False)
    run = json.loads(_cases(tmp_path, run_cli, monkeypatch)["relative with a space"])["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["fullName"].startswith("Playset ") and driver["version"] in driver["fullName"]
    assert "://" in driver["informationUri"]
    assert run["automationDetails"] == {"id": "playset/"}
    for key, value in AZURE.items():
        monkeypatch.setenv(key, value)
    run = json.loads(_sarif(run_cli, Path("sp ace"), tmp_path, monkeypatch))["runs"][0]
    details = run["automationDetails"]
    assert details["id"] == (
        "azuredevops/pipeline/build/acme/games/12/3f1c5b8e-2d4a-4c7e-9b1a-6e2f0d9c8a71/"
        "refs/heads/main/345"
    )
    assert details["properties"]["azuredevops/pipeline/build/buildDefinitionName"] == "playset-ci"


@pytest.mark.skipif(MULTITOOL is None, reason="SARIF Multitool not installed (see .ci/run)")
def test_the_validator_with_azure_devops_rules_finds_nothing(tmp_path, run_cli, monkeypatch):
    """No error or warning from the SARIF, GitHub and GitHub Advanced Security for Azure
    DevOps rules (SARIF2005 informationUri, GHAzDO1014 automationDetails, GHAzDO1018
    fullName), in an Azure Pipelines run."""
    for key, value in AZURE.items():
        monkeypatch.setenv(key, value)
    path = tmp_path / "run.sarif"
    path.write_text(_cases(tmp_path, run_cli, monkeypatch)["relative with a space"])
    done = subprocess.run(
        [MULTITOOL, "validate", str(path), "--rule-kind", "Sarif;Gh;Ado"]
        + ["-o", str(tmp_path / "out.sarif"), "--log", "ForceOverwrite"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    found = [
        line for line in done.stdout.splitlines() if ": error " in line or ": warning " in line
    ]
    assert done.returncode == 0 and found == [], done.stdout
