"""Keyword matching: tokenizer and stem cache, keyword sets, the matcher, the study's selection, the match run,
candidate listings and explanations."""
