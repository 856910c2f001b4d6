"""Candidate solutions: read from files (:mod:`.read`) or mutated from canonical solutions (:mod:`.mutants`)."""
