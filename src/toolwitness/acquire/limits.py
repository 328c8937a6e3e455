"""Bounds applied to every piece of attacker-controlled input."""

from __future__ import annotations

from toolwitness.plainclass import plainclass

MIB = 1024 * 1024


@plainclass(frozen=True)
class InputLimits:
    max_file_bytes: int = 10 * MIB
    max_depth: int = 64
    max_string_chars: int = 100_000
    max_tools: int = 5_000
    max_items: int = 50_000  # prompts, resources, templates, pages: each list
    max_files: int = 1_000  # files per directory target
