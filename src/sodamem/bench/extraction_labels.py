"""Hand labels of extracted facts, and the precision they give a run of ``bench extract``.

``bench extract --facts-out FILE`` writes every grounded fact of a run as one JSON line (``FactRecord``); a person
reads each against its turn and adds ``label`` ("correct" / "incorrect") and a short ``reason``. A labels file
(``tests/data/extraction_labels_*.jsonl``) holds such lines for any extractors; ``bench extract --labels FILE``
matches them to the run's facts by extractor, turn, quote and fact text, and reports the precision of the matched
ones (and how many labels matched nothing: a changed extractor or prompt makes other facts, which need new labels).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sodamem.errors import InputError

LABELS = ("correct", "incorrect")


@dataclass(frozen=True, slots=True)
class FactRecord:
    """One grounded fact of a run, as ``--facts-out`` writes it."""

    extractor: str
    session: str
    turn: str  # the turn's id (a LoCoMo dia_id such as "D1:3")
    speaker: str
    turn_text: str
    quote: str
    fact: str  # the candidate's statement ("Caroline went_to LGBTQ support group" or its own text)
    kind: str
    time_expression: str | None
    occurred: str | None  # the resolved time's start (ISO), if any

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.extractor, self.turn, self.quote, self.fact)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)


class FactLabel(BaseModel):
    """One hand-labelled fact (a ``FactRecord``'s identifying fields, the label and why)."""

    model_config = ConfigDict(extra="ignore")

    extractor: str = Field(min_length=1)
    conversation: str = Field(min_length=1)
    turn: str = Field(min_length=1)
    quote: str = Field(min_length=1)
    fact: str = Field(min_length=1)
    label: Literal["correct", "incorrect"]
    reason: str = Field(min_length=3)

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.extractor, self.turn, self.quote, self.fact)


@dataclass(frozen=True, slots=True)
class LabelScore:
    labelled: int  # labels of this extractor that matched a fact of the run
    correct: int
    unmatched: int  # labels of this extractor that matched no fact of the run

    @property
    def precision(self) -> float | None:
        return self.correct / self.labelled if self.labelled else None


def read_labels(path: str | Path) -> list[FactLabel]:
    """Every line of a labels file, validated; ``InputError`` naming the line otherwise."""
    path = Path(path)
    labels = []
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read the labels: {exc.strerror or exc}", file=str(path)) from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            labels.append(FactLabel.model_validate_json(line))
        except ValueError as exc:
            raise InputError(f"line {number} is not a fact label: {exc}", file=str(path)) from None
    return labels


def score_labels(labels: Sequence[FactLabel], records: Iterable[FactRecord], extractor: str) -> LabelScore:
    """The precision of the run's facts that carry a label (one label per fact; a repeated label counts once)."""
    produced = {r.key for r in records if r.extractor == extractor}
    mine = {label.key: label for label in labels if label.extractor == extractor}
    matched = [label for key, label in mine.items() if key in produced]
    return LabelScore(
        labelled=len(matched),
        correct=sum(label.label == "correct" for label in matched),
        unmatched=len(mine) - len(matched),
    )
