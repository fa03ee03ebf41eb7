"""ppminer labeling: rater sessions, agreement, reconciliation, import/export and analysis queries."""
