"""Export and import: one user's memory as JSON lines in domain terms (docs/dump-format.md).

Pure: the records, the writer and the validating reader. The SQL is in ``store.dump_read`` and ``store.dump_write``.
"""

from sodamem.dump.reader import load_dump, parse_dump
from sodamem.dump.records import DUMP_FORMAT, DUMP_VERSION, Dump
from sodamem.dump.writer import dump_lines

__all__ = ["DUMP_FORMAT", "DUMP_VERSION", "Dump", "dump_lines", "load_dump", "parse_dump"]
