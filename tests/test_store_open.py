"""A database path that cannot be opened is a typed error naming the path (CLI: one `error:` line, exit 2)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from sodamem import Memory
from sodamem.cli import main
from sodamem.demo import example_history_path
from sodamem.errors import SodaMemError, StoreOpenError
from sodamem.store.sqlite import SQLiteStore


@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("open") / "real.db"
    with Memory(path, embedder="none", extractor="none") as memory:
        memory.ingest(example_history_path())
    return path


def _text_file(tmp_path: Path, _real: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("Shopping list: eggs, milk, bread.\n" * 50)
    return path


def _directory(tmp_path: Path, _real: Path) -> Path:
    path = tmp_path / "a-directory"
    path.mkdir()
    return path


def _missing_parent(tmp_path: Path, _real: Path) -> Path:
    return tmp_path / "no" / "such" / "dir" / "mem.db"


def _truncated(fraction: float = 0.0, size: int = 0) -> Callable[[Path, Path], Path]:
    """A copy of a real database cut to ``size`` bytes or to ``fraction`` of its length."""

    def make(tmp_path: Path, real: Path) -> Path:
        path = Path(shutil.copy(real, tmp_path / "truncated.db"))
        with path.open("r+b") as handle:
            handle.truncate(size or int(path.stat().st_size * fraction))
        return path

    return make


def _foreign_database(tmp_path: Path, _real: Path) -> Path:
    path = tmp_path / "places.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE bookmarks (url TEXT)")
    conn.commit()
    conn.close()
    return path


BAD_PATHS: list[tuple[str, Callable[[Path, Path], Path], str]] = [
    ("text-file", _text_file, "not an SQLite database"),
    ("directory", _directory, "is a directory"),
    ("missing-parent", _missing_parent, "does not exist"),
    ("truncated-half", _truncated(0.5), "damaged"),
    ("truncated-to-a-page", _truncated(size=4096), "damaged"),
    ("foreign-database", _foreign_database, "without SodaMem's tables"),
]


@pytest.mark.parametrize(("make", "reason"), [pytest.param(c[1], c[2], id=c[0]) for c in BAD_PATHS])
def test_store_raises_a_typed_error_naming_the_path(
    tmp_path: Path, real_db: Path, make: Callable[[Path, Path], Path], reason: str
) -> None:
    path = make(tmp_path, real_db)
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(StoreOpenError) as info:
        SQLiteStore(path)
    assert str(path) in str(info.value) and reason in str(info.value)
    with pytest.raises(StoreOpenError):
        Memory(path)
    assert isinstance(info.value, SodaMemError)
    if before is not None:
        assert path.read_bytes() == before  # nothing written into what was there
    assert not (tmp_path / "no").exists()  # no directory made for a missing parent


@pytest.mark.parametrize("command", [["stats"], ["check"], ["search", "Lisbon"], ["show", "session", "s01"]])
@pytest.mark.parametrize(("make", "reason"), [pytest.param(c[1], c[2], id=c[0]) for c in BAD_PATHS])
def test_cli_prints_one_error_line_and_exits_2(
    tmp_path: Path,
    real_db: Path,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Path, Path], Path],
    reason: str,
    command: list[str],
) -> None:
    path = make(tmp_path, real_db)
    with pytest.raises(SystemExit) as info:
        main(["--db", str(path), *command])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error:") and str(path) in lines[0] and reason in lines[0]
    assert "Traceback" not in out + err


def test_cli_ingest_into_an_unopenable_db_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _text_file(tmp_path, tmp_path)
    with pytest.raises(SystemExit) as info:
        main(["--db", str(path), "ingest", str(example_history_path())])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and str(path) in err and len(err.splitlines()) == 1


def test_a_zero_byte_file_is_an_empty_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with Memory(path, embedder="none") as memory:
        assert memory.stats(all_users=True) == []
        memory.ingest(example_history_path())
        assert memory.check().ok
    with Memory(path, embedder="none") as memory:
        assert memory.stats()[0].sessions == 11


def test_a_real_database_and_a_new_path_open(tmp_path: Path, real_db: Path) -> None:
    with Memory(real_db, embedder="none") as memory:
        assert memory.stats()[0].sessions == 11
    with Memory(tmp_path / "new.db", embedder="none") as memory:
        assert [(s.user, s.sessions) for s in memory.stats()] == [("default", 0)]
