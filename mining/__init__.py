"""ppminer mining: acquire Stack Exchange posts, derive their text, and match keyword candidates."""
