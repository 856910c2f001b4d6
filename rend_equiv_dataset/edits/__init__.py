"""edits."""
