"""Acquisition from a Stack Exchange data dump: the streaming Posts.xml reader, dump rows, the resumable importer."""
