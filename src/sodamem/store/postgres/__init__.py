"""The PostgreSQL backend (pgvector for vectors, own postings for BM25): work in progress, not yet a ``Store``."""
