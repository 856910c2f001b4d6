"""Answers: free text → number or label (:mod:`.parse`), and relaxed correctness, agreement and residuals (:mod:`.relaxed`)."""
