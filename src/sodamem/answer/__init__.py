"""Answering questions from the memory, every claim cited."""
