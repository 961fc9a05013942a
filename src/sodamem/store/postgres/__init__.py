"""The PostgreSQL backend: ``PostgresStore`` (store.py), its schema and migrations (schema.py), the connection that
runs the portable SQL (connection.py), BM25 from own postings (lexical.py, ranking.py, tokens.py) and pgvector search
(vectors.py)."""
