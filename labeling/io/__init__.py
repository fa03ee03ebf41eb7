"""Import and export of the study's published files (study, identification and label shapes)."""
