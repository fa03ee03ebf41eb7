"""The Textual apps raters work in (identify, classify, reconcile) and the widgets they share."""
