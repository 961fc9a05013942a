"""Prompts as pure functions, each beside the pydantic schema of its output."""
