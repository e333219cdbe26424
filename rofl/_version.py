"""rofl's version, where every layer may read it (the HTML page names it)."""

__version__ = "0.1.0"
