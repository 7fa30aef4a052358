"""``eywa keys create|list|revoke`` against a temporary key file."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app
from eywa.stores.embedded.keys import SqliteKeyStore


def test_keys_create_prints_the_key_once_and_revoke_disables_it(tmp_path: Path) -> None:
    runner = CliRunner()
    created = runner.invoke(app, ["keys", "create", "--space", "a", "--space", "b", "--scope", "read,write",
                                  "--data-dir", str(tmp_path)])
    assert created.exit_code == 0, created.output
    secret = created.stdout.strip()
    assert secret.startswith("eyw_")
    store = SqliteKeyStore(tmp_path / "keys.sqlite")
    key = store.authenticate(secret)
    assert key is not None and key.spaces == ("a", "b") and key.scopes == ("read", "write")
    assert secret.split("_", 2)[2] not in (tmp_path / "keys.sqlite").read_bytes().decode("latin-1")
    listed = runner.invoke(app, ["keys", "list", "--data-dir", str(tmp_path)])
    assert listed.stdout.startswith(key.id) and "eyw_" not in listed.stdout
    revoked = runner.invoke(app, ["keys", "revoke", key.id, "--data-dir", str(tmp_path)])
    assert revoked.exit_code == 0
    assert store.authenticate(secret) is None
    bad = runner.invoke(app, ["keys", "create", "--space", "a", "--scope", "root", "--data-dir", str(tmp_path)])
    assert bad.exit_code == 1 and "scopes" in bad.stderr
    store.close()


def test_keys_list_says_when_there_are_none_and_creates_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = tmp_path / "typo"
    absent = runner.invoke(app, ["keys", "list", "--data-dir", str(missing)])
    assert absent.exit_code == 0 and absent.stdout == ""
    assert f"no key file at {missing / 'keys.sqlite'}" in absent.stderr
    assert not missing.exists()  # a mistyped directory is not created
    created = runner.invoke(app, ["keys", "create", "--space", "a", "--scope", "read", "--data-dir", str(tmp_path)])
    assert created.exit_code == 0, created.output
    key_id = created.stdout.strip().split("_")[1]
    assert runner.invoke(app, ["keys", "revoke", key_id, "--data-dir", str(tmp_path)]).exit_code == 0
    listed = runner.invoke(app, ["keys", "list", "--data-dir", str(tmp_path)])
    assert listed.stdout.startswith(key_id) and "no keys" not in listed.stderr  # revoked keys are listed


def test_revoke_and_rotate_on_a_mistyped_directory_say_not_found_and_create_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = tmp_path / "typo"
    for command in (["keys", "revoke", "k1"], ["keys", "rotate", "k1", "--grace", "0s"]):
        result = runner.invoke(app, [*command, "--data-dir", str(missing)])
        assert result.exit_code == 1, result.output
        assert "api key 'k1' not found" in result.stderr and "[not_found]" in result.stderr, result.stderr
        assert not missing.exists(), command  # neither the directory nor a key file is made
