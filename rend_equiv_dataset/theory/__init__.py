"""theory."""
